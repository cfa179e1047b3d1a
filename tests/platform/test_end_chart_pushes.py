"""The move that ends a match pushes the end-of-game chart to every open page, and the page rebuilt
from the pushes equals a full render; before that move no push carries a chart or its series."""

from __future__ import annotations

import random
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import translation

from games.engines.registry import get_rules
from games.models import Match
from games.play.store import load_state
from games.push import pushes

from .helpers import play_bots, started_match
from .pagesim import Page, normal, spans
from .socket_clients import open_page

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def catch_up(communicator: WebsocketCommunicator, page: Page, revision: int, sent: list[str]) -> None:
    """Apply what the socket sends (each message's text kept in ``sent``) until ``revision``."""
    for _wait in range(50):
        while not await communicator.receive_nothing(timeout=0.05, interval=0.01):
            message = await communicator.receive_json_from(timeout=5)
            sent.append(repr(message))
            if message["type"] in ("update", "part"):
                page.apply(message)
        if page.revision() >= revision:
            return


def fresh_board(match_id: int, user: Any) -> str:
    match = Match.objects.get(pk=match_id)
    with translation.override(pushes.user_language(user)):
        html = pushes.render_seat(match, user, {"board"}).board_html()
    start, end = spans(html)["board"]
    return normal(html[start:end])


def board_of(page: Page) -> str:
    start, end = spans(page.html)["board"]
    return normal(page.html[start:end])


async def test_the_last_move_pushes_the_chart_and_the_page_equals_a_full_render(make_user: Any) -> None:
    match, by_seat = await sync_to_async(started_match)(make_user, "exit_memory", 3)
    rules = get_rules("exit_memory")
    rng = random.Random(11)

    def near_the_end() -> Any:
        for _ in range(400):  # without sockets until a seat is one point from winning
            state = play_bots(match, rng, 1)
            if max(state.scores) >= state.target - 1 or rules.outcome(state) is not None:
                return state
        raise AssertionError("the game never came near its end")

    state = await sync_to_async(near_the_end)()
    assert rules.outcome(state) is None
    viewers: dict[int | None, Any] = {None: await sync_to_async(make_user)()}
    for number, user in by_seat.items():
        viewers[number] = user
    pages = {seat: await open_page(user, match.pk) for seat, user in viewers.items()}
    sent: dict[int | None, list[str]] = {seat: [] for seat in viewers}
    for _ in range(400):
        await sync_to_async(play_bots)(match, rng, 1)
        current = await sync_to_async(Match.objects.get)(pk=match.pk)
        over = current.status == Match.Status.FINISHED
        for seat, (communicator, page) in pages.items():
            await catch_up(communicator, page, current.revision, sent[seat])
            if not over:
                assert "chart-svg" not in page.html and "score_history" not in "".join(sent[seat])
        if over:
            break
    final = await sync_to_async(load_state)(match)
    assert rules.outcome(final) is not None, "the game did not end"
    for seat, (communicator, page) in pages.items():
        assert 'class="chart-svg"' in page.html, f"seat {seat}'s page got no chart"
        assert board_of(page) == await sync_to_async(fresh_board)(match.pk, viewers[seat])
        await communicator.disconnect()
