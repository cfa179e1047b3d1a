"""Issue 54, item 7: police_alarm's create form has one field per label (its variant is not a second
"Game"), its handicap menus belong to their seats (the page shows those of the chosen seat count and
the form keeps no other), and the waiting page lists the handicaps of the match's seats only."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest
from django.urls import reverse

from games.models import Match
from games.play import services

from .helpers import client_for, sent_create_form

pytestmark = pytest.mark.django_db


def form_page(user: Any) -> str:
    client = client_for(user)
    return client.get(reverse("match_create") + "?game=police_alarm").content.decode()


def test_item7_every_field_of_the_create_form_has_a_label_of_its_own(make_user: Any) -> None:
    labels = re.findall(r"<label[^>]*>([^<]+)</label>", form_page(make_user()))
    twice = {label for label, n in Counter(label.strip() for label in labels).items() if n > 1}
    assert not twice, twice


def test_item7_each_handicap_menu_names_its_seat_for_the_page_to_follow_the_seat_count(make_user: Any) -> None:
    html = form_page(make_user())
    for option in ("step_ms", "roll_ms"):
        for seat in range(4):
            tag = re.search(rf'<select[^>]*name="police_alarm__{option}_{seat}"[^>]*>', html)
            assert tag and f'data-seat="{seat}"' in tag.group(0), (option, seat, tag)
    seats = re.search(r'<input[^>]*name="seats"[^>]*>', html)
    assert seats


def test_item7_a_two_seat_match_keeps_and_lists_only_two_seats_handicaps(make_user: Any) -> None:
    host = make_user()
    client = client_for(host)
    answer = sent_create_form(
        client,
        "police_alarm",
        2,
        police_alarm__variant="standard",
        police_alarm__first="random",
        police_alarm__step_ms_1="300",
        police_alarm__step_ms_3="300",
        police_alarm__roll_ms_2="2000",
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    match = Match.objects.get(host=host)
    assert match.options.get("step_ms_1") == "300"
    assert not {"step_ms_2", "step_ms_3", "roll_ms_2", "roll_ms_3"} & set(match.options), match.options
    page = client.get(match.get_absolute_url()).content.decode()
    assert "Handicap for seat 2" in page
    assert "seat 3" not in page and "seat 4" not in page


def test_item7_the_first_thief_must_be_one_of_the_seats(make_user: Any) -> None:
    answer = sent_create_form(client_for(make_user()), "police_alarm", 2, police_alarm__first="3")
    assert answer.status_code == 400 and "Choose one of the match&#x27;s seats." in answer.content.decode()
    assert not Match.objects.exists()


def test_item7_an_old_match_with_every_seats_handicap_lists_only_its_own_seats(make_user: Any) -> None:
    options = {f"step_ms_{seat}": "200" for seat in range(4)}
    host = make_user()
    match = services.do_create_match(host, "police_alarm", 2, options, 60)
    client = client_for(host)
    page = client.get(match.get_absolute_url()).content.decode()
    assert "Handicap for seat 1" in page and "Handicap for seat 2" in page
    assert "Handicap for seat 3" not in page and "Handicap for seat 4" not in page
