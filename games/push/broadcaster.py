"""Sending "match N changed" to the channel layer from synchronous code, cheaply.

Under daphne a sync view runs in a thread of daphne's event loop, and ``async_to_sync`` hops onto
that loop, where the in-memory layer's queues live. Elsewhere (Celery workers, scripts) there is
no such loop: a Redis layer is then driven from one long-lived background loop per process, so
its connection is reused instead of being opened for every message. With Redis, the process's own
sockets are handed their messages directly and only the other processes' go through Redis.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from concurrent.futures import Future
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

from games.runtime.channel_layer import SharedDecodeChannelLayer

log = logging.getLogger(__name__)

_loop: asyncio.AbstractEventLoop | None = None
_lock = threading.Lock()


def _background_loop() -> asyncio.AbstractEventLoop:
    global _loop
    with _lock:
        if _loop is None:
            _loop = asyncio.new_event_loop()
            threading.Thread(target=_loop.run_forever, name="hideout-broadcast", daemon=True).start()
        return _loop


def _report(future: Future[Any]) -> None:
    if future.exception() is not None:
        log.error("channel layer send failed: %r", future.exception())


def _running(loop: asyncio.AbstractEventLoop) -> bool:
    """Whether ``loop`` is the one running in this thread."""
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


async def _group_send_all(layer: Any, messages: list[tuple[str, dict[str, Any]]]) -> None:
    for group, message in messages:  # in order
        await layer.group_send(group, message)


def send(group: str, message: dict[str, Any]) -> None:
    send_many([(group, message)])


def send_many(messages: list[tuple[str, dict[str, Any]]]) -> None:
    """Send each ``(group, message)``; on Redis, a move's messages cost the sending loop one wake-up."""
    layer = get_channel_layer()
    if layer is None:
        return
    if isinstance(layer, InMemoryChannelLayer):
        wanted = [(group, message) for group, message in messages if layer.groups.get(group)]  # else nobody listens
        loop = getattr(
            layer, "loop", None
        )  # the consumers' loop (games.runtime.channel_layer.LoopInMemoryChannelLayer)
        if wanted and loop is not None and loop.is_running() and not _running(loop):
            # On the consumers' loop, which this wakes (fire and forget, in order, as on Redis below).
            # From a thread that is not one of that loop's (a live game's timer), async_to_sync would
            # fill their queues from a loop of its own, and daphne's would go on sleeping: the sockets
            # forwarded the message only when something else woke it.
            asyncio.run_coroutine_threadsafe(_group_send_all(layer, wanted), loop).add_done_callback(_report)
            return
        for group, message in wanted:
            async_to_sync(layer.group_send)(group, message)
        return

    if isinstance(layer, SharedDecodeChannelLayer):
        # This process's sockets (usually the match's, behind a proxy that routes by match) first,
        # on their own loop, then the other processes' through Redis, from that loop too
        # (games.runtime.channel_layer). A process with no sockets publishes from the background loop.
        if layer.hand_over(messages):
            return
        send = layer.group_send_elsewhere
    else:
        send = layer.group_send

    async def publish() -> None:
        await asyncio.gather(*(send(group, message) for group, message in messages))

    # Fire and forget, in order: the version in the message lets clients detect anything missed.
    future = asyncio.run_coroutine_threadsafe(publish(), _background_loop())
    future.add_done_callback(_report)
