"""A match's seats with their players and profiles, read with one plain query.

Every push after a move needs the seats (who is waited on, who has a socket open) and each one's
player (name, language). Django's query for them (``select_related("user__profile")``) cost about
0.7 ms of CPU a move, most of it compiling the same query again each time. This module writes that
query's SQL once per database and builds the same model instances from its rows, converted as the
ORM converts them (``Model.from_db``, the fields' database converters): about 0.16 ms. Nothing is
kept between calls, so a new name, language or player is seen at once. The guarded write on
PostgreSQL (:mod:`games.play.guarded`) reads the same columns in its own statement, with no query of
its own after a move.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Field, Model

from games.models import Profile, Seat
from games.play.store import quoted_columns
from games.runtime.model_rows import build_plainly, plainly_built
from games.runtime.related_cache import set_related

Converter = Callable[[Any, Any, Any], Any]


class Table:
    """One model's columns in the query: their attribute names and how each value is converted.

    ``leave_out``: fields not read (``build`` then leaves them deferred, and needs ``plain=False``).
    """

    def __init__(self, model: type[Model], alias: str, leave_out: tuple[str, ...] = ()) -> None:
        self.model = model
        fields = [f for f in model._meta.concrete_fields if isinstance(f, Field) and f.name not in leave_out]
        self.attnames = [f.attname for f in fields]
        self.columns = [f"{alias}.{connection.ops.quote_name(_column(f))}" for f in fields]
        self.converters: list[tuple[Any, list[Converter]]] = []
        for f in fields:
            col = f.get_col(alias)
            self.converters.append((col, connection.ops.get_db_converters(col) + f.get_db_converters(connection)))
        self.converting = any(converters for _col, converters in self.converters)

    def build(self, values: tuple[Any, ...], alias: str, plain: bool = False) -> Model:
        """The instance of a row's ``values`` for database ``alias``; ``plain``: built without
        ``Model.__init__`` (:func:`games.runtime.model_rows.plainly_built`)."""
        if self.converting:
            converted = []
            for value, (col, converters) in zip(values, self.converters, strict=True):
                for convert in converters:
                    value = convert(value, col, connection)
                converted.append(value)
            values = tuple(converted)
        if plain:
            return build_plainly(self.model, self.attnames, values, alias)
        return self.model.from_db(alias, self.attnames, list(values))


def _column(field: Field[Any, Any]) -> str:
    assert field.column, field  # every concrete field has one
    return field.column


@cache
def _tables(vendor: str) -> tuple[Table, Table, Table]:
    """The seat, user and profile tables, for the database ``vendor`` (converters differ between them)."""
    return Table(Seat, "s"), Table(get_user_model(), "u"), Table(Profile, "p")


def select_list() -> str:
    """The columns :func:`build` reads, in its order, from a FROM clause made with :func:`joins`."""
    seat, user, profile = _tables(connection.vendor)
    return ", ".join(seat.columns + user.columns + profile.columns)


def player_joins() -> str:
    """``LEFT JOIN users u … LEFT JOIN profiles p …`` after a seats table aliased ``s``: what every
    seat needs of its player for a page or a push, in the columns of :func:`select_list`."""
    user_model = get_user_model()
    q = connection.ops.quote_name
    pk = user_model._meta.pk
    assert pk is not None
    user_pk = quoted_columns(user_model)[pk.name]
    return (
        f" LEFT JOIN {q(user_model._meta.db_table)} u ON u.{user_pk} = s.{quoted_columns(Seat)['user']}"
        f" LEFT JOIN {q(Profile._meta.db_table)} p ON p.{quoted_columns(Profile)['user']} = u.{user_pk}"
    )


@cache
def _query(vendor: str) -> str:
    column, table = quoted_columns(Seat), connection.ops.quote_name(Seat._meta.db_table)
    return (
        f"SELECT {select_list()} FROM {table} s{player_joins()}"
        f" WHERE s.{column['match']} = %s ORDER BY s.{column['number']}"
    )


def build(rows: list[tuple[Any, ...]]) -> list[Seat]:
    """Seats from rows of :func:`select_list` (a row with no seat, from an outer join, is skipped),
    each with ``user`` and its ``profile`` set, as ``select_related("user__profile")`` sets them
    (but for the profile's own ``user``, which is read again if asked for)."""
    db = connections[DEFAULT_DB_ALIAS]  # each use of the ``connection`` proxy looks it up again
    seat_table, user_table, profile_table = _tables(db.vendor)
    n_seat, n_user = len(seat_table.attnames), len(user_table.attnames)
    alias = db.alias
    plain_seat, plain_user, plain_profile = (plainly_built(t.model) for t in (seat_table, user_table, profile_table))
    seats: list[Seat] = []
    for row in rows:
        if row[0] is None:
            continue
        seat = seat_table.build(row[:n_seat], alias, plain_seat)
        user = None
        if row[n_seat] is not None:  # the user's primary key: an empty seat joins nothing
            user = user_table.build(row[n_seat : n_seat + n_user], alias, plain_user)
            profile = None
            if row[n_seat + n_user] is not None:
                # Without the way back (profile.user) that select_related sets: a user and a profile
                # pointing at each other are a cycle, which only the collector frees, and a push
                # builds every seat's after each move (docs/decisions/0016-gc-tuning.md).
                profile = profile_table.build(row[n_seat + n_user :], alias, plain_profile)
            set_related(user, "profile", profile)
        set_related(seat, "user", user)
        assert isinstance(seat, Seat)
        seats.append(seat)
    return seats


def as_written(rows: list[tuple[Any, ...]], waiting: dict[int, str], at: Any) -> list[tuple[Any, ...]]:
    """``rows`` (of :func:`select_list`) as the guarded write's ``seats`` part leaves them, given the
    decision key per seat waited on: the rows the next move's statement reads if nothing else
    changes them (:meth:`games.play.guarded.Pending.foreseen_seats`)."""
    attnames = _tables(connection.vendor)[0].attnames
    number, key_at, since_at, reminded_at = (
        attnames.index(name) for name in ("number", "waiting_key", "waiting_since", "reminded_at")
    )
    out = []
    for row in rows:
        key = waiting.get(row[number], "") if row[0] is not None else None
        if key is None or row[key_at] == key:
            out.append(row)
            continue
        changed = list(row)
        changed[key_at], changed[since_at], changed[reminded_at] = key, (at if key else None), None
        out.append(tuple(changed))
    return out


def seats_of(match_id: int) -> list[Seat]:
    """The match's seats in number order, each with ``user`` and its ``profile`` loaded, as
    ``Seat.objects.filter(match_id=…).select_related("user__profile").order_by("number")`` gives."""
    with connection.cursor() as cursor:
        cursor.execute(_query(connection.vendor), [match_id])
        return build(cursor.fetchall())
