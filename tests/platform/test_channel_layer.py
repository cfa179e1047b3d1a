"""The Redis channel layer: a group message reaches every member; a move's reach the writer's sockets without Redis."""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest

from tests.own_loop import run_on_its_own_loop

from .redis_worker import require_redis

# No database fixture, but the channel layer, the broker or a database connection: CI's backends pass runs it.
pytestmark = pytest.mark.backends

SERVER = "redis://127.0.0.1:6379/7"


def test_the_layer_in_settings_is_the_one_that_decodes_once() -> None:
    from django.conf import settings

    configured = {"BACKEND": "games.runtime.channel_layer.SharedDecodeChannelLayer"}
    # The embedded default (no REDIS_URL) keeps an in-memory layer; with Redis it is this one.
    assert settings.CHANNEL_LAYERS["default"]["BACKEND"] in (
        configured["BACKEND"],
        "games.runtime.channel_layer.LoopInMemoryChannelLayer",
    )
    if os.environ.get("REDIS_URL"):
        assert settings.CHANNEL_LAYERS["default"]["BACKEND"] == configured["BACKEND"]


def test_a_group_message_reaches_every_member_channel_of_the_process() -> None:
    require_redis(SERVER, "channel layer Redis test")
    run_on_its_own_loop(_every_member_hears)


async def _every_member_hears() -> None:
    from games.runtime.channel_layer import SharedDecodeChannelLayer

    layer = SharedDecodeChannelLayer(hosts=[SERVER], prefix="test-decode-once")
    try:
        members = [await layer.new_channel() for _ in range(4)]
        for channel in members:
            await layer.group_add("match_1_players", channel)
        await asyncio.sleep(0.2)
        parts = [{"seat": n, "html": f"<p>seat {n}</p>"} for n in range(4)]
        await layer.group_send("match_1_players", {"type": "seats.update", "seats": parts})
        heard = [await asyncio.wait_for(layer.receive(channel), timeout=5) for channel in members]
        assert all(message["seats"] == parts for message in heard)
        # The next message is heard as it was sent: nothing old is handed out for it.
        await layer.group_send("match_1_players", {"type": "seats.update", "seats": parts[:1]})
        again = [await asyncio.wait_for(layer.receive(channel), timeout=5) for channel in members]
        assert all(message["seats"] == parts[:1] for message in again)
        # A message to one channel is heard as before.
        await layer.send(members[0], {"type": "user.revoked", "session": None})
        assert (await asyncio.wait_for(layer.receive(members[0]), timeout=5))["type"] == "user.revoked"
    finally:
        await layer.flush()


def test_a_moves_messages_reach_the_writers_own_sockets_once_without_redis_and_the_others_through_it() -> None:
    require_redis(SERVER, "channel layer Redis test")
    run_on_its_own_loop(_delivered_here_and_elsewhere)


async def _delivered_here_and_elsewhere() -> None:
    async with _two_processes("test-deliver-here") as (here, elsewhere):
        decodes: list[Any] = []
        real = here._serializer.deserialize

        def counted(message: bytes) -> Any:
            decodes.append(message)
            return real(message)

        here._serializer.deserialize = counted
        group = "match_1_players"
        mine = [await here.new_channel() for _ in range(2)]
        theirs = [await elsewhere.new_channel() for _ in range(2)]
        for layer, channels in ((here, mine), (elsewhere, theirs)):
            for channel in channels:
                await layer.group_add(group, channel)
        await asyncio.sleep(0.2)
        message = {"type": "seats.update", "seats": [{"seat": 1, "html": "<p>news</p>"}]}
        # As games.push.pushes.send_many does from a writer thread: this process's loop delivers to its
        # sockets, then publishes for the others'.
        assert await asyncio.to_thread(here.hand_over, [(group, message)])
        heard_here = [await asyncio.wait_for(here.receive(channel), timeout=5) for channel in mine]
        heard_there = [await asyncio.wait_for(elsewhere.receive(channel), timeout=5) for channel in theirs]
        assert all(heard is message for heard in heard_here)  # handed over, not encoded and decoded
        assert all(heard == message for heard in heard_there)
        await asyncio.sleep(0.3)  # time for Redis to bring the writer's own process a copy
        for layer, channels in ((here, mine), (elsewhere, theirs)):
            # Nothing more queued (a receive that timed out would unsubscribe the channel).
            assert all(layer._get_layer().channels[channel].empty() for channel in channels)
        assert decodes == []  # the writer's process never decoded its own message
        # Any other message through Redis is heard here as before.
        await elsewhere.group_send(group, {"type": "match.changed", "revision": 2})
        assert (await asyncio.wait_for(here.receive(mine[0]), timeout=5))["revision"] == 2


def test_what_goes_to_the_other_processes_is_compressed_and_heard_there_as_sent() -> None:
    """Redis brings a daphne's publications back to it (its sockets are members): compressed, the
    copy it reads back is small enough that a saturated daphne keeps up (decision 0010). A message
    published by a process of the release before (marked, not compressed) is still heard."""
    require_redis(SERVER, "channel layer Redis test")
    run_on_its_own_loop(_compressed_elsewhere)


async def _compressed_elsewhere() -> None:
    from games.runtime import channel_layer

    async with _two_processes("test-compressed") as (here, elsewhere):
        group = "match_1_players"
        theirs = await _member(elsewhere, group)
        shard = here._get_layer()._shards[0]
        published: list[bytes] = []
        real_publish = shard.publish

        async def recorded(channel: str, body: bytes) -> None:
            published.append(body)
            await real_publish(channel, body)

        shard.publish = recorded
        parts = [
            {"seat": n, "user": n + 7, "html": f"<div class='seat'>{'<p>fragment</p>' * 300}</div>"} for n in range(4)
        ]
        message = {"type": "seats.update", "seats": parts}
        await here.group_send_elsewhere(group, message)
        assert await asyncio.wait_for(elsewhere.receive(theirs), timeout=5) == message
        (body,) = published
        assert body.startswith(here.mark)
        assert len(body) < len(here.serialize(message)) / 5
        older = channel_layer._HEARD_HERE + bytes(channel_layer._PROCESS_ID_BYTES) + here.serialize(message)
        group_channel = here._get_layer()._get_group_channel_name(group)
        await real_publish(group_channel, older)
        assert await asyncio.wait_for(elsewhere.receive(theirs), timeout=5) == message


def test_a_writer_threads_messages_are_published_by_the_sockets_loop_not_a_thread_of_their_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The loop that delivers a move to this process's sockets publishes it for the others too, so
    no publishing thread wakes beside it; a process with no sockets (a Celery worker) publishes
    from its background loop as before."""
    require_redis(SERVER, "channel layer Redis test")
    from games.push import pushes

    background_used: list[bool] = []
    real_background = pushes._background_loop

    def background() -> asyncio.AbstractEventLoop:
        background_used.append(True)
        return real_background()

    monkeypatch.setattr(pushes, "_background_loop", background)
    run_on_its_own_loop(lambda: _published_by_the_sockets_loop(monkeypatch, background_used))


async def _published_by_the_sockets_loop(monkeypatch: pytest.MonkeyPatch, background_used: list[bool]) -> None:
    from games.push import pushes

    async with _two_processes("test-hand-over") as (here, elsewhere):
        group = "match_2_players"
        # No member channel here yet: nothing to hand over, the caller publishes.
        assert not await asyncio.to_thread(here.hand_over, [(group, {"type": "match.changed"})])
        mine, theirs = await here.new_channel(), await elsewhere.new_channel()
        await here.group_add(group, mine)
        await elsewhere.group_add(group, theirs)
        await asyncio.sleep(0.2)
        monkeypatch.setattr(pushes, "get_channel_layer", lambda: here)
        message = {"type": "seats.update", "revision": 3}
        await asyncio.to_thread(pushes.send_many, [(group, message)])
        assert (await asyncio.wait_for(here.receive(mine), timeout=5)) is message
        assert (await asyncio.wait_for(elsewhere.receive(theirs), timeout=5)) == message
        assert background_used == []
        # Without a member channel in this process the background loop publishes it.
        await here.group_discard(group, mine)
        await asyncio.to_thread(pushes.send_many, [(group, {"type": "seats.update", "revision": 4})])
        assert (await asyncio.wait_for(elsewhere.receive(theirs), timeout=5))["revision"] == 4
        assert background_used == [True]


def test_an_in_memory_message_sent_from_a_thread_of_no_loop_wakes_the_receiving_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without Redis a live game's timer (games.background.livetimers) pushes from a thread of no loop's: the
    consumers' loop, asleep in its selector, must wake for it, not when something else wakes it."""
    from games.push import pushes
    from games.runtime.channel_layer import LoopInMemoryChannelLayer

    layer = LoopInMemoryChannelLayer()
    monkeypatch.setattr(pushes, "get_channel_layer", lambda: layer)

    async def received_at_once() -> None:
        channel = await layer.new_channel()
        await layer.group_add("match_1_seat_0", channel)
        receiving = asyncio.ensure_future(layer.receive(channel))
        await asyncio.sleep(0.05)  # the loop sleeps in its selector, as an idle daphne's does
        started = time.monotonic()
        threading.Thread(target=pushes.send, args=("match_1_seat_0", {"type": "seat.live"})).start()
        message = await asyncio.wait_for(receiving, 5)
        assert message == {"type": "seat.live"}
        assert time.monotonic() - started < 1.0

    run_on_its_own_loop(received_at_once)


@contextlib.asynccontextmanager
async def _two_processes(prefix: str) -> AsyncIterator[tuple[Any, Any]]:
    """Two processes' layers on one Redis: the writer's ("here") and another daphne's ("elsewhere")."""
    from games.runtime.channel_layer import SharedDecodeChannelLayer

    here = SharedDecodeChannelLayer(hosts=[SERVER], prefix=prefix)
    elsewhere = SharedDecodeChannelLayer(hosts=[SERVER], prefix=prefix)
    try:
        yield here, elsewhere
    finally:
        await here.flush()
        await elsewhere.flush()


async def _member(layer: Any, group: str) -> str:
    """A new channel of ``layer``'s, in ``group``, once Redis has its subscriptions."""
    channel: str = await layer.new_channel()
    await layer.group_add(group, channel)
    await asyncio.sleep(0.2)
    return channel


def _before_each_batch(layer: Any, hook: Callable[[Any], Awaitable[None]]) -> None:
    """Have ``await hook(pipeline)`` run as each batch of ``layer``'s messages is about to leave."""
    shard = layer._get_layer()._shards[0]
    shard._ensure_redis()
    real_pipeline = shard._redis.pipeline

    def pipeline_with_hook(**kwargs: Any) -> Any:
        pipeline = real_pipeline(**kwargs)
        real_execute = pipeline.execute

        async def execute() -> Any:
            await hook(pipeline)
            return await real_execute()

        pipeline.execute = execute
        return pipeline

    shard._redis.pipeline = pipeline_with_hook


def test_messages_published_together_go_in_one_round_trip_in_the_order_they_were_sent() -> None:
    require_redis(SERVER, "channel layer Redis test")
    run_on_its_own_loop(_published_in_batches)


async def _published_in_batches() -> None:
    async with _two_processes("test-batched") as (here, elsewhere):
        theirs = await _member(elsewhere, "match_3_players")
        trips: list[int] = []

        async def count(pipeline: Any) -> None:
            trips.append(len(pipeline.command_stack))

        _before_each_batch(here, count)
        await asyncio.gather(
            *(here.group_send("match_3_players", {"type": "match.changed", "revision": n}) for n in range(50))
        )
        heard = [(await asyncio.wait_for(elsewhere.receive(theirs), timeout=5))["revision"] for _ in range(50)]
        assert heard == list(range(50))
        # The first goes alone; the 49 queued while it was on the wire follow in one batch.
        assert sum(trips) == 50 and len(trips) <= 2, trips


def test_a_socket_subscribes_while_messages_are_being_published() -> None:
    """channels_redis held one lock for both: at full load a new socket's subscriptions queued behind
    the moves published for the other processes, past the WebSocket handshake's time-out."""
    require_redis(SERVER, "channel layer Redis test")
    run_on_its_own_loop(_subscribed_beside_publishing)


async def _subscribed_beside_publishing() -> None:
    async with _two_processes("test-beside") as (here, elsewhere):
        theirs = await _member(elsewhere, "match_4_players")
        redis_answers = asyncio.Event()

        async def hold(pipeline: Any) -> None:
            await redis_answers.wait()

        _before_each_batch(here, hold)
        publishing = asyncio.ensure_future(here.group_send("match_4_players", {"type": "match.changed", "revision": 1}))
        await asyncio.sleep(0.05)
        assert not publishing.done()
        # New sockets subscribe meanwhile (their channel, their groups).
        mine = await asyncio.wait_for(asyncio.gather(*(here.new_channel() for _ in range(5))), timeout=2)
        await asyncio.wait_for(here.group_add("match_4_players", mine[0]), timeout=2)
        assert not publishing.done()  # the subscriptions did not wait for it
        redis_answers.set()
        await asyncio.wait_for(publishing, timeout=5)
        assert (await asyncio.wait_for(elsewhere.receive(theirs), timeout=5))["revision"] == 1
        await elsewhere.group_send("match_4_players", {"type": "match.changed", "revision": 2})
        # Subscribed before the first message left, the new member hears both, in order.
        heard = [(await asyncio.wait_for(here.receive(mine[0]), timeout=5))["revision"] for _ in range(2)]
        assert heard == [1, 2]


def test_subscriptions_asked_together_go_in_one_command_and_keep_their_order() -> None:
    require_redis(SERVER, "channel layer Redis test")
    run_on_its_own_loop(_subscriptions_in_batches)


async def _subscriptions_in_batches() -> None:
    async with _two_processes("test-subscribe") as (here, elsewhere):
        shard = here._get_layer()._shards[0]
        shard._ensure_redis()
        commands: list[tuple[str, tuple[str, ...]]] = []
        pubsub = shard._pubsub
        real_subscribe, real_unsubscribe = pubsub.subscribe, pubsub.unsubscribe

        async def subscribe(*names: str) -> Any:
            commands.append(("subscribe", names))
            return await real_subscribe(*names)

        async def unsubscribe(*names: str) -> Any:
            commands.append(("unsubscribe", names))
            return await real_unsubscribe(*names)

        pubsub.subscribe, pubsub.unsubscribe = subscribe, unsubscribe
        mine = await asyncio.gather(*(here.new_channel() for _ in range(8)))
        assert sum(len(names) for _, names in commands) == 8 and len(commands) <= 2, commands
        # Leaving a group and joining it again, asked together: the last word stands, in order.
        group = "match_5_players"
        await here.group_add(group, mine[0])
        commands.clear()
        await asyncio.gather(
            here.group_discard(group, mine[0]),
            here.group_add(group, mine[1]),
        )
        assert [kind for kind, _ in commands] == ["unsubscribe", "subscribe"], commands
        await asyncio.sleep(0.2)
        await elsewhere.group_send(group, {"type": "match.changed", "revision": 7})
        assert (await asyncio.wait_for(here.receive(mine[1]), timeout=5))["revision"] == 7
        assert here._get_layer().channels[mine[0]].empty()


def test_a_failed_publish_reaches_whoever_sent_the_message() -> None:
    require_redis(SERVER, "channel layer Redis test")
    run_on_its_own_loop(_failure_heard)


async def _failure_heard() -> None:
    from redis.exceptions import ConnectionError as RedisDown

    async with _two_processes("test-failure") as (here, _):
        redis_down = True

        async def fail(pipeline: Any) -> None:
            if redis_down:
                raise RedisDown("gone")

        _before_each_batch(here, fail)
        with pytest.raises(RedisDown):
            await here.group_send("match_6_players", {"type": "match.changed"})
        redis_down = False
        await here.group_send("match_6_players", {"type": "match.changed"})  # the next batch is sent
