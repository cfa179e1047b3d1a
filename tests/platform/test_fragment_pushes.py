"""Fragment pushes rebuild exactly the board a full render gives, for every seat and a spectator.

Random heist and bridge_race games are played through the write path with every player's socket
and a spectator's open. Each update a socket receives is applied to what that page showed before
(whole partials, or the changed fragments on top of the diff's base, log lines appended), and the
result must equal a fresh full render of that viewer's board and log.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import translation

from games.models import Match
from games.play import guarded, services
from games.push import pushes

from .helpers import random_move, started_match
from .pagesim import Page, matches_spans, normal, span, spans
from .socket_clients import open_page

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def drain(communicator: WebsocketCommunicator) -> list[dict[str, Any]]:
    out = []
    while not await communicator.receive_nothing(timeout=0.05, interval=0.01):
        message = await communicator.receive_json_from(timeout=5)
        if message["type"] in ("update", "part"):  # a part: a diff's shared fragments, sent ahead of it
            out.append(message)
    return out


async def catch_up(communicator: WebsocketCommunicator, page: Page, revision: int) -> int:
    """Apply what the socket sends, in order, until the page shows ``revision`` (a spectator renders
    its own board on a ping: it may come later); returns how many of the messages were diffs. What
    comes after that revision stays queued for the next call."""
    diffs = 0
    while page.revision() < revision:
        message = await communicator.receive_json_from(timeout=5)
        if message["type"] in ("update", "part"):  # a part: a diff's shared fragments, sent ahead of it
            diffs += "base" in message
            page.apply(message)
    return diffs


def fresh(match_id: int, user: Any) -> tuple[str, str]:
    match = Match.objects.get(pk=match_id)
    # In the viewer's language, as the socket renders it (a thread may still hold an earlier test's).
    with translation.override(pushes.user_language(user)):
        rendered = pushes.render_seat(match, user, {"board", "log"})
    html = rendered.board_html() + rendered.log_html
    return _section(html, "board"), _section(html, "log")


def _section(html: str, ident: str) -> str:
    start, end = span(html, ident)
    return normal(html[start:end])


@pytest.mark.parametrize(
    ("game", "players", "moves", "seed"),
    [
        ("heist", 4, 40, 1),
        ("heist", 3, 60, 4),
        ("bridge_race", 3, 25, 2),
        ("dirty_money", 3, 40, 3),
        ("exit_memory", 3, 40, 6),
    ],
)
async def test_fragment_pushes_rebuild_the_full_board_for_every_viewer(
    make_user: Any, game: str, players: int, moves: int, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On PostgreSQL most of these pushes are rendered while their write is on the wire
    (games.play.render_ahead): the pages check those too, and the test that some were."""
    real_publish = pushes.publish
    sent_ahead: list[bool] = []

    def publish(*args: Any, **hints: Any) -> None:
        sent_ahead.append(hints.get("ahead") is not None)
        real_publish(*args, **hints)

    monkeypatch.setattr(pushes, "publish", publish)
    match, by_seat = await sync_to_async(started_match)(make_user, game, players)
    spectator = await sync_to_async(make_user)()
    viewers: dict[int | None, Any] = {None: spectator}  # the spectator first: it renders for itself
    for number, user in by_seat.items():
        viewers[number] = user
    pages = {seat: await open_page(user, match.pk) for seat, user in viewers.items()}
    rng = random.Random(seed)
    diffs = 0
    for _ in range(moves):
        if not await sync_to_async(random_move)(match.pk, rng):
            break
        revision = await sync_to_async(lambda: Match.objects.get(pk=match.pk).revision)()
        for seat, (communicator, page) in pages.items():
            diffs += await catch_up(communicator, page, revision)
            assert page.revision() >= revision, f"seat {seat}'s page never reached revision {revision}"
            assert page.resyncs == 0, f"seat {seat} was sent a diff for a board it did not show"
            board, log = await sync_to_async(fresh)(match.pk, viewers[seat])
            assert _section(page.html, "board") == board, f"seat {seat}'s board differs from a full render"
            assert _section(page.html, "log") == log, f"seat {seat}'s log differs from a full render"
    assert diffs > 0, "no update was sent as a diff"
    assert all(matches_spans(page.html) for _communicator, page in pages.values())  # pagesim's fast finder
    # PostgreSQL's guarded write, not the ORM path: the pushes of most moves were rendered ahead.
    assert (sum(sent_ahead) > len(sent_ahead) / 2) == guarded.enabled(), sent_ahead
    for communicator, _page in pages.values():
        await communicator.disconnect()


async def test_an_opponents_push_carries_only_the_fragments_that_changed(make_user: Any) -> None:
    """After one heist choice, an opponent is sent the changed fragments and the new log line only."""
    match, by_seat = await sync_to_async(started_match)(make_user, "heist", 4)
    communicator, page = await open_page(by_seat[1], match.pk)
    await sync_to_async(services.do_submit_action)(match.pk, 0, {"type": "choose", "roles": ["GOON"]})
    first = await communicator.receive_json_from(timeout=5)  # the layer may be Redis: wait for it
    messages = [first, *await drain(communicator)]
    # The chooser's public panel goes ahead in a part of its own (see the test below), the rest after it.
    assert [m["type"] for m in messages] == ["part", "update"]
    update = messages[-1]
    assert all(m["base"] == page.revision() for m in messages)
    fragments = "".join(f for m in messages for f in m["frags"])
    sent = {ident for ident in spans(fragments) if ident in {"heist-actions", "heist-me"}}
    assert sent == set(), "my own panel and actions did not change and must not be sent again"
    assert 'id="board"' not in fragments and 'id="log"' not in fragments and not update["html"]
    assert "has chosen" in fragments and "chose" in update["log"]
    assert len(fragments.encode()) + len(update["log"].encode()) < len(page.html.encode()) / 2
    await communicator.disconnect()


async def test_a_move_is_published_once_for_every_seat_and_each_socket_takes_its_own_part(
    make_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 8, item 4: one publish per match per move (with the spectators' ping, one hop to the
    channel layer); the players' message holds each connected seat's part, and a seat's socket is
    sent its own part only (a secret choice shows to its chooser alone)."""
    match, by_seat = await sync_to_async(started_match)(make_user, "heist", 4)
    pages = {seat: await open_page(user, match.pk) for seat, user in by_seat.items()}
    real_send_many = pushes.send_many
    published: list[list[tuple[str, dict[str, Any]]]] = []

    def recording(messages: list[tuple[str, dict[str, Any]]]) -> None:
        published.append(list(messages))
        real_send_many(messages)

    monkeypatch.setattr(pushes, "send_many", recording)
    await sync_to_async(services.do_submit_action)(match.pk, 0, {"type": "choose", "roles": ["GOON"]})
    assert [[group for group, _message in call] for call in published] == [
        [pushes.players_group(match.pk), pushes.watch_group(match.pk)]
    ]
    players = published[0][0][1]
    assert sorted(part["seat"] for part in players["seats"]) == [0, 1, 2, 3]
    for seat, (communicator, _page) in pages.items():
        diffs = [u for u in await drain(communicator) if u.get("base") is not None]
        for _wait in range(50):
            if any(u["type"] == "update" for u in diffs):
                break
            await communicator.receive_nothing(timeout=0.1)
            diffs += [u for u in await drain(communicator) if u.get("base") is not None]
        updates = [u for u in diffs if u["type"] == "update"]
        assert len(updates) == 1
        sent = "".join(f for u in diffs for f in u["frags"]) + updates[0]["log"]
        assert ("You chose Goon" in sent) is (seat == 0)
        await communicator.disconnect()


async def test_a_socket_that_missed_a_version_gets_its_whole_board_and_log(
    make_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A push carries only the log's new lines; a page that lacks the version before them (the push
    for it was lost, or two processes' pushes crossed) is sent its whole board and log instead."""
    match, by_seat = await sync_to_async(started_match)(make_user, "heist", 4)
    communicator, page = await open_page(by_seat[1], match.pk)
    real_send_many = pushes.send_many
    lost: list[int] = []

    def lose_the_first_update_of_seat_1(messages: list[tuple[str, dict[str, Any]]]) -> None:
        for group, message in messages:
            if message.get("type") == "seats.update" and group == pushes.players_group(match.pk) and not lost:
                mine = next(part for part in message["seats"] if part["seat"] == 1)
                lost.append(mine["version"])
                message["seats"] = [part for part in message["seats"] if part is not mine]
        real_send_many(messages)

    monkeypatch.setattr(pushes, "send_many", lose_the_first_update_of_seat_1)
    await sync_to_async(services.do_submit_action)(match.pk, 0, {"type": "choose", "roles": ["GOON"]})
    await sync_to_async(services.do_submit_action)(match.pk, 2, {"type": "choose", "roles": ["THUG"]})
    updates = await drain(communicator)
    for _wait in range(50):
        if updates:
            break
        await communicator.receive_nothing(timeout=0.1)
        updates = await drain(communicator)
    assert lost, "the first move's push to seat 1 was not dropped"
    whole = [u for u in updates if u["type"] == "update"]  # a part may go ahead of it
    assert len(whole) == 1 and 'id="log"' in whole[0]["html"], "the whole log was not sent"
    for update in updates:
        page.apply(update)
    board, log = await sync_to_async(fresh)(match.pk, by_seat[1])
    assert _section(page.html, "board") == board and _section(page.html, "log") == log
    assert "chose" in log
    await communicator.disconnect()


def record_sends(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int | None, dict[str, Any], bool]]:
    """What every consumer sends its client from now on: (its seat, the message, marked for compression)."""
    import json

    from games.sockets.consumers import MatchConsumer

    sent: list[tuple[int | None, dict[str, Any], bool]] = []
    real_send_text = MatchConsumer._send_text

    async def recording(self: MatchConsumer, text: str, *, deflate: bool) -> None:
        sent.append((self.seat, json.loads(text), deflate))
        await real_send_text(self, text, deflate=deflate)

    monkeypatch.setattr(MatchConsumer, "_send_text", recording)
    return sent


async def moves_caught_up(
    match_id: int,
    pages: dict[int, tuple[WebsocketCommunicator, Page]],
    by_seat: dict[int, Any],
    rng: random.Random,
    most: int,
    sent: list[Any],
) -> AsyncIterator[None]:
    """Up to ``most`` random moves (fewer if the game ends), each given back once every page caught
    up with it (:func:`all_caught_up`), ``sent`` holding what that move sent (:func:`record_sends`)."""
    for _ in range(most):
        sent.clear()
        if not await sync_to_async(random_move)(match_id, rng):
            return
        await all_caught_up(match_id, pages, by_seat)
        yield None


async def all_caught_up(
    match_id: int, pages: dict[int, tuple[WebsocketCommunicator, Page]], by_seat: dict[int, Any]
) -> None:
    """Every seat's page, its pushes applied, shows the match's revision as a full render draws it."""
    revision = await sync_to_async(lambda: Match.objects.get(pk=match_id).revision)()
    for seat, (communicator, page) in pages.items():
        await catch_up(communicator, page, revision)
        board, _log = await sync_to_async(fresh)(match_id, by_seat[seat])
        assert _section(page.html, "board") == board, f"seat {seat}'s board differs from a full render"


async def test_a_diffs_shared_fragments_go_ahead_compressed_and_its_secrets_plain(
    make_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 8 (bytes per move) and the BREACH rule: a heist diff's large shared fragments (every
    seat's public panel, the table) are sent first in a ``part`` marked for compression, holding
    exactly the spectator's fragments and nothing of the seat's own; the ``update`` after it holds
    the rest, the seat's secrets among them, and is sent plain."""
    sent = record_sends(monkeypatch)
    match, by_seat = await sync_to_async(started_match)(make_user, "heist", 4)
    pages = {seat: await open_page(user, match.pk) for seat, user in by_seat.items()}
    parts = 0
    async for _ in moves_caught_up(match.pk, pages, by_seat, random.Random(5), 40, sent):
        spectator_view = await sync_to_async(fresh)(match.pk, None)
        for _seat, message, deflate in sent:
            if message["type"] == "part":
                parts += 1
                assert deflate is True
                for fragment in message["frags"]:
                    ident = next(iter(spans(fragment, top_only=True)))
                    shared = ("heist-seat-", "heist-status", "heist-pool", "heist-result", "match-status")
                    assert ident.startswith(shared)
                    assert normal(fragment) in spectator_view[0], f"{ident} is not the spectator's"
            elif message["type"] == "update" and message.get("base") is not None:
                assert deflate is False, "a heist player's diff holds its secrets: never compressed"
                for fragment in message["frags"]:
                    ident = next(iter(spans(fragment, top_only=True)))
                    assert not ident.startswith(("heist-seat-", "heist-pool")) or len(fragment) < 512
    assert parts > 0, "no shared fragments were sent ahead"
    for communicator, _page in pages.values():
        await communicator.disconnect()


async def test_a_bridge_race_diffs_shared_part_is_the_same_message_for_every_seat(
    make_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 8 (server CPU per move): bridge_race's bridge layers and dashboards are shared fragments.
    A diff sends them first, in a ``part`` marked for compression that is the same text for every
    seat whose page showed the same board, so that a process compresses it once for all of them
    (games.runtime.wscompress.deflate); each seat's ``update`` after it holds only the rest."""
    import json

    sent = record_sends(monkeypatch)
    match, by_seat = await sync_to_async(started_match)(make_user, "bridge_race", 5)
    pages = {seat: await open_page(user, match.pk) for seat, user in by_seat.items()}
    alike = 0
    async for _ in moves_caught_up(match.pk, pages, by_seat, random.Random(11), 30, sent):
        parts = {seat: message for seat, message, _deflate in sent if message["type"] == "part"}
        assert all(deflate for _seat, message, deflate in sent if message["type"] == "part")
        texts = {json.dumps(message) for message in parts.values()}
        assert len(texts) <= 1, "the seats' parts differ"
        if len(parts) == len(by_seat):
            alike += 1
            shared = ("br-backdrop", "br-objects", "br-cars", "br-piles", "br-dash-", "match-status")
            for fragment in next(iter(parts.values()))["frags"]:
                assert next(iter(spans(fragment, top_only=True))).startswith(shared)
            for _seat, message, _deflate in sent:
                if message["type"] == "update":
                    for fragment in message.get("frags", []):
                        assert not next(iter(spans(fragment, top_only=True))).startswith(shared)
    assert alike > 10, "few moves sent every seat the same part"
    for communicator, _page in pages.values():
        await communicator.disconnect()
