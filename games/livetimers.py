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

import logging
import threading

from django.conf import settings
from django.db import connections

from . import clock

log = logging.getLogger(__name__)

_timers: dict[int, tuple[float, threading.Timer]] = {}
_lock = threading.Lock()
_SLACK = 0.002  # fire just after the due time, never before it


def enabled() -> bool:
    return bool(getattr(settings, "HIDEOUT_LIVE_TIMERS", True))


def arm(match_id: int, due: float | None) -> None:
    """Fire ``match_id``'s automatic moves at ``due`` (epoch seconds); ``None`` disarms."""
    if not enabled():
        return
    with _lock:
        current = _timers.pop(match_id, None)
        if current is not None:
            current[1].cancel()
        if due is None:
            return
        timer = threading.Timer(max(0.0, due - clock.now()) + _SLACK, _fire, args=(match_id,))
        timer.daemon = True
        _timers[match_id] = (due, timer)
        timer.start()


def armed(match_id: int) -> float | None:
    """The due time armed for ``match_id`` in this process, if any."""
    with _lock:
        current = _timers.get(match_id)
    return current[0] if current is not None else None


def _fire(match_id: int) -> None:
    from .tasks import advance_match

    with _lock:
        current = _timers.get(match_id)
        if current is not None and current[1] is threading.current_thread():
            del _timers[match_id]
    try:
        advance_match(match_id, -1)
    except Exception:
        log.exception("live timer of match %s failed", match_id)
    finally:
        connections.close_all()  # this thread's own connections: the thread ends here


def disarm_all() -> None:
    with _lock:
        for _due, timer in _timers.values():
            timer.cancel()
        _timers.clear()
