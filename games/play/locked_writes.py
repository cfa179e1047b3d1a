"""What the locking write path writes for a move, by plain statements (decision 0020).

:func:`games.play.write_paths.write_locked` appends the move's events, saves the match row's changed
fields, marks whom the match now waits for and keeps the move's receipt: for every move on SQLite
(and on PostgreSQL with the guarded statement turned off, ``HIDEOUT_GUARDED_WRITE``; otherwise
the locking path there writes by that statement). Through the ORM (``bulk_create``,
``save(update_fields=…)``, ``update()`` per seat, ``create``) these statements were about a quarter
of the locking path's Python work, Django compiling each again on every call. Here each one's SQL is
written once per database and shape, one statement for the seats given the same key, and every value
is prepared by its own field (``get_db_prep_save``: JSON, ``None`` as SQL ``NULL``, dates and times
as the ORM writes them on that database).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from functools import cache
from typing import Any

from django.db import DatabaseError, connection
from django.db.models import Field, Model
from django.utils import timezone

from games.engines.base import Event
from games.models import ActionReceipt, Match, MatchEvent, Seat
from games.play.store import event_json_fields, insert_sql, quoted_columns

_EVENT_FIELDS = ("match", "seq", "actor", "type", "data", "secret", "visible_to", "created_at")
_RECEIPT_FIELDS = ("match", "seat", "key", "action", "version", "created_at")


def insert_events(match_id: int, actor: int, first_seq: int, events: Sequence[Event]) -> None:
    """``events`` as the match's rows numbered from ``first_seq``, in one statement."""
    if not events:
        return
    data, secret, visible_to = event_json_fields()
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    params: list[Any] = []
    for seq, event in enumerate(events, start=first_seq):
        params += [
            match_id,
            seq,
            actor,
            event.type,
            data.get_db_prep_save(event.data, connection),
            secret.get_db_prep_save(event.secret, connection),
            visible_to.get_db_prep_save(list(event.visible_to), connection),
            now,
        ]
    with connection.cursor() as cursor:
        cursor.execute(_insert_sql(connection.vendor, MatchEvent, _EVENT_FIELDS, len(events)), params)


def insert_receipt(match_id: int, seat: int, key: str, action: str, version: int) -> None:
    """The receipt of a move sent with idempotency key ``key`` (``action``: its digest)."""
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    with connection.cursor() as cursor:
        cursor.execute(
            _insert_sql(connection.vendor, ActionReceipt, _RECEIPT_FIELDS, 1),
            [match_id, seat, key, action, version, now],
        )


def mark_waiting(match_id: int, numbers: Sequence[int], key: str, since: datetime | None) -> None:
    """Seats ``numbers`` of the match waited on under ``key`` since ``since`` (``""`` and ``None``:
    not waited on), none of them reminded yet."""
    with connection.cursor() as cursor:
        cursor.execute(
            _waiting_sql(connection.vendor, len(numbers)),
            [key, connection.ops.adapt_datetimefield_value(since), match_id, *numbers],
        )


def update_match(match: Match, fields: Sequence[str]) -> None:
    """Write ``fields`` of ``match`` (field names) to its row, as ``save(update_fields=fields)`` does;
    :class:`DatabaseError` if the row is gone."""
    sql, chosen = _update_of(connection.vendor, tuple(dict.fromkeys(fields)))  # each field once, in order
    params = [f.get_db_prep_save(getattr(match, f.attname), connection) for f in chosen]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, match.pk])
        if cursor.rowcount != 1:
            raise DatabaseError("Save with update_fields did not affect any rows.")


@cache
def _insert_sql(vendor: str, model: type[Model], fields: tuple[str, ...], rows: int) -> str:
    return insert_sql(model, fields, rows)


@cache
def _waiting_sql(vendor: str, seats: int) -> str:
    column = quoted_columns(Seat)
    table = connection.ops.quote_name(Seat._meta.db_table)
    return (
        f"UPDATE {table} SET {column['waiting_key']} = %s, {column['waiting_since']} = %s,"
        f" {column['reminded_at']} = NULL"
        f" WHERE {column['match']} = %s AND {column['number']} IN ({', '.join(['%s'] * seats)})"
    )


@cache
def _update_of(vendor: str, names: tuple[str, ...]) -> tuple[str, tuple[Field[Any, Any], ...]]:
    """The ``UPDATE`` of the match row's fields ``names``, and those fields, in their order."""
    chosen: list[Field[Any, Any]] = []
    for name in names:
        field = Match._meta.get_field(name)
        if not isinstance(field, Field) or not field.concrete:
            raise ValueError(f"{name} is not a column of the match row")
        chosen.append(field)
    column = quoted_columns(Match)
    table = connection.ops.quote_name(Match._meta.db_table)
    values = ", ".join(f"{column[name]} = %s" for name in names)
    return f"UPDATE {table} SET {values} WHERE {column['id']} = %s", tuple(chosen)
