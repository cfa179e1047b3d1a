"""A police_alarm table for the platform tests: two players, the thief hidden, the chase running."""

from __future__ import annotations

from typing import Any

from games.models import Match
from games.play import services

from .helpers import started_match

HIDDEN = ["H", "I"]  # the thief's two circles


def running_match(make_user: Any, now: list[float]) -> tuple[Match, dict[int, Any]]:
    """Two players, seat 0 the thief (hidden at H and I), seat 1 the police; the countdown is over."""
    match, by_seat = started_match(make_user, "police_alarm", 2, {"first": "0"}, first_seat=0)
    services.do_submit_action(match.pk, 0, {"type": "place", "circles": HIDDEN}, now=now[0])
    services.do_submit_action(match.pk, 1, {"type": "ready"}, now=now[0])
    now[0] += 3.5  # the countdown's 3 s
    return match, by_seat
