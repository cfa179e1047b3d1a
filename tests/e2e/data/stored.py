"""What every stored-position generator here shares: the match document import_match reads, checked
to replay to the position it was played to, and writing it (or, with --check, comparing it)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from games.engines.base import SYSTEM, DecideContext, Event, replay, rng_for


def stored_match(rules: Any, start: Any, state: Any, events: list[dict[str, Any]], **fields: Any) -> dict[str, Any]:
    """The document of a game played from ``start`` to ``state``; ``fields``: game, seat_count,
    options, time_limit, seed."""
    assert replay(rules, start, [Event.from_json(e) for e in events]) == state  # as import_match replays it
    return {"format": 1, **fields, "events": events}


def apply(rules: Any, state: Any, seat: int, action: Any, seed: str, events: list[dict[str, Any]], now: float) -> Any:
    """``action`` of ``seat`` decided and evolved as the platform would (the version's RNG, ``now``),
    its events appended to ``events``; the new state."""
    ctx = DecideContext(rng=rng_for(seed, len(events)), now=now)
    for event in rules.decide(state, seat, action, ctx):
        state = rules.evolve(state, event)
        events.append({"actor": seat, **event.to_json()})
    return state


def play_until(rules: Any, start: Any, stop: Any, *, seed: str, bots: Any, first_clock: float, most: int) -> Any:
    """Bots (``rules.bot_action``) play every seat from ``start``, SYSTEM steps taking their first
    legal action, 5 s apart from ``first_clock``, until ``stop(state)``; (state, events)."""
    state, events = start, list[dict[str, Any]]()
    for n in range(most):
        if stop(state):
            return state, events
        actors = rules.actors(state)
        if not actors:
            raise SystemExit("the game ended before the position came up; change BOT_SEED")
        seat = min(actors)
        action = rules.legal_actions(state, SYSTEM)[0] if seat == SYSTEM else rules.bot_action(state, seat, bots)
        state = apply(rules, state, seat, action, seed, events, first_clock + 5 * n)
    raise SystemExit(f"no such position within {most} actions")


def write_or_check(out: Path, document: dict[str, Any], script: str) -> None:
    text = json.dumps(document, indent=None, separators=(",", ":"), sort_keys=True) + "\n"
    if "--check" in sys.argv[1:]:
        if not out.exists() or out.read_text() != text:
            raise SystemExit(f"{out} is out of date: run {Path(script).name}")
        print(f"{out.name} is up to date")
        return
    out.write_text(text)
    print(f"wrote {out} ({len(document['events'])} events)")


def play_with_deadlines(
    rules: Any, start: Any, stop: Any, *, seed: str, bots: Any, first_clock: float, most: int
) -> Any:
    """As the platform plays a game with timers: a bot answers when the game waits on its seat,
    SYSTEM steps take their first legal action, otherwise the earliest deadline fires as a SYSTEM
    action at its time; 5 s an action from ``first_clock``, until ``stop(state)``; (state, events)."""
    from games.engines.base import SYSTEM

    state, events, clock = start, list[dict[str, Any]](), first_clock
    for _n in range(most):
        if stop(state):
            return state, events
        actors = set(rules.actors(state))
        deadlines = sorted(rules.deadlines(state), key=lambda d: d.due)
        waited = sorted(s for d in deadlines for s in d.seats if s in actors) or sorted(actors - {SYSTEM})
        clock += 5
        now = clock
        if SYSTEM in actors:
            seat, action = SYSTEM, rules.legal_actions(state, SYSTEM)[0]
        elif waited:
            seat = waited[0]
            action = rules.bot_action(state, seat, bots)
        elif deadlines:
            seat, action = SYSTEM, dict(deadlines[0].action)
            now = clock = max(clock, deadlines[0].due)
        else:
            raise SystemExit("the game ended before the position came up; change BOT_SEED")
        state = apply(rules, state, seat, action, seed, events, now)
    raise SystemExit(f"no such position within {most} actions")
