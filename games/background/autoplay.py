"""Bookkeeping that keeps automatic moves (bots, SYSTEM steps) from being lost with a worker.

A task taken by a worker that dies is gone until the broker's visibility timeout (an hour on
Redis). So every queued ``advance_match`` leaves a short-lived mark in the shared cache, and the
beat sweep queues one for any match that waits on the server and has no fresh mark. A worker
starting up moves the epoch on, which makes every earlier mark stale: after a crash and restart
the next sweep queues whatever the dead worker held. Duplicates are harmless (the task is
guarded by the match's version), so erring towards queueing is safe.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from django.core.cache import cache
from django.db.models import Q

from games.models import Match

ADVANCE_TASK = "games.background.tasks.advance_match"
FRESH_SECONDS = 30
EPOCH_KEY = "autoplay:epoch"


def _mark_key(match_id: int) -> str:
    return f"autoplay:queued:{match_id}"


def mark_queued(match_id: int) -> None:
    cache.set(_mark_key(match_id), time.time(), FRESH_SECONDS)


def note_worker_started() -> None:
    cache.set(EPOCH_KEY, time.time(), None)


def waits_on_server(bot_seats: list[int], waiting: dict[str, str]) -> bool:
    """True when the next actor is a bot or SYSTEM (SYSTEM is never listed in ``waiting``)."""
    return not waiting or bool({int(seat) for seat in waiting} & set(bot_seats))


def without_fresh_task(match_ids: Iterable[int]) -> list[int]:
    ids = list(match_ids)
    if not ids:
        return []
    marks = cache.get_many([_mark_key(pk) for pk in ids] + [EPOCH_KEY])
    epoch = marks.get(EPOCH_KEY, 0.0)
    return [pk for pk in ids if marks.get(_mark_key(pk), 0.0) <= epoch]


def stalled(limit: int = 500) -> list[tuple[int, int]]:
    """(match id, version) of active matches waiting on the server with no task on its way."""
    rows = (
        Match.objects.filter(status=Match.Status.ACTIVE)
        .filter(Q(waiting={}) | ~Q(bot_seats=[]))
        .values_list("pk", "version", "bot_seats", "waiting")
        .order_by("pk")[: limit * 4]
    )
    versions = {pk: version for pk, version, bots, waiting in rows if waits_on_server(bots, waiting)}
    return [(pk, versions[pk]) for pk in without_fresh_task(versions)][:limit]


def on_task_published(sender: str | None = None, body: Any = None, headers: Any = None, **_: Any) -> None:
    """Celery's ``after_task_publish``: mark every queued ``advance_match``, whoever queued it."""
    name = (headers or {}).get("task", sender)
    if name != ADVANCE_TASK:
        return
    try:
        args = body[0]
        match_id = int(args[0])
    except (TypeError, IndexError, KeyError, ValueError):
        return
    mark_queued(match_id)
