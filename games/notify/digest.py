"""The digest: at most one e-mail an hour or a day listing every match that waits for the player.

A player who chose a digest gets no e-mail per turn (``preferences.wants``); instead the beat's sweep
(``games.background.notify_tasks.send_digests``) gathers, per player, the decisions that have waited
``REMINDER_AFTER`` with the match not opened since it began, and sends one e-mail for the period
(the hour or the UTC day) that has not had one. The period is claimed first (``claims``), so two
workers sweeping together send it once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.db.models import Exists, OuterRef, Q
from django.urls import reverse

from games.models import NotificationClaim, Seat
from games.notify import claims, preferences
from games.notify.emails import site_link
from games.notify.send import notify
from games.notify.waiting import due_of, opened_since_it_began, waiting_seats
from games.play import clock


def period_key(frequency: str, now: datetime) -> str:
    """The period ``now`` falls in, for a digest sent ``frequency`` ("hourly" or "daily"), in UTC."""
    now = now.astimezone(UTC)
    if frequency == "hourly":
        return f"hourly:{now:%Y-%m-%dT%H}"
    if frequency == "daily":
        return f"daily:{now:%Y-%m-%d}"
    raise ValueError(f"unknown digest frequency: {frequency!r}")


@dataclass
class Digest:
    """One player's digest for one period: the matches waiting for them, soonest deadline first."""

    user: Any
    key: str
    rows: list[dict[str, Any]] = field(default_factory=list)


def _row(seat: Seat) -> dict[str, Any]:
    return {
        "match": seat.match,
        "link": site_link(reverse("match", args=[seat.match_id])),
        "due": due_of(seat.waiting_key),
    }


def due_digests(now: datetime | None = None) -> list[Digest]:
    """The digests to send at ``now``: one per player who chose one and has a match waiting."""
    now = now or clock.now_datetime()

    def sent(frequency: str) -> Exists:
        claimed = NotificationClaim.objects.filter(
            user=OuterRef("user"), kind=preferences.DIGEST, key=period_key(frequency, now)
        )
        return Exists(claimed)

    seats = (
        waiting_seats()
        .annotate(sent_this_hour=sent("hourly"), sent_today=sent("daily"))
        .filter(
            user__profile__email_digest__in=preferences.DIGEST_FREQUENCIES,
            waiting_since__lte=now - settings.REMINDER_AFTER,
        )
        # Players whose digest of this period went are skipped here (the claim decides; this saves it a try).
        .exclude(
            Q(user__profile__email_digest="hourly", sent_this_hour=True)
            | Q(user__profile__email_digest="daily", sent_today=True)
        )
        .select_related("match", "user", "user__profile")
        .order_by("user_id", "match_id")
    )
    digests: dict[int, Digest] = {}
    for seat in seats:
        if opened_since_it_began(seat):
            continue
        user = seat.user
        assert user is not None
        if user.pk not in digests:
            digests[user.pk] = Digest(user, period_key(user.profile.email_digest, now))
        digests[user.pk].rows.append(_row(seat))
    for digest in digests.values():
        digest.rows.sort(key=lambda row: (row["due"] is None, row["due"] or now))
    return list(digests.values())


def deliver(digest: Digest, now: datetime | None = None) -> bool:
    """Send ``digest`` unless its period already had one; whether it went."""
    if not claims.claim(digest.user, preferences.DIGEST, digest.key):
        return False
    try:
        sent = notify(digest.user, preferences.DIGEST, waiting=digest.rows, now=now or clock.now_datetime())
    except Exception:
        claims.release(digest.user, preferences.DIGEST, digest.key)
        raise
    if not sent:  # away, or turned off meanwhile: the period stays open for when that changes
        claims.release(digest.user, preferences.DIGEST, digest.key)
    return sent


def send_digests(now: datetime | None = None) -> int:
    """Send every digest due at ``now``; how many went."""
    now = now or clock.now_datetime()
    return sum(deliver(digest, now) for digest in due_digests(now))
