"""The decisions that wait on players, with when each runs out.

A seat's ``waiting_key`` is ``kind:due`` (``games.play.decision._waiting_keys``), ``due`` the
deadline in epoch seconds, or ``act`` for a decision with no clock; ``waiting_since`` is when the
decision began. Nothing here is secret to the player it is about: a seat's own deadline is on its
own board.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.db.models import QuerySet

from games.models import Match, Seat
from games.play import vacations


def due_of(waiting_key: str) -> datetime | None:
    """When the decision named by ``waiting_key`` times out; None if it has no clock."""
    _, colon, due = waiting_key.rpartition(":")
    if not colon:
        return None
    try:
        return datetime.fromtimestamp(float(due), tz=UTC)
    except (ValueError, OverflowError, OSError):
        return None


@dataclass(frozen=True)
class Waiting:
    """One decision a player's seat is waited on for."""

    seat: Seat
    due: datetime | None

    @property
    def match(self) -> Match:
        return self.seat.match

    def time_left(self, now: datetime) -> timedelta | None:
        return None if self.due is None else self.due - now

    def allowed(self) -> timedelta | None:
        """The whole time the decision was given (from when it began to its deadline)."""
        if self.due is None or self.seat.waiting_since is None:
            return None
        return self.due - self.seat.waiting_since


def waiting_seats() -> QuerySet[Seat]:
    """The seats of active matches that wait on a human player whose account is active and who is
    not on vacation (games.play.vacations: nothing about their decisions goes out meanwhile)."""
    return Seat.objects.filter(
        match__status=Match.Status.ACTIVE,
        is_bot=False,
        resigned=False,
        user__isnull=False,
        user__is_active=True,
        waiting_since__isnull=False,
    ).exclude(user_id__in=vacations.away_user_ids())


def of(seat: Seat) -> Waiting:
    return Waiting(seat, due_of(seat.waiting_key))


def opened_since_it_began(seat: Seat) -> bool:
    """Whether the player has the match open, or opened it after the decision began."""
    if seat.open_sockets > 0:
        return True
    return seat.last_seen is not None and seat.waiting_since is not None and seat.last_seen >= seat.waiting_since
