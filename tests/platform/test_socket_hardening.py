"""Issue 9's socket items: revoked users, hostile frames, floods, private chat, refusals the page can read."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from games.models import ChatMessage, MatchEvent
from games.web import ratelimit

from .helpers import started_match
from .socket_clients import act, answer_to, as_user, connect

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def closed_with(communicator: WebsocketCommunicator) -> int:
    while True:
        message = await communicator.receive_output(timeout=2)
        if message["type"] == "websocket.close":
            return int(message.get("code", 1000))


async def errors_until_quiet(communicator: WebsocketCommunicator) -> list[dict[str, Any]]:
    out = []
    while not await communicator.receive_nothing(timeout=0.2):
        out.append(await communicator.receive_json_from(timeout=2))
    return out


async def test_item3_a_deactivated_user_is_cut_off_within_a_second(make_user: Any) -> None:
    match, by_seat = await sync_to_async(started_match)(make_user)
    user = by_seat[0]
    socket = await connect(user, match.pk)
    user.is_active = False
    await sync_to_async(user.save)()
    assert await closed_with(socket) == 4401
    before = await sync_to_async(MatchEvent.objects.filter(match=match).count)()
    stale = WebsocketCommunicator(as_user(user), f"/ws/match/{match.pk}/")
    connected, _ = await stale.connect()
    assert connected
    assert await closed_with(stale) == 4401  # an inactive user's new socket is refused
    assert await sync_to_async(MatchEvent.objects.filter(match=match).count)() == before


async def test_item3_a_socket_opened_by_an_inactive_user_cannot_act(make_user: Any) -> None:
    """The write path checks the user again: a socket whose revocation was missed writes nothing."""
    from games.sockets.consumers import MatchConsumer

    match, by_seat = await sync_to_async(started_match)(make_user)
    user = by_seat[0]
    socket = await connect(user, match.pk)
    real = MatchConsumer.user_revoked

    async def missed(self: Any, event: Any) -> None:  # this daphne never heard of it
        return None

    MatchConsumer.user_revoked = missed  # type: ignore[method-assign]
    try:
        user.is_active = False
        await sync_to_async(user.save)()
        await socket.send_json_to(act({"type": "choose"}, match.version, "h3", **{"roles[]": ["GOON"]}))
        assert (await answer_to(socket))["status"] == 403
        await socket.send_json_to({"type": "chat", "text": "still here?"})
        assert (await socket.receive_json_from(timeout=2))["type"] == "error"
    finally:
        MatchConsumer.user_revoked = real  # type: ignore[method-assign]
    assert not await sync_to_async(ChatMessage.objects.filter(match=match).exists)()
    await socket.disconnect()


@pytest.mark.parametrize(
    "frame",
    [
        "not json",
        "[" * 20000,
        '{"type": "sync", "revision": ' + "9" * 5000 + "}",
        "[1, 2, 3]",
        '"a string"',
        '{"type": "act", "action": "' + "[" * 3000 + '"}',
        "x" * 20000,
    ],
)
async def test_item4_hostile_frames_get_an_error_and_the_socket_stays_open(make_user: Any, frame: str) -> None:
    match, by_seat = await sync_to_async(started_match)(make_user)
    socket = await connect(by_seat[0], match.pk)
    await socket.send_to(text_data=frame)
    replies = await errors_until_quiet(socket)
    assert replies and all(r["type"] in ("error", "answer", "update") for r in replies)
    assert any(r["type"] in ("error", "answer") for r in replies)
    await socket.send_json_to({"type": "sync", "revision": 0, "chat_version": 0})
    assert (await socket.receive_json_from(timeout=5))["type"] == "update"  # still serving
    await socket.disconnect()


async def test_item4_binary_frames_and_huge_sync_numbers_change_nothing(make_user: Any) -> None:
    match, by_seat = await sync_to_async(started_match)(make_user)
    socket = await connect(by_seat[0], match.pk)
    await socket.send_to(bytes_data=b"\x00\xff" * 100)
    assert (await socket.receive_json_from(timeout=2))["type"] == "error"
    await socket.send_json_to({"type": "sync", "revision": 10**30, "chat_version": -(10**30)})
    assert (await socket.receive_json_from(timeout=5))["type"] == "update"  # treated as "I have nothing"
    await socket.send_json_to({"type": "chat", "text": "bad\x00byte"})
    assert (await socket.receive_json_from(timeout=2))["type"] == "error"
    assert not await sync_to_async(ChatMessage.objects.filter(match=match).exists)()
    await socket.disconnect()


async def test_item9_sync_and_chat_floods_are_limited_with_a_message(
    make_user: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ratelimit, "clock", lambda: 1_000_020.0)  # one window, however slow the run
    settings.HIDEOUT_RATE_LIMITS = {"sync": "2/60", "chat": "2/60"}
    match, by_seat = await sync_to_async(started_match)(make_user)
    socket = await connect(by_seat[0], match.pk)
    for _ in range(2):
        await socket.send_json_to({"type": "sync", "revision": 0, "chat_version": 0})
        assert (await socket.receive_json_from(timeout=5))["type"] == "update"
    await socket.send_json_to({"type": "sync", "revision": 0, "chat_version": 0})
    refusal = await socket.receive_json_from(timeout=2)
    assert refusal["type"] == "error" and "Try again" in refusal["message"]
    for i in range(3):
        await socket.send_json_to({"type": "chat", "text": f"line {i}"})
    await errors_until_quiet(socket)
    assert await sync_to_async(ChatMessage.objects.filter(match=match).count)() == 2
    await socket.disconnect()


async def test_item9_too_many_new_sockets_are_refused_with_4429(
    make_user: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ratelimit, "clock", lambda: 2_000_020.0)  # one window, however slow the run
    settings.HIDEOUT_RATE_LIMITS = {"socket": "2/60"}
    match, by_seat = await sync_to_async(started_match)(make_user)
    first, second = await connect(by_seat[0], match.pk), await connect(by_seat[0], match.pk)
    third = WebsocketCommunicator(as_user(by_seat[0]), f"/ws/match/{match.pk}/")
    connected, _ = await third.connect()
    assert connected and await closed_with(third) == 4429
    for socket in (first, second):
        await socket.disconnect()


async def test_item11_a_private_message_to_an_invalid_seat_is_refused_not_posted_publicly(make_user: Any) -> None:
    match, by_seat = await sync_to_async(started_match)(make_user)
    socket = await connect(by_seat[0], match.pk)
    for target in ("abc", "1.5", "-1", "99", 0, True, ["1"]):
        await socket.send_json_to({"type": "chat", "text": "psst", "to": target})
        assert (await socket.receive_json_from(timeout=2))["type"] == "error", target
    await errors_until_quiet(socket)
    assert not await sync_to_async(ChatMessage.objects.filter(match=match).exists)()
    await socket.disconnect()


async def test_item13_refused_sockets_are_accepted_then_closed_with_a_code_the_page_reads(make_user: Any) -> None:
    match, _ = await sync_to_async(started_match)(make_user)
    anonymous = WebsocketCommunicator(as_user(AnonymousUser()), f"/ws/match/{match.pk}/")
    connected, _ = await anonymous.connect()
    assert connected and await closed_with(anonymous) == 4401
    user = await sync_to_async(make_user)()
    missing = WebsocketCommunicator(as_user(user), "/ws/match/999999/")
    connected, _ = await missing.connect()
    assert connected and await closed_with(missing) == 4404


async def test_moves_sent_too_quickly_are_answered_with_a_limit_and_never_reach_the_writer(
    make_user: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 54, item 25: one socket may no longer send unlimited (refused) moves, each costing a write
    path's work: past its limit a move is answered at once with a clear message, under its key, and
    the socket stays open."""
    from games.play import write_paths

    monkeypatch.setattr(ratelimit, "clock", lambda: 3_000_020.0)  # one window, however slow the run
    settings.HIDEOUT_RATE_LIMITS = {"move": "3/60"}
    match, by_seat = await sync_to_async(started_match)(make_user)
    socket = await connect(by_seat[0], match.pk)
    real, written = write_paths.do_submit_as_user, []

    def counted(*args: Any, **kwargs: Any) -> Any:
        written.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(write_paths, "do_submit_as_user", counted)
    before = await sync_to_async(MatchEvent.objects.filter(match=match).count)()
    statuses = []
    for i in range(6):
        await socket.send_json_to(act({"type": "commit"}, match.version, f"k-flood-{i}"))  # no commit in planning
        answer = await answer_to(socket)
        assert answer["key"] == f"k-flood-{i}"
        statuses.append(answer["status"])
        if answer["status"] == 429:
            assert "moves too quickly" in answer["message"] and "Try again in" in answer["message"]
    assert statuses == [422, 422, 422, 429, 429, 429]
    assert len(written) == 3
    assert await sync_to_async(MatchEvent.objects.filter(match=match).count)() == before
    await socket.send_json_to({"type": "sync", "revision": 0, "chat_version": 0})
    assert (await socket.receive_json_from(timeout=5))["type"] == "update"  # still open
    await socket.disconnect()
