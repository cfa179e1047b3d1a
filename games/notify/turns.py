"""The e-mail for a turn: sent once per decision to a player with no page open after ``REMINDER_AFTER``.

The seat's ``reminded_at`` is the claim (reset by the write path when a new decision begins), taken
by a conditional update before the e-mail goes, so two sweeps never send it twice.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings

from games.models import Seat
from games.notify import preferences
from games.notify.send import notify
from games.notify.waiting import due_of, waiting_seats
from games.play import clock


def due_reminders(now: datetime) -> list[Seat]:
    """The seats whose turn e-mail is due at ``now``: waited long enough, page not opened meanwhile."""
    cutoff = now - settings.REMINDER_AFTER
    seats = (
        waiting_seats()
        .filter(
            user__profile__email_reminders=True,
            user__profile__email_digest=preferences.DIGEST_OFF,
            waiting_since__lte=cutoff,
            reminded_at__isnull=True,
            open_sockets__lte=0,
        )
        .select_related("match", "user", "user__profile")
    )
    return [seat for seat in seats if seat.last_seen is None or seat.last_seen <= cutoff]


def deliver(seat: Seat, now: datetime) -> bool:
    """Claim the seat's reminder and send it; whether it went."""
    claimed = Seat.objects.filter(pk=seat.pk, reminded_at__isnull=True).update(reminded_at=now)
    return bool(claimed) and notify(seat.user, preferences.TURN, seat.match, seat=seat, due=due_of(seat.waiting_key))


def send_reminders(now: datetime | None = None) -> int:
    now = now or clock.now_datetime()
    return sum(deliver(seat, now) for seat in due_reminders(now))
