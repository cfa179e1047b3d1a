"""Deciding a move: the one place an action is checked, decided by the engine and turned into changes.

Both stores write what :func:`decide` returns (:mod:`games.play.write_paths`): the guarded statement
decides on this process's cached row and state, the locking path on the row it locked. The checks
are the same on both; only a cached row can be behind the database, and where that would change
the answer the decision says so (:class:`Behind`) instead of answering.
"""

from __future__ import annotations

import hashlib
import json
import logging
import random
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_noop

from games.engines.base import SYSTEM, DecideContext, Event, IllegalAction, InvalidAction, Rules, replay, rng_for
from games.models import Match
from games.play import clock, clock_policy, errors
from games.play.store import load_state, rules_for, snapshot_due, to_datetime

log = logging.getLogger(__name__)


class Behind(Exception):
    """The cached row cannot answer: the database may hold a newer version (or the match ended)."""


@dataclass
class Changes:
    """What a new state changes in the match row (besides version and revision) and in its seats."""

    fields: dict[str, Any]
    waiting: dict[int, str]  # seat -> key of the decision it is waited on for ("" = none)
    automatic: bool  # the server has a move to make at once (a SYSTEM step, a bot, a due time-out)
    # Of a write whose every event is private: the seats told of it (see quiet_audience).
    quiet: tuple[int, ...] | None = None


@dataclass
class Decision:
    """An accepted move: what to write after ``old_version`` and what it leads to."""

    rules: Rules[Any]
    seat: int
    old_version: int  # the match's version it was decided on: the events follow it
    state: Any  # the state at that version
    events: list[Event]
    new_state: Any
    changes: Changes

    @property
    def new_version(self) -> int:
        return self.old_version + len(self.events)

    @property
    def by_seq(self) -> dict[int, Event]:
        """The new events by the ``seq`` they are written under."""
        return {self.old_version + i: event for i, event in enumerate(self.events, start=1)}

    @property
    def actor(self) -> int | None:
        """The seat that moved, ``None`` for the server's own step."""
        return self.seat if self.seat != SYSTEM else None


def decide(
    match: Match,
    seat: int,
    payload: dict[str, Any],
    *,
    expected_version: int | None,
    now: float | None,
    state: Any = None,
    cached: bool = False,
) -> Decision:
    """Decide ``payload`` for ``seat`` on ``match`` at its version (``state``: its state, if on hand).

    Raises :class:`~games.play.errors.StaleVersion` for a board older than the match (unless the
    action is one of the game's ``blind_actions``, which do not depend on the board their sender
    saw), ``EngineError`` for an action the engine refuses (malformed, illegal, or not the seat's
    turn), and a ``ServiceError`` for a match that is not running. ``cached``: ``match`` is this
    process's cached row, which may be behind the database; where the answer would depend on that
    (the match no longer running, a sender who saw a newer version) :class:`Behind` is raised.
    """
    if match.status != Match.Status.ACTIVE:
        if cached:
            raise Behind
        raise errors.not_running()
    rules = rules_for(match)
    action = _parse(rules, payload)
    if expected_version is not None and expected_version != match.version:
        if cached and expected_version > match.version:
            # The sender saw a version this process has not cached yet (another process wrote it:
            # a timed step the worker wrote). Decided here, even a blind action would only be
            # refused by the guard, after its statement and its pushes: catch up first.
            raise Behind
        # Versions only grow and a cached row holds a committed one: the sender's board is out
        # of date whatever the database holds now. A blind action (a secret choice, an offer) is
        # decided on the state at hand like any other.
        if action.get("type") not in rules.blind_actions:
            raise errors.stale(match)
    if state is None:
        state = load_state(match)
    if seat != SYSTEM and not _judges_itself(rules) and seat not in rules.actors(state):
        raise IllegalAction(gettext_noop("It is not your turn to act."))
    now = now if now is not None else clock.now()
    events = rules.decide(state, seat, action, DecideContext(rng=rng_for(match.seed, match.version), now=now))
    new_state = replay(rules, state, events)
    old_version = match.version
    changes = state_changes(match, rules, new_state, old_version, old_version + len(events), now)
    changes.quiet = quiet_audience(rules, events)
    return Decision(rules, seat, old_version, state, events, new_state, changes)


def quiet_audience(rules: Rules[Any], events: list[Event]) -> tuple[int, ...] | None:
    """Of a write whose every event is private (T-18, N-10, H-2: known to its ``visible_to`` alone
    while the game runs), the seats told of it; ``None`` for any other write.

    Nobody else may see such a write move anything, not even the revision their page shows: the
    write is recorded in ``Match.quiet_writes`` and :func:`games.push.presenter.shown_revision`
    skips it for them.
    """
    private = rules.private_event_types
    if not events or not private or not all(e.type in private and rules.is_private(e) for e in events):
        return None
    return tuple(sorted({seat for event in events for seat in event.visible_to}))


def _parse(rules: Rules[Any], payload: dict[str, Any]) -> dict[str, Any]:
    """The engine's reading of ``payload``; any error it raises doing so is an unreadable action.

    An engine is to refuse bad input with InvalidAction. Anything else it raises while reading a
    payload is its own slip, but the payload is still what caused it: logged, and answered 400.
    """
    try:
        action: dict[str, Any] = rules.parse_action(payload)
    except InvalidAction:
        raise
    except Exception as exc:
        log.exception("%s could not read the action payload %.300r", rules.slug, payload)
        raise InvalidAction(gettext_noop("That action could not be read.")) from exc
    return action


def _judges_itself(rules: Rules[Any]) -> bool:
    """A live game decides who may act at the input's own time, after the timers due before it
    (T-3, T-14): the state on hand may be a countdown that has just ended, so it is not asked first."""
    return rules.live


def action_digest(payload: dict[str, Any]) -> str:
    """What a receipt remembers of the action, to tell a resubmission from a reused key."""
    return hashlib.sha1(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()


# --- what a state changes in the match row and its seats ------------------------------------------


def state_changes(
    match: Match, rules: Rules[Any], state: Any, old_version: int, new_version: int, now: float
) -> Changes:
    """Denormalised fields (status, deadline, who is waited on) and the snapshot, for ``state``."""
    outcome = rules.outcome(state)
    deadlines = rules.deadlines(state) if outcome is None else []
    fields: dict[str, Any] = {}
    if outcome is not None:
        fields["status"] = Match.Status.FINISHED
        fields["finished_at"] = clock.now_datetime()
        fields["outcome"] = {
            "scores": list(outcome.scores),
            "ranks": list(outcome.ranks),
            "winners": list(outcome.winners),
            "reason": outcome.reason,
        }
        fields["next_deadline"] = None
    if snapshot_due(old_version, new_version):
        fields["snapshot"] = rules.state_to_json(state)
        fields["snapshot_version"] = new_version
    if outcome is not None:
        return Changes(fields, {}, False)
    actors = rules.actors(state)
    keys = _waiting_keys(deadlines, actors)
    dues = [d.due for d in deadlines]
    if match.clock:  # a time bank or a vacation moves the due times (games.play.clock_policy)
        old_keys = clock_policy.int_keys(match.waiting)
        timing = clock_policy.advance(match.clock, old_keys, keys, now)
        if timing is not match.clock:
            fields["clock"] = timing
        dues = clock_policy.effective_dues(timing, deadlines, keys)
    fields["next_deadline"] = to_datetime(min(dues, default=None))
    plan = rules.bot_plan
    if plan is None:
        bots_due = bool(set(match.bot_seats) & set(keys) & actors)
    else:  # a live game's bot moves when its plan says (an on-time timer wakes it otherwise)
        plans = [plan(state, seat, bot_rng(match, seat, new_version)) for seat in set(match.bot_seats) & actors]
        bots_due = any(p is not None and p[1] <= now for p in plans)
    automatic = SYSTEM in actors or bots_due or any(due <= now for due in dues)
    return Changes(fields, keys, automatic)


def waiting_keys(rules: Rules[Any], state: Any) -> dict[int, str]:
    """For each seat the game waits on, a key naming the decision (a new key is a new turn)."""
    return _waiting_keys(rules.deadlines(state), rules.actors(state))


def _waiting_keys(deadlines: list[Any], actors: frozenset[int]) -> dict[int, str]:
    keys: dict[int, str] = {}
    for deadline in sorted(deadlines, key=lambda d: d.due):
        for seat in deadline.seats:
            keys.setdefault(seat, f"{deadline.kind}:{deadline.due}")
    if not keys:
        keys = {seat: "act" for seat in actors}
    keys.pop(SYSTEM, None)
    return keys


def bot_rng(match: Match, seat: int, version: int | None = None) -> random.Random:
    """A bot's randomness for its move at ``version`` (the match's own by default): seeded, replayable."""
    return random.Random(f"{match.seed}:bot:{match.version if version is None else version}:{seat}")


def next_wake(match: Match, rules: Rules[Any], state: Any) -> float | None:
    """When a live match next has something due: its earliest deadline or a bot's planned move."""
    if rules.outcome(state) is not None:
        return None
    times = [deadline.due for deadline in rules.deadlines(state)]
    plan = rules.bot_plan
    if plan is not None:
        for seat in set(match.bot_seats) & rules.actors(state):
            planned = plan(state, seat, bot_rng(match, seat))
            if planned is not None:
                times.append(planned[1])
    return min(times, default=None)
