"""A bot that plays legal, sensible turns: collect well, pay cheaply, buy when it can."""

from __future__ import annotations

import random

from ..base import Action
from .cards import ART, PLACEMENTS, SHARK, is_action, is_dirty, value_to
from .payment import cheapest_payment
from .state import State


def _row_worth(state: State, seat: int, row: tuple[str, ...]) -> float:
    villain = state.villains[seat]
    worth = 0.0
    room = state.limit(seat) - len(state.hands[seat])
    money = [c for c in row if not is_action(c)]
    worth += sum(value_to(c, villain) - (1.5 if is_dirty(c) else 0) for c in money)
    worth += 2 * sum(1 for c in row if is_action(c))
    overflow = max(0, len(money) - room)
    return worth - 4 * overflow


def _placement_worth(card: str, state: State, seat: int) -> float:
    p = PLACEMENTS[card]
    worth = p.points + 1.0
    if p.type == ART:
        arts = sum(1 for t in state.tableaux[seat] if PLACEMENTS[t].type == ART)
        worth += [2, 3, 4, 5, 6][arts % 5]
    return worth


def choose(state: State, seat: int, kind: str, rng: random.Random) -> Action:
    from .rules import (  # local: rules imports this module
        choosable_locations,
        default_actions,
        legal_purchase,
        lowest_cards,
    )

    if kind == "choose_location":
        options = choosable_locations(state)
        best = max(options, key=lambda loc: (_row_worth(state, seat, state.row(loc)), rng.random()))
        return {"type": "choose_location", "location": best}
    if kind == "blacklist_cards":
        excess = len(state.hands[seat]) - state.limit(seat)
        # shed dirty cards first (they draw audits), then the least valuable
        ranked = sorted(state.hands[seat], key=lambda c: (not is_dirty(c), value_to(c, state.villains[seat]), c))
        return {"type": "blacklist_cards", "cards": ranked[:excess] or lowest_cards(state, seat, excess)}
    if kind == "location_action":
        purchase = legal_purchase(state, seat, _placement_worth)
        if purchase is not None:
            return purchase
        if state.location == "LOC-BR" and not state.banana_done:
            return {"type": "banana_republic"}
        return {"type": "end_location_action"}
    if kind == "launder":
        dirty = any(is_dirty(c) for c in state.hands[seat])
        return {"type": "launder", "use": dirty or len(state.hands[seat]) > 0}
    if kind == "launder_discard":
        villain = state.villains[seat]
        worst = min(state.hands[seat], key=lambda c: (not is_dirty(c), value_to(c, villain), c))
        return {"type": "launder_discard", "card": worst}
    if kind == "gallery_draw":
        room = len(state.hands[seat]) < state.limit(seat)
        return {"type": "gallery_draw", "draw": room}
    return default_actions(state, seat)[0]


__all__ = ["SHARK", "cheapest_payment", "choose"]
