"""A dirty_money game played to its end by random legal actions (or the bots), for the tests that
need a whole game's states and log."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from games.engines.base import SYSTEM, DecideContext, Event
from games.engines.dirty_money import RULES
from games.engines.dirty_money.state import State


def playout(
    players: int,
    options: dict[str, Any],
    seed: int,
    bots: bool = False,
    check: Callable[[State, Event], None] | None = None,
) -> tuple[State, State, list[Event]]:
    """Play a game to its end with random legal actions (or bots), time-outs now and then;
    ``check`` sees the state after each event."""
    rng = random.Random(seed)
    initial = RULES.initial(players, {**options, "time_limit": 60})
    state, log, now = initial, [], 1_000_000.0
    for _step in range(20_000):
        actors = RULES.actors(state)
        if not actors:
            break
        now += rng.choice((0.0, 1.0, 5.0))
        if SYSTEM in actors:
            seat, action = SYSTEM, RULES.legal_actions(state, SYSTEM)[0]
        else:
            deadlines = RULES.deadlines(state)
            seat = rng.choice(sorted(actors))
            if deadlines and rng.random() < 0.05:
                now = max(now, max(d.due for d in deadlines))
                seat, action = SYSTEM, deadlines[0].action
            elif bots:
                action = RULES.bot_action(state, seat, rng)
            else:
                action = rng.choice(RULES.legal_actions(state, seat))
        events = RULES.decide(state, seat, RULES.parse_action(json.loads(json.dumps(action))), DecideContext(rng, now))
        for event in events:
            state = RULES.evolve(state, event)
            if check is not None:
                check(state, event)
        log.extend(events)
    return initial, state, log
