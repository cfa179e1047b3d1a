"""The WebSocket consumer: authentication, per-seat pushes, secrets, chat, catch-up."""

from __future__ import annotations

import re
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from games.play import services, write_paths

from .helpers import choose_all, count_calls, started_match
from .socket_clients import act, answer_to, as_user, connect

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def next_update(communicator: WebsocketCommunicator) -> dict[str, Any]:
    """The next update, with its appended log lines (if it is a diff) kept at the end of ``html``, and
    the shared fragments sent ahead of it (a ``part``, frames.shared_part) at its start."""
    ahead: list[str] = []
    while True:
        message = await communicator.receive_json_from(timeout=5)
        if message["type"] == "part":
            ahead += message["frags"]
        if message["type"] == "update":
            message["html"] = "".join(ahead) + message["html"]
            message["html"] += "".join(message.get("frags", [])) + message.get("log", "")
            return message


def log_part(update: dict[str, Any]) -> str:
    """The log lines an update brings: appended ones, or the whole log section."""
    if "log" in update:
        return str(update["log"])
    return update["html"].split('id="log"')[1].split("</section>")[0]


async def test_anonymous_socket_is_refused(make_user: Any) -> None:
    match, _ = await sync_to_async(started_match)(make_user)
    communicator = WebsocketCommunicator(as_user(AnonymousUser()), f"/ws/match/{match.pk}/")
    connected, _ = await communicator.connect()
    assert connected  # accepted, then closed with the code the page reads (issue 9, item 13)
    closed = await communicator.receive_output(timeout=2)
    assert closed == {"type": "websocket.close", "code": 4401}


async def test_unknown_match_is_refused(make_user: Any) -> None:
    user = await sync_to_async(make_user)()
    communicator = WebsocketCommunicator(as_user(user), "/ws/match/999999/")
    connected, _ = await communicator.connect()
    assert connected
    closed = await communicator.receive_output(timeout=2)
    assert closed == {"type": "websocket.close", "code": 4404}


async def test_moves_reach_other_players_with_their_own_view(make_user: Any) -> None:
    match, by_seat = await sync_to_async(started_match)(make_user)
    sockets = {seat: await connect(user, match.pk) for seat, user in by_seat.items()}
    result = await sync_to_async(services.do_submit_action)(match.pk, 0, {"type": "choose", "roles": ["GOON"]})
    for seat, communicator in sockets.items():
        update = await next_update(communicator)
        assert update["version"] == result.version
        if seat == 0:
            assert "You chose Goon" in update["html"]
        else:
            assert "Goon" not in log_part(update)
            assert "You chose" not in update["html"]
    for communicator in sockets.values():
        await communicator.disconnect()


async def test_spectator_reads_but_sees_no_secret(make_user: Any) -> None:
    match, _ = await sync_to_async(started_match)(make_user)
    spectator = await connect(await sync_to_async(make_user)(), match.pk)
    await sync_to_async(services.do_submit_action)(match.pk, 1, {"type": "choose", "roles": ["DRIVER"]})
    update = await next_update(spectator)
    assert "You chose" not in update["html"] and "Your role" not in update["html"]
    # the chosen role is in no card either (a face-up card would carry role-driver / Driver).
    # The loot card may name the Driver as its bonus role, in public: it is cut out first.
    shown = re.sub(r'<div class="loot".*?</div>', "", update["html"], flags=re.S)
    shown = re.sub(r"<li>Heist 1: the loot card[^<]*</li>", "", shown)
    seat_panel = shown.split('id="heist-seat-1"', 1)[1].split("</li>", 1)[0]
    assert "has chosen" in seat_panel
    assert "role-driver" not in shown and "Driver" not in shown
    await spectator.send_json_to({"type": "chat", "text": "hi"})
    error = await spectator.receive_json_from(timeout=5)
    assert error["type"] == "error"
    await spectator.disconnect()


async def test_rejected_action_reaches_no_socket(make_user: Any) -> None:
    match, by_seat = await sync_to_async(started_match)(make_user)
    other = await connect(by_seat[1], match.pk)
    with pytest.raises(services.ServiceError):
        await sync_to_async(services.do_submit_action)(match.pk, 0, {"type": "commit"})
    assert await other.receive_nothing(timeout=0.3)
    await other.disconnect()


async def test_chat_goes_through_the_socket_and_private_stays_private(make_user: Any) -> None:
    match, by_seat = await sync_to_async(started_match)(make_user)
    sockets = {seat: await connect(user, match.pk) for seat, user in by_seat.items()}
    await sockets[0].send_json_to({"type": "chat", "text": "whisper-to-one", "to": 1})
    one = await next_update(sockets[1])
    two = await next_update(sockets[2])
    assert "whisper-to-one" in one["html"]
    assert "whisper-to-one" not in two["html"]
    for communicator in sockets.values():
        await communicator.disconnect()


async def test_reconnecting_client_catches_up_from_its_version(make_user: Any) -> None:
    match, by_seat = await sync_to_async(started_match)(make_user)
    old_version, chat_version = match.revision, match.chat_version
    current = WebsocketCommunicator(as_user(by_seat[1]), f"/ws/match/{match.pk}/?v={old_version}&c={chat_version}")
    assert (await current.connect())[0]
    assert await current.receive_nothing(timeout=0.3)  # up to date: nothing to send
    await current.disconnect()
    result = await sync_to_async(services.do_submit_action)(match.pk, 0, {"type": "choose", "roles": ["THUG"]})
    behind = WebsocketCommunicator(as_user(by_seat[1]), f"/ws/match/{match.pk}/?v={old_version}&c={chat_version}")
    assert (await behind.connect())[0]
    update = await behind.receive_json_from(timeout=5)
    assert update["version"] == result.version
    await behind.send_json_to({"type": "sync", "revision": old_version, "chat_version": chat_version})
    assert (await behind.receive_json_from(timeout=5))["version"] == result.version
    await behind.disconnect()


async def test_presence_is_tracked_for_reminders(make_user: Any) -> None:
    from games.models import Seat

    match, by_seat = await sync_to_async(started_match)(make_user)
    communicator = await connect(by_seat[2], match.pk)
    seat = await sync_to_async(Seat.objects.get)(match=match, number=2)
    assert seat.open_sockets == 1
    await communicator.disconnect()
    seat = await sync_to_async(Seat.objects.get)(match=match, number=2)
    assert seat.open_sockets == 0 and seat.last_seen is not None


async def test_lobby_changes_and_abort_are_pushed(make_user: Any) -> None:
    host, guest = await sync_to_async(make_user)(), await sync_to_async(make_user)()
    match = await sync_to_async(services.do_create_match)(host, "heist", 3, {}, 60)
    host_socket = await connect(host, match.pk)
    await sync_to_async(services.do_join_match)(match.pk, guest)
    update = await next_update(host_socket)
    assert guest.profile.display_name in update["html"]
    await sync_to_async(services.do_add_bot)(match.pk, host)
    assert "Start the match" in (await next_update(host_socket))["html"]
    await sync_to_async(services.do_start_match)(match.pk, host)
    await next_update(host_socket)
    await sync_to_async(services.do_abort_match)(match.pk)
    assert "aborted" in (await next_update(host_socket))["html"]
    await host_socket.disconnect()


async def test_player_sockets_forward_what_the_writer_rendered(make_user: Any, monkeypatch: Any) -> None:
    """A player's socket forwards its seat's partials without rendering (or querying) itself."""
    from games.sockets.consumers import MatchConsumer

    match, by_seat = await sync_to_async(started_match)(make_user)
    sockets = {seat: await connect(user, match.pk) for seat, user in by_seat.items()}

    async def no_render(self: Any, *args: Any) -> Any:
        pytest.fail("a player's socket rendered for itself")

    monkeypatch.setattr(MatchConsumer, "_render", no_render)
    result = await sync_to_async(services.do_submit_action)(match.pk, 2, {"type": "choose", "roles": ["THUG"]})
    for seat, communicator in sockets.items():
        update = await next_update(communicator)
        assert update["version"] == result.version
        assert ("You chose Thug" in update["html"]) == (seat == 2)
    for communicator in sockets.values():
        await communicator.disconnect()


async def test_a_replaced_player_sees_no_more_of_the_seat(make_user: Any) -> None:
    """After a moderator hands a seat to a bot, its former player's socket gets the public view only."""
    match, by_seat = await sync_to_async(started_match)(make_user)
    former = await connect(by_seat[1], match.pk)
    await sync_to_async(services.do_submit_action)(match.pk, 1, {"type": "choose", "roles": ["DRIVER"]})
    assert "You chose Driver" in (await next_update(former))["html"]
    await sync_to_async(services.do_replace_with_bot)(match.pk, 1)
    update = await next_update(former)
    assert "You are watching this match." in update["html"]
    assert "Your role" not in update["html"] and "You chose" not in update["html"]
    await sync_to_async(services.do_submit_action)(match.pk, 0, {"type": "choose", "roles": ["THUG"]})
    update = await next_update(former)
    assert "Your role" not in update["html"] and "You chose" not in update["html"]
    await former.disconnect()


async def test_chat_message_sends_the_chat_box_only(make_user: Any) -> None:
    match, by_seat = await sync_to_async(started_match)(make_user)
    sockets = {seat: await connect(user, match.pk) for seat, user in by_seat.items() if seat < 2}
    await sync_to_async(services.do_post_chat)(match.pk, 0, "hello there")
    update = await next_update(sockets[1])
    assert 'id="chat"' in update["html"] and "hello there" in update["html"]
    assert 'id="board"' not in update["html"]
    for communicator in sockets.values():
        await communicator.disconnect()


async def test_sockets_opened_in_the_lobby_follow_their_seat_once_the_match_starts(make_user: Any) -> None:
    """A socket opened before its user joined (from the invite link) is counted in at the start and
    then gets its seat's pushes."""
    host, guest = await sync_to_async(make_user)(), await sync_to_async(make_user)()
    match = await sync_to_async(services.do_create_match)(host, "heist", 3, {}, 60)
    host_socket, guest_socket = await connect(host, match.pk), await connect(guest, match.pk)
    await sync_to_async(services.do_join_match)(match.pk, guest)
    await sync_to_async(services.do_add_bot)(match.pk, host)
    await sync_to_async(services.do_start_match)(match.pk, host)
    for communicator in (guest_socket, host_socket):
        while "Heist 1 of" not in (await next_update(communicator))["html"]:
            pass
    await guest_socket.send_json_to({"type": "chat", "text": "good luck"})
    for communicator in (guest_socket, host_socket):
        update = await next_update(communicator)
        while "good luck" not in update["html"]:
            update = await next_update(communicator)
    for communicator in (guest_socket, host_socket):
        await communicator.disconnect()


async def test_the_chat_box_is_sent_again_when_chatting_closes_for_a_seat_r22(make_user: Any) -> None:
    """A fully withdrawn player may not chat (R-22): their chat box comes again, without the form;
    the others' pushes leave their chat box alone."""
    from .helpers import choose_all

    match, by_seat = await sync_to_async(started_match)(make_user)
    await sync_to_async(choose_all)(match)
    sockets = {seat: await connect(by_seat[seat], match.pk) for seat in (0, 1)}
    await sync_to_async(services.do_submit_action)(match.pk, 0, {"type": "withdraw", "slot": 1})
    mine, other = await next_update(sockets[0]), await next_update(sockets[1])
    assert 'id="chat"' in mine["html"] and 'id="chat-form"' not in mine["html"]
    assert 'id="chat"' not in other["html"]
    for communicator in sockets.values():
        await communicator.disconnect()


async def _next_update_sent(communicator: WebsocketCommunicator) -> dict[str, Any]:
    """The next ``update`` as the ASGI message the server sends (with its compression mark)."""
    while True:
        message = await communicator.receive_output(timeout=5)
        if message["type"] == "websocket.send" and '"type": "update"' in message.get("text", ""):
            return message


@pytest.mark.parametrize(("game", "players", "compressed"), [("heist", 4, False), ("bridge_race", 3, True)])
async def test_a_players_pushes_are_compressed_only_when_they_hold_no_secret(
    make_user: Any, game: str, players: int, compressed: bool
) -> None:
    """A secret compressed beside text another player chose leaks through the size (BREACH): a heist
    board holds its player's role, so it goes uncompressed; a bridge_race board holds nothing
    hidden (R-89). A spectator's pushes never hold a secret."""
    from games.runtime.wscompress import DEFLATE

    match, by_seat = await sync_to_async(started_match)(make_user, game, players)
    spectator = await sync_to_async(make_user)()
    for user, expected in ((by_seat[0], compressed), (spectator, True)):
        communicator = WebsocketCommunicator(as_user(user), f"/ws/match/{match.pk}/")
        connected, _ = await communicator.connect()
        assert connected
        first = await _next_update_sent(communicator)  # rendered by the socket itself
        assert first[DEFLATE] is expected
        await communicator.disconnect()
    player = WebsocketCommunicator(as_user(by_seat[1]), f"/ws/match/{match.pk}/")
    await player.connect()
    await _next_update_sent(player)
    await sync_to_async(services.do_post_chat)(match.pk, 0, "psst", 1)  # a private line for seat 1
    pushed = await _next_update_sent(player)  # rendered by the writer
    assert "psst" in pushed["text"]
    assert pushed[DEFLATE] is False
    await player.disconnect()


# --- moves over the socket ----------------------------------------------------------------------


async def board_update(communicator: WebsocketCommunicator) -> dict[str, Any]:
    """The next message but a diff's shared part that goes ahead of its update (frames.shared_part)."""
    while (message := await communicator.receive_json_from(timeout=5))["type"] == "part":
        pass
    return message


async def event_count(match_id: int) -> int:
    from games.models import MatchEvent

    return await sync_to_async(MatchEvent.objects.filter(match_id=match_id).count)()


async def test_a_move_sent_over_the_socket_is_applied_once_and_answered(make_user: Any) -> None:
    match, by_seat = await sync_to_async(started_match)(make_user)
    mine, other = await connect(by_seat[0], match.pk), await connect(by_seat[1], match.pk)
    before = await event_count(match.pk)
    await mine.send_json_to(act({"type": "choose"}, match.version, "k-1", **{"roles[]": ["GOON"]}))
    answer = await answer_to(mine)
    assert answer == {
        "type": "answer",
        "key": "k-1",
        "status": 200,
        "revision": match.revision + 1,
        "version": match.version + 1,
    }
    assert "has chosen" in (await next_update(other))["html"]
    assert await event_count(match.pk) == before + 1
    # Resent after a reconnect (same key): answered, not applied again.
    again = await connect(by_seat[0], match.pk)
    await again.send_json_to(act({"type": "choose"}, match.version, "k-1", **{"roles[]": ["GOON"]}))
    assert (await answer_to(again))["status"] == 200
    assert await event_count(match.pk) == before + 1
    for communicator in (mine, other, again):
        await communicator.disconnect()


async def test_a_move_whose_database_connection_was_lost_is_written_once_on_a_new_one(
    make_user: Any, monkeypatch: Any
) -> None:
    """The writer threads keep their connections (games.play.writers); one that PostgreSQL ended fails the
    next move on it. That move is tried once more on a new connection, and its key keeps a move that
    was written before the loss from being applied twice."""
    from django.db import OperationalError

    match, by_seat = await sync_to_async(started_match)(make_user)
    mine = await connect(by_seat[0], match.pk)
    real = write_paths.do_submit_action
    losses = {"k-lost-1": "before the write", "k-lost-2": "after the write"}  # once for each move

    def lost_once(*args: Any, **kwargs: Any) -> Any:
        when = losses.pop(kwargs["idempotency_key"], None)
        if when is None:
            return real(*args, **kwargs)
        if when == "after the write":
            real(*args, **kwargs)
        raise OperationalError(f"server closed the connection unexpectedly ({when})")

    monkeypatch.setattr(write_paths, "do_submit_action", lost_once)
    before = await event_count(match.pk)
    await mine.send_json_to(act({"type": "choose"}, match.version, "k-lost-1", **{"roles[]": ["GOON"]}))
    assert (await answer_to(mine))["status"] == 200
    assert await event_count(match.pk) == before + 1
    other = await connect(by_seat[1], match.pk)
    await other.send_json_to(act({"type": "choose"}, match.version + 1, "k-lost-2", **{"roles[]": ["THUG"]}))
    assert (await answer_to(other))["status"] == 200
    assert await event_count(match.pk) == before + 2
    assert losses == {}
    for communicator in (mine, other):
        await communicator.disconnect()


async def test_a_move_whose_connection_is_closed_under_the_writer_is_retried_and_the_socket_stays_open(
    make_user: Any, monkeypatch: Any
) -> None:
    """Issue 54, item 24: the writer thread's own connection is closed under it in the middle of a
    move (as a PostgreSQL restart ends it), on SQLite and PostgreSQL alike. The move is written once,
    on a new connection, and answered; the socket stays open and takes the next move."""
    from django.db import connection

    match, by_seat = await sync_to_async(started_match)(make_user)
    mine = await connect(by_seat[0], match.pk)
    real = write_paths.do_submit_action
    cut = {"k-cut-1"}

    def cut_mid_move(*args: Any, **kwargs: Any) -> Any:
        if kwargs["idempotency_key"] in cut:
            cut.discard(kwargs["idempotency_key"])
            connection.ensure_connection()
            connection.connection.close()  # the raw connection, under Django's feet
        return real(*args, **kwargs)

    monkeypatch.setattr(write_paths, "do_submit_action", cut_mid_move)
    before = await event_count(match.pk)
    await mine.send_json_to(act({"type": "choose"}, match.version, "k-cut-1", **{"roles[]": ["GOON"]}))
    assert (await answer_to(mine))["status"] == 200
    assert await event_count(match.pk) == before + 1 and cut == set()
    # The same socket takes the move again (sent again after a reconnect, say): answered, not applied twice.
    await mine.send_json_to(act({"type": "choose"}, match.version, "k-cut-1", **{"roles[]": ["GOON"]}))
    assert (await answer_to(mine))["status"] == 200
    assert await event_count(match.pk) == before + 1
    await mine.disconnect()


async def test_a_move_whose_database_stays_unreachable_gets_a_clear_answer_and_the_socket_stays_open(
    make_user: Any, monkeypatch: Any
) -> None:
    """Issue 54, item 24: when the retry fails too (the database still down), or a move without a key
    loses its connection, the move is answered with a clear error instead of the socket closing with
    1011; the same socket takes the move again once the database is back."""
    from django.db import OperationalError

    match, by_seat = await sync_to_async(started_match)(make_user)
    mine = await connect(by_seat[0], match.pk)
    real = write_paths.do_submit_action
    down = {"on": True}

    def unreachable(*args: Any, **kwargs: Any) -> Any:
        if down["on"]:
            raise OperationalError("connection to server failed: Connection refused")
        return real(*args, **kwargs)

    monkeypatch.setattr(write_paths, "do_submit_action", unreachable)
    before = await event_count(match.pk)
    for message in (
        act({"type": "choose"}, match.version, "k-down-1", **{"roles[]": ["GOON"]}),
        {k: v for k, v in act({"type": "choose"}, match.version, "", **{"roles[]": ["GOON"]}).items() if k != "key"},
    ):
        await mine.send_json_to(message)
        answer = await answer_to(mine)
        assert answer["status"] == 503, answer
        assert "database" in answer["message"] and "try" in answer["message"].lower()
    assert await event_count(match.pk) == before
    down["on"] = False
    await mine.send_json_to(act({"type": "choose"}, match.version, "k-down-1", **{"roles[]": ["GOON"]}))
    assert (await answer_to(mine))["status"] == 200
    assert await event_count(match.pk) == before + 1
    await mine.disconnect()


async def test_a_refused_socket_move_is_answered_to_its_sender_only(make_user: Any) -> None:
    match, by_seat = await sync_to_async(started_match)(make_user)
    mine, other = await connect(by_seat[0], match.pk), await connect(by_seat[1], match.pk)
    before = await event_count(match.pk)
    await mine.send_json_to(act({"type": "commit"}, match.version, "k-2"))  # no commit in planning
    answer = await answer_to(mine)
    assert answer["status"] == 422 and answer["key"] == "k-2" and answer["message"]
    for bad in (
        act({"type": "choose", "roles": ["GOON"]}, "²", "k-3"),
        act({"type": "choose", "roles": ["GOON"]}, "--1", "k-4"),
        act({"type": "choose", "roles": ["GOON"]}, "9" * 5000, "k-5"),
        act({"type": "choose", "roles": ["GOON"]}, match.version, "x" * 65),
        act({"type": "choose", "roles": ["GOON\x00"]}, match.version, "k-6"),
        {"type": "act", "action": "[" * 5000 + "]" * 5000, "version": match.version, "key": "k-7"},
        {"type": "act", "action": {"type": "choose", "roles": ["\ud800"]}, "version": match.version, "key": "k-8"},
        {"type": "act", "fields": "not a dict", "key": "k-9"},
    ):
        await mine.send_json_to(bad)
        assert (await answer_to(mine))["status"] == 400, bad
    assert await event_count(match.pk) == before
    assert await other.receive_nothing(timeout=0.2)
    for communicator in (mine, other):
        await communicator.disconnect()


async def test_a_stale_socket_move_gets_the_fresh_board_then_the_refusal(make_user: Any) -> None:
    match, by_seat = await sync_to_async(started_match)(make_user)
    await sync_to_async(services.do_submit_action)(match.pk, 1, {"type": "choose", "roles": ["GOON"]})
    await sync_to_async(services.do_submit_action)(match.pk, 2, {"type": "choose", "roles": ["GOON"]})
    await sync_to_async(services.do_submit_action)(match.pk, 3, {"type": "choose", "roles": ["GOON"]})
    await sync_to_async(services.do_submit_action)(match.pk, 0, {"type": "choose", "roles": ["GOON"]})
    mine = await connect(by_seat[0], match.pk)
    await mine.send_json_to(act({"type": "commit"}, match.version, "k-10"))  # the version before the choices
    answer = await answer_to(mine)
    assert answer["status"] == 409 and "board changed" in answer["message"]
    await mine.disconnect()


async def test_a_stale_move_is_answered_after_the_push_that_made_it_stale(make_user: Any, monkeypatch: Any) -> None:
    """The board that made my move stale reaches my socket first, then the refusal; my socket waits
    for the writer's push of it instead of rendering that board itself."""
    from games.push import pushes
    from games.sockets import turn_consumer

    match, by_seat = await sync_to_async(started_match)(make_user)
    await sync_to_async(choose_all)(match)
    await sync_to_async(match.refresh_from_db)()
    mine = await connect(by_seat[0], match.pk)
    held: list[Any] = []
    real_publish = pushes.publish
    monkeypatch.setattr(pushes, "publish", lambda *a, **k: held.append((a, k)))  # the push is on its way
    await sync_to_async(services.do_submit_action)(match.pk, 1, {"type": "commit"}, expected_version=match.version)
    rendered_here = count_calls(monkeypatch, pushes, "render_seat")
    await mine.send_json_to(act({"type": "commit"}, match.version, "k-12"))
    assert await mine.receive_nothing(timeout=0.1)  # no answer before the board
    assert rendered_here == []  # and no board rendered by my socket meanwhile
    for args, kwargs in held:
        await sync_to_async(real_publish)(*args, **kwargs)
    update = await board_update(mine)
    assert update["type"] == "update" and update["version"] == match.version + 1
    answer = await mine.receive_json_from(timeout=5)
    assert answer["type"] == "answer" and answer["status"] == 409 and answer["key"] == "k-12"
    assert held and turn_consumer.STALE_BOARD_WAIT > 0.1
    await mine.disconnect()


async def test_a_stale_move_whose_board_never_comes_gets_it_rendered_then_the_refusal(
    make_user: Any, monkeypatch: Any
) -> None:
    from games.push import pushes
    from games.sockets import turn_consumer

    match, by_seat = await sync_to_async(started_match)(make_user)
    await sync_to_async(choose_all)(match)
    await sync_to_async(match.refresh_from_db)()
    mine = await connect(by_seat[0], match.pk)
    monkeypatch.setattr(pushes, "publish", lambda *a, **k: None)  # a push lost on the way
    monkeypatch.setattr(turn_consumer, "STALE_BOARD_WAIT", 0.05)
    await sync_to_async(services.do_submit_action)(match.pk, 1, {"type": "commit"}, expected_version=match.version)
    await mine.send_json_to(act({"type": "commit"}, match.version, "k-13"))
    update = await board_update(mine)
    assert update["type"] == "update" and update["version"] == match.version + 1
    answer = await mine.receive_json_from(timeout=5)
    assert answer["type"] == "answer" and answer["status"] == 409
    await mine.disconnect()


async def test_a_spectator_cannot_move_over_the_socket(make_user: Any) -> None:
    match, _ = await sync_to_async(started_match)(make_user)
    spectator = await connect(await sync_to_async(make_user)(), match.pk)
    await spectator.send_json_to(act({"type": "choose", "roles": ["GOON"]}, match.version, "k-11"))
    assert (await answer_to(spectator))["status"] == 403
    await spectator.disconnect()


# --- live games: events as JSON ---------------------------------------------------------------------


async def test_a_live_games_moves_reach_each_seat_as_small_json_events_with_only_its_secrets(
    make_user: Any, monkeypatch: Any
) -> None:
    """A game that declares itself live (``rules.live``) pushes events, not boards; secrets stay with their seat."""
    from games.engines.registry import get_rules

    monkeypatch.setattr(get_rules("heist"), "live", True, raising=False)
    match, by_seat = await sync_to_async(started_match)(make_user)
    mine, other = await connect(by_seat[0], match.pk), await connect(by_seat[1], match.pk)
    spectator = await connect(await sync_to_async(make_user)(), match.pk)
    result = await sync_to_async(services.do_submit_action)(match.pk, 0, {"type": "choose", "roles": ["GOON"]})
    received = {}
    for name, communicator in (("mine", mine), ("other", other), ("spectator", spectator)):
        message = await communicator.receive_json_from(timeout=5)
        assert message["type"] == "events" and message["version"] == result.version
        assert [e["seq"] for e in message["events"]] == list(range(match.version + 1, result.version + 1))
        received[name] = message
    assert "GOON" in str(received["mine"]["events"])
    assert "GOON" not in str(received["other"]["events"]) and "GOON" not in str(received["spectator"]["events"])
    assert all("<" not in str(m) for m in received.values()), "no HTML is pushed for a live game"
    assert len(str(received["other"])) < 300
    for communicator in (mine, other, spectator):
        assert await communicator.receive_nothing(timeout=0.1)
        await communicator.disconnect()


async def test_a_live_games_private_events_reach_only_their_audience(make_user: Any, monkeypatch: Any) -> None:
    """An event the game calls private (its mere existence is the secret) is not sent to other seats."""
    from games.engines.registry import get_rules

    rules = get_rules("heist")
    monkeypatch.setattr(rules, "live", True, raising=False)
    monkeypatch.setattr(rules, "is_private", lambda event: event.secret is not None, raising=False)
    monkeypatch.setattr(rules, "private_event_types", frozenset({"role_chosen"}), raising=False)
    match, by_seat = await sync_to_async(started_match)(make_user)
    mine, other = await connect(by_seat[0], match.pk), await connect(by_seat[1], match.pk)
    result = await sync_to_async(services.do_submit_action)(match.pk, 0, {"type": "choose", "roles": ["GOON"]})
    for_me = await mine.receive_json_from(timeout=5)
    assert for_me["after"] == match.version and for_me["version"] == result.version
    private_seqs = {e["seq"] for e in for_me["events"] if "secret" in e}
    assert private_seqs, "the chooser sees its own secret event"
    # The move held nothing else: the other seat is told nothing, not even that the version moved
    # (issue 54, item 4).
    assert await other.receive_nothing(timeout=0.3)
    for communicator in (mine, other):
        await communicator.disconnect()
