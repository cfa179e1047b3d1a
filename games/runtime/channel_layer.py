"""The Redis channel layer: a move's messages reach the sockets of the writer's own process without
Redis, decoded once for all of them, and publishing never holds up a socket's subscriptions.

A move is written and rendered on a writer thread of the daphne that holds the mover's socket,
and a match's other sockets are usually in the same process. Through Redis, its push went from
the writer to the publishing thread, to Redis and back, to the process's event loop: about 5 ms
at the median in a paced run (decision 0010). :meth:`hand_over` hands the
messages to this process's member channels on their own loop instead, as they are (no encoding,
no decoding: every member shares the one message), and that loop then publishes them for the
other processes (:meth:`group_send_elsewhere`) with this process's mark, by which its own
subscriber knows them as already delivered and passes them over.

Sharing is safe because no handler changes the message it is given: the consumers read it,
take their part and send what they build from it. A message from another process is decoded by
each member channel, as channels_redis decodes it.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import uuid
import zlib
from collections.abc import Awaitable, Callable
from typing import Any, Generic, TypeVar

from channels.layers import InMemoryChannelLayer
from channels_redis.pubsub import (  # type: ignore[import-untyped]
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from channels_redis.utils import _wrap_close, decode_hosts  # type: ignore[import-untyped]

from games.play import writers

log = logging.getLogger(__name__)
T = TypeVar("T")

# Ahead of a message this process has delivered to its own sockets already, with the process's id:
# the message after it is compressed (zlib); after the older prefix, as serialized.
_HEARD_HERE_COMPRESSED = b"hideout-heard-here-z:"
_HEARD_HERE = b"hideout-heard-here:"
_PROCESS_ID_BYTES = 16


class _Decoded:
    """A message handed over within the process: nothing to decode."""

    __slots__ = ("message",)

    def __init__(self, message: dict[str, Any]) -> None:
        self.message = message


class _Shard(RedisSingleShardConnection):
    """channels_redis's connection to one Redis, publishing in batches beside its subscriptions.

    channels_redis publishes one message a round trip, under the lock its subscriptions take. At
    full load a daphne publishes a few hundred of a move's messages a second for the other
    processes, and each round trip holds the lock for a turn of the busy loop: a socket's
    subscriptions (its channel, its groups) queued behind them for seconds, past the handshake's
    time-out (docs/decisions/0010-channel-layer.md). Here every message queued while a batch is on the
    wire goes in the next one, pipelined, in the order they were queued, on a connection of their
    own, and no subscription waits for them.
    """

    def __init__(self, host: Any, channel_layer: Any) -> None:
        super().__init__(host, channel_layer)
        self._outbox: _Batched[tuple[str, bytes]] = _Batched(self._publish_all)
        self._changes: _Batched[tuple[str, bool]] = _Batched(self._change_all)

    async def publish(self, channel: str, message: bytes) -> None:
        """Publish ``message``; returns once Redis has it (raises what sending it raised)."""
        await self._outbox.add((channel, message))

    async def subscribe(self, channel: str) -> None:
        await self._changes.add((channel, True))

    async def unsubscribe(self, channel: str) -> None:
        await self._changes.add((channel, False))

    async def _publish_all(self, messages: list[tuple[str, bytes]]) -> None:
        self._ensure_redis()
        pipeline = self._redis.pipeline(transaction=False)
        for channel, message in messages:
            pipeline.publish(channel, message)
        await pipeline.execute()

    async def _change_all(self, changes: list[tuple[str, bool]]) -> None:
        """As channels_redis's subscriptions, under its lock (its ``flush`` takes it too), but in
        one command for each run of the same kind, in the order asked: a socket opening makes four
        changes, one closing up to four."""
        async with self._lock:
            self._ensure_redis()
            self._ensure_receiver()
            for subscribe, run in itertools.groupby(changes, key=lambda change: change[1]):
                names = list(dict.fromkeys(channel for channel, _ in run))
                if subscribe:
                    names = [name for name in names if name not in self._subscribed_to]
                    if names:
                        await self._pubsub.subscribe(*names)
                        self._subscribed_to.update(names)
                else:
                    names = [name for name in names if name in self._subscribed_to]
                    if names:  # (with no names, UNSUBSCRIBE would leave every channel)
                        await self._pubsub.unsubscribe(*names)
                        self._subscribed_to.difference_update(names)

    async def _do_receiving(self) -> None:
        """channels_redis's receiving loop, which also tells this process's sockets when it has its
        connection back after losing it (Redis restarted, or a blip of the network).

        redis-py subscribes again to every channel as it reconnects, before it reads, but what was
        published meanwhile is lost, as pub/sub loses it: each socket gets a ``layer.resumed`` to
        catch up by (its consumer renders what changed since what it sent its client, if anything).
        """
        lost = False
        while True:
            try:
                if self._pubsub and self._pubsub.subscribed:
                    message = await self._pubsub.get_message(ignore_subscribe_messages=True, timeout=0.1)
                    if lost:
                        lost = False
                        log.warning("channel layer: Redis is back; every socket here catches up")
                        self._resumed()
                    self._receive_message(message)
                else:
                    await asyncio.sleep(0.1)
            except (asyncio.CancelledError, TimeoutError, GeneratorExit):
                raise
            except BaseException:
                if not lost:
                    log.exception("channel layer: the connection to Redis was lost")
                lost = True
                await asyncio.sleep(1)

    def _resumed(self) -> None:
        resumed = _Decoded({"type": "layer.resumed"})
        for queue in list(self.channel_layer.channels.values()):
            queue.put_nowait(resumed)

    def _receive_message(self, message: dict[str, Any] | None) -> None:
        if message is not None:
            data = message.get("data")
            if isinstance(data, bytes) and data.startswith(self.channel_layer.channel_layer.mark):
                return  # this process delivered it already (hand_over)
        super()._receive_message(message)


class _Batched(Generic[T]):
    """Items to send: those added while a batch is on its way go together in the next one, in the
    order added. Whoever adds an item waits until its batch is sent, and hears what failed."""

    def __init__(self, send: Callable[[list[T]], Awaitable[None]]) -> None:
        self._send = send
        self._queued: list[tuple[T, asyncio.Future[None]]] = []
        self._sender: asyncio.Future[None] | None = None

    async def add(self, item: T) -> None:
        done = asyncio.get_running_loop().create_future()
        self._queued.append((item, done))
        if self._sender is None:
            self._sender = asyncio.ensure_future(self._send_queued())
        # A caller cancelled while waiting does not take its item back: it is on its way.
        await asyncio.shield(done)

    async def _send_queued(self) -> None:
        batch: list[tuple[T, asyncio.Future[None]]] = []
        try:
            while self._queued:
                batch, self._queued = self._queued, []
                error: Exception | None = None
                try:
                    await self._send([item for item, _ in batch])
                except Exception as exc:
                    error = exc
                for _, done in batch:
                    if error is None:
                        done.set_result(None)
                    else:
                        done.set_exception(error)
        finally:
            for _, done in batch + self._queued:  # left undone only when cancelled (the loop is closing)
                done.cancel()
            self._queued = []
            self._sender = None


class _LoopLayer(RedisPubSubLoopLayer):
    def __init__(self, hosts: Any = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(hosts, *args, **kwargs)
        self._shards = [_Shard(host, self) for host in decode_hosts(hosts)]

    def deliver(self, messages: list[tuple[str, dict[str, Any]]], publish: bool = False) -> None:
        """Queue each message for this loop's member channels of its group (on this loop); with
        ``publish``, then send them to the other processes from this loop too."""
        for group, message in messages:
            decoded = _Decoded(message)
            for channel in self.groups.get(self._get_group_channel_name(group), ()):
                queue = self.channels.get(channel)
                if queue is not None:
                    queue.put_nowait(decoded)
        if publish:
            asyncio.ensure_future(self._publish_elsewhere(messages)).add_done_callback(_report)

    async def _publish_elsewhere(self, messages: list[tuple[str, dict[str, Any]]]) -> None:
        await asyncio.gather(*(self.channel_layer.group_send_elsewhere(group, message) for group, message in messages))


def _report(task: asyncio.Future[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("channel layer: publishing to the other processes failed: %r", task.exception())


class SharedDecodeChannelLayer(RedisPubSubChannelLayer):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.mark = _HEARD_HERE_COMPRESSED + uuid.uuid4().bytes

    def _get_layer(self) -> Any:
        # As channels_redis's own, with the loop layer that can deliver within the process.
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            layer = _LoopLayer(*self._args, **self._kwargs, channel_layer=self)
            self._layers[loop] = layer
            _wrap_close(self, loop)
        return layer

    def hand_over(self, messages: list[tuple[str, dict[str, Any]]]) -> bool:
        """From a thread that is none of the consumers' loops (a writer thread): hand ``messages``
        to this process's member channels, then have that loop publish them for the other processes.

        The loop delivers here first and publishes after, in one wake-up: a separate publishing
        thread would wake at the same moment and take the interpreter's lock from the loop while it
        sends the move to its sockets. From a writer thread the hand-over goes with the write's
        result, when the write ends (:func:`games.play.writers.call_on_loop`). False when no loop here
        has member channels (a Celery worker): the caller then publishes with
        :meth:`group_send_elsewhere` itself.
        """
        publisher_found = False
        for loop, layer in list(self._layers.items()):
            if not layer.groups:
                continue  # a loop that only publishes (games.push.pushes's background loop)
            try:
                writers.call_on_loop(loop, layer.deliver, messages, not publisher_found)
            except RuntimeError:  # its loop is closed: the process is stopping
                log.warning("channel layer: a closed loop missed a local delivery")
                continue
            publisher_found = True
        return publisher_found

    async def group_send_elsewhere(self, group: str, message: dict[str, Any]) -> None:
        """``group_send`` for the other processes' members: this one's had it from hand_over.

        Compressed: Redis sends every publication back to this process too (its sockets are members),
        and a saturated daphne that reads that copy slower than it publishes has its connection closed
        by Redis past the pub/sub output buffer's 32 MB, then every socket of it catches up at once
        (decision 0010). A move's message, every seat's fragments, is some 33 KB, about 3.6 KB
        compressed; compressing it costs 0.06 ms, and only another process decompresses it."""
        layer = self._get_layer()
        group_channel = layer._get_group_channel_name(group)
        body = zlib.compress(self.serialize(message), 1)
        await layer._get_shard(group_channel).publish(group_channel, self.mark + body)

    def deserialize(self, message: bytes | _Decoded) -> Any:
        if isinstance(message, _Decoded):
            return message.message
        if message.startswith(_HEARD_HERE_COMPRESSED):
            body = zlib.decompress(message[len(_HEARD_HERE_COMPRESSED) + _PROCESS_ID_BYTES :])
        elif message.startswith(_HEARD_HERE):  # a process of the release before, while both run
            body = message[len(_HEARD_HERE) + _PROCESS_ID_BYTES :]
        else:
            body = message
        return super().deserialize(body)


class LoopInMemoryChannelLayer(InMemoryChannelLayer):
    """The in-memory layer (no ``REDIS_URL``: ``make run``, the browser tests) that knows its loop.

    Its queues belong to the event loop its consumers receive on (daphne's). A thread that is not
    one of that loop's (a live game's timer, a writer thread) must hand it messages through the loop
    (:func:`games.push.pushes.send_many`): ``async_to_sync`` there runs ``group_send`` on a loop of
    its own, which fills the queue without waking daphne's, so a live game's timed events (a bot's
    moves, its siren, the end of a pause) reached the sockets only when something else woke the loop,
    up to a second late.
    """

    loop: asyncio.AbstractEventLoop | None = None

    async def receive(self, channel: str) -> Any:
        self.loop = asyncio.get_running_loop()
        return await super().receive(channel)
