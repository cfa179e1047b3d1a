"""A move written in one round trip on PostgreSQL: one guarded statement, decided on cached state.

The process keeps each match's row and state at the version it last wrote or read
(:mod:`games.store`). A move is decided on them, then written by a single statement that bumps
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
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import psycopg
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection

from .models import ActionReceipt, Match, MatchEvent, Seat

_SQL = f"""
WITH m AS (
    UPDATE {Match._meta.db_table}
       SET version = %(new_version)s, revision = revision + 1,
           next_deadline = %(next_deadline)s,
           waiting = %(waiting)s::jsonb,
           status = COALESCE(%(status)s, status),
           finished_at = COALESCE(%(finished_at)s, finished_at),
           outcome = COALESCE(%(outcome)s::jsonb, outcome),
           snapshot = CASE WHEN %(snap)s THEN %(snapshot)s::jsonb ELSE snapshot END,
           snapshot_version = CASE WHEN %(snap)s THEN %(new_version)s ELSE snapshot_version END
     WHERE id = %(id)s AND version = %(version)s AND status = 'active'
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
SELECT revision, chat_version, bot_seats,
       (SELECT COALESCE(json_agg(json_build_array(a.number, a.user_id)), '[]')
          FROM {Seat._meta.db_table} AS a
         WHERE a.match_id = m.id AND a.user_id IS NOT NULL AND a.open_sockets > 0)
  FROM m
"""

def _execute_prepared(params: dict[str, Any]) -> tuple[Any, ...] | None:
    """Run the statement as a prepared statement of this connection, with server-side binding.

    Django's cursors bind on the client (every parameter quoted into the text) and PostgreSQL then
    parses and plans the whole statement for each move. Prepared once per connection (the pool and
    the live writers keep theirs), each move sends only the parameters: measured in live_bench,
    this is most of the statement's cost on both sides (docs/performance.md, section 10).
    """
    connection.ensure_connection()
    started = time.monotonic()
    with connection.wrap_database_errors, psycopg.Cursor(connection.connection) as cursor:
        cursor.execute(_SQL, params, prepare=True)
        row: tuple[Any, ...] | None = cursor.fetchone()
    if connection.queries_logged:  # as Django's debug cursor does (DEBUG, CaptureQueriesContext)
        connection.queries_log.append({"sql": _SQL, "time": f"{time.monotonic() - started:.3f}"})
    return row


def enabled() -> bool:
    """Whether moves are written by the guarded statement (PostgreSQL, unless turned off)."""
    return connection.vendor == "postgresql" and getattr(settings, "HIDEOUT_GUARDED_WRITE", True)


@dataclass(frozen=True)
class Written:
    revision: int
    chat_version: int
    bot_seats: list[int]
    audience: list[tuple[int, int]]  # (seat, user) of the seats with open sockets, for the pushes


def write(
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
) -> Written | None:
    """Append ``events`` after ``match.version`` in one statement; ``None`` if the guard refused.

    ``events`` are ``Event.to_json()`` dicts; ``fields`` the match fields the new state changes
    (:func:`games.services.state_changes`); ``waiting`` the decision key per seat waited on.
    Raises ``IntegrityError`` for a reused idempotency key (nothing is written). With ``user``, the
    guard also requires that ``seat`` is still that active user's (a socket's move: no query first).
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
        "snapshot": json.dumps(fields.get("snapshot")),
        "actor": seat,
        "at": at,
        "events": json.dumps(rows),
        "key": key,
        "action": action,
        "seat": seat,
        "user": user,
        "seats": json.dumps([{"number": n, "key": waiting.get(n, "")} for n in range(match.seat_count)]),
    }
    row = _execute_prepared(params)
    if row is None:
        return None
    bot_seats = row[2] if isinstance(row[2], list) else json.loads(row[2])
    audience = row[3] if isinstance(row[3], list) else json.loads(row[3])
    return Written(
        revision=row[0], chat_version=row[1], bot_seats=bot_seats, audience=[(int(n), int(u)) for n, u in audience]
    )
