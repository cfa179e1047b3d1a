"""The ratings a finishing move changes, written in that move's transaction, by plain queries.

:func:`rate_finished` is called by the write path (:mod:`games.play.write_paths`) with the match
row locked, for a move whose new state has an outcome, before the move itself is written. It adds
three statements to that one move only (the seat rows it takes from the write path): the players'
ratings, made if missing and locked in user order in one statement (two matches with a player in
common wait for each other and never deadlock), the rating changes and the new ratings. The unique
``(match, user)`` of :class:`~games.models.RatingChange` refuses a second count of the same match.

Each statement is written once per database and number of players, one statement for all the
players (decision 0020): through the ORM, compiling them again on every finish, with a statement
per player, was most of a finishing move's rating work.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from typing import Any, NamedTuple

from django.db import connection
from django.db.models import Model
from django.utils import timezone

from games.models import Match, Rating, RatingChange, Seat
from games.play.store import insert_sql, quoted_columns
from games.ratings import scale
from games.ratings.rated import SeatRow, ranks_of, rated_players, resigned_seats


class Change(NamedTuple):
    """What the match did to one player's rating (a :class:`~games.models.RatingChange` row)."""

    seat: int
    user_id: int
    before: scale.Skill
    after: scale.Skill


def rate_finished(match: Match, outcome: dict[str, Any], rows: Sequence[SeatRow]) -> list[Change]:
    """Rate ``match`` (finishing now with ``outcome``; ``rows``: its seats) if it is rated; its
    changes, else ``[]``."""
    if match.bot_seats:
        return []  # no query for a bot's match
    players = rated_players(match.seat_count, match.bot_seats, rows, outcome)
    if players is None:
        return []
    vendor = connection.vendor
    user_ids = sorted(user for _seat, user in players)
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    mu, sigma = scale.initial()
    start = scale.ordinal((mu, sigma))
    count = len(user_ids)
    with connection.cursor() as cursor:
        cursor.execute(
            _held_sql(vendor, count), _rows(vendor, [(u, match.game, mu, sigma, start, 0, now) for u in user_ids])
        )
        held = {user: ((float(m), float(s)), matches) for user, m, s, matches in cursor.fetchall()}
        before = [held[user][0] for _seat, user in players]
        after = scale.rate(before, ranks_of(outcome, players, resigned_seats(rows)))
        changes = [Change(seat, user, old, new) for (seat, user), old, new in zip(players, before, after, strict=True)]
        # First: a second count of the match stops here, on the unique (match, user).
        cursor.execute(
            _changes_sql(vendor, count),
            _rows(vendor, [(match.pk, c.user_id, c.seat, match.game, *c.before, *c.after) for c in changes]),
        )
        new = [(c.user_id, match.game, *c.after, scale.ordinal(c.after), held[c.user_id][1] + 1, now) for c in changes]
        cursor.execute(_new_ratings_sql(vendor, count), _rows(vendor, new))
    return changes


_RATING_FIELDS = ("user", "game", "mu", "sigma", "ordinal", "matches", "updated_at")
_CHANGE_FIELDS = ("match", "user", "seat", "game", "mu_before", "sigma_before", "mu_after", "sigma_after")


def _rows(vendor: str, rows: list[tuple[Any, ...]]) -> list[Any]:
    """The parameters of an insert of ``rows`` (:func:`_insert_sql`): a value each, or on PostgreSQL
    the rows as one JSON array (psycopg binds each parameter by a Python call: 88 for a table of four)."""
    if vendor != "postgresql":
        return [value for row in rows for value in row]
    return [json.dumps(rows, default=str)]  # a time as PostgreSQL reads it: "2026-12-05 04:30:00.1+00:00"


def _insert_sql(model: type[Model], fields: tuple[str, ...], rows: int, order_by: str | None = None) -> str:
    """An ``INSERT`` of ``rows`` rows of ``model``'s ``fields``, taking :func:`_rows`'s parameters;
    ``order_by``: a field the rows are inserted in the order of (on PostgreSQL; elsewhere they come
    in that order)."""
    if connection.vendor != "postgresql":
        return insert_sql(model, fields, rows)
    column = quoted_columns(model)
    table = connection.ops.quote_name(model._meta.db_table)
    typed = ", ".join(f"(r->>{i})::{model._meta.get_field(name).db_type(connection)}" for i, name in enumerate(fields))
    order = f" ORDER BY {fields.index(order_by) + 1}" if order_by else ""
    return (
        f"INSERT INTO {table} ({', '.join(column[name] for name in fields)})"
        f" SELECT {typed} FROM jsonb_array_elements(%s::jsonb) AS r{order}"
    )


@cache
def _held_sql(vendor: str, players: int) -> str:
    """The players' ratings, a first one made for a player who has none, each row locked (SQLite and
    PostgreSQL alike): an insert whose rows, in user order, meet the ratings there are and leave them
    as they are. Two finishing matches with a player in common take them in the same order."""
    column = quoted_columns(Rating)
    table = connection.ops.quote_name(Rating._meta.db_table)
    target = f"{column['user']}, {column['game']}"
    kept = f"{column['mu']} = {table}.{column['mu']}"
    returned = ", ".join(column[name] for name in ("user", "mu", "sigma", "matches"))
    return (
        f"{_insert_sql(Rating, _RATING_FIELDS, players, 'user')} ON CONFLICT ({target}) DO UPDATE SET {kept}"
        f" RETURNING {returned}"
    )


@cache
def _changes_sql(vendor: str, rows: int) -> str:
    return _insert_sql(RatingChange, _CHANGE_FIELDS, rows)


@cache
def _new_ratings_sql(vendor: str, rows: int) -> str:
    """The players' new ratings, over the rows just locked: one statement for them all (an insert
    whose every row meets its player's rating, on the unique ``(user, game)``, and updates it)."""
    column = quoted_columns(Rating)
    kept = ", ".join(f"{column[name]} = excluded.{column[name]}" for name in _RATING_FIELDS[2:])
    target = f"{column['user']}, {column['game']}"
    return f"{_insert_sql(Rating, _RATING_FIELDS, rows)} ON CONFLICT ({target}) DO UPDATE SET {kept}"


def seat_rows_of(seats: Sequence[Seat]) -> list[SeatRow]:
    """What the ratings read of a match's seats."""
    return [(s.number, s.user_id, s.is_bot, s.resigned) for s in seats]
