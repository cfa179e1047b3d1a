"""Issue 10, item 1: a How to play page per game, in both languages, linked from the lobby, the create
form and the match page; pieces drawn as the board draws them; no rule ids or internal ids shown."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.engines.registry import available
from games.web.guides import GUIDES

from .helpers import started_match
from .page_text import LATIN_PHRASE, visible_text

pytestmark = pytest.mark.django_db

OFFERED = [slug for slug in available() if slug in GUIDES]
# What a rule id or an engine id looks like: R-12, EU-01, ACT-INS2, V4-BEAR, THUG, C1, B07, A14, LOC-EU…
INTERNAL = re.compile(r"\bR-\d+\b|\b(?:EU|US|JP)-\d\d\b|\bACT-|\bV\d-|\bLOC-|\b[A-Z]{4,}\b|\b[ABC]\d\d?\b")


def page(slug: str, language: str = "en") -> str:
    client = Client()
    client.cookies["django_language"] = language
    response = client.get(reverse("how_to_play", args=[slug]), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def test_every_game_on_the_site_has_a_guide() -> None:
    assert set(OFFERED) == set(available()) and OFFERED


@pytest.mark.parametrize("slug", OFFERED)
def test_item1_guide_has_goal_turn_pictures_and_example_without_internal_ids(slug: str) -> None:
    html = page(slug)
    for anchor in ('id="goal"', 'id="example"', 'id="end"'):
        assert anchor in html
    text = visible_text(html)
    assert not INTERNAL.findall(text), INTERNAL.findall(text)
    assert "<svg" in html or "dm-card" in html or "role-card" in html


def test_item1_heist_guide_draws_every_role_card_with_what_it_does() -> None:
    html = page("heist")
    assert html.count('class="role-card') == 5
    for name, help_start in (
        ("Informant", "Revealed first"),
        ("Thug", "Always gets its stake back"),
        ("Driver", "Collects 1M"),
        ("Goon", "Takes 2M"),
        ("Mastermind", "Adds 2M"),
    ):
        assert re.search(rf'role-title">{name}</strong>\s*<span class="role-help">{help_start}', html), name


def test_item1_bridge_race_guide_uses_the_boards_symbols() -> None:
    html = page("bridge_race")
    assert '<symbol id="br-s-car"' in html  # the board's own sprite
    for face in ("POINTER", "STEER", "SHOOT", "REPAIR", "DAMAGE"):
        assert f'href="#br-f-{face}"' in html
    assert html.count('href="#br-s-car"') >= 6  # the legend's car and the five characters
    for name in ("Pipetta", "Don Mochico", "W.B. Spender", "John Duke", "Clyde Parker", "Homing Bullet", "Acid Pool"):
        assert name in html


def test_item1_dirty_money_guide_draws_cards_as_the_board_does() -> None:
    html = page("dirty_money")
    assert html.count('class="dm-card money') == 7 and html.count('class="dm-card action') == 8
    assert "☠" in html and html.count('class="dm-place ') == 11
    for name in ("The Launderer", "The Loan Shark", "Banana Republic", "Auction House"):
        assert name in html


@pytest.mark.parametrize("slug", OFFERED)
def test_item1_guide_speaks_traditional_chinese_throughout(slug: str) -> None:
    html = page(slug, "zh-hant")
    assert '<html lang="zh-hant">' in html
    text = visible_text(html)
    english = [p for p in LATIN_PHRASE.findall(text) if p not in {"W.B. Spender"}]
    assert not english, english
    assert "遊戲說明" in text


def test_item1_unknown_and_unoffered_games_have_no_guide() -> None:
    client = Client()
    assert client.get("/how-to-play/nothing/").status_code == 404
    for slug in set(GUIDES) ^ set(available()) | {"police_alarm"}:
        if slug not in OFFERED:
            assert client.get(f"/how-to-play/{slug}/").status_code == 404


def test_item1_guides_are_linked_from_lobby_nav_create_form_and_match(make_user: Any) -> None:
    client = Client()
    lobby = client.get(reverse("lobby")).content.decode()
    for slug in OFFERED:
        assert reverse("how_to_play", args=[slug]) in lobby
    assert reverse("how_to_play_index") in lobby  # the navigation bar, on every page
    index = client.get(reverse("how_to_play_index")).content.decode()
    assert all(reverse("how_to_play", args=[slug]) in index for slug in OFFERED)
    match, by_seat = started_match(make_user)
    player = Client()
    player.force_login(by_seat[0])
    create = player.get(reverse("match_create")).content.decode()
    for slug in OFFERED:
        assert f'data-guide="{slug}" href="{reverse("how_to_play", args=[slug])}"' in create
    board = player.get(match.get_absolute_url()).content.decode()
    assert reverse("how_to_play", args=[match.game]) in board


def test_item1_a_guide_offers_to_start_that_game(make_user: Any) -> None:
    client = Client()
    client.force_login(make_user())
    html = client.get(reverse("how_to_play", args=["dirty_money"])).content.decode()
    assert f'href="{reverse("match_create")}?game=dirty_money"' in html
    form = client.get(reverse("match_create") + "?game=dirty_money").content.decode()
    assert re.search(r'<option value="dirty_money" selected>', form)


def test_item1_heist_roles_on_the_board_explain_themselves(make_user: Any) -> None:
    from .helpers import choose_all

    match, by_seat = started_match(make_user)
    choose_all(match, "DRIVER")
    client = Client()
    client.force_login(by_seat[0])
    html = client.get(match.get_absolute_url()).content.decode()
    mine = html.split("Your role:", 1)[1].split("</p>", 1)[0]
    assert 'data-tip="Collects 1M from every other surviving hand."' in mine and "Driver" in mine
    pool = html.split('class="pool"', 1)[1].split('id="heist-result"', 1)[0]
    assert pool.count('class="tip role-name"') >= 3  # the face-up pool's role cards explain the role too
