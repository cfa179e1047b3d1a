"""A simple, legal, not-silly bot.

The platform calls ``bot_action`` for a seat it is waiting on (the seat is in some
``Deadline.seats``) and that is an actor. The bot only ever returns one of
``legal_actions(state, seat)``, and heist's legality depends on the state alone, never on the
clock (R-80: time passing is a SYSTEM action), so ``decide`` accepts the bot's action whatever
``ctx.now`` is when it arrives. When waited on, it answers the decision being waited for:
a choice (planning), a name (naming), an answer to an offer addressed to it, or a
withdraw/commit for its undecided hands (negotiation).
"""

from __future__ import annotations

import random
from typing import Any

from ..base import Action
from .state import NAMING, NEGOTIATION, PLANNING, State


def choose(state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
    if state.phase == PLANNING:
        action = _plan(state, seat, legal, rng)
    elif state.phase == NAMING:
        action = _name(state, seat, legal, rng)
    elif state.phase == NEGOTIATION:
        action = _negotiate(state, seat, legal, rng)
    else:
        action = dict(rng.choice(legal))
    # Never anything but a listed action: those are exactly the ones decide accepts.
    return action if action in legal else dict(legal[0])


def _plan(state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
    # Avoid the role its own last choice used, to be less predictable; otherwise random.
    last = set(state.choices[seat]) if seat < len(state.choices) else set()
    fresh = [a for a in legal if not last.intersection(a.get("roles", []))]
    return dict(rng.choice(fresh or legal))


def _name(state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
    mine = {h.role for h in state.hands_of(seat)}
    # Prefer a role shown more than once (likely several stayers), never its own other hand.
    scored: list[tuple[int, float, Action]] = []
    for action in legal:
        role = action.get("role")
        if role in mine:
            continue
        scored.append((state.pool.count(str(role)), rng.random(), action))
    if scored:
        return dict(max(scored, key=lambda x: (x[0], x[1]))[2])
    return dict(rng.choice(legal))


def _wants(state: State, seat: int, offer_id: int) -> bool:
    """Accept offers that pay it (and whose clause does not cost a likely winner)."""
    offer = state.offer(offer_id)
    if offer is None or offer.payee != seat:
        return False  # the bot never pays
    if not offer.clause:
        return True
    hand = state.hand(seat, offer.clause)
    return offer.amount >= 2 or (hand is not None and state.pool.count(hand.role) >= 2)


def _negotiate(state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
    by_type: dict[str, list[Action]] = {}
    for action in legal:
        by_type.setdefault(str(action["type"]), []).append(action)
    # First answer the offers addressed to it (an open offer waits on its counterparty).
    for action in by_type.get("accept", []):
        if _wants(state, seat, int(action["offer"])):
            return dict(action)
    if "decline" in by_type:
        return dict(by_type["decline"][0])
    # Withdraw a hand whose role is visibly duplicated.
    for action in by_type.get("withdraw", []):
        hand = state.hand(seat, int(action["slot"]))
        if hand is not None and state.pool.count(hand.role) >= 2:
            return dict(action)
    if "commit" in by_type:
        return dict(by_type["commit"][0])
    if "cancel" in by_type:
        return dict(by_type["cancel"][0])
    if "roll_call" in by_type:
        return dict(by_type["roll_call"][0])
    return dict(_any(legal, rng))


def _any(legal: list[Action], rng: random.Random) -> dict[str, Any]:
    quiet = [a for a in legal if a["type"] not in ("offer",)]
    return dict(rng.choice(quiet or legal))
