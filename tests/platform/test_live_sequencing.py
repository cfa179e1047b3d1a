"""A live match's inputs in order (T-2): the per-match sequencer, pushes put back in order, the
seat checked inside the write, and a socket that never queues on the shared database thread."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import channels.consumer
import pytest
from asgiref.sync import sync_to_async

from games.models import Match, MatchEvent
from games.play import services
from games.play.store import load_state
from games.sockets import livesocket
from games.sockets.frames import SentFrames
from games.sockets.live_consumer import LiveConsumer

from .police_alarm_table import running_match
from .socket_clients import connect, messages

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.mark.asyncio
async def test_T2_pipelined_moves_are_written_in_the_order_they_arrived_and_a_ping_is_not_kept_waiting(
    make_user: Any, test_clock: list[float], monkeypatch: Any
) -> None:
    closes = []
    monkeypatch.setattr(channels.consumer, "aclose_old_connections", lambda: closes.append(1))
    match, by_seat = await sync_to_async(running_match)(make_user, test_clock)
    police = await connect(by_seat[1], match.pk)
    await messages(police)
    path = [("up", [9, 9]), ("up", [9, 8]), ("up", [9, 7])]
    for n, (direction, cell) in enumerate(path):  # sent back to back, no answer awaited (T-2: no version)
        move = {"type": "move", "dir": direction, "from": cell}
        await police.send_json_to({"type": "act", "action": json.dumps(move), "key": f"m{n}"})
    await police.send_json_to({"type": "ping", "c": 7})
    received = await messages(police)
    answers = [m for m in received if m["type"] == "answer"]
    assert [(a["key"], a["status"]) for a in answers] == [("m0", 200), ("m1", 200), ("m2", 200)]
    assert [a["version"] for a in answers] == sorted(a["version"] for a in answers)
    assert any(m["type"] == "pong" for m in received)
    rows = MatchEvent.objects.filter(match=match, type="car_moved").order_by("seq")
    moves = await sync_to_async(lambda: list(rows.values_list("data", flat=True)))()
    assert [m["to"] for m in moves] == [[9, 8], [9, 7], [9, 6]]
    assert closes == [], "no message waits for Channels' close_old_connections on the shared database thread"
    await police.disconnect()


def test_sequencer_is_one_lock_per_match_while_in_use() -> None:
    async def scenario() -> list[str]:
        order: list[str] = []

        async def take(match_id: int, name: str) -> None:
            async with livesocket.sequencer(match_id):
                await asyncio.sleep(0.01)
                order.append(name)

        await asyncio.gather(take(1, "a"), take(1, "b"), take(2, "c"), take(1, "d"))
        assert livesocket.sequencer(1) is livesocket.sequencer(1)
        return order

    order = asyncio.run(scenario())
    assert [n for n in order if n != "c"] == ["a", "b", "d"], "a match's inputs in the order they asked"
    assert order.index("c") < order.index("b"), "another match does not wait for this one"


class Recorder(LiveConsumer):
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.sent_frames = SentFrames(revision=5)
        self.sent_frames.version = 5

    async def _send_update(self, update: dict[str, Any], *, deflate: bool) -> None:
        self.sent.append(update)


def live(after: int, version: int) -> dict[str, Any]:
    return {"after": after, "version": version, "revision": version, "events": [{"seq": version}]}


def test_live_messages_that_arrive_out_of_order_reach_the_client_in_order(monkeypatch: Any) -> None:
    monkeypatch.setattr(livesocket, "REORDER_SECONDS", 0.05)

    async def scenario() -> tuple[list[int], list[int]]:
        socket = Recorder()
        await socket._forward_live(live(6, 7))  # written after 6, published before it
        held_back = [u["version"] for u in socket.sent]
        await socket._forward_live(live(5, 6))
        await socket._forward_live(live(5, 6))  # a repeat is dropped
        return held_back, [u["version"] for u in socket.sent]

    held_back, sent = asyncio.run(scenario())
    assert held_back == [] and sent == [6, 7]


def test_a_message_whose_predecessor_never_comes_goes_anyway_after_the_wait(monkeypatch: Any) -> None:
    monkeypatch.setattr(livesocket, "REORDER_SECONDS", 0.05)

    async def scenario() -> list[tuple[int, int]]:
        socket = Recorder()
        await socket._forward_live(live(8, 9))
        await asyncio.sleep(0.15)
        return [(u["after"], u["version"]) for u in socket.sent]

    assert asyncio.run(scenario()) == [(8, 9)], "the client sees the hole and asks for its board"


def test_the_write_checks_that_the_seat_is_still_the_users(make_user: Any, test_clock: list[float]) -> None:
    match, by_seat = running_match(make_user, test_clock)
    before = Match.objects.get(pk=match.pk).version
    move = {"type": "move", "dir": "up", "from": [9, 9]}
    for intruder in (by_seat[0], make_user()):  # the other player, somebody else
        with pytest.raises(services.NotAllowed):
            services.do_submit_action(match.pk, 1, move, user_id=intruder.pk)
        assert Match.objects.get(pk=match.pk).version == before, "nothing written"
    by_seat[1].is_active = False
    by_seat[1].save()
    with pytest.raises(services.NotAllowed):
        services.do_submit_action(match.pk, 1, move, user_id=by_seat[1].pk)
    by_seat[1].is_active = True
    by_seat[1].save()
    result = services.do_submit_action(match.pk, 1, move, user_id=by_seat[1].pk)
    assert result.version == before + len(result.events)
    assert load_state(Match.objects.get(pk=match.pk)).car == (9, 8)
