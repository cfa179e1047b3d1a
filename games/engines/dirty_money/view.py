"""``view``: what one seat (None: a spectator) may see (section 8)."""

from __future__ import annotations

from typing import Any

from ..base import Deadline
from .cards import CURRENCY_OF, PLACEMENTS, RAT_SLOT, REGIONS, SHARK, is_dirty, value_to
from .payment import amount_due, eligible
from .scoring import final_scores
from .state import OVER, State


def _seat_public(state: State, seat: int) -> dict[str, Any]:
    """8.1: what everyone sees of a player: counts, never the hidden cards."""
    tokens: dict[str, int] = {}
    for holder, _card in state.tokens[seat]:
        if holder != RAT_SLOT:
            tokens[holder] = tokens.get(holder, 0) + 1
    return {
        "seat": seat,
        "villain": state.villains[seat] if state.villains else None,
        "hand_size": len(state.hands[seat]),
        "hand_limit": state.limit(seat),
        "blacklist": state.blacklist_points(seat),
        "tableau": list(state.tableaux[seat]),
        "tokens": tokens,
        "overpay": state.token_count(seat, RAT_SLOT),
        "resigned": state.resigned[seat],
    }


def view(
    state: State,
    seat: int | None,
    kind: str,
    seats: tuple[int, ...],
    deadlines: list[Deadline],
) -> dict[str, Any]:
    over = state.phase == OVER
    me = seat if seat is not None and 0 <= seat < state.players else None
    started = bool(state.villains)
    out: dict[str, Any] = {
        "players": state.players,
        "seat": me,
        "phase": state.phase,
        "options": {"quick": state.quick, "choice": state.choice, "pace": state.pace},
        "target": state.target,
        "round": state.round,
        "order": list(state.order),
        "turn_seat": state.active if state.order and state.turn < len(state.order) else None,
        "marker_seat": state.marker,
        "last_seat": state.last_player,
        "final_round": state.final,
        "decision": {
            "kind": kind,
            "seats": list(seats),
            "due": min((d.due for d in deadlines), default=None),
        },
        "locations": [
            {
                "id": loc,
                "row": list(state.rows[i]),
                "display": list(state.displays[REGIONS.index(loc[4:])]) if loc[4:] in REGIONS else [],
            }
            for i, loc in enumerate(state.locations)
        ],
        "auction": [c for c in state.auction if c],
        "bear_stock": list(state.stock),
        "deck_size": len(state.deck),
        "discard_size": len(state.discard),
        "discard_top": state.discard[-1] if state.discard else None,
        "placement_deck_sizes": {r: len(state.pdecks[i]) for i, r in enumerate(REGIONS)},
        "location": state.location or None,
        "step": state.step,
        "pending": list(state.pending),
        "resolving": state.resolving or None,
        "trade_target_seat": state.trade_target if state.trade_target >= 0 else None,
        "gallery_left": state.gallery_left,
        "bought": state.bought,
        "shark_used": state.shark_used,
        "banana_done": state.banana_done,
        "trim": [{"seat": p, "excess": len(state.hands[p]) - state.limit(p)} for p in state.trim],
        "seats": [_seat_public(state, p) for p in range(state.players)] if started else [],
    }
    if me is not None and started:
        hand = sorted(state.hands[me])
        villain = state.villains[me]
        out["hand"] = hand
        out["hand_values"] = {c: value_to(c, villain) for c in hand}
        out["dirty_count"] = sum(1 for c in hand if is_dirty(c))
        if state.trade_target >= 0 and me == state.active:  # the actor looks at the target's hand
            out["trade_hand"] = sorted(state.hands[state.trade_target])
        if state.drawn and me == state.active:  # the Launderer's drawn card
            out["launder_drawn"] = state.drawn
        if kind == "location_action" and me == state.active:
            out["purchase"] = _purchase(state, me)
    if over:  # every hand is revealed; the scoring components
        out["hands"] = [sorted(h) for h in state.hands]
        out["scores"] = final_scores(state)
        out["money_history"] = [list(h) for h in state.history]
    return out


def _purchase(state: State, seat: int) -> dict[str, Any]:
    """Enough for a payment picker: each card's amount due and which hand cards may pay it."""
    from .rules import purchase_options  # local: rules imports this module

    villain = state.villains[seat]
    options: list[dict[str, Any]] = []
    for cards, due in purchase_options(state, seat):
        region = PLACEMENTS[cards[0]].region
        options.append(
            {
                "cards": cards,
                "due": due,
                "currency": CURRENCY_OF[region],
                "eligible": sorted(c for c in state.hands[seat] if eligible(c, region)),
            }
        )
    return {
        "options": options,
        "shark_available": villain == SHARK and not state.shark_used,  # any one card counts 2
        "max_more": max(0, (2 if state.location[4:] in REGIONS else 1) - state.bought),
        "rule": "no_surplus",  # total >= due and every card needed
        "unit_costs": {c: amount_due([c], state.tableaux[seat]) for opt in options for c in opt["cards"]},
    }
