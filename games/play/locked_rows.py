"""What the locking write path reads before it decides a move, by plain queries (decision 0020).

:func:`games.play.write_paths.write_locked` reads the match row (locked, without its snapshot) and
its seats with their players (:func:`games.play.seat_rows.seats_of`, the rows its pushes and ratings
use too), and checks in them that the user still holds the seat: for every move on SQLite and for
the moves PostgreSQL's guarded statement sends on (a finishing move, a stale cache). Through the ORM those queries were
about a third of the locking path's Python work: Django compiles each again on every call, column by
column. Here the row's SQL is written once per database, and the row is built as ``Model.from_db``
builds it, with the fields' own converters (:class:`games.play.seat_rows.Table`), so the instance is
the one ``Match.objects.select_for_update().without_snapshot().get(pk=…)`` gives.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from django.db import connection

from games.models import Match, Seat
from games.play.seat_rows import Table
from games.play.store import quoted_columns


@cache
def _match_table(vendor: str) -> Table:
    """The match's columns but ``snapshot`` (a state's whole JSON, read only to rebuild a state)."""
    return Table(Match, "m", leave_out=("snapshot",))


@cache
def _match_query(vendor: str) -> str:
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    table = connection.ops.quote_name(Match._meta.db_table)
    return (
        f"SELECT {', '.join(_match_table(vendor).columns)} FROM {table} m"
        f" WHERE m.{quoted_columns(Match)['id']} = %s{lock}"
    )


def locked_match(match_id: int) -> Match:
    """The match row, locked for the transaction, with every column but ``snapshot`` (left deferred);
    :class:`Match.DoesNotExist` if there is none."""
    vendor = connection.vendor
    with connection.cursor() as cursor:
        cursor.execute(_match_query(vendor), [match_id])
        row = cursor.fetchone()
    if row is None:
        raise Match.DoesNotExist("Match matching query does not exist.")
    match = _match_table(vendor).build(row, connection.alias)
    assert isinstance(match, Match)
    return match


def holds_seat(seats: Sequence[Seat], seat: int, user_id: int) -> bool:
    """Whether user ``user_id``, an active account, holds seat ``seat`` among the match's ``seats``
    (:func:`games.play.seat_rows.seats_of`, each with its ``user``)."""
    for row in seats:
        if row.number == seat:
            return row.user_id == user_id and row.user is not None and row.user.is_active
    return False
