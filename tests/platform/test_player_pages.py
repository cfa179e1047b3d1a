"""A player's page, "My matches", the leaderboards and the rating change on the final screen."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Match, Rating
from games.play import services
from games.web.records import replay_url

from .helpers import client_for, started_match

pytestmark = pytest.mark.django_db


def finished(make_user: Any, users: list[Any] | None = None, resigning: int = 0) -> Match:
    """A two-player police_alarm match of ``users`` (new ones if none) finished by a resignation."""
    users = users or [make_user(), make_user()]
    match = services.do_create_match(users[0], "police_alarm", len(users), {}, 60)
    for user in users[1:]:
        services.do_join_match(match.pk, user)
    services.do_start_match(match.pk, users[0])
    services.do_resign(match.pk, resigning)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_a_players_page_counts_matches_and_wins_per_game_and_links_each_recent_one(make_user: Any) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    matches = [finished(make_user, [alice, bob], resigning=n % 2) for n in range(3)]
    wins = sum(alice.seats.get(match=m).number in (m.outcome or {})["winners"] for m in matches)
    html = client_for(bob).get(reverse("player", args=["alice"])).content.decode()
    row = re.search(r"<tr><th scope=\"row\">Police Alarm</th><td>(\d+)</td><td>(\d+)</td>", html)
    assert row is not None and (int(row[1]), int(row[2])) == (3, wins)
    for match in matches:
        assert f'href="{replay_url(match.pk)}"' in html
    rating = Rating.objects.get(user=alice, game="police_alarm")
    assert rating.matches == 3
    assert "provisional" in html  # three rated matches are fewer than five
    assert "rating " in text_of(html)


def test_a_players_page_shows_no_unfinished_match_and_refuses_strangers(make_user: Any) -> None:
    match, users = started_match(make_user, "police_alarm", players=2)
    page = client_for(users[1]).get(reverse("player", args=[users[0].username]))
    assert page.status_code == 200
    assert f"#{match.pk}" not in page.content.decode()  # a match still being played is nobody else's business
    assert users[0].email not in page.content.decode()
    assert client_for(users[1]).get(reverse("player", args=["nobody-of-that-name"])).status_code == 404
    users[0].is_active = False
    users[0].save()
    assert client_for(users[1]).get(reverse("player", args=[users[0].username])).status_code == 404
    assert Client().get(reverse("player", args=[users[1].username])).status_code == 302  # to the login


def test_my_matches_filters_by_game_state_and_turn_and_shows_only_mine(make_user: Any) -> None:
    me = make_user()
    done = finished(make_user, [me, make_user()])
    playing, _users = started_match(make_user, "heist", players=3)
    mine_playing = services.do_create_match(me, "heist", 3, {}, 86400 * 3)
    client = client_for(me)

    def listed(**query: str) -> set[int]:
        html = client.get(reverse("my_matches"), query).content.decode()
        return {int(n) for n in re.findall(r"#(\d+)</a>", html)}

    assert listed() == {done.pk, mine_playing.pk}
    assert playing.pk not in listed()
    assert listed(game="police_alarm") == {done.pk}
    assert listed(state="finished") == {done.pk}
    assert listed(state="playing") == {mine_playing.pk}
    assert listed(my_turn="on") == set()
    bad = client.get(reverse("my_matches"), {"game": "chess", "state": "finished"}).content.decode()
    assert "could not be read" in bad and "chess" not in text_of(bad).split("could not be read")[0]
    assert listed(game="chess", state="finished") == {done.pk}  # the readable filter still applies


def test_my_matches_marks_my_turn_and_pages_a_long_list(make_user: Any) -> None:
    match, users = started_match(make_user, "heist", players=3)
    waited = [seat for seat, user in users.items() if match.seats.get(number=seat).waiting_since]
    assert waited
    me = users[waited[0]]
    html = client_for(me).get(reverse("my_matches"), {"my_turn": "on"}).content.decode()
    assert f"#{match.pk}</a>" in html and "Your turn" in html
    for _ in range(21):
        services.do_create_match(me, "heist", 3, {}, 60)
    first = client_for(me).get(reverse("my_matches")).content.decode()
    second = client_for(me).get(reverse("my_matches"), {"page": "2"}).content.decode()
    assert "Page 1 of 2" in first and "Page 2 of 2" in second
    assert len(re.findall(r"#\d+</a>", first)) == 20 and len(re.findall(r"#\d+</a>", second)) == 2
    assert "?page=2" in first
    assert client_for(me).get(reverse("my_matches"), {"page": "many"}).status_code == 200  # the first page


def test_the_leaderboard_orders_rated_players_and_leaves_out_bot_matches(make_user: Any) -> None:
    winner_first = finished(make_user)
    assert winner_first.outcome is not None
    host = make_user("botfan")
    bot_match = services.do_create_match(host, "police_alarm", 2, {}, 60)
    services.do_add_bot(bot_match.pk, host)
    services.do_start_match(bot_match.pk, host)
    services.do_resign(bot_match.pk, bot_match.seats.get(user=host).number)
    html = client_for(host).get(reverse("leaderboard", args=["police_alarm"])).content.decode()
    names = re.findall(r'<th scope="row"><a href="/u/([^/]+)/">', html)
    ranked = sorted(Rating.objects.filter(game="police_alarm"), key=lambda r: -r.ordinal)
    assert names == [r.user.username for r in ranked]
    assert "botfan" not in names
    assert html.count('class="badge">provisional') == 2
    assert client_for(host).get(reverse("leaderboard", args=["chess"])).status_code == 404
    assert client_for(host).get(reverse("leaderboard_index")).status_code == 200


def test_the_final_screen_shows_every_players_rating_change_and_their_pages(make_user: Any) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    match = finished(make_user, [alice, bob])
    for viewer in (alice, bob, make_user()):
        html = client_for(viewer).get(reverse("match", args=[match.pk])).content.decode()
        status = html.split('id="match-status"')[1].split("</div>")[0]
        assert len(re.findall(r"\(rating [+\u2212\u00b1]\d+\)", status)) == 2
        assert 'href="/u/alice/"' in status and 'href="/u/bob/"' in status


def test_the_pages_speak_traditional_chinese(make_user: Any) -> None:
    me = make_user()
    finished(make_user, [me, make_user()])
    me.profile.language = "zh-hant"
    me.profile.save()
    client = client_for(me)
    client.cookies["django_language"] = "zh-hant"
    for url in (reverse("player", args=[me.username]), reverse("my_matches"), reverse("leaderboard_index")):
        html = client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hant").content.decode()
        assert 'lang="zh-hant"' in html.lower() or 'lang="zh-Hant"' in html
        for english in ("Recent matches", "My matches", "Leaderboard:", "provisional", "Rated matches", "Played"):
            assert english not in text_of(html), (url, english)


def test_the_waiting_room_links_each_seated_player_to_their_page(make_user: Any) -> None:
    host, guest = make_user("hana"), make_user("ivo")
    match = services.do_create_match(host, "heist", 4, {}, 60)
    services.do_join_match(match.pk, guest)
    services.do_add_bot(match.pk, host)
    html = client_for(guest).get(reverse("match", args=[match.pk])).content.decode()
    panel = html.split('class="lobby-panel', 1)[1]
    assert 'href="/u/hana/"' in panel and 'href="/u/ivo/"' in panel
    assert panel.count('href="/u/') == 2  # a bot has no page
