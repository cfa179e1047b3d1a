"""On-time wake-ups for live games: their next deadline or bot move fires when it is due.

A turn-based game's time-outs can wait for the beat sweep (every 2 s). A live game's cannot: a
countdown, an alarm pause or a bot's next step is due to the millisecond. So after each change of
a live match, the process that wrote it (a daphne, or the worker) arms one timer for the match's
next due time; when it fires, the match advances through the one write path (``do_advance``), which
writes whatever is due and arms the next timer. A newer change re-arms it; a stale timer finds
nothing due and does nothing.

Timers live in memory, so they are only the fast path: every deadline is also the match's
``next_deadline``, which the beat sweep picks up after a restart or a crash. Tests turn the timers
off (``HIDEOUT_LIVE_TIMERS = False``) unless they are about them.
"""

from __future__ import annotations

import heapq
import logging
import threading
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.db import close_old_connections

from games.background import tasks
from games.play import clock

log = logging.getLogger(__name__)

# One scheduler thread per process keeps the armed times in a heap; what falls due runs on a small
# pool whose threads keep their database connections (a thread and a connection per timer would
# cost a new connection each time, and 50 rounds whose countdowns end together would open 50 at once).
_armed: dict[int, float] = {}  # match -> its due time (a heap entry that differs is stale)
_heap: list[tuple[float, int]] = []
_cond = threading.Condition()
_scheduler: threading.Thread | None = None
_pool: ThreadPoolExecutor | None = None
_SLACK = 0.002  # fire just after the due time, never before it
FIRING_THREADS = 4


def enabled() -> bool:
    return bool(getattr(settings, "HIDEOUT_LIVE_TIMERS", True))


def arm(match_id: int, due: float | None) -> None:
    """Fire ``match_id``'s automatic moves at ``due`` (epoch seconds); ``None`` disarms."""
    global _scheduler
    if not enabled():
        return
    with _cond:
        if due is None:
            _armed.pop(match_id, None)
            return
        if _armed.get(match_id) == due:
            return
        _armed[match_id] = due
        heapq.heappush(_heap, (due, match_id))
        if _scheduler is None:
            _scheduler = threading.Thread(target=_schedule, name="hideout-live-timers", daemon=True)
            _scheduler.start()
        _cond.notify()


def armed(match_id: int) -> float | None:
    """The due time armed for ``match_id`` in this process, if any."""
    with _cond:
        return _armed.get(match_id)


def _schedule() -> None:
    while True:
        with _cond:
            match_id = _next_due()
            _firing_pool().submit(_fire, match_id)  # under the lock, so quiesce() sees every fire


def _next_due() -> int:
    """Wait (holding ``_cond``) until an armed time is due; disarm it and return its match."""
    while True:
        while _heap and _armed.get(_heap[0][1]) != _heap[0][0]:
            heapq.heappop(_heap)  # re-armed or disarmed since
        now = clock.now()
        if _heap and _heap[0][0] + _SLACK <= now:
            _due, match_id = heapq.heappop(_heap)
            del _armed[match_id]
            return match_id
        _cond.wait(timeout=_heap[0][0] + _SLACK - now if _heap else None)


def _firing_pool() -> ThreadPoolExecutor:
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(FIRING_THREADS, thread_name_prefix="hideout-live-fire")
    return _pool


def _fire(match_id: int) -> None:
    close_old_connections()
    try:
        tasks.advance_match(match_id, -1)
    except Exception:
        log.exception("live timer of match %s failed", match_id)
    finally:
        close_old_connections()  # as after a request: kept for CONN_MAX_AGE, else closed


def quiesce() -> None:
    """Disarm every timer and wait for the ones already firing (tests, before the database is
    flushed: a bot's move written during the flush deadlocks with it). A fire may arm the next
    timer, so this repeats until no fire ran since the last disarming."""
    global _pool
    while True:
        with _cond:
            _armed.clear()
            _heap.clear()
            pool, _pool = _pool, None
        if pool is None:
            return
        pool.shutdown(wait=True)
