"""Which players have a page open: presence records refreshed by heartbeat, swept when stale.

A consumer records itself on connect, refreshes the record every ``HEARTBEAT_SECONDS`` and deletes
it on disconnect. A socket that dies without disconnecting (a daphne killed or restarted, a
consumer that crashed) leaves a record that stops being refreshed; the sweep deletes records older
than ``STALE_SECONDS`` and sets every seat's ``open_sockets`` to its count of fresh records, so
pushes and turn reminders go by who really has a page open.
"""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Count, F, IntegerField, OuterRef, Q, Subquery, Value
from django.db.models.functions import Coalesce

from . import clock
from .models import Presence, Seat

HEARTBEAT_SECONDS = 30.0
STALE_SECONDS = 90.0


def refresh(channel_name: str) -> None:
    Presence.objects.filter(channel_name=channel_name).update(seen_at=clock.now_datetime())


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
