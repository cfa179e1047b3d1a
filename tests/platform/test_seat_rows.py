"""The seats with their players (games.play.seat_rows): the same instances as Django's query, read fresh each time."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Model, signals
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Profile, Seat
from games.play import seat_rows

from .helpers import as_orm_gives, collector_off, started_match

pytestmark = pytest.mark.django_db


def orm_seats(match_id: int) -> list[Seat]:
    return list(Seat.objects.filter(match_id=match_id).select_related("user__profile").order_by("number"))


def test_the_seats_are_the_orms_with_one_query_and_none_for_the_players(make_user: Any) -> None:
    match, _ = started_match(make_user)
    when = timezone.now() - timedelta(minutes=3)
    Seat.objects.filter(match=match, number=1).update(open_sockets=2, waiting_since=when, resigned=True)
    with CaptureQueriesContext(connection) as queries:
        seats = seat_rows.seats_of(match.pk)
        names = [s.display_name for s in seats]
        languages = [s.user.profile.language for s in seats if s.user is not None]
    assert len(queries.captured_queries) == 1  # the players and profiles came along
    assert as_orm_gives(seats) == as_orm_gives(orm_seats(match.pk))
    assert seats[1].waiting_since == when and seats[1].open_sockets == 2 and seats[1].resigned is True
    assert timezone.is_aware(seats[1].waiting_since)  # converted as the ORM converts (SQLite: naive text)
    assert len(names) == len(languages) == len(seats)


def test_a_new_player_name_or_language_is_seen_at_once(make_user: Any) -> None:
    match, by_seat = started_match(make_user)
    seat_rows.seats_of(match.pk)
    profile = by_seat[0].profile
    profile.display_name, profile.language = "Renamed", "zh-hant"
    profile.save()
    newcomer = make_user()
    Seat.objects.filter(match=match, number=2).update(user=newcomer)
    seats = seat_rows.seats_of(match.pk)
    assert seats[0].user is not None and seats[0].user.profile.language == "zh-hant"
    assert seats[0].display_name == "Renamed"
    assert seats[2].user_id == newcomer.pk and seats[2].user == newcomer
    assert as_orm_gives(seats) == as_orm_gives(orm_seats(match.pk))


def test_empty_seats_bots_and_players_without_a_profile_read_as_the_orm_reads_them(make_user: Any) -> None:
    match, _ = started_match(make_user)
    Seat.objects.filter(match=match, number=1).update(user=None, is_bot=True, bot_number=2)
    Seat.objects.filter(match=match, number=2).update(user=None)
    bare = get_user_model().objects.create_user("bare", "bare@example.com", "pw")
    Profile.objects.filter(user=bare).delete()
    Seat.objects.filter(match=match, number=0).update(user=bare)
    seats = seat_rows.seats_of(match.pk)
    assert seats[1].user is None and seats[1].display_name == "Bot 2"
    assert seats[2].user is None and seats[2].display_name == "Empty seat"
    assert seats[0].display_name == "bare"
    assert as_orm_gives(seats) == as_orm_gives(orm_seats(match.pk))


def test_the_seats_and_their_players_are_freed_without_the_collector(make_user: Any) -> None:
    """A push reads every seat with its player after each move: no cycle among them (select_related
    sets profile.user back to the user) may leave them to the collector, whose passes pause every
    socket of the daphne (docs/decisions/0016-gc-tuning.md). A name still costs no query."""
    import weakref

    match, by_seat = started_match(make_user)
    profile = by_seat[0].profile
    profile.display_name = ""  # the name then comes from the user's email
    profile.save()
    seats = seat_rows.seats_of(match.pk)
    with CaptureQueriesContext(connection) as queries:
        assert seats[0].display_name == by_seat[0].email.split("@")[0]
    assert queries.captured_queries == []
    users = [weakref.ref(s.user) for s in seats if s.user is not None]
    assert users
    with collector_off():
        del seats
        assert all(user() is None for user in users), "a seat's player lives on in a reference cycle"


def test_seat_names_are_kept_per_language_and_read_again_for_new_seats(make_user: Any) -> None:
    """presenter.seat_names keeps its answer on the match: a bot's name is translated, so the language is
    part of what it is kept for, and a push that hands the match new seat rows gets their names."""
    from django.utils import translation

    from games.play import services
    from games.push import presenter

    match, players = started_match(make_user, players=3)
    services.do_replace_with_bot(match.pk, 1)
    with translation.override("en"):
        assert presenter.seat_names(match)[1] == "Bot 1"
    with translation.override("zh-hant"):
        assert presenter.seat_names(match)[1] == "電腦玩家 1"
    Profile.objects.filter(user=players[0]).update(display_name="Renamed")
    match._seat_cache = seat_rows.seats_of(match.pk)  # type: ignore[attr-defined]  # as a push does
    with translation.override("en"):
        assert presenter.seat_names(match)[0] == "Renamed"


def instance_state(instance: Model | None) -> Any:
    """What an instance holds: its attributes (but the state object) and its state's."""
    if instance is None:
        return None
    held = {name: value for name, value in vars(instance).items() if name != "_state"}
    return held, instance._state.adding, instance._state.db, dict(instance._state.fields_cache).keys()


def test_the_instances_hold_what_djangos_from_db_leaves_in_them(make_user: Any) -> None:
    match, _ = started_match(make_user)
    built = seat_rows.seats_of(match.pk)
    orm = orm_seats(match.pk)
    for ours, theirs in zip(built, orm, strict=True):
        assert instance_state(ours) == instance_state(theirs)
        assert instance_state(ours.user) == instance_state(theirs.user)


def test_a_model_whose_construction_is_listened_to_is_built_by_from_db(make_user: Any) -> None:
    match, _ = started_match(make_user)
    heard: list[Model] = []

    def listen(sender: Any, instance: Model, **kwargs: Any) -> None:
        heard.append(instance)

    signals.post_init.connect(listen, sender=Seat)
    try:
        seats = seat_rows.seats_of(match.pk)
    finally:
        signals.post_init.disconnect(listen, sender=Seat)
    assert heard == seats and all(a is b for a, b in zip(heard, seats, strict=True))
    assert as_orm_gives(seats) == as_orm_gives(orm_seats(match.pk))
