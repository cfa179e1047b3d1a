"""Bot games in time: every seat's bot plans (action, earliest time); the earliest input goes next."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.engines.base import SYSTEM, DecideContext, Event
from games.engines.police_alarm import PoliceAlarmRules
from games.engines.police_alarm.state import State

ORIGIN = 1_700_000_000.0


def bot_game(
    players: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    rules: PoliceAlarmRules | None = None,
    max_steps: int = 50_000,
) -> tuple[PoliceAlarmRules, State, list[Event]]:
    rules = rules or PoliceAlarmRules()
    rng = random.Random(seed)
    state = rules.initial(players, {"time_limit": 60, **(options or {})})
    initial = state
    log: list[Event] = []
    now = ORIGIN

    def apply(seat: int, action: dict[str, Any], at: float) -> None:
        nonlocal state
        events = rules.decide(state, seat, rules.parse_action(action), DecideContext(rng, at))
        for event in events:
            state = rules.evolve(state, event)
        log.extend(events)

    apply(SYSTEM, {"type": "start"}, now)
    for _step in range(max_steps):
        if state.over:
            break
        options_: list[tuple[float, int, dict[str, Any]]] = []
        for seat in range(players):
            plan = rules.bot_plan(state, seat, rng)
            if plan is not None:
                options_.append((plan[1], seat, plan[0]))
        for deadline in rules.deadlines(state):
            options_.append((deadline.due, SYSTEM, deadline.action))
        assert options_, f"stuck in {state.phase}"
        at, seat, action = min(options_, key=lambda o: (o[0], rng.random()))
        now = max(now, at)
        apply(seat, action, now)
    assert state.over, "the bots did not finish"
    return rules, initial, log
