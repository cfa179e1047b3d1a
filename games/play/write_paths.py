"""How a move is written: :func:`do_submit_action` and the two stores a decided move goes to.

:func:`do_submit_action` is the one entry of every move (the socket's through
:func:`do_submit_as_user`, the POST view, Celery, the admin, the other ``services``). It picks the
store; both write what :func:`games.play.decision.decide` returns and differ only in where the row
and state it decides on come from and how the write is kept safe:

- :func:`write_guarded` (PostgreSQL): decided on this process's cached row and state, written by
  one statement whose guard refuses it if the match moved on (:mod:`games.play.guarded`); its
  pushes are rendered while the statement runs (:mod:`games.play.render_ahead`).
- :func:`write_locked` (SQLite, and PostgreSQL's fallback): decided on the row it locks, with the
  seats read beside it, and written in that transaction: by plain statements on SQLite
  (:mod:`games.play.locked_writes`), by the same guarded statement on PostgreSQL.

Both keep the unique ``(match, seq)`` of the events and the idempotency receipt's unique key, and
leave the process's cache at the version they wrote. A move that finishes a match of people
changes the players' ratings in its transaction (:mod:`games.ratings.record`), under the row lock:
on PostgreSQL :func:`write_finishing` writes the cache's decision (:class:`Finishing`) if the row is
still the one it was made on, by the statement, after the ratings. A bot's match is never rated, so
its last move stays one statement.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from typing import Any, NamedTuple

from django.db import DatabaseError, IntegrityError, connection, transaction
from django.utils.translation import gettext as _

from games.engines.base import SYSTEM, EngineError, Event, Rules, replay
from games.models import ActionReceipt, Match, Seat
from games.play import clock, errors, followups, guarded, latency_trace, payloads
from games.play.decision import Behind, Changes, Decision, action_digest, decide, state_changes
from games.play.locked_rows import holds_seat, holds_seat_row, lock_if_current, locked_match
from games.play.locked_writes import insert_events, insert_receipt, mark_waiting, update_match
from games.play.seat_rows import seats_of
from games.play.store import (
    cached_move_base,
    cached_state,
    keep_events,
    remember,
    remember_row,
    rules_for,
    select_sql,
    snapshot_state,
)
from games.push import presenter, pushes
from games.push.speaking import speaking
from games.ratings.rated import SeatRow
from games.ratings.record import rate_finished, seat_rows_of


class Finishing(Exception):
    """The move finishes a match with no bot: :func:`write_finishing` writes it, with the ratings it
    changes, in one transaction.

    It carries the decision and the cached row it was made on: that decision is written if the row,
    locked, is still the one it was made on, instead of deciding the move again."""

    def __init__(self, decision: Decision, match: Match) -> None:
        super().__init__()
        self.decision, self.match = decision, match


@dataclass
class SubmitResult:
    version: int
    events: list[Event] = field(default_factory=list)
    duplicate: bool = False
    revision: int | None = None  # what pages show after this action (None for a duplicate)
    # The match's quiet writes then, and whether it was over: the revision a seat is shown
    # (games.push.presenter.hidden_writes).
    quiet_writes: list[Any] = field(default_factory=list)
    finished: bool = False

    def revision_for(self, seat: int | None) -> int | None:
        """``revision`` as ``seat`` is shown it (T-18, H-2)."""
        if self.revision is None or not self.quiet_writes:
            return self.revision
        return self.revision - len(presenter.hidden_writes(self.quiet_writes, self.finished, seat))


class Move(NamedTuple):
    """A move asked for (:func:`do_submit_action`), as both write paths take it."""

    match_id: int
    seat: int
    payload: dict[str, Any]
    expected_version: int | None
    idempotency_key: str | None
    now: float | None
    user_id: int | None


# --- every move's entry ---------------------------------------------------------------------------


def do_submit_action(
    match_id: int,
    seat: int,
    payload: dict[str, Any],
    *,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
    now: float | None = None,
    user_id: int | None = None,
) -> SubmitResult:
    """Validate ``payload`` for ``seat`` with the engine and append the resulting events.

    ``user_id``: the seat must still be that active user's, checked in the same write (a socket's
    move: its seat is what the socket last saw, with no query first). A resubmission (same
    ``idempotency_key``) is answered with the first one's result. Receipts are looked up only when
    something goes wrong (the receipt's unique key refuses the second insert, or the resubmission
    is stale or no longer legal), so a normal move costs no extra query.

    The move is decided once (:func:`games.play.decision.decide`). On PostgreSQL that is on this
    process's cache, written in one statement; if the cache was behind (another process wrote), it
    catches up and decides once more. The locking path answers what the guarded statement did not:
    every move on SQLite; on PostgreSQL a match no longer running, a seat no longer the user's, or a
    write that lost the race to another one again after the catch-up (the one case of a third decision).
    A move that finishes the match is written with its ratings in one transaction
    (:func:`write_finishing`), and decided again under the lock only if the row moved on since.
    """
    digest = action_digest(payload)
    move = Move(match_id, seat, payload, expected_version, idempotency_key, now, user_id)
    try:
        if guarded.enabled():
            try:
                written = write_guarded(move)
                if written is None and refresh_cache(match_id):
                    # Another process wrote since this one cached the match: decide again on the news.
                    written = write_guarded(move)
            except Finishing as finishing:
                # A finishing move changes ratings: written with them, in one transaction.
                written = write_finishing(move, finishing)
            if written is not None:
                return written
        return write_locked(move)
    except (IntegrityError, errors.ServiceError):
        if idempotency_key:
            found = receipt(match_id, seat, idempotency_key)
            if found is not None:
                action, version = found
                if action and action != digest:
                    raise errors.ServiceError(
                        _("This key was already used for another action. Reload the board and try again."), status=409
                    ) from None
                return SubmitResult(version=version, duplicate=True)
        raise


def do_submit_as_user(
    match_id: int, seat: int | None, user_id: int, sent: payloads.Submission, received: float | None, language: str
) -> SubmitResult:
    """A move sent over a socket: :func:`do_submit_action` for the seat the socket last saw, checked
    to be still ``user_id``'s in the same write, in the socket's ``language``.

    Seats are renumbered at the start and a moderator may hand one to a bot while a socket stays
    open; only when the write finds the seat no longer the user's is the user's seat looked up again,
    and the move tried once more under the seat the user holds now.
    """
    latency_trace.mark("writing", match_id, sent.key)
    with speaking(language):
        for attempt in range(2):
            if seat is None:
                raise errors.NotAllowed(_("Only the players of this match can act in it."))
            try:
                return do_submit_action(
                    match_id,
                    seat,
                    sent.payload,
                    expected_version=sent.expected_version,
                    idempotency_key=sent.key,
                    now=received,
                    user_id=user_id,
                )
            except errors.NotAllowed:
                fresh = _seat_of(match_id, user_id)
                if attempt or fresh == seat:
                    raise
                seat = fresh
        raise AssertionError("unreachable")


def _seat_of(match_id: int, user_id: int) -> int | None:
    """The user's seat number in the match as the database has it now, if the user is still active."""
    rows = Seat.objects.filter(match_id=match_id, user_id=user_id, user__is_active=True)
    number = rows.values_list("number", flat=True).first()
    return None if number is None else int(number)


# --- the guarded statement -------------------------------------------------------------------------


def write_guarded(move: Move) -> SubmitResult | None:
    """The move decided on this process's cached row and state, written in one statement.

    ``None`` sends the caller on (to catch up, or to the locking path): nothing cached, a version
    newer than the cache, or the guard finding the match moved on (or the seat no longer the
    user's). A version older than the cache is refused here (:class:`~games.play.errors.StaleVersion`),
    unless the action is blind. An engine refusal is answered here when one query confirms the
    state it was judged on is the match's current one and the seat the user's; otherwise it is
    judged again on the fresh state.
    """
    match_id, seat, payload, expected_version, idempotency_key, now, user_id = move
    base = cached_move_base(match_id)
    if base is None:
        return None
    match, state = base
    try:
        decision = decide(match, seat, payload, expected_version=expected_version, now=now, state=state, cached=True)
    except Behind:
        return None
    except EngineError as exc:
        if _still_current(match, seat, user_id):
            raise errors.refusal(exc) from exc
        return None
    rules, new_state, changes = decision.rules, decision.new_state, decision.changes
    if changes.fields.get("status") == Match.Status.FINISHED and not match.bot_seats:
        raise Finishing(decision, match)  # a bot's match is not rated (and a running match never loses its bots)
    new_version, by_seq, actor = decision.new_version, decision.by_seq, decision.actor
    # A live game's pushes render nothing: no seat rows.
    pending = _send_statement(match, move, decision, clock.now_datetime(), user=user_id, with_seats=not rules.live)
    latency_trace.mark("statement", match.pk, idempotency_key)
    foreseen, ahead = None, None
    try:
        seats = pending.foreseen_seats() if not connection.in_atomic_block else None
        if seats is not None:
            # The statement is PostgreSQL's work now: render the pushes meanwhile, for the row as
            # the write is foreseen to leave it (kept only if it does: games.play.render_ahead).
            foreseen = copy.copy(match)
            _as_after(foreseen, changes, new_version, match.revision + 1, match.chat_version, match.bot_seats)
            ahead = pushes.render_ahead(
                foreseen, new_state, events=by_seq, state_before=state, actor=actor, seats=seats
            )
    finally:
        latency_trace.mark("ahead", match.pk, idempotency_key)
        written = pending.finish()
    if written is None:
        return None
    latency_trace.mark("written", match.pk, written.revision)
    if (
        ahead is not None
        and foreseen is not None
        and written.foreseen
        and (written.revision, written.chat_version, written.bot_seats)
        == (foreseen.revision, foreseen.chat_version, foreseen.bot_seats)
    ):
        match = foreseen  # the write left the row and seats as the pushes were rendered for
    else:
        ahead = None
        _as_after(match, changes, new_version, written.revision, written.chat_version, written.bot_seats)
    return _after_statement(match, decision, written, ahead)


def write_finishing(move: Move, finishing: Finishing) -> SubmitResult | None:
    """PostgreSQL: a move that finishes a match of people, decided on the cache, written with the
    ratings it changes in one transaction: the row locked, with its seats read in the same query,
    only if it is still the cached one (the guard the statement checks); the ratings; then the
    statement. ``None``: the row moved on, and the caller decides the move again under the lock."""
    match_id, seat, _payload, _expected, _key, _now, user_id = move
    decision, match = finishing.decision, copy.copy(finishing.match)
    with transaction.atomic():
        seats = lock_if_current(match)
        if not seats:
            return None
        _check_player(user_id is None or holds_seat_row(seats, seat, user_id))
        _rate_if_finished(match, decision.changes, lambda: [row for row, _active in seats])
        live = decision.rules.live  # a live game's pushes render nothing: no seat rows
        pending = _send_statement(match, move, decision, clock.now_datetime(), user=user_id, with_seats=not live)
        written = _written_under_lock(pending, match_id)
    _as_after(match, decision.changes, decision.new_version, written.revision, written.chat_version, written.bot_seats)
    return _after_statement(match, decision, written, None)


def _after_statement(
    match: Match, decision: Decision, written: guarded.Written, ahead: pushes.RenderedAhead | None
) -> SubmitResult:
    """What follows a move the guarded statement wrote: the process's cache at the new version, the
    pushes (``ahead``: rendered while the statement ran), a live game's timer, the automatic moves."""
    changes = decision.changes
    remember(match.pk, match.version, decision.new_state)
    remember_row(match)
    pushes.publish_after_commit(
        match,
        events=decision.by_seq,
        state_before=decision.state,
        actor=decision.actor,
        audience=written.audience,
        seats=written.seats,
        ahead=ahead,
    )
    followups.arm_live_after_commit(match, decision.rules, decision.new_state)
    if changes.automatic or set(written.bot_seats) & set(changes.waiting):
        followups.advance_after_commit(match.pk, match.version)
    return _result(match, decision.events)


def _result(match: Match, events: list[Event]) -> SubmitResult:
    finished = match.status == Match.Status.FINISHED
    quiet = match.quiet_writes
    return SubmitResult(match.version, events, revision=match.revision, quiet_writes=quiet, finished=finished)


def _as_after(
    match: Match, changes: Changes, version: int, revision: int, chat_version: int, bot_seats: list[int]
) -> None:
    """``match`` (the cached row) as the guarded write leaves it."""
    for name, value in changes.fields.items():
        setattr(match, name, value)
    match.version = version
    match.revision, match.chat_version, match.bot_seats = revision, chat_version, bot_seats
    match.waiting = {str(n): k for n, k in changes.waiting.items()}
    _note_quiet(match, changes)


def _note_quiet(match: Match, changes: Changes) -> bool:
    """Record a write whose events are all private (``changes.quiet``) under the revision it
    leaves ``match`` at; returns whether it was one. The guarded statement records it in SQL alike."""
    if changes.quiet is None:
        return False
    match.quiet_writes = [*match.quiet_writes, [match.revision, list(changes.quiet)]]
    return True


def _still_current(match: Match, seat: int, user_id: int | None) -> bool:
    """The match is still running at ``match.version`` (and, with a user, the seat is still theirs)."""
    if seat == SYSTEM or user_id is None:
        rows = Match.objects.filter(pk=match.pk, version=match.version, status=Match.Status.ACTIVE)
        return bool(rows.exists())
    return bool(
        Seat.objects.filter(
            match_id=match.pk,
            match__version=match.version,
            match__status=Match.Status.ACTIVE,
            number=seat,
            user_id=user_id,
            user__is_active=True,
        ).exists()
    )


def refresh_cache(match_id: int) -> bool:
    """Bring this process's cached row and state of a running match up to the database's version,
    in one round trip (:func:`games.play.guarded.catch_up`: the row, the events after the cached state,
    the seats). False when there is nothing newer to decide on (the locking path then answers).
    """
    base = cached_move_base(match_id)
    held = cached_state(match_id)  # may be cached alone: another thread caches a state, then its row
    caught = guarded.catch_up(match_id, None if held is None else held[0])
    if caught is None or (base is not None and base[0].version == caught.match.version):
        return False
    match = caught.match
    if held is None:
        version, state = snapshot_state(match)
        del match.snapshot  # deferred again: the cached row goes without it, as a written one does
    elif held[0] <= match.version:
        version, state = held
    else:
        return False  # a state newer than the row read: another thread's write, not yet committed
    events = [caught.events[seq] for seq in range(version + 1, match.version + 1)]
    remember(match.pk, match.version, replay(rules_for(match), state, events))
    remember_row(match)
    keep_events(match.pk, caught.events)  # the next move's log lines need them (presenter.prefetch_log)
    return True


# --- the row lock ----------------------------------------------------------------------------------


def write_locked(move: Move) -> SubmitResult:
    """The move decided on the match row, locked, and written in that transaction."""
    match_id, seat, payload, expected_version, idempotency_key, now, user_id = move
    with transaction.atomic():
        match = locked_match(match_id)
        seats = seats_of(match_id)
        _check_player(user_id is None or holds_seat(seats, seat, user_id))
        try:
            decision = decide(match, seat, payload, expected_version=expected_version, now=now)
        except EngineError as exc:
            raise errors.refusal(exc) from exc
        by_seq = decision.by_seq
        _rate_if_finished(match, decision.changes, lambda: seat_rows_of(seats))
        if guarded.enabled():
            _write_by_statement(match, move, decision, seats)
        else:
            _append_events(match, seat, decision.events)
            save_changes(match, decision.changes, seats)
            if idempotency_key:
                insert_receipt(match.pk, seat, idempotency_key, action_digest(payload), match.version)
        automatic = decision.changes.automatic
        remember(match.pk, match.version, decision.new_state)
        remember_row(match)
    # The seats as the move left them: its pushes need no query of their own.
    audience = [(s.number, s.user_id) for s in seats if s.user_id is not None and s.open_sockets > 0]
    pushes.publish_after_commit(
        match, events=by_seq, state_before=decision.state, actor=decision.actor, audience=audience, seats=seats
    )
    followups.arm_live_after_commit(match, decision.rules, decision.new_state)
    if automatic:
        followups.advance_after_commit(match.pk, match.version)
    return _result(match, decision.events)


def _write_by_statement(match: Match, move: Move, decision: Decision, seats: list[Seat]) -> None:
    """PostgreSQL: the move decided on the locked row written by the guarded statement, in the
    lock's transaction (one round trip for the events, the row, the waiting marks and the receipt,
    as for every other move there); ``match`` and ``seats`` left as it leaves their rows. The locked
    row passes its guard: a refusal is a fault, and rolls the transaction back."""
    changes, at = decision.changes, clock.now_datetime()
    written = _written_under_lock(_send_statement(match, move, decision, at), match.pk)
    _as_after(match, changes, decision.new_version, written.revision, written.chat_version, written.bot_seats)
    for row in seats:
        guarded.as_written(row, changes.waiting.get(row.number, ""), at)


def _written_under_lock(pending: guarded.Pending, match_id: int) -> guarded.Written:
    """The statement's answer for a row this transaction locked: it passes the guard, so a refusal
    is a fault, and rolls the transaction back."""
    written = pending.finish()
    if written is None:
        raise DatabaseError(f"the locked row of match {match_id} refused the move decided on it")
    return written


def _send_statement(
    match: Match, move: Move, decision: Decision, at: datetime, *, user: int | None = None, with_seats: bool = False
) -> guarded.Pending:
    """The guarded statement that writes ``decision`` of ``move`` after ``match.version``, put on the wire."""
    changes = decision.changes
    return guarded.send(
        match,
        seat=move.seat,
        events=[event.to_json() for event in decision.events],
        fields=changes.fields,
        waiting=changes.waiting,
        key=move.idempotency_key,
        action=action_digest(move.payload),
        at=at,
        user=user,
        with_seats=with_seats,
        quiet=changes.quiet,
    )


def _rate_if_finished(match: Match, changes: Changes, seats: Callable[[], list[SeatRow]]) -> None:
    """The players' ratings, if the move finishes a rated match; its ``finished_at`` taken once
    their ratings are held, so that matches finish in the order they were rated in
    (:mod:`games.ratings.rated`); ``seats`` gives what the ratings read of the seats. Nothing, and
    no query, for any other move."""
    if changes.fields.get("status") != Match.Status.FINISHED:
        return
    rate_finished(match, changes.fields["outcome"], seats())
    changes.fields["finished_at"] = clock.now_datetime()


def _check_player(holds: bool) -> None:
    if not holds:
        raise errors.NotAllowed(_("Only the players of this match can act in it."))


def _append_events(match: Match, actor: int, events: list[Event]) -> None:
    insert_events(match.pk, actor, match.version + 1, events)
    match.version += len(events)
    match.revision += 1


def save_changes(match: Match, changes: Changes, seats: list[Seat]) -> bool:
    """Save a new state's :class:`~games.play.decision.Changes` (and ``match``'s version and
    revision), and leave ``seats`` (the match's rows) as written; returns whether a move is due at once."""
    for name, value in changes.fields.items():
        setattr(match, name, value)
    fields = ["version", "revision", *changes.fields]
    if _note_quiet(match, changes):
        fields.append("quiet_writes")
    _update_waiting(match, changes.waiting, fields, seats)
    update_match(match, fields)
    return changes.automatic


def save_state(match: Match, rules: Rules[Any], state: Any, old_version: int, now: float) -> bool:
    """Save what ``state`` (at ``match.version``, after ``old_version``) changes in the row and seats
    (and the ratings, if it finishes the match: a loaded archive's finished match counts as any)."""
    changes = state_changes(match, rules, state, old_version, match.version, now)
    seats = seats_of(match.pk)
    _rate_if_finished(match, changes, lambda: seat_rows_of(seats))
    return save_changes(match, changes, seats)


def _update_waiting(match: Match, keys: dict[int, str], fields: list[str], seats: list[Seat]) -> None:
    """Mark who is waited on (for "your turn" and reminders); touches only seats that changed, in
    the database and in ``seats``."""
    old = {int(seat): key for seat, key in match.waiting.items()}
    if old == keys:
        return
    changed: dict[str, list[int]] = {}  # the new key -> the seats given it: one statement per key
    for number in sorted(set(old) | set(keys)):
        key = keys.get(number, "")
        if key != old.get(number, ""):
            changed.setdefault(key, []).append(number)
    now = clock.now_datetime()
    by_number = {s.number: s for s in seats}
    for key, numbers in changed.items():
        since = now if key else None
        mark_waiting(match.pk, numbers, key, since)
        for number in numbers:
            if number in by_number:
                row = by_number[number]
                row.waiting_key, row.waiting_since, row.reminded_at = key, since, None
    match.waiting = {str(seat): key for seat, key in keys.items()}
    fields.append("waiting")


# --- receipts --------------------------------------------------------------------------------------


@cache
def _receipt_sql(vendor: str) -> str:
    return select_sql(ActionReceipt, ("action", "version"), ("match =", "seat =", "key ="))


def receipt(match_id: int, seat: int, key: str) -> tuple[str, int] | None:
    """(action digest, version) of the receipt of ``key``, if any: a plain query, since every move
    refused for an old board looks for one (the unique key makes it one row at most)."""
    with connection.cursor() as cursor:
        cursor.execute(_receipt_sql(connection.vendor), [match_id, seat, key])
        row = cursor.fetchone()
    return None if row is None else (row[0], row[1])
