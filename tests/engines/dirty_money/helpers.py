"""Helpers for dirty_money tests: start games, build positions, apply actions."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

from games.engines.base import SYSTEM, DecideContext, Event
from games.engines.dirty_money import RULES
from games.engines.dirty_money.state import CHOOSE, LOCATION, State

NOW = 1_000_000.0


def ctx(seed: int = 0, now: float = NOW) -> DecideContext:
    return DecideContext(random.Random(seed), now)


def act(state: State, seat: int, payload: dict[str, Any], seed: int = 0, now: float = NOW) -> tuple[State, list[Event]]:
    """Parse (after a JSON round trip), decide and evolve one action."""
    action = RULES.parse_action(json.loads(json.dumps(payload)))
    events = RULES.decide(state, seat, action, ctx(seed, now))
    for event in events:
        state = RULES.evolve(state, event)
    return state, events


def started(players: int = 3, seed: int = 1, **options: Any) -> State:
    """A started game, past the Bear's choice (1/1/1) if the Bear is in play."""
    state = RULES.initial(players, {"time_limit": 60, **options})
    state, _ = act(state, SYSTEM, {"type": "start"}, seed)
    if state.phase == "bear":
        bear = state.villains.index("V4-BEAR")
        state, _ = act(state, bear, {"type": "choose_bear_stock", "EU": 1, "US": 1, "JP": 1}, seed + 1)
    return state


def position(
    players: int = 3,
    villains: tuple[str, ...] | None = None,
    hands: dict[int, list[str]] | None = None,
    rows: dict[str, list[str]] | None = None,
    **fields: Any,
) -> State:
    """A constructed position: seat 0 to choose a location in round 1 (order 0, 1, ...).

    Cards not mentioned stay where the start put them, so a card may exist twice: tests that
    need the R-5 invariant use real playouts instead.
    """
    state = started(players)
    if villains is None:
        villains = ("V2-RAT", "V3-FOX", "V4-BEAR", "V5-SHARK", "V1-LAUNDERER")[:players]
    new_hands = list(state.hands)
    for seat, cards in (hands or {}).items():
        new_hands[seat] = tuple(cards)
    new_rows = list(state.rows)
    for loc, cards in (rows or {}).items():
        new_rows[state.locations.index(loc)] = tuple(cards)
    state = replace(
        state,
        villains=villains,
        hands=tuple(new_hands),
        rows=tuple(new_rows),
        order=tuple(range(players)),
        turn=0,
        marker=0,
        step=CHOOSE,
        since=NOW,
    )
    return replace(state, **fields)


def at_location(state: State, location: str, **fields: Any) -> State:
    """The same position with seat 0 already at ``location`` (T-4), nothing pending."""
    return replace(state, location=location, step=LOCATION, **fields)


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def of_type(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.type == kind]


def pending(state: State, *cards: str) -> State:
    """Seat 0 at Europe with these action cards to resolve (T-3)."""
    return replace(state, location="LOC-EU", step="actions", pending=cards)
