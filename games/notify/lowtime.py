"""The low-time alarm: one e-mail when a waiting decision has 10 % of its time left, or 1 hour if less.

The decision's whole time runs from ``Seat.waiting_since`` to its deadline (the ``due`` of its
waiting key). The alarm is claimed per decision (match, seat, waiting key) before it goes, so it is
never repeated for that decision, and a new decision can have its own. A player with the match open
is not e-mailed (the page shows the clock); the alarm goes if they leave it before time runs out.
Decisions given less than ``MIN_ALLOWED`` are left out: a warning of a few minutes by e-mail comes
too late to help (a live game's clock runs in seconds).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import CharField, Exists, F, OuterRef, Value
from django.db.models.functions import Cast, Concat

from games.models import NotificationClaim
from games.notify import claims, preferences, webpush
from games.notify.away import is_away
from games.notify.send import notify
from games.notify.waiting import Waiting, of, waiting_seats
from games.play import clock

FRACTION = 0.1
AT_MOST = timedelta(hours=1)
MIN_ALLOWED = timedelta(hours=1)


def threshold(allowed: timedelta) -> timedelta:
    """How much time left sounds the alarm for a decision given ``allowed``."""
    return min(allowed * FRACTION, AT_MOST)


def is_low(waiting: Waiting, now: datetime) -> bool:
    left, allowed = waiting.time_left(now), waiting.allowed()
    if left is None or allowed is None or allowed < MIN_ALLOWED:
        return False
    return timedelta(0) < left <= threshold(allowed)


def due_alarms(now: datetime | None = None) -> list[Waiting]:
    """The decisions whose alarm is due at ``now`` (some may have had theirs already: see ``claim_key``)."""
    now = now or clock.now_datetime()
    seats = (
        waiting_seats()
        .filter(
            user__profile__email_low_time=True,
            # A decision low on time has its deadline within AT_MOST, so the match's earliest one is too.
            match__next_deadline__lte=now + AT_MOST,
            open_sockets__lte=0,
        )
        # Those already sent are skipped here to save the sweep a failed claim each (the claim decides).
        .annotate(claim_key=_CLAIM_KEY)
        .exclude(
            Exists(
                NotificationClaim.objects.filter(
                    user=OuterRef("user"), kind=preferences.LOW_TIME, key=OuterRef("claim_key")
                )
            )
        )
        .select_related("match", "user", "user__profile")
    )
    return [waiting for waiting in map(of, seats) if is_low(waiting, now)]


# claim_key as SQL.
_CLAIM_KEY = Concat(
    Cast("match_id", CharField()),
    Value(":"),
    Cast("number", CharField()),
    Value(":"),
    F("waiting_key"),
    output_field=CharField(),
)


def claim_key(waiting: Waiting) -> str:
    seat = waiting.seat
    return f"{seat.match_id}:{seat.number}:{seat.waiting_key}"


def deliver(waiting: Waiting, now: datetime | None = None) -> bool:
    """Send the alarm for ``waiting`` unless it already went; whether it went now."""
    user = waiting.seat.user
    key = claim_key(waiting)
    if not claims.claim(user, preferences.LOW_TIME, key):
        return False
    try:
        sent = notify(user, preferences.LOW_TIME, waiting.match, seat=waiting.seat, due=waiting.due)
    except Exception:
        claims.release(user, preferences.LOW_TIME, key)
        raise
    return _push(waiting, now or clock.now_datetime()) > 0 or sent


def _push(waiting: Waiting, now: datetime) -> int:
    """The alarm's browser notification, to each device the player turned on (:mod:`games.notify.webpush`:
    every kind goes to every such device); how many push services took it."""
    user = waiting.seat.user
    if user is None or not webpush.enabled() or is_away(user, now):
        return 0
    left = waiting.time_left(now)
    seconds = None if left is None else max(0, int(left.total_seconds()))
    return webpush.send_push(user, "low_time", waiting.match, seconds_left=seconds)


def send_alarms(now: datetime | None = None) -> int:
    """Send every low-time alarm due at ``now``; how many went."""
    now = now or clock.now_datetime()
    return sum(deliver(waiting, now) for waiting in due_alarms(now))
