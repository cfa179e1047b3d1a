"""A simple, legal, not-silly bot."""

from __future__ import annotations

import random
from typing import Any

from ..base import Action
from .state import NAMING, NEGOTIATION, PLANNING, State


def choose(state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
    if state.phase == PLANNING:
        return _plan(state, seat, legal, rng)
    if state.phase == NAMING:
        return _name(state, seat, legal, rng)
    if state.phase == NEGOTIATION:
        return _negotiate(state, seat, legal, rng)
    return dict(rng.choice(legal))


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


def _negotiate(state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
    by_type: dict[str, list[Action]] = {}
    for action in legal:
        by_type.setdefault(str(action["type"]), []).append(action)
    # Accept offers that pay it (and whose clause does not cost a likely winner).
    for action in by_type.get("accept", []):
        offer = state.offer(int(action["offer"]))
        if offer is None:
            continue
        if offer.payee == seat:
            if not offer.clause:
                return dict(action)
            hand = state.hand(seat, offer.clause)
            if offer.amount >= 2 or (hand is not None and state.pool.count(hand.role) >= 2):
                return dict(action)
    for action in by_type.get("decline", []):
        offer = state.offer(int(action["offer"]))
        if offer is not None and offer.payer == seat:
            return dict(action)
    # Withdraw a hand whose role is visibly duplicated.
    for action in by_type.get("withdraw", []):
        hand = state.hand(seat, int(action["slot"]))
        if hand is not None and state.pool.count(hand.role) >= 2:
            return dict(action)
    if "commit" in by_type:
        return dict(by_type["commit"][0])
    for kind in ("cancel", "decline"):
        if kind in by_type:
            return dict(by_type[kind][0])
    safe = [a for a in legal if a["type"] in ("roll_call",)]
    if safe:
        return dict(safe[0])
    return dict(_any(legal, rng))


def _any(legal: list[Action], rng: random.Random) -> dict[str, Any]:
    quiet = [a for a in legal if a["type"] not in ("offer",)]
    return dict(rng.choice(quiet or legal))
