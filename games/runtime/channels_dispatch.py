"""A socket's messages, from its client and from the channel layer, handled one at a time in few
turns of the event loop.

Channels' ``AsyncConsumer.__call__`` hands a consumer its messages through
``channels.utils.await_many_dispatch``: a task per source, and
``asyncio.wait`` on them both. A message then reaches its handler three loop turns after it was
queued: the receiving task wakes, its completion wakes the wait, the wait wakes the consumer. Each
turn gives up the interpreter's lock, and beside a writer thread that is rendering a move, the loop
waits up to the switch interval (5 ms) to get it back (docs/decisions/0015-socket-turns.md): a push
to an opponent paid that wait several times.

Here each source has a task of its own that takes its next message and handles it at once, the
moment it has it: one turn after it was queued. A lock keeps the consumer's one-at-a-time promise:
a message that arrives while the other source's is being handled waits for it, in arrival order.
The match consumer's ``__call__`` (:mod:`games.sockets.consumers`) is Channels' own with
:func:`serve_in_turn` in place of ``await_many_dispatch``: it sets the attributes Channels' sets
(``scope``, ``channel_layer``, ``channel_name``, ``base_send``) and ends on ``StopConsumer`` as it does.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

Source = Callable[[], Awaitable[Any]]


async def serve_in_turn(sources: list[Source], dispatch: Callable[[Any], Awaitable[None]]) -> None:
    """Handle every source's messages with ``dispatch``, one message at a time, until a handler
    raises (``StopConsumer`` included) or this is cancelled; then stop taking messages."""
    turn = asyncio.Lock()

    async def serve(source: Source) -> None:
        while True:
            message = await source()
            async with turn:
                await dispatch(message)

    servers = [asyncio.ensure_future(serve(source)) for source in sources]
    try:
        done, _ = await asyncio.wait(servers, return_when=asyncio.FIRST_COMPLETED)
        for server in done:
            server.result()  # a server ends only by raising: pass it on
    finally:
        for server in servers:
            server.cancel()
        await asyncio.gather(*servers, return_exceptions=True)  # each one's clean-up done
