"""Random legal playouts (used by the property test and the bot test)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from games.engines.base import SYSTEM, DecideContext, Event
from games.engines.heist import RULES
from games.engines.heist.rules import powers_at
from games.engines.heist.state import NEGOTIATION, State

PLAYER_WEIGHTS = {
    "withdraw": 6.0,
    "commit": 8.0,
    "choose": 1.0,
    "name": 1.0,
    "accept": 3.0,
    "decline": 1.0,
    "cancel": 1.0,
    "offer": 0.05,
    "look": 1.0,
    "roll_call": 1.0,
    "prompt": 1.0,
    "call": 1.0,
}


def _pick(rng: random.Random, actions: list[dict[str, Any]]) -> dict[str, Any]:
    weights = [PLAYER_WEIGHTS.get(a["type"], 1.0) for a in actions]
    return rng.choices(actions, weights=weights)[0]


def playout(
    players: int,
    options: dict[str, Any],
    seed: int,
    *,
    bots: bool = False,
    check: Callable[[State, list[Event]], None] | None = None,
    max_steps: int = 5000,
) -> tuple[State, list[Event], State]:
    """Play a whole game with random legal actions and time-outs. Returns (final, log, initial);
    ``check`` sees the state and the events after each action.

    A due time-out is not always applied at once: like the server's sweep, it may come after
    some late player actions, which must be accepted until then (R-80).
    """
    rng = random.Random(seed)
    initial = RULES.initial(players, {"time_limit": 60, **options})
    state = initial
    now = 1_000_000.0
    log: list[Event] = []

    def apply(seat: int, action: dict[str, Any]) -> None:
        nonlocal state
        parsed = RULES.parse_action(json.loads(json.dumps(action)))
        before = json.dumps(RULES.state_to_json(state))
        events = RULES.decide(state, seat, parsed, DecideContext(random.Random(rng.random()), now))
        assert json.dumps(RULES.state_to_json(state)) == before  # decide never mutates its input
        for e in events:
            state = RULES.evolve(state, e)
        log.extend(events)
        if check is not None:
            check(state, events)

    for _ in range(max_steps):
        actors = RULES.actors(state)
        if not actors:
            break
        due = [d for d in RULES.deadlines(state) if d.due <= now]
        if due and rng.random() < 0.75:
            apply(SYSTEM, dict(rng.choice(due).action))
            continue
        if SYSTEM in actors:
            apply(SYSTEM, RULES.legal_actions(state, SYSTEM)[0])
            continue
        if rng.random() < 0.01 and state.phase in ("planning", "negotiation", "naming"):
            active = [s for s in range(players) if not state.resigned[s]]
            if active:
                apply(SYSTEM, {"type": "resign", "seat": rng.choice(active)})
            continue
        deadlines = RULES.deadlines(state)
        if deadlines and rng.random() < 0.08:
            now = max(now, min(d.due for d in deadlines))
            continue
        if rng.random() < 0.5:
            now += rng.uniform(0, 8)
            continue
        seat = rng.choice(sorted(actors))
        if bots:
            action = RULES.bot_action(state, seat, rng)
        else:
            action = _pick(rng, RULES.legal_actions(state, seat))
        if action["type"] in ("prompt", "call"):  # only after boss_powers_ready was applied
            assert state.phase == NEGOTIATION and state.powers_ready and now >= powers_at(state)
        apply(seat, action)
    else:
        raise AssertionError("game did not end")
    return state, log, initial
