"""The rating changes as pages show them ("+12"): of every seat of a match, or of a player's matches."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from django.db import connection

from games.models import Match, RatingChange
from games.play.store import select_sql
from games.ratings import scale

_COLUMNS = ("mu_before", "sigma_before", "mu_after", "sigma_after")


def of_match(match: Match) -> dict[int, str]:
    """Seat number -> the shown change of its player's rating, for a rated finished match (else
    empty, with no query for a match with a bot). A plain query (decision 0020): the move that
    finishes a match reads it for every seat's final standings."""
    if match.status != Match.Status.FINISHED or match.bot_seats:
        return {}
    with connection.cursor() as cursor:
        cursor.execute(_of_match_sql(connection.vendor), [match.pk])
        rows = cursor.fetchall()
    return {seat: scale.signed(scale.shown_change((mb, sb), (ma, sa))) for seat, mb, sb, ma, sa in rows}


@cache
def _of_match_sql(vendor: str) -> str:
    return select_sql(RatingChange, ("seat", *_COLUMNS), ("match =",))


def of_player(user_id: int, match_ids: Iterable[int]) -> dict[int, str]:
    """Match id -> the shown change of ``user_id``'s rating, for those of ``match_ids`` that were rated."""
    ids = list(match_ids)
    if not ids:
        return {}
    rows = RatingChange.objects.filter(user_id=user_id, match_id__in=ids).values_list("match_id", *_COLUMNS)
    return {m: scale.signed(scale.shown_change((mb, sb), (ma, sa))) for m, mb, sb, ma, sa in rows}
