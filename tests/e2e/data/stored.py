"""What every stored-position generator here (make_*.py) shares: the game the bots play, the match
document import_match reads, checked to replay to the position it was played to, and writing it (or,
with --check, comparing it).

Each generator runs from the repository root as a module:

    .venv/bin/python -m tests.e2e.data.make_heist_positions          # writes its files
    .venv/bin/python -m tests.e2e.data.make_heist_positions --check  # fails if one would change
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
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
            raise SystemExit(f"{out} is out of date: run python -m tests.e2e.data.{Path(script).stem}")
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


@dataclass(frozen=True)
class BotGame:
    """A game bots play on every seat through the engine alone (no Django), from a fixed seed and fixed
    clock values, so the same file comes out every time; ``play`` is play_until or play_with_deadlines."""

    rules: Any
    game: str
    seat_count: int
    seed: str
    bot_seed: int
    first_clock: float
    most: int
    play: Callable[..., Any]
    options: dict[str, Any] = field(default_factory=dict)
    time_limit: int = 86400
    start_options: dict[str, Any] | None = None  # what ``rules.initial`` gets, where not ``options``

    def start(self, seat_count: int | None = None) -> Any:
        options = self.options if self.start_options is None else self.start_options
        return self.rules.initial(seat_count or self.seat_count, options)

    def document(self, start: Any, state: Any, events: list[dict[str, Any]], seat_count: int | None = None) -> Any:
        """The stored match of this game played from ``start`` to ``state``."""
        return stored_match(
            self.rules,
            start,
            state,
            events,
            game=self.game,
            seat_count=seat_count or self.seat_count,
            options=self.options,
            time_limit=self.time_limit,
            seed=self.seed,
        )

    def played_until(self, stop: Callable[[Any], bool]) -> Any:
        """The stored match of this game played by the bots until ``stop(state)``."""
        start = self.start()
        bots = random.Random(self.bot_seed)
        state, events = self.play(
            self.rules, start, stop, seed=self.seed, bots=bots, first_clock=self.first_clock, most=self.most
        )
        return self.document(start, state, events)

    def write_positions(self, positions: dict[str, Callable[[Any], bool]], script: str) -> None:
        """Each position (a file next to ``script`` by the test that stops the play there) written or checked."""
        for name, stop in positions.items():
            write_or_check(Path(script).with_name(name), self.played_until(stop), script)
