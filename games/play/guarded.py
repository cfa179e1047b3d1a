"""A move written in one round trip on PostgreSQL: one guarded statement, decided on cached state.

The process keeps each match's row and state at the version it last wrote or read
(:mod:`games.play.store`). A move is decided on them, then written by a single statement that bumps
the match's version only if it is still the one decided on and the match still runs, and in the
same statement inserts the events (under the unique ``(match, seq)``), the idempotency receipt
(under its unique key) and marks the seats waited on. If the guard finds the version moved on,
nothing is written and the caller falls back to the locking ORM path, which reloads and answers
(stale, illegal, or accepted on the fresh state). A reused key makes the statement fail whole,
and the caller answers with the first receipt.

SQLite (the embedded default) keeps the ORM path; both pass the same service tests.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connection, connections

from games.engines.base import Event
from games.models import ActionReceipt, Match, MatchEvent, Seat
from games.play import seat_rows
from games.play.bounded_cache import BoundedCache
from games.play.store import quoted_columns
from games.runtime.psycopg_cursor import SentStatement

_WRITE = f"""
WITH m AS (
    UPDATE {Match._meta.db_table}
       SET version = %(new_version)s, revision = revision + 1,
           next_deadline = %(next_deadline)s,
           waiting = %(waiting)s::jsonb,
           clock = COALESCE(%(clock)s::jsonb, clock),
           status = COALESCE(%(status)s, status),
           finished_at = COALESCE(%(finished_at)s, finished_at),
           outcome = COALESCE(%(outcome)s::jsonb, outcome),
           snapshot = CASE WHEN %(snap)s THEN %(snapshot)s::jsonb ELSE snapshot END,
           snapshot_version = CASE WHEN %(snap)s THEN %(new_version)s ELSE snapshot_version END,
           quiet_writes = CASE WHEN %(quiet)s::jsonb IS NULL THEN quiet_writes
                               ELSE quiet_writes || jsonb_build_array(jsonb_build_array(revision + 1, %(quiet)s::jsonb))
                          END
     WHERE id = %(id)s AND version = %(version)s AND status = 'active'
       AND clock = %(clock_before)s::jsonb
       AND (%(user)s::integer IS NULL OR EXISTS (
           SELECT 1 FROM {Seat._meta.db_table} AS p JOIN {get_user_model()._meta.db_table} AS u ON u.id = p.user_id
            WHERE p.match_id = %(id)s AND p.number = %(seat)s AND p.user_id = %(user)s AND u.is_active))
 RETURNING id, revision, chat_version, bot_seats
), ev AS (
    INSERT INTO {MatchEvent._meta.db_table} (match_id, seq, actor, type, data, secret, visible_to, created_at)
    SELECT m.id, x.seq, %(actor)s::integer, x.type, x.data, x.secret, x.visible_to, %(at)s
      FROM m, jsonb_to_recordset(%(events)s::jsonb)
           AS x(seq integer, type text, data jsonb, secret jsonb, visible_to jsonb)
), receipt AS (
    INSERT INTO {ActionReceipt._meta.db_table} (match_id, seat, key, action, version, created_at)
    SELECT m.id, %(seat)s::integer, %(key)s::text, %(action)s::text, %(new_version)s::integer, %(at)s::timestamptz
      FROM m WHERE %(key)s::text IS NOT NULL
), seats AS (
    UPDATE {Seat._meta.db_table} AS s
       SET waiting_key = w.key,
           waiting_since = CASE WHEN w.key = '' THEN NULL ELSE %(at)s END,
           reminded_at = NULL
      FROM m, jsonb_to_recordset(%(seats)s::jsonb) AS w(number integer, key text)
     WHERE s.match_id = m.id AND s.number = w.number AND s.waiting_key IS DISTINCT FROM w.key
)
"""

# A live game's pushes are JSON events: they need only who has a socket open.
_AUDIENCE = f"""
SELECT revision, chat_version, bot_seats,
       (SELECT COALESCE(json_agg(json_build_array(a.number, a.user_id)), '[]')
          FROM {Seat._meta.db_table} AS a
         WHERE a.match_id = m.id AND a.user_id IS NOT NULL AND a.open_sockets > 0)
  FROM m
"""


@cache
def _sql(with_seats: bool) -> str:
    """The statement; ``with_seats``: it returns a row per seat, with its player and profile, as
    :func:`games.play.seat_rows.seats_of` reads them, for the pushes that render boards (one query less)."""
    if not with_seats:
        return _WRITE + _AUDIENCE
    column, table = quoted_columns(Seat), connection.ops.quote_name(Seat._meta.db_table)
    return (
        f"{_WRITE}SELECT m.revision, m.chat_version, m.bot_seats, {seat_rows.select_list()}"
        f" FROM m LEFT JOIN {table} s ON s.{column['match']} = m.id{seat_rows.player_joins()}"
        f" ORDER BY s.{column['number']}"
    )


def enabled() -> bool:
    """Whether moves are written by the guarded statement (PostgreSQL, unless turned off)."""
    return connection.vendor == "postgresql" and getattr(settings, "HIDEOUT_GUARDED_WRITE", True)


@dataclass(frozen=True)
class Written:
    revision: int
    chat_version: int
    bot_seats: list[int]
    audience: list[tuple[int, int]]  # (seat, user) of the seats with open sockets, for the pushes
    seats: list[Seat] | None  # every seat with its player, as after the write (``with_seats``)
    foreseen: bool = False  # ``seats`` are the ones :meth:`Pending.foreseen_seats` gave


# match id -> (its revision after this process's last write, that write's seat rows as it left them)
_seats_after: BoundedCache[int, tuple[int, list[tuple[Any, ...]]]] = BoundedCache(2048)


def send(
    match: Match,
    *,
    seat: int,
    events: list[dict[str, Any]],
    fields: dict[str, Any],
    waiting: dict[int, str],
    key: str | None,
    action: str,
    at: datetime,
    user: int | None = None,
    with_seats: bool = False,
    quiet: tuple[int, ...] | None = None,
) -> Pending:
    """Send the statement that appends ``events`` after ``match.version``; its answer is :meth:`Pending.finish`'s.

    ``events`` are ``Event.to_json()`` dicts; ``fields`` the match fields the new state changes
    (:func:`games.play.decision.state_changes`); ``waiting`` the decision key per seat waited on.
    With ``user``, the guard also requires that ``seat`` is still that active user's (a socket's
    move: no query first). ``with_seats``: the same statement reads every seat with its player
    (``Written.seats``). ``quiet``: the write's events are all private, told to these seats alone
    (``Match.quiet_writes``). Until ``finish`` the connection is busy: nothing else may use it.
    """
    new_version = match.version + len(events)
    rows = [{"seq": match.version + i, **event} for i, event in enumerate(events, start=1)]
    params = {
        "id": match.pk,
        "version": match.version,
        "new_version": new_version,
        "next_deadline": fields.get("next_deadline"),
        "waiting": json.dumps({str(n): k for n, k in waiting.items()}),
        "status": fields.get("status"),
        "finished_at": fields.get("finished_at"),
        "outcome": json.dumps(fields["outcome"]) if "outcome" in fields else None,
        "snap": "snapshot" in fields,
        "snapshot": json.dumps(fields["snapshot"]) if "snapshot" in fields else None,
        "quiet": None if quiet is None else json.dumps(list(quiet)),
        # A vacation begun or ended since this row was cached changes the clock: the guard refuses
        # then, and the move is decided again on the locked row (games.play.clock_policy).
        "clock": json.dumps(fields["clock"]) if "clock" in fields else None,
        "clock_before": json.dumps(match.clock) if match.clock else "{}",
        "actor": seat,
        "at": at,
        "events": json.dumps(rows),
        "key": key,
        "action": action,
        "seat": seat,
        "user": user,
        "seats": json.dumps([{"number": n, "key": waiting.get(n, "")} for n in range(match.seat_count)]),
    }
    sent = SentStatement(_sql(with_seats), params)
    return Pending(sent, match.pk, match.revision, waiting, at, with_seats)


class Pending:
    """A move's statement on the wire (:func:`send`)."""

    def __init__(
        self, sent: SentStatement, match_id: int, revision: int, waiting: dict[int, str], at: datetime, with_seats: bool
    ) -> None:
        self._sent = sent
        self.match_id = match_id
        self.revision = revision  # the match's, as the move was decided
        self._waiting = waiting
        self._at = at
        self._with_seats = with_seats
        self._foreseen_rows: list[tuple[Any, ...]] | None = None
        self._foreseen_seats: list[Seat] | None = None

    def foreseen_seats(self) -> list[Seat] | None:
        """The seats as the statement will return them, if this process wrote the match's last
        revision and nothing changed its seats since: its own last write's rows. ``finish``
        tells whether they were (``Written.foreseen``)."""
        if not self._with_seats:
            return None
        kept = _seats_after.get(self.match_id)
        if kept is None or kept[0] != self.revision:
            return None
        self._foreseen_rows = kept[1]
        self._foreseen_seats = seat_rows.build(kept[1])
        for seat_row in self._foreseen_seats:
            as_written(seat_row, self._waiting.get(seat_row.number, ""), self._at)
        return self._foreseen_seats

    def finish(self) -> Written | None:
        """The statement's answer; ``None`` if the guard refused. Raises ``IntegrityError`` for a
        reused idempotency key (nothing is written)."""
        found = self._sent.answer()
        if not found:
            return None
        row = found[0]
        bot_seats = row[2] if isinstance(row[2], list) else json.loads(row[2])
        seats = None
        foreseen = False
        if self._with_seats:
            seat_values = [r[3:] for r in found]
            foreseen = self._foreseen_seats is not None and seat_values == self._foreseen_rows
            if foreseen:
                seats = self._foreseen_seats
            else:
                seats = seat_rows.build(seat_values)
                for seat_row in seats:
                    as_written(seat_row, self._waiting.get(seat_row.number, ""), self._at)
            _seats_after.put(self.match_id, (row[0], seat_rows.as_written(seat_values, self._waiting, self._at)))
            assert seats is not None
            audience = [(s.number, s.user_id) for s in seats if s.user_id is not None and s.open_sockets > 0]
        else:
            audience = row[3] if isinstance(row[3], list) else json.loads(row[3])
        return Written(
            revision=row[0],
            chat_version=row[1],
            bot_seats=bot_seats,
            audience=[(int(n), int(u)) for n, u in audience],
            seats=seats,
            foreseen=foreseen,
        )


@dataclass(frozen=True)
class CaughtUp:
    """A running match as the database holds it (:func:`catch_up`)."""

    match: Match  # its row; its snapshot read only if no version was given (else deferred)
    events: dict[int, Event]  # by seq: the ones after the version given, else after the snapshot's


def catch_up(match_id: int, after: int | None) -> CaughtUp | None:
    """The running match's row, its events after version ``after`` and its seats, in one round trip.

    For a process whose cached state is at ``after`` while another process wrote since (another
    daphne, the Celery worker); with ``after`` None, for one that holds nothing of the match:
    the row with its snapshot, and the events after the snapshot. The seats' rows are kept as the
    match's last write left them, so the next move here foresees its seats and renders its pushes
    ahead (:meth:`Pending.foreseen_seats`). ``None``: the match is not running.
    """
    cold = after is None
    rows = SentStatement(_catch_up_sql(cold), {"id": match_id, "after": after}).answer()
    if not rows:
        return None
    db = connections[DEFAULT_DB_ALIAS]
    table = _match_table(db.vendor, cold)
    width = len(table.attnames)
    match = table.build(rows[0][:width], db.alias)
    assert isinstance(match, Match)
    listed = rows[0][width]
    events = json.loads(listed) if isinstance(listed, str) else listed
    seat_values = [row[width + 1 :] for row in rows]
    _seats_after.put(match_id, (match.revision, seat_values))
    return CaughtUp(match=match, events={event.pop("seq"): Event.from_json(event) for event in events})


@cache
def _match_table(vendor: str, with_snapshot: bool) -> seat_rows.Table:
    return seat_rows.Table(Match, "m", leave_out=() if with_snapshot else ("snapshot",))


@cache
def _catch_up_sql(cold: bool) -> str:
    event, seat = quoted_columns(MatchEvent), quoted_columns(Seat)
    q = connection.ops.quote_name
    # Cold, the events that store.load_state replays on the snapshot (or on the initial state).
    after = (
        "CASE WHEN m.snapshot IS NOT NULL AND m.snapshot_version <= m.version THEN m.snapshot_version ELSE 0 END"
        if cold
        else "%(after)s"
    )
    events = (
        f"SELECT COALESCE(json_agg(json_build_object('seq', e.{event['seq']}, 'type', e.{event['type']},"
        f" 'data', e.{event['data']}, 'secret', e.{event['secret']}, 'visible_to', e.{event['visible_to']})"
        f" ORDER BY e.{event['seq']}), '[]') AS listed"
        f" FROM {q(MatchEvent._meta.db_table)} e"
        f" WHERE e.{event['match']} = m.id AND e.{event['seq']} > {after} AND e.{event['seq']} <= m.version"
    )
    # The events are listed once, beside the row (LATERAL), not once per seat row.
    return (
        f"SELECT {', '.join(_match_table(connection.vendor, cold).columns)}, ev.listed, {seat_rows.select_list()}"
        f" FROM {q(Match._meta.db_table)} m CROSS JOIN LATERAL ({events}) ev"
        f" LEFT JOIN {q(Seat._meta.db_table)} s ON s.{seat['match']} = m.id"
        f"{seat_rows.player_joins()}"
        f" WHERE m.id = %(id)s AND m.status = 'active' ORDER BY s.{seat['number']}"
    )


def as_written(seat: Seat, key: str, at: datetime) -> None:
    """``seat`` as the statement's ``seats`` part leaves its row, given the decision key it is waited
    on under (the statement's own select saw the rows as they were)."""
    if seat.waiting_key != key:
        seat.waiting_key = key
        seat.waiting_since = at if key else None
        seat.reminded_at = None
