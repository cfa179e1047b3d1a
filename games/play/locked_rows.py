"""What the locking write path reads before it decides a move, by plain queries (decision 0020).

:func:`games.play.write_paths.write_locked` reads the match row (locked, without its snapshot) and
its seats with their players (:func:`games.play.seat_rows.seats_of`, the rows its pushes and ratings
use too), and checks in them that the user still holds the seat: for every move on SQLite and for
the moves PostgreSQL's guarded statement sends on (a stale cache, a match no longer running).
Through the ORM those queries were about a third of the locking path's Python work: Django
compiles each again on every call, column by column. Here the row's SQL is written once per
database, and the row is built as ``Model.from_db`` builds it, with the fields' own converters
(:class:`games.play.seat_rows.Table`), so the instance is the one
``Match.objects.select_for_update().without_snapshot().get(pk=…)`` gives.

A finishing move decided on PostgreSQL's cache needs less (:func:`lock_if_current`): the row locked
only if it is still the cached one, and what the ratings read of its seats, in one query.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache

from django.contrib.auth import get_user_model
from django.db import connection

from games.models import Match, Seat
from games.play.seat_rows import Table
from games.play.store import quoted_columns
from games.ratings.rated import SeatRow


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


@cache
def _current_seats_query(vendor: str) -> str:
    match, seat = quoted_columns(Match), quoted_columns(Seat)
    user_id = quoted_columns(get_user_model())["id"]
    q = connection.ops.quote_name
    tables = (q(Match._meta.db_table), q(Seat._meta.db_table), q(get_user_model()._meta.db_table))
    seat_columns = ", ".join(f"s.{seat[name]}" for name in ("number", "user", "is_bot", "resigned"))
    return (
        f"SELECT {seat_columns}, COALESCE(u.is_active, FALSE)"
        f" FROM {tables[0]} m JOIN {tables[1]} s ON s.{seat['match']} = m.{match['id']}"
        f" LEFT JOIN {tables[2]} u ON u.{user_id} = s.{seat['user']}"
        f" WHERE m.{match['id']} = %s AND m.{match['version']} = %s AND m.{match['status']} = %s"
        f" AND m.{match['clock']} = %s::jsonb"
        f" ORDER BY s.{seat['number']} FOR UPDATE OF m"
    )


def lock_if_current(match: Match) -> list[tuple[SeatRow, bool]]:
    """PostgreSQL: the match row locked for the transaction if it is still ``match`` as cached (the
    same version and clock, still running: the guarded statement's guard), and its seats, each as
    the ratings read it and whether its player's account is active; ``[]`` if the row moved on."""
    with connection.cursor() as cursor:
        cursor.execute(
            _current_seats_query(connection.vendor),
            [match.pk, match.version, Match.Status.ACTIVE, json.dumps(match.clock)],
        )
        return [((number, user, is_bot, resigned), active) for number, user, is_bot, resigned, active in cursor]


def holds_seat_row(rows: Sequence[tuple[SeatRow, bool]], seat: int, user_id: int) -> bool:
    """:func:`holds_seat` among :func:`lock_if_current`'s rows."""
    return any(number == seat and user == user_id and active for (number, user, _bot, _gave_up), active in rows)
