"""The publisher's seats (games.seat_rows): the same rows as Django's query, players kept a few seconds."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import seat_rows
from games.models import Seat

from .helpers import started_match

pytestmark = pytest.mark.django_db


def fields(seats: list[Seat]) -> list[tuple[Any, ...]]:
    return [
        (s.number, s.user_id, s.display_name, *(getattr(s, name) for name in seat_rows.CHANGING)) for s in seats
    ]


def orm_seats(match_id: int) -> list[Seat]:
    return list(Seat.objects.filter(match_id=match_id).select_related("user__profile").order_by("number"))


def test_kept_seats_read_their_changing_columns_again_with_one_plain_query(make_user: Any) -> None:
    match, _ = started_match(make_user)
    first = seat_rows.seats_of(match.pk)
    assert fields(first) == fields(orm_seats(match.pk))
    when = timezone.now() - timedelta(minutes=3)
    Seat.objects.filter(match=match, number=1).update(open_sockets=2, waiting_since=when, resigned=True)
    with CaptureQueriesContext(connection) as queries:
        again = seat_rows.seats_of(match.pk)
    assert len(queries.captured_queries) == 1
    assert fields(again) == fields(orm_seats(match.pk))
    assert again[1].waiting_since == when and again[1].open_sockets == 2 and again[1].resigned is True
    assert again[1].user is not None and again[1].user.pk == first[1].user_id  # the player came along


def test_a_seat_that_changed_hands_is_seen_at_once(make_user: Any) -> None:
    match, _ = started_match(make_user)
    seat_rows.seats_of(match.pk)
    newcomer = make_user()
    Seat.objects.filter(match=match, number=2).update(user=newcomer)
    seats = seat_rows.seats_of(match.pk)
    assert seats[2].user_id == newcomer.pk and seats[2].user == newcomer
    assert fields(seats) == fields(orm_seats(match.pk))


def test_a_players_new_name_shows_once_the_kept_seats_expire(make_user: Any, monkeypatch: Any) -> None:
    match, by_seat = started_match(make_user)
    before = seat_rows.seats_of(match.pk)[0].display_name
    profile = by_seat[0].profile
    profile.display_name = "Renamed"
    profile.save()
    assert seat_rows.seats_of(match.pk)[0].display_name == before  # kept for a few seconds
    monkeypatch.setattr(seat_rows, "PLAYERS_KEPT_SECONDS", 0.0)
    assert seat_rows.seats_of(match.pk)[0].display_name == "Renamed"
