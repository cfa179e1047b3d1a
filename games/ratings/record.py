"""The ratings a finishing move changes, written in that move's transaction, by plain queries.

:func:`rate_finished` is called by the locking write path (:func:`games.play.write_paths.write_locked`)
with the match row locked, for a move whose new state has an outcome; the guarded statement never
finishes a match. It adds a few queries to that one move only: the seats, the players' ratings
(made if missing, then locked in user order, so that two matches with a player in common wait for
each other and never deadlock), the rating changes and the new ratings. The unique ``(match, user)``
of :class:`~games.models.RatingChange` refuses a second count of the same match.

The statements are written once per database (decision 0020): through the ORM, compiling them again
on every finish was most of a finishing move's rating work.
"""

from __future__ import annotations

from functools import cache
from typing import Any, NamedTuple

from django.db import connection
from django.utils import timezone

from games.models import Match, Rating, RatingChange, Seat
from games.play.store import quoted_columns, select_sql
from games.ratings import scale
from games.ratings.rated import SeatRow, ranks_of, rated_players, resigned_seats


class Change(NamedTuple):
    """What the match did to one player's rating (a :class:`~games.models.RatingChange` row)."""

    seat: int
    user_id: int
    before: scale.Skill
    after: scale.Skill


def rate_finished(match: Match, outcome: dict[str, Any]) -> list[Change]:
    """Rate ``match`` (finishing now with ``outcome``) if it is rated; its changes, else ``[]``."""
    if match.bot_seats:
        return []  # no query for a bot's match
    vendor = connection.vendor
    with connection.cursor() as cursor:
        cursor.execute(_seats_sql(vendor), [match.pk])
        seats: list[SeatRow] = [(n, u, bool(bot), bool(gone)) for n, u, bot, gone in cursor.fetchall()]
        players = rated_players(match.seat_count, match.bot_seats, seats, outcome)
        if players is None:
            return []
        user_ids = sorted(user for _seat, user in players)
        now = connection.ops.adapt_datetimefield_value(timezone.now())
        mu, sigma = scale.initial()
        start = scale.ordinal((mu, sigma))
        cursor.executemany(_fresh_sql(vendor), [(u, match.game, mu, sigma, start, 0, now) for u in user_ids])
        cursor.execute(_held_sql(vendor, len(user_ids)), [match.game, *user_ids])
        held = {user: (pk, (float(m), float(s)), matches) for pk, user, m, s, matches in cursor.fetchall()}
        before = [held[user][1] for _seat, user in players]
        after = scale.rate(before, ranks_of(outcome, players, resigned_seats(seats)))
        changes = [Change(seat, user, old, new) for (seat, user), old, new in zip(players, before, after, strict=True)]
        # First: a second count of the match stops here, on the unique (match, user).
        cursor.executemany(
            _changes_sql(vendor),
            [(match.pk, c.user_id, c.seat, match.game, *c.before, *c.after) for c in changes],
        )
        cursor.executemany(
            _update_sql(vendor),
            [(*c.after, scale.ordinal(c.after), held[c.user_id][2] + 1, now, held[c.user_id][0]) for c in changes],
        )
    return changes


@cache
def _seats_sql(vendor: str) -> str:
    return select_sql(Seat, ("number", "user", "is_bot", "resigned"), ("match =",))


def _insert_sql(model: type[Any], fields: tuple[str, ...], suffix: str = "") -> str:
    column = quoted_columns(model)
    table = connection.ops.quote_name(model._meta.db_table)
    names = ", ".join(column[name] for name in fields)
    return f"INSERT INTO {table} ({names}) VALUES ({', '.join(['%s'] * len(fields))}){suffix}"


@cache
def _fresh_sql(vendor: str) -> str:
    """A player's first rating in a game, unless they have one (SQLite and PostgreSQL alike)."""
    fields = ("user", "game", "mu", "sigma", "ordinal", "matches", "updated_at")
    return _insert_sql(Rating, fields, " ON CONFLICT DO NOTHING")


@cache
def _held_sql(vendor: str, players: int) -> str:
    """The players' ratings in user order, locked where the database can (two finishing matches with
    a player in common take them in the same order)."""
    column = quoted_columns(Rating)
    table = connection.ops.quote_name(Rating._meta.db_table)
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    users = ", ".join(["%s"] * players)
    return (
        f"SELECT {column['id']}, {column['user']}, {column['mu']}, {column['sigma']}, {column['matches']}"
        f" FROM {table} WHERE {column['game']} = %s AND {column['user']} IN ({users})"
        f" ORDER BY {column['user']}{lock}"
    )


@cache
def _changes_sql(vendor: str) -> str:
    fields = ("match", "user", "seat", "game", "mu_before", "sigma_before", "mu_after", "sigma_after")
    return _insert_sql(RatingChange, fields)


@cache
def _update_sql(vendor: str) -> str:
    column = quoted_columns(Rating)
    table = connection.ops.quote_name(Rating._meta.db_table)
    values = ", ".join(f"{column[name]} = %s" for name in ("mu", "sigma", "ordinal", "matches", "updated_at"))
    return f"UPDATE {table} SET {values} WHERE {column['id']} = %s"
