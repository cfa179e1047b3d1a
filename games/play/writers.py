"""Where moves that arrive over a socket are written: a few threads that keep their database connection.

``database_sync_to_async`` hands a connection back (to the pool, or closes it) after every call,
and takes one, health-checked, before the next: three round trips to the database around a move
that needs one, and pool bookkeeping besides. It also runs every call of the process on one shared
thread, so a move waiting on PostgreSQL held up every other match's move and push in the process.
These threads keep their connections from one move to the next instead, as a game server keeps its
sockets, and one waits on the database while another renders (docs/decisions/0014-writer-threads.md).
How many there are is a deployment's choice between a light load's latency and a full machine's
throughput (``SOCKET_WRITER_THREADS``, default 3): each thread working on a move competes with the
event loop for the interpreter's lock, and the loop can wait up to the switch interval (5 ms) for
it at each turn (decisions 0014 and 0015 measure both sides).
A connection is dropped as soon as an error leaves it unusable, or a database error other than a
refused row leaves a move (a connection closed under the thread, which SQLite's check cannot tell),
and the next move opens a new one.

A live game's inputs and turn-based moves both come here. Two moves of one match may be written at
once in one process, as they always could be on two daphnes: the guarded statement (or the row
lock) orders them, and a socket drops a push older than what it was sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

from django.conf import settings
from django.db import DataError, IntegrityError, connection
from django.db import Error as DatabaseError

from games.runtime.asgiref_loop import serve_loop_from_this_thread

log = logging.getLogger(__name__)

P = ParamSpec("P")
R = TypeVar("R")

# settings.SOCKET_WRITER_THREADS of them. Each holds a pool connection for good: settings.DB_POOL_MAX
# leaves room for them. A live match's inputs are written one at a time (the sequencer); these serve
# several matches.
_executor: ThreadPoolExecutor | None = None
_size = 0  # its threads
_lock = threading.Lock()


def _threads() -> ThreadPoolExecutor:
    global _executor, _size
    with _lock:
        if _executor is None:
            _size = settings.SOCKET_WRITER_THREADS
            _executor = ThreadPoolExecutor(_size, thread_name_prefix="hideout-write")
        return _executor


def _keep_connection_usable() -> None:
    """As Django's check between requests, without closing a connection for its age."""
    if connection.connection is None:
        return
    if connection.get_autocommit() != connection.settings_dict["AUTOCOMMIT"] or connection.in_atomic_block:
        connection.close()  # a write that failed half-way: start clean
    elif connection.errors_occurred:
        if connection.is_usable():
            connection.errors_occurred = False
        else:
            connection.close()


def lost_connection(error: BaseException) -> bool:
    """Whether ``error`` is the database's, other than a row it refused: the connection it came
    from is not to be trusted with the next move (PostgreSQL ended it, or it was closed under us)."""
    return isinstance(error, DatabaseError) and not isinstance(error, DataError | IntegrityError)


def _drop_connection() -> None:
    with contextlib.suppress(DatabaseError):
        connection.close()


def on_writer(func: Callable[P, R]) -> Callable[P, R]:
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        _keep_connection_usable()
        try:
            return func(*args, **kwargs)
        except BaseException as error:
            if lost_connection(error):
                _drop_connection()
            raise
        finally:
            _keep_connection_usable()

    return run


async def write(func: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """Run ``func`` on a writer thread, with that thread's own kept connection.

    A plain hop to the thread, in a copy of the caller's context, as ``sync_to_async`` makes one,
    without what it adds that a write has no use for: a new wrapper for each call, a shield, and
    the context's variables copied back into the caller's afterwards (about 30 µs of a move's
    CPU). The write activates the language it speaks in (``games.push.speaking``), so it reads nothing
    of the caller's ``Local`` values, which asgiref does not show to another thread's plain copy.

    What the write hands to the caller's loop on its way (:func:`call_on_loop`: a move's pushes to
    this process's sockets) goes with its result, in one wake-up of the loop at its end: the pushes
    first, then the result.
    """
    loop = asyncio.get_running_loop()
    done: asyncio.Future[R] = loop.create_future()
    call = functools.partial(_on_thread, loop, done, contextvars.copy_context(), func, args, kwargs)
    _threads().submit(call)
    return await done


LoopCall = tuple[Callable[..., object], tuple[Any, ...]]


class _Handing(threading.local):
    loop: asyncio.AbstractEventLoop | None = None
    calls: list[LoopCall] | None = None


_handing = _Handing()


def call_on_loop(loop: asyncio.AbstractEventLoop, callback: Callable[..., object], *args: Any) -> None:
    """``loop.call_soon_threadsafe(callback, *args)``; on a writer thread working for ``loop``, the
    call waits for the write to end and goes with its result (:func:`write`)."""
    calls = _handing.calls
    if calls is not None and _handing.loop is loop:
        calls.append((callback, args))
    else:
        loop.call_soon_threadsafe(callback, *args)


def _on_thread(
    loop: asyncio.AbstractEventLoop,
    done: asyncio.Future[R],
    context: contextvars.Context,
    func: Callable[..., R],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
) -> None:
    # What sync_to_async tells its thread, so that async_to_sync in it (the in-memory channel
    # layer's sends, games.push.pushes.send_many) runs on the caller's loop, where that layer's queues live.
    serve_loop_from_this_thread(loop)
    calls: list[LoopCall] = []
    _handing.loop, _handing.calls = loop, calls
    try:
        result = context.run(on_writer(func), *args, **kwargs)
    except BaseException as error:
        outcome: tuple[bool, Any] = (False, error)
    else:
        outcome = (True, result)
    finally:
        _handing.loop, _handing.calls = None, None
    with contextlib.suppress(RuntimeError):  # the loop is closed: the process is stopping, nobody waits
        loop.call_soon_threadsafe(_settle, calls, done, outcome)


def _settle(calls: list[LoopCall], done: asyncio.Future[Any], outcome: tuple[bool, Any]) -> None:
    """On the caller's loop: what the write handed over, then its result (unless the caller gave up)."""
    for callback, args in calls:
        try:
            callback(*args)
        except Exception:
            log.exception("writers: a call handed to the loop failed")
    if done.cancelled():
        return
    succeeded, value = outcome
    if succeeded:
        done.set_result(value)
    else:
        done.set_exception(value)


def shutdown() -> None:
    """Close every writer thread's connection and stop the threads (tests, before the test
    database is flushed or dropped; a process that exits closes them anyway)."""
    global _executor
    with _lock:
        executor, _executor, threads = _executor, None, _size
    if executor is None:
        return
    everyone = threading.Barrier(threads, timeout=5)  # one close on each thread, not two on one

    def close() -> None:
        with contextlib.suppress(threading.BrokenBarrierError):
            everyone.wait()
        connection.close()

    for _ in range(threads):
        executor.submit(close)
    executor.shutdown(wait=True)
