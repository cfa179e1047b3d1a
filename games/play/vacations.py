"""Players' vacations (issue 56, part 5): starting and ending one, the yearly allowance, who is away.

While a player is away, the clocks of their correspondence matches stop for the decisions that
wait on them: each such match's ``clock`` is credited the absence (:mod:`games.play.clock_policy`)
and its ``next_deadline`` moved, so the time-out sweep leaves it alone until then. Coming back
early takes the rest back and the clock runs again with the time that was left. Live matches
(a time limit under a day, or a live game) are not affected. The reminders and the digest skip
the players :func:`away_user_ids` names.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.models import Match, Seat, Vacation
from games.play import clock, clock_policy
from games.play.errors import ServiceError
from games.play.store import engine_options, load_state, rules_for, to_datetime
from games.push.pushes import publish_after_commit

ALLOWANCE_DAYS = 30  # days of vacation a player may take a year (counted in the year each starts)


def away_user_ids(now: datetime | None = None) -> QuerySet[Vacation, int]:
    """The ids of the users on vacation at ``now`` (default: the server's clock), as a subquery:
    ``Seat.objects.exclude(user_id__in=away_user_ids())`` leaves the absent players out."""
    at = now or clock.now_datetime()
    return Vacation.objects.filter(starts_at__lte=at, ends_at__gt=at).values_list("user_id", flat=True)


def current(user: Any, now: datetime | None = None) -> Vacation | None:
    """The vacation ``user`` is on at ``now``, if any."""
    at = now or clock.now_datetime()
    return Vacation.objects.filter(user=user, starts_at__lte=at, ends_at__gt=at).first()


def days_used(user: Any, year: int) -> int:
    """The days of ``year``'s allowance ``user`` has taken."""
    return sum(Vacation.objects.filter(user=user, starts_at__year=year).values_list("days", flat=True))


def days_left(user: Any, now: datetime | None = None) -> int:
    at = now or clock.now_datetime()
    return max(0, ALLOWANCE_DAYS - days_used(user, at.year))


def is_correspondence(match: Match) -> bool:
    """A match a vacation stops the clocks of: one its game calls correspondence (``Rules.correspondence``:
    at least a day a decision, or a pace of its own), or on a time bank (whose reserves are days,
    whatever its increment)."""
    rules = rules_for(match)
    if rules.live:
        return False
    return rules.correspondence(engine_options(match)) or clock_policy.has_bank(match.clock)


def start(user: Any, days: int) -> Vacation:
    """Begin ``user``'s vacation of ``days`` days now; refused (nothing changed) if they are
    already away, or if it would take more than is left of the year's allowance."""
    now = clock.now_datetime()
    if days < 1:
        raise ServiceError(_("A vacation lasts at least one day."))
    with transaction.atomic():
        # One vacation at a time, and the allowance counted once: the user's rows are decided in turn.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        if current(user, now) is not None:
            raise ServiceError(_("You are already on vacation."))
        left = days_left(user, now)
        if days > left:
            text = ngettext(
                "You have %(left)s day of vacation left this year; choose at most that many.",
                "You have %(left)s days of vacation left this year; choose at most that many.",
                left,
            )
            raise ServiceError(text % {"left": left})
        vacation = Vacation.objects.create(user=user, starts_at=now, ends_at=now + timedelta(days=days), days=days)
        until = vacation.ends_at.timestamp()
        for match, seat in _correspondence_seats(user):
            key = match.waiting.get(str(seat), "")
            _retime(match, clock_policy.go_away(match.clock, seat, key, now.timestamp(), until))
    return vacation


def end(user: Any) -> Vacation:
    """End ``user``'s vacation now: the clocks waiting on them run again with the time they had
    left; only the days begun are taken from the allowance."""
    now = clock.now_datetime()
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        vacation = current(user, now)
        if vacation is None:
            raise ServiceError(_("You are not on vacation."))
        vacation.days = max(1, math.ceil((now - vacation.starts_at).total_seconds() / 86400))
        vacation.ends_at = now
        vacation.save(update_fields=["days", "ends_at"])
        for match, seat in _correspondence_seats(user):
            key = match.waiting.get(str(seat), "")
            _retime(match, clock_policy.come_back(match.clock, seat, key, now.timestamp()))
    return vacation


def clock_at_start(match: Match, seats: list[Seat]) -> dict[str, Any]:
    """``match``'s clock as it starts with ``seats`` (numbered as seated): the seats whose player is
    on vacation now are away, so the decisions that open for them wait for the vacation's end."""
    if not is_correspondence(match):
        return match.clock
    now = clock.now_datetime()
    players = [seat.user_id for seat in seats if seat.user_id is not None and not seat.is_bot]
    away = Vacation.objects.filter(user_id__in=players, starts_at__lte=now, ends_at__gt=now)
    ends = dict(away.values_list("user_id", "ends_at"))
    timing = match.clock
    for seat in seats:
        if seat.user_id in ends:
            timing = clock_policy.go_away(timing, seat.number, "", now.timestamp(), ends[seat.user_id].timestamp())
    return timing


def _correspondence_seats(user: Any) -> list[tuple[Match, int]]:
    """``user``'s running correspondence matches, each row locked, with their seat in it."""
    seats = Seat.objects.filter(user=user, is_bot=False, match__status=Match.Status.ACTIVE)
    ids = dict(seats.values_list("match_id", "number"))
    matches = Match.objects.select_for_update().filter(pk__in=ids, status=Match.Status.ACTIVE).order_by("pk")
    return [(match, ids[match.pk]) for match in matches if is_correspondence(match)]


def _retime(match: Match, timing: dict[str, Any]) -> None:
    """Save ``match``'s new clock and the next deadline it gives; its pages show the change."""
    rules = rules_for(match)
    deadlines = rules.deadlines(load_state(match))
    dues = clock_policy.effective_dues(timing, deadlines, clock_policy.int_keys(match.waiting))
    match.clock = timing
    match.next_deadline = to_datetime(min(dues, default=None))
    match.revision += 1
    match.save(update_fields=["clock", "next_deadline", "revision"])
    publish_after_commit(match)
