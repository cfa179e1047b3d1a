"""Issue 54, item 6: one clock model per game. heist and bridge_race run on the match's time limit per
decision; dirty_money (its pace), exit_memory (its turn and answer times) and police_alarm (real time)
on their own clocks, so the create form offers the generic time fields for the first two only, and the
waiting page states a time limit per decision only where one applies, never beside a game's own."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from games.engines.registry import available, get_rules
from games.models import Match
from games.play import services

from .helpers import client_for, sent_create_form

pytestmark = pytest.mark.django_db

GENERIC = {"heist", "bridge_race"}


def test_item6_each_game_declares_whether_it_runs_on_the_time_limit_per_decision() -> None:
    assert {slug for slug in available() if get_rules(slug).uses_time_limit} == GENERIC


def test_item6_the_create_form_ties_the_generic_time_fields_to_the_games_that_use_them(make_user: Any) -> None:
    client = client_for(make_user())
    html = client.get(reverse("match_create")).content.decode()
    for name in ("time_amount", "time_unit"):
        tag = re.search(rf'<(input|select)[^>]*name="{name}"[^>]*>', html)
        assert tag, name
        games = re.search(r'data-games="([^"]*)"', tag.group(0))
        assert games and set(games.group(1).split()) == GENERIC, tag.group(0)


def test_item6_an_exit_memory_match_with_300_second_turns_says_so_and_nothing_else(make_user: Any) -> None:
    host = make_user()
    client = client_for(host)
    answer = sent_create_form(client, "exit_memory", 2, exit_memory__turn_seconds="300")
    assert answer.status_code == 302
    page = client.get(Match.objects.get(host=host).get_absolute_url()).content.decode()
    assert "Time limit per decision" not in page
    assert "Time for a turn: <strong>" in page


@pytest.mark.parametrize("game", ["dirty_money", "police_alarm"])
def test_item6_games_on_their_own_clock_show_no_generic_time_limit(make_user: Any, game: str) -> None:
    host = make_user()
    match = services.do_create_match(host, game, 2, {}, 60)
    client = client_for(host)
    assert "Time limit per decision" not in client.get(match.get_absolute_url()).content.decode()


def test_item6_heist_states_its_time_limit_per_decision(make_user: Any) -> None:
    host = make_user()
    match = services.do_create_match(host, "heist", 3, {}, 300)
    client = client_for(host)
    assert "Time limit per decision: 5 minutes" in client.get(match.get_absolute_url()).content.decode()
