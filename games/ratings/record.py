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

from collections.abc import Sequence
from functools import cache
from typing import Any, NamedTuple

from django.db import connection
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
            _held_sql(vendor, count), [v for u in user_ids for v in (u, match.game, mu, sigma, start, 0, now)]
        )
        held = {user: ((float(m), float(s)), matches) for user, m, s, matches in cursor.fetchall()}
        before = [held[user][0] for _seat, user in players]
        after = scale.rate(before, ranks_of(outcome, players, resigned_seats(rows)))
        changes = [Change(seat, user, old, new) for (seat, user), old, new in zip(players, before, after, strict=True)]
        # First: a second count of the match stops here, on the unique (match, user).
        cursor.execute(
            _changes_sql(vendor, count),
            [v for c in changes for v in (match.pk, c.user_id, c.seat, match.game, *c.before, *c.after)],
        )
        cursor.execute(
            _new_ratings_sql(vendor, count),
            [
                v
                for c in changes
                for v in (c.user_id, match.game, *c.after, scale.ordinal(c.after), held[c.user_id][1] + 1, now)
            ],
        )
    return changes


_RATING_FIELDS = ("user", "game", "mu", "sigma", "ordinal", "matches", "updated_at")


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
        f"{insert_sql(Rating, _RATING_FIELDS, players)} ON CONFLICT ({target}) DO UPDATE SET {kept}"
        f" RETURNING {returned}"
    )


@cache
def _changes_sql(vendor: str, rows: int) -> str:
    fields = ("match", "user", "seat", "game", "mu_before", "sigma_before", "mu_after", "sigma_after")
    return insert_sql(RatingChange, fields, rows)


@cache
def _new_ratings_sql(vendor: str, rows: int) -> str:
    """The players' new ratings, over the rows just locked: one statement for them all (an insert
    whose every row meets its player's rating, on the unique ``(user, game)``, and updates it)."""
    column = quoted_columns(Rating)
    kept = ", ".join(f"{column[name]} = excluded.{column[name]}" for name in _RATING_FIELDS[2:])
    target = f"{column['user']}, {column['game']}"
    return f"{insert_sql(Rating, _RATING_FIELDS, rows)} ON CONFLICT ({target}) DO UPDATE SET {kept}"


def seat_rows_of(seats: Sequence[Seat]) -> list[SeatRow]:
    """What the ratings read of a match's seats."""
    return [(s.number, s.user_id, s.is_bot, s.resigned) for s in seats]
