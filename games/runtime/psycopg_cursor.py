"""A statement sent on psycopg's connection now and answered later, through ``Cursor._execute_gen``.

Django's cursors bind on the client (every parameter quoted into the text) and PostgreSQL then
parses and plans the whole statement for each move. Prepared once per connection (the pool and
the writer threads keep theirs), each move sends only the parameters: measured in live_bench,
this is most of the statement's cost on both sides (docs/decisions/0002-guarded-single-statement-write.md).

Between sending and answering the thread is free to work (:mod:`games.play.render_ahead`), but not
to use the connection: it is busy with the statement. psycopg's ``Cursor.execute`` is its private
generator ``_execute_gen`` driven to the end at once, under the connection's ``lock``, by
``Connection.wait``; here it is driven up to its first wait (the statement sent), then resumed
(docs/decisions/0008-render-ahead.md: the wait after a move's CPU fell from 2.0-2.6 ms to 0.4-0.6 ms).
"""

from __future__ import annotations

import time
from collections.abc import Generator
from typing import Any

import psycopg
import psycopg.postgres
from django.db import DEFAULT_DB_ALIAS, connections

# psycopg's loader of timestamptz text: in the session's time zone.
_SESSION_ZONE_TIMESTAMPS = psycopg.postgres.adapters.get_loader(
    psycopg.postgres.types["timestamptz"].oid, psycopg.pq.Format.TEXT
)


class SentStatement:
    """``sql`` sent on this thread's connection as a prepared statement, with server-side binding;
    its answer read later (:meth:`answer`)."""

    def __init__(self, sql: str, params: dict[str, Any]) -> None:
        # The thread's connection, found once: each use of the ``connection`` proxy looks it up again.
        self.db = db = connections[DEFAULT_DB_ALIAS]
        db.ensure_connection()
        self.sql = sql
        self.started = time.monotonic()
        self.raw = db.connection
        self.cursor = psycopg.Cursor(self.raw)
        if _SESSION_ZONE_TIMESTAMPS is not None and db.timezone_name == "UTC":
            # The seats' times (four or so a seat) read by psycopg's own loader, compiled where
            # psycopg is: Django's, written in Python, cost some 3 µs a value. On a session in
            # UTC (Django sets the session's zone) both give the same datetimes in timezone.utc.
            self.cursor.adapters.register_loader("timestamptz", _SESSION_ZONE_TIMESTAMPS)
        steps = self.cursor._execute_gen(sql, params, prepare=True)
        self.steps: Generator[Any, Any, Any] | None = steps
        self.waiting_for: Any = None
        with db.wrap_database_errors, self.raw.lock:
            try:
                self.waiting_for = next(steps)
            except StopIteration:  # answered without waiting
                self.steps = None

    def answer(self) -> list[tuple[Any, ...]]:
        """The statement's rows (waits for them); the cursor is closed after."""
        db = self.db
        try:
            with db.wrap_database_errors, self.raw.lock:
                if self.steps is not None:
                    self.raw.wait(_resumed(self.waiting_for, self.steps))
                rows: list[tuple[Any, ...]] = self.cursor.fetchall()
        finally:
            self.cursor.close()
        if db.queries_logged:  # as Django's debug cursor does (DEBUG, CaptureQueriesContext)
            db.queries_log.append({"sql": self.sql, "time": f"{time.monotonic() - self.started:.3f}"})
        return rows


def _resumed(first_wait: Any, steps: Generator[Any, Any, Any]) -> Generator[Any, Any, Any]:
    """``steps`` (already advanced to ``first_wait``) as psycopg's wait loop drives a fresh generator."""
    ready = yield first_wait
    while True:
        try:
            wait = steps.send(ready)
        except StopIteration as done:
            return done.value
        ready = yield wait
