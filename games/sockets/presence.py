"""Which players have a page open: presence records refreshed by heartbeat, swept when stale.

A consumer records itself on connect and deletes the record on disconnect; while it lives, the
process refreshes its record with every other socket's of that process, every ``HEARTBEAT_SECONDS``
(:class:`Heartbeats`). A socket that dies without disconnecting (a daphne killed or restarted, a
consumer that crashed) leaves a record that stops being refreshed; the sweep deletes records older
than ``STALE_SECONDS`` and sets every seat's ``open_sockets`` to its count of fresh records, so
pushes and turn reminders go by who really has a page open.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from datetime import timedelta
from typing import Any

from channels.db import database_sync_to_async
from django.db.models import Count, F, IntegerField, OuterRef, Q, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from games.models import Presence, Seat
from games.play import clock

log = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 30.0
STALE_SECONDS = 90.0


def count_socket(match_id: int, user: Any, channel_name: str, delta: int) -> bool:
    """Count a socket in (``delta`` +1) or out (-1) of ``user``'s seat's ``open_sockets``, with its
    presence record; whether the user holds a seat of the match (a spectator's socket is not counted).
    By user, not seat number: seats are renumbered when the match starts."""
    counted = bool(
        Seat.objects.filter(match_id=match_id, user=user).update(
            open_sockets=F("open_sockets") + delta, last_seen=timezone.now()
        )
    )
    if delta > 0 and counted:
        Presence.objects.update_or_create(
            channel_name=channel_name, defaults={"match_id": match_id, "user": user, "seen_at": timezone.now()}
        )
    elif delta < 0:
        Presence.objects.filter(channel_name=channel_name).delete()
    return counted


REFRESH_BATCH = 500  # records per statement (well under SQLite's limit on parameters)


def refresh(channel_names: list[str]) -> None:
    now = clock.now_datetime()
    for start in range(0, len(channel_names), REFRESH_BATCH):
        Presence.objects.filter(channel_name__in=channel_names[start : start + REFRESH_BATCH]).update(seen_at=now)


class Heartbeats:
    """The presence records of one event loop's sockets, refreshed together: one statement per
    ``HEARTBEAT_SECONDS`` for every socket of the process, where each socket once sent its own (800
    open sockets were 27 updates a second, each a hop to the database thread and a round trip)."""

    def __init__(self) -> None:
        self.channel_names: set[str] = set()
        self.task: asyncio.Task[None] | None = None

    def add(self, channel_name: str) -> None:
        self.channel_names.add(channel_name)
        if self.task is None or self.task.done():
            self.task = asyncio.ensure_future(self._beat())

    def discard(self, channel_name: str) -> None:
        self.channel_names.discard(channel_name)
        if not self.channel_names and self.task is not None:
            self.task.cancel()  # not left asleep for a beat after the last socket closed
            self.task = None

    async def _beat(self) -> None:  # until cancelled by the last discard
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            try:
                await database_sync_to_async(refresh)(list(self.channel_names))
            except Exception:  # the database away for a beat: the next one tries again (the sweep waits three)
                log.exception("refreshing %d presence records failed", len(self.channel_names))


_heartbeats: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Heartbeats] = weakref.WeakKeyDictionary()


def heartbeats() -> Heartbeats:
    """The heartbeats of the running event loop (a daphne has one; tests start a loop per test)."""
    loop = asyncio.get_running_loop()
    found = _heartbeats.get(loop)
    if found is None:
        found = _heartbeats[loop] = Heartbeats()
    return found


def sweep() -> int:
    """Forget stale records and recount every active match's open sockets; returns seats corrected."""
    Presence.objects.filter(seen_at__lt=clock.now_datetime() - timedelta(seconds=STALE_SECONDS)).delete()
    fresh = (
        Presence.objects.filter(match_id=OuterRef("match_id"), user_id=OuterRef("user_id"))
        .values("match_id")
        .annotate(n=Count("pk"))
        .values("n")
    )
    # Seats that count a socket, or whose match has a record: few, whatever the matches' status.
    live = Seat.objects.filter(user__isnull=False).filter(
        ~Q(open_sockets=0) | Q(match_id__in=Presence.objects.values("match_id"))
    )
    counted = live.annotate(fresh=Coalesce(Subquery(fresh, output_field=IntegerField()), Value(0)))
    corrected = 0
    for seat_id, number in counted.filter(~Q(open_sockets=F("fresh"))).values_list("pk", "fresh"):
        corrected += Seat.objects.filter(pk=seat_id).update(open_sockets=number)
    return corrected
