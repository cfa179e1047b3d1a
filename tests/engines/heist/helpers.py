"""Helpers for heist engine tests: build states directly (R-72) and drive actions."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from games.engines.base import SYSTEM, DecideContext, Event
from games.engines.heist import RULES
from games.engines.heist.constants import LOOT, REVEAL_ORDER
from games.engines.heist.state import NEGOTIATION, PLANNING, Hand, State

T = 60
NOW = 1000.0


def ctx(now: float = NOW, seed: int | str = 0) -> DecideContext:
    return DecideContext(random.Random(seed), now)


def act(
    state: State, seat: int, payload: dict[str, Any], now: float = NOW, seed: int | str = 0
) -> tuple[State, list[Event]]:
    action = RULES.parse_action(payload)
    events = RULES.decide(state, seat, action, ctx(now, seed))
    for event in events:
        state = RULES.evolve(state, event)
    return state, events


def run(state: State, steps: Iterable[tuple[int, dict[str, Any]]], now: float = NOW) -> tuple[State, list[Event]]:
    out: list[Event] = []
    for seat, payload in steps:
        state, events = act(state, seat, payload, now)
        out.extend(events)
    return state, out


def types(events: Sequence[Event]) -> list[str]:
    return [e.type for e in events]


def started(players: int, seed: int | str = 0, **options: Any) -> tuple[State, list[Event]]:
    opts = {"time_limit": T, **options}
    state = RULES.initial(players, opts)
    return act(state, SYSTEM, {"type": "start"}, seed=seed)


def first_heist(players: int, phase: str, loot: str, deck: Sequence[str], **changes: Any) -> State:
    """A state of heist 1 in ``phase``, with ``loot`` on the table and ``deck`` still to come (R-72)."""
    state = RULES.initial(players, {"time_limit": T})
    return replace(state, phase=phase, heist=1, loot=loot, deck=tuple(deck), **changes)


def planning_state(
    players: int,
    loot: str = "L01",
    deck: Sequence[str] = ("L02", "L03", "L04", "L05", "L06", "L07", "L08"),
    balances: Sequence[int] | None = None,
    **kw: Any,
) -> State:
    """A state at the start of planning of heist 1 with the given loot card (R-72)."""
    state = first_heist(players, PLANNING, loot, deck, planning_at=NOW, **kw)
    return state if balances is None else replace(state, balances=tuple(balances))


def negotiation_state(
    roles: Sequence[Sequence[str] | str],
    loot: str = "L01",
    balances: Sequence[int] | None = None,
    set_aside: int = -1,
    deck: Sequence[str] = ("L02", "L03", "L04", "L05", "L06", "L07", "L08"),
    **kw: Any,
) -> State:
    """A state in negotiation with the given roles per seat (R-72).

    ``balances`` are the balances *before* the stakes; ``set_aside`` is the index (in seat
    order, slot 1 before slot 2) of the pool card set aside.
    """
    per_seat = [tuple([r]) if isinstance(r, str) else tuple(r) for r in roles]
    n = len(per_seat)
    bal = list(balances) if balances is not None else [5] * n
    stake = LOOT[loot].stake
    hands = []
    cards = []
    for seat, rs in enumerate(per_seat):
        for slot, role in enumerate(rs, start=1):
            own = min(stake, bal[seat])
            bal[seat] -= own
            hands.append(Hand(seat, slot, role, stake, own, stake - own))
            cards.append(role)
    aside = cards.pop(set_aside)
    return first_heist(
        n,
        NEGOTIATION,
        loot,
        deck,
        balances=tuple(bal),
        choices=tuple(per_seat),
        hands=tuple(hands),
        pool=tuple(sorted(cards, key=REVEAL_ORDER.index)),
        set_aside=aside,
        planning_at=NOW - T,
        negotiation_at=NOW,
        **kw,
    )


def commit_all(state: State, now: float = NOW) -> tuple[State, list[Event]]:
    """Every seat with undecided hands commits, in seat order."""
    events: list[Event] = []
    for seat in range(state.players):
        if state.phase == NEGOTIATION and state.undecided(seat):
            state, evs = act(state, seat, {"type": "commit"}, now)
            events.extend(evs)
    return state, events


def heist(
    roles: Sequence[Sequence[str] | str],
    withdraw: Iterable[tuple[int, int]] = (),
    **kw: Any,
) -> tuple[State, list[Event]]:
    """Build a negotiation, withdraw the given (seat, slot) hands, commit the rest."""
    state = negotiation_state(roles, **kw)
    events: list[Event] = []
    for seat, slot in withdraw:
        state, evs = act(state, seat, {"type": "withdraw", "slot": slot})
        events.extend(evs)
    state, evs = commit_all(state)
    return state, events + evs


def event(events: Sequence[Event], type_: str) -> Event:
    found = [e for e in events if e.type == type_]
    assert found, f"no {type_} in {types(events)}"
    return found[0]


def roundtrip(obj: Any) -> Any:
    return json.loads(json.dumps(obj))
