"""Which matches are rated, and in what order ratings take them.

A rated match is one that finished (an aborted one never does) with every seat a person's, two
at least: a bot at the table, from the start or put there by a moderator, leaves it unrated.
Ratings take matches in the order they finished (``finished_at``, then id): the update that
finishes a match sets ``finished_at`` once it holds its players' ratings, so two matches with a
player in common finish in the order they were rated in. A player who resigned ranks below every
player who did not, whatever the game's own ranks say (police_alarm ranks by points alone): leaving
a match never gains rating.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

SeatRow = tuple[int, int | None, bool, bool]  # (number, user id, is_bot, resigned)


def rated_players(
    seat_count: int, bot_seats: Sequence[int], seats: Iterable[SeatRow], outcome: dict[str, Any] | None
) -> list[tuple[int, int]] | None:
    """``(seat, user id)`` of every seat in seat order if a finished match with ``outcome`` is
    rated, else ``None``."""
    if not outcome or seat_count < 2 or bot_seats:
        return None
    ranks = outcome.get("ranks") or []
    rows = sorted(seats)
    if len(rows) != seat_count or len(ranks) != seat_count:
        return None
    players: list[tuple[int, int]] = []
    for number, user_id, is_bot, _resigned in rows:
        if is_bot or user_id is None:
            return None
        players.append((number, user_id))
    if [n for n, _u in players] != list(range(seat_count)) or len({u for _n, u in players}) != seat_count:
        return None
    return players


def ranks_of(outcome: dict[str, Any], players: list[tuple[int, int]], resigned: Iterable[int] = ()) -> list[int]:
    """The rank (1 = best; equal = a tie) of each of ``players``, in their order: the game's, with
    the ``resigned`` seats after every other."""
    gave_up = set(resigned)
    keys = [(seat in gave_up, int(outcome["ranks"][seat])) for seat, _user in players]
    order = sorted(set(keys))
    return [order.index(key) + 1 for key in keys]


def resigned_seats(seats: Iterable[SeatRow]) -> list[int]:
    return [number for number, _user, _bot, resigned in seats if resigned]
