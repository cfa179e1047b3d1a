"""A match's log as a timeline: every event's time, the decision steps, the events themselves as a
step needs them, and states kept every :data:`KEEP_EVERY` events (any step is then at most that many
``evolve`` away).

A "decision" is the run of events one action made: consecutive events of one actor stored at the
same moment (the write path stores an action's events in one go), so the replay can step by decision
as well as by event.

Building a timeline replays the whole log once (a bridge_race match of 2,600 events: about a third of
a second). A finished match's log never changes, so that is done once: its times, decision ends and
a state every :data:`STORED_EVERY` events are stored (:class:`~games.models.ReplayIndex`,
:class:`~games.models.ReplayState`), by the first replay of it or by the beat's sweep, whichever
comes first. Later, a process opening the replay reads the index, one stored state and the few
events the step needs. Timelines are also kept per process, keyed by match, seed and version (a
running match's grows into a new one).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction

from games.engines.base import Event, Rules
from games.models import Match, MatchEvent, ReplayIndex, ReplayState
from games.play.bounded_cache import BoundedCache
from games.play.store import initial_state, rules_for

KEEP_EVERY = 25
"""A state is kept in memory every this many events: a step costs at most this many ``evolve`` calls
once a timeline is warm."""

STORED_EVERY = 100
"""A finished match's state is stored every this many events (a multiple of :data:`KEEP_EVERY`): a
cold step costs one stored state and at most this many ``evolve`` calls."""

SAME_DECISION_SECONDS = 0.02
"""Events of one actor stored closer together than this are one decision's."""

_FIELDS = ("type", "data", "secret", "visible_to")


def _event(row: tuple[Any, ...]) -> Event:
    return Event(type=row[0], data=row[1], secret=row[2], visible_to=tuple(row[3]))


class EventLog:
    """A match's events up to a version, read from the database a block at a time as they are asked
    for (``log[i]`` is seq ``i + 1``): a step of a long match reads only the events around it."""

    BLOCK = 100

    def __init__(self, match_id: int, count: int, events: list[Event] | None = None) -> None:
        self.match_id = match_id
        self.count = count
        self._blocks: dict[int, list[Event]] = {}
        if events is not None:
            for start in range(0, count, self.BLOCK):
                self._blocks[start // self.BLOCK] = events[start : start + self.BLOCK]

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, index: int) -> Event:
        if not 0 <= index < self.count:
            raise IndexError(index)
        block = index // self.BLOCK
        events = self._blocks.get(block)
        if events is None:
            first = block * self.BLOCK + 1
            last = min(first + self.BLOCK - 1, self.count)
            rows = MatchEvent.objects.filter(match_id=self.match_id, seq__gte=first, seq__lte=last).order_by("seq")
            events = [_event(row) for row in rows.values_list(*_FIELDS)]
            self._blocks[block] = events
        return events[index % self.BLOCK]


@dataclass
class Timeline:
    """The events of a match up to ``version``, their times in seconds (the game's own clock,
    ``rules.clock_ms``, where it keeps one; else when each was stored), the steps that end a
    decision, and the states kept every few steps (a finished match's are also in
    :class:`~games.models.ReplayState` every :data:`STORED_EVERY` steps, read when first needed)."""

    match: Match
    version: int
    rules: Rules[Any]
    events: EventLog
    times: list[float]
    decision_ends: list[int]
    kept: dict[int, Any] = field(default_factory=dict)

    @property
    def last(self) -> int:
        return self.version

    def state_at(self, step: int) -> Any:
        """The state after the first ``step`` events (0: the initial state)."""
        start = step - step % KEEP_EVERY
        while start not in self.kept and start % STORED_EVERY:
            start -= KEEP_EVERY
        if start not in self.kept:
            self.kept[start] = self._stored_state(start)
        state = self.kept[start]
        for seq in range(start + 1, step + 1):
            state = self.rules.evolve(state, self.events[seq - 1])
            if seq % KEEP_EVERY == 0:
                self.kept[seq] = state
        return state

    def _stored_state(self, step: int) -> Any:
        if step == 0:
            return initial_state(self.match)
        raw = ReplayState.objects.filter(match_id=self.match.pk, step=step).values_list("state", flat=True).first()
        if raw is not None:
            return self.rules.state_from_json(raw)
        state = self.state_at(step - STORED_EVERY)  # not stored (removed since): from the one before
        for seq in range(step - STORED_EVERY + 1, step + 1):
            state = self.rules.evolve(state, self.events[seq - 1])
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
    """The timeline of ``match`` at its version, kept per process; a finished match's is read from
    its stored index when there is one, else built and its index stored."""
    key = (match.pk, match.seed, match.version)
    found = _timelines.get(key)
    if found is not None:
        return found
    found = _stored_timeline(match) if match.status == Match.Status.FINISHED else None
    if found is None:
        found = build_timeline(match)
        if match.status == Match.Status.FINISHED:
            store_index(found)
    _timelines.put(key, found)
    return found


def _stored_timeline(match: Match) -> Timeline | None:
    index = ReplayIndex.objects.filter(match_id=match.pk, version=match.version).first()
    if index is None:
        return None
    return Timeline(
        match,
        match.version,
        rules_for(match),
        EventLog(match.pk, match.version),
        index.times,
        index.decision_ends,
    )


def build_timeline(match: Match) -> Timeline:
    """The timeline of ``match`` from its whole log, replayed once."""
    rows = MatchEvent.objects.filter(match_id=match.pk, seq__lte=match.version).order_by("seq")
    events: list[Event] = []
    actors: list[int] = []
    times: list[float] = []
    for row in rows.values_list(*_FIELDS, "actor", "created_at"):
        events.append(_event(row))
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
    log = EventLog(match.pk, len(events), events)
    return Timeline(match, len(events), rules, log, times, ends, kept)


def store_index(timeline: Timeline) -> None:
    """Store a finished match's timeline (its index and a state every :data:`STORED_EVERY` steps);
    a store that another process made first is left as it is."""
    states = [
        ReplayState(match_id=timeline.match.pk, step=step, state=timeline.rules.state_to_json(state))
        for step, state in sorted(timeline.kept.items())
        if step and step % STORED_EVERY == 0
    ]
    try:
        with transaction.atomic():
            ReplayState.objects.filter(match_id=timeline.match.pk).delete()
            ReplayIndex.objects.filter(match_id=timeline.match.pk).delete()
            ReplayState.objects.bulk_create(states)
            ReplayIndex.objects.create(
                match_id=timeline.match.pk,
                version=timeline.version,
                times=timeline.times,
                decision_ends=timeline.decision_ends,
            )
    except IntegrityError:
        return


def index_finished_matches(limit: int = 20) -> int:
    """Store the timeline of up to ``limit`` finished matches that have none yet (the beat's sweep,
    so that even a match's first replay is quick); the count stored."""
    matches = Match.objects.filter(status=Match.Status.FINISHED, replay_index__isnull=True).order_by("-pk")[:limit]
    stored = 0
    for match in matches:
        store_index(build_timeline(match))
        stored += 1
    return stored
