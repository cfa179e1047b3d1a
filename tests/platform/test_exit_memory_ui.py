"""exit_memory on the site: pages and socket pushes of real matches played through the one write
path are searched for every tile id their viewer may not see (section 8, R-57, R-59, R-60), and a
round is played from a page's own forms to the walk and the next round."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.engines.base import SYSTEM
from games.engines.exit_memory import RULES
from games.engines.exit_memory.state import EXTRA, TURN, State
from games.models import Match
from games.play import services
from games.play.store import load_state

from .helpers import (
    client_for,
    page_html,
    page_viewers,
    play_bots,
    play_checking_pages,
    started_match,
    state_of,
    tiles_hidden_from,
)
from .page_text import LATIN_PHRASE, visible_text
from .watch import bots_watched

pytestmark = pytest.mark.django_db(transaction=True)

TILE_ID = re.compile(r"\bT\d\d\b")


@pytest.mark.parametrize(("players", "options"), [(3, {}), (4, {"danger": True})])
def test_no_page_shows_a_tile_its_viewer_may_not_see_section_8(
    make_user: Any, players: int, options: dict[str, Any]
) -> None:
    match, users = started_match(make_user, "exit_memory", players, options)
    clients = page_viewers(make_user, users)

    def check(html: str, state: State, seat: int | None) -> None:
        leaked = tiles_hidden_from(state, seat) & set(TILE_ID.findall(html))
        assert not leaked, f"seat {seat} was shown {leaked}"
        if seat is not None and state.phase in (TURN, EXTRA) and state.turn == seat:
            for tile in state.hands[seat]:  # my own tiles are on my page, as forms
                assert f"&quot;tile&quot;:&quot;{tile}&quot;" in html

    final, checked = play_checking_pages(match, clients, random.Random(players), 400, check)
    assert checked >= 15 * len(clients)  # three rounds at least; the match seed varies
    assert final.phase == "over", "the bots did not finish the game"


@pytest.mark.asyncio
async def test_no_socket_message_carries_a_tile_its_seat_may_not_see_section_8(make_user: Any) -> None:

    def check(text: str, seen: State, seat: int | None) -> None:
        leaked = tiles_hidden_from(seen, seat) & set(TILE_ID.findall(text))
        assert not leaked, f"seat {seat} was sent {leaked}"

    assert await bots_watched(make_user, "exit_memory", 5, check) > 60


def test_a_round_played_from_the_pages_forms_reaches_the_walk_and_the_next_round(make_user: Any) -> None:
    match, users = started_match(make_user, "exit_memory", 2)
    clients = {seat: client_for(user) for seat, user in users.items()}
    state = load_state(match)
    seat = state.turn
    html = page_html(clients[seat], match)
    assert "Declare lost" in html and "Only the top tile can be seen" in html
    fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', html.split("Declare lost")[0].rsplit("<form", 1)[1]))
    fields["action"] = fields["action"].replace("&quot;", '"')
    response = clients[seat].post(reverse("match_action", args=[match.pk]), fields)
    assert response.status_code in (200, 302, 303)
    state = state_of(match)
    assert state.phase == "summary" and state.result is not None  # two players: a declaration ends the round
    for viewer in clients.values():
        page = page_html(viewer, match)
        assert "the route" in page and "Skip the walk" in page and "Ready for the next round" in page
    for number in clients:
        services.do_submit_action(match.pk, number, {"type": "ready"})
    assert state_of(match).round == 2


def test_how_to_play_draws_every_tile(client: Client) -> None:
    response = client.get(reverse("how_to_play", args=["exit_memory"]))
    assert response.status_code == 200
    html = response.content.decode()
    for kind in ("START", "STRAIGHT", "LEFT", "RIGHT", "DOUBLE_LEFT", "DOUBLE_RIGHT", "CROSS", "ROUNDABOUT"):
        assert f'href="#em-{kind}"' in html
    assert "R-" not in html and "FL0" not in html and "DG1" not in html


def test_a_chinese_page_has_no_english_left(make_user: Any) -> None:
    match, users = started_match(make_user, "exit_memory", 3, {"danger": True})
    clients = []
    for user in users.values():
        user.profile.language = "zh-hant"
        user.profile.save()
        client = client_for(user)
        client.cookies["django_language"] = "zh-hant"
        clients.append(client)
    rng = random.Random(3)
    for _ in range(40):
        for client in clients:
            text = visible_text(
                client.get(reverse("match", args=[match.pk]), HTTP_ACCEPT_LANGUAGE="zh-hant").content.decode()
            )
            assert "緊急出口" in text
            phrases = [p for p in LATIN_PHRASE.findall(text) if "Player" not in p]
            assert not phrases, phrases
        play_bots(match, rng, 3)


def test_R70_a_player_who_never_answers_gets_the_defaults_marked_as_timed_out(make_user: Any) -> None:
    """Two bots and a person who never answers: each of the person's deadlines passes and its
    default applies (a placement of the lowest tile, keep, Ready), marked as automatic in the
    event and on the page's log, and the game goes on to the next rounds."""
    host = make_user()
    match = services.do_create_match(host, "exit_memory", 3, {}, 3600)
    services.do_add_bot(match.pk, host)
    services.do_add_bot(match.pk, host)
    services.do_start_match(match.pk, host)  # eager Celery: the bots move until the person is asked
    match.refresh_from_db()
    human = next(s.number for s in match.seats.all() if s.user_id == host.pk)
    for _ in range(300):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE or load_state(match).round >= 3:
            break
        state = load_state(match)
        deadline = min(RULES.deadlines(state), key=lambda d: d.due)
        assert human in deadline.seats, f"the bots left a decision unmade: {deadline}"
        assert services.do_force_timeout(match.pk) is not None
    state = state_of(match)
    assert state.round >= 3 or match.status == Match.Status.FINISHED, "a game of time-outs did not go on"
    mine = [e for e in match.events.all() if e.data.get("seat") == human and e.actor == SYSTEM]
    kinds = {e.type for e in mine}
    assert "timed_out" in kinds and "ready" in kinds, kinds
    assert "tile_placed" in kinds, kinds
    assert all(e.data.get("auto") for e in mine if e.type in ("tile_placed", "chain_reply", "passed", "ready"))
    page = page_html(client_for(host), match)
    assert "(time ran out)" in page
