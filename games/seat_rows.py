"""A running match's seats for the pushes after a move: one cheap query, its players kept a few seconds.

The publisher needs each seat's player (name, language) and what changes move by move (who is
waited on, who has a socket open). Django's query for seats with their users and profiles cost
about 1 ms of CPU per move (three model instances a row, and compiling the query each time); the
changing columns alone, read with plain SQL, cost a tenth of that. So the seats are kept per match
for ``PLAYERS_KEPT_SECONDS`` and only their changing columns are read again: a seat that changed
hands (or became a bot) is seen at once, a player's new name or language within those seconds.
"""

from __future__ import annotations

import copy
import time
from collections import OrderedDict
from datetime import UTC
from threading import Lock
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import Field
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from .models import Seat

PLAYERS_KEPT_SECONDS = 10.0
CHANGING = (
    "is_bot",
    "bot_number",
    "resigned",
    "waiting_key",
    "waiting_since",
    "reminded_at",
    "open_sockets",
    "last_seen",
)
_DATES = frozenset({"waiting_since", "reminded_at", "last_seen"})
_FLAGS = frozenset({"is_bot", "resigned"})

_kept: OrderedDict[int, tuple[float, list[Seat]]] = OrderedDict()
_lock = Lock()
_SIZE = 2048


def _column(name: str) -> str:
    field = Seat._meta.get_field(name)
    assert isinstance(field, Field) and field.column
    return field.column


def _sql() -> str:
    columns = ", ".join(_column(name) for name in ("number", "user", *CHANGING))
    return f"SELECT {columns} FROM {Seat._meta.db_table} WHERE {_column('match')} = %s ORDER BY {_column('number')}"


def _value(name: str, value: Any) -> Any:
    if name in _FLAGS:
        return bool(value)
    if name in _DATES and value is not None:  # SQLite hands them back naive (or as text), in UTC
        when = parse_datetime(value) if isinstance(value, str) else value
        if when is not None and settings.USE_TZ and timezone.is_naive(when):
            when = when.replace(tzinfo=UTC)
        return when
    return value


def seats_of(match_id: int) -> list[Seat]:
    """The match's seats in number order, with ``user`` and its profile loaded (see the module doc)."""
    with connection.cursor() as cursor:
        cursor.execute(_sql(), [match_id])
        rows = cursor.fetchall()
    now = time.monotonic()
    with _lock:
        kept = _kept.get(match_id)
    if kept is not None and now - kept[0] < PLAYERS_KEPT_SECONDS and _same_players(kept[1], rows):
        fresh = []
        for seat, row in zip(kept[1], rows, strict=True):
            seat = copy.copy(seat)  # the kept one may be in another thread's hands
            for name, value in zip(CHANGING, row[2:], strict=True):
                setattr(seat, name, _value(name, value))
            fresh.append(seat)
        return fresh
    seats = list(Seat.objects.filter(match_id=match_id).select_related("user__profile").order_by("number"))
    with _lock:
        _kept[match_id] = (now, [copy.copy(s) for s in seats])
        _kept.move_to_end(match_id)
        while len(_kept) > _SIZE:
            _kept.popitem(last=False)
    return seats


def _same_players(seats: list[Seat], rows: list[tuple[Any, ...]]) -> bool:
    return [(s.number, s.user_id) for s in seats] == [(row[0], row[1]) for row in rows]


def forget() -> None:
    """Drop every kept seat (tests start from nothing: their match ids repeat)."""
    with _lock:
        _kept.clear()
