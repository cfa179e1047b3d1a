"""A match's log as a timeline: every event with its actor and time, the decision steps, and
the states kept every :data:`KEEP_EVERY` events (any step is then at most that many ``evolve`` away).

A finished match's log never changes, so its timeline is built once per process and kept (keyed by
match, seed and version: a running match's grows into a new one). A "decision" is the run of events
one action made: consecutive events of one actor stored at the same moment (the write path stores
an action's events in one go), so the replay can step by decision as well as by event.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from games.engines.base import Event, Rules
from games.models import Match, MatchEvent
from games.play.bounded_cache import BoundedCache
from games.play.store import initial_state, rules_for

KEEP_EVERY = 25
"""A state is kept every this many events: a step costs at most this many ``evolve`` calls."""

SAME_DECISION_SECONDS = 0.02
"""Events of one actor stored closer together than this are one decision's."""


@dataclass
class Timeline:
    """The events of a match up to ``version`` (``events[i]`` is seq ``i + 1``), their actors and
    times in seconds (the game's own clock, ``rules.clock_ms``, where it keeps one; else when each
    was stored), the steps that end a decision, and the states kept every few steps."""

    match_id: int
    version: int
    rules: Rules[Any]
    events: list[Event]
    actors: list[int]
    times: list[float]
    decision_ends: list[int]
    kept: dict[int, Any] = field(default_factory=dict)

    @property
    def last(self) -> int:
        return self.version

    def state_at(self, step: int) -> Any:
        """The state after the first ``step`` events (0: the initial state)."""
        base = step - step % KEEP_EVERY
        state = self.kept[base]
        for event in self.events[base:step]:
            state = self.rules.evolve(state, event)
        return state

    def previous_decision(self, step: int) -> int:
        """The end of the decision before the one ``step`` is in (the first step if none)."""
        earlier = [end for end in self.decision_ends if end < step]
        return earlier[-1] if earlier else min(1, self.last)

    def next_decision(self, step: int) -> int:
        """The end of the next decision after ``step`` (the last step if none)."""
        return next((end for end in self.decision_ends if end > step), self.last)


_timelines: BoundedCache[tuple[int, str, int], Timeline] = BoundedCache(64)


def forget() -> None:
    """Drop every kept timeline (tests start from nothing)."""
    _timelines.clear()


def _epoch(at: datetime | None) -> float:
    return at.timestamp() if at is not None else 0.0


def _decision_ends(actors: list[int], stored: list[float]) -> list[int]:
    """The steps that end a decision: the last event of a run of one actor's stored at one moment."""
    return [
        step
        for step in range(1, len(actors) + 1)
        if step == len(actors)
        or actors[step] != actors[step - 1]
        or stored[step] - stored[step - 1] > SAME_DECISION_SECONDS
    ]


def timeline_of(match: Match) -> Timeline:
    """The timeline of ``match`` at its version, kept per process."""
    key = (match.pk, match.seed, match.version)
    found = _timelines.get(key)
    if found is not None:
        return found
    rows = MatchEvent.objects.filter(match_id=match.pk, seq__lte=match.version).order_by("seq")
    events: list[Event] = []
    actors: list[int] = []
    times: list[float] = []
    for row in rows.values_list("type", "data", "secret", "visible_to", "actor", "created_at"):
        events.append(Event(type=row[0], data=row[1], secret=row[2], visible_to=tuple(row[3])))
        actors.append(row[4])
        times.append(_epoch(row[5]))
    rules = rules_for(match)
    state = initial_state(match)
    kept = {0: state}
    clock: list[float] = []
    for index, event in enumerate(events, start=1):
        state = rules.evolve(state, event)
        if index % KEEP_EVERY == 0:
            kept[index] = state
        at = rules.clock_ms(state)
        if at is not None:
            clock.append(at / 1000)
    ends = _decision_ends(actors, times)
    if clock and len(clock) == len(events):
        times = clock  # the game's own clock, which a stored match's copy keeps too
    found = Timeline(match.pk, len(events), rules, events, actors, times, ends, kept)
    _timelines.put(key, found)
    return found
