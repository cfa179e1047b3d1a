"""Live games' timers and bots fire on time (games.background.livetimers), through the one write path."""

from __future__ import annotations

import time
from typing import Any

import pytest

from games.background import livetimers
from games.engines.base import SYSTEM
from games.engines.registry import get_rules
from games.models import Match
from games.play import clock, decision, services
from games.play.store import load_state, rules_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def live_police_alarm(settings: Any, monkeypatch: Any) -> Any:
    settings.HIDEOUT_LIVE_TIMERS = True
    monkeypatch.setattr(get_rules("police_alarm"), "live", True, raising=False)
    return get_rules("police_alarm")


def a_match_against_a_bot(make_user: Any) -> Match:
    host = make_user()
    match = services.do_create_match(host, "police_alarm", 2, {}, 600)
    services.do_add_bot(match.pk, host)
    services.do_start_match(match.pk, host)
    match.refresh_from_db()
    return match


def wait_for(condition: Any, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.02)
    raise AssertionError("timed out")


def test_a_live_matchs_next_due_time_is_armed_after_each_change(
    make_user: Any, live_police_alarm: Any, monkeypatch: Any
) -> None:
    # The clock stands still: on a loaded machine a real one could reach the armed time, and the
    # timer fire and be cleared, before the test reads it.
    frozen = clock.now()
    monkeypatch.setattr(clock, "now", lambda: frozen)
    match = a_match_against_a_bot(make_user)
    state = load_state(match)
    wake = decision.next_wake(match, rules_for(match), state)
    assert wake is not None
    assert livetimers.armed(match.pk) == wake
    due = [d.due for d in live_police_alarm.deadlines(state)]
    assert wake <= min(due, default=wake)


def test_an_armed_timer_plays_what_is_due_on_time(make_user: Any, live_police_alarm: Any, monkeypatch: Any) -> None:
    """When the armed time comes, the due deadline (or bot move) is written without any request."""
    # The match's clock stands still until the test moves it: on a loaded machine a real clock could
    # reach the armed time (and fire it) before the test has read it.
    frozen = [clock.now()]
    monkeypatch.setattr(clock, "now", lambda: frozen[0])
    match = a_match_against_a_bot(make_user)
    before = match.version
    wake = livetimers.armed(match.pk)
    assert wake is not None
    assert Match.objects.get(pk=match.pk).version == before, "nothing fires before its time"
    # The clock reaches the armed time; the timer is re-armed just past it, which wakes the scheduler.
    frozen[0] = wake + 0.01
    livetimers.arm(match.pk, wake + 0.005)
    wait_for(lambda: Match.objects.get(pk=match.pk).version > before)
    fired = Match.objects.get(pk=match.pk)
    assert fired.version > before
    assert livetimers.armed(fired.pk) is not None or fired.status != Match.Status.ACTIVE


def test_a_live_games_bot_moves_at_its_planned_time_and_not_before(make_user: Any, live_police_alarm: Any) -> None:
    match = a_match_against_a_bot(make_user)
    rules = rules_for(match)
    human = 1 - match.bot_seats[0]
    services.do_submit_action(match.pk, human, rules.legal_actions(load_state(match), human)[0])  # the thief hides
    match.refresh_from_db()
    countdown = min(rules.deadlines(load_state(match)), key=lambda d: d.due)
    services.do_submit_action(match.pk, SYSTEM, countdown.action, now=countdown.due)  # the round starts
    match.refresh_from_db()
    bot = match.bot_seats[0]
    plan = live_police_alarm.bot_plan(load_state(match), bot, decision.bot_rng(match, bot))
    assert plan is not None, "the police bot drives once the round is on"
    action, when = plan
    early = services.next_automatic_move(match, now=when - 0.05)
    assert early is None or early[0] != bot
    assert services.next_automatic_move(match, now=when) == (bot, action)
