"""A stand-in for Celery beat on the embedded defaults (eager Celery, in-memory channel layer).

`make run` starts it inside the daphne process, so time-outs, reminders, low-time alarms, digests and
replay indexes happen and their broadcasts reach this process's sockets. With REDIS_URL set, run a
real `celery beat` instead.
"""

from __future__ import annotations

import logging
import threading
import time

log = logging.getLogger(__name__)


def _loop(interval: float) -> None:
    from games.background.tasks import (
        sweep_deadlines,
        sweep_digests,
        sweep_low_time,
        sweep_reminders,
        sweep_replay_indexes,
        sweep_turn_pushes,
    )

    last_reminders = 0.0
    while True:
        time.sleep(interval)
        try:
            sweep_deadlines()
            sweep_turn_pushes()
            if time.monotonic() - last_reminders > 60:
                last_reminders = time.monotonic()
                sweep_reminders()
                sweep_low_time()
                sweep_digests()
                sweep_replay_indexes()
        except Exception:
            log.exception("dev beat sweep failed")


def start(interval: float = 2.0) -> None:
    threading.Thread(target=_loop, args=(interval,), name="hideout-dev-beat", daemon=True).start()
