"""A thread told its caller's event loop as ``sync_to_async`` tells its own threads, through
asgiref's undocumented ``SyncToAsync.threadlocal`` (``main_event_loop``, ``main_event_loop_pid``).

``async_to_sync`` called in a thread with no running loop looks there for the loop that handed the
thread its work, and runs its coroutine on that loop. The socket moves' writer threads
(:mod:`games.play.writers`) are not ``sync_to_async``'s, but the in-memory channel layer's sends
made on them (:func:`games.push.pushes.send_many`) must run on the consumers' loop, where that layer's
queues live, so they are told it the same way.
"""

from __future__ import annotations

import asyncio
import os

from asgiref.sync import SyncToAsync


def serve_loop_from_this_thread(loop: asyncio.AbstractEventLoop) -> None:
    """Have ``async_to_sync`` in this thread run on ``loop``, as in a ``sync_to_async`` thread of it."""
    SyncToAsync.threadlocal.main_event_loop = loop
    SyncToAsync.threadlocal.main_event_loop_pid = os.getpid()
