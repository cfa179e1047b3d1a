"""Fairer clocks (issue 56, parts 5 and 6): vacations stop correspondence clocks, time banks."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.core import mail
from django.urls import reverse

from games.background import tasks
from games.engines.base import SYSTEM, replay
from games.models import Match, MatchEvent, Seat, Vacation
from games.play import clock_policy, services, store, vacations
from games.play.errors import ServiceError

from .helpers import client_for, count_calls, page_html, page_viewers, started_match, state_of

pytestmark = pytest.mark.django_db(transaction=True)

DAY = 86400.0
MARCH = datetime(2026, 3, 2, 12, tzinfo=UTC).timestamp()  # far from a year's end: one year's allowance


@pytest.fixture
def at_march(test_clock: list[float]) -> list[float]:
    test_clock[0] = MARCH
    return test_clock


def timed_out(match: Match) -> int:
    return MatchEvent.objects.filter(match=match, type="choice_timed_out").count()


def deadline_of(match: Match) -> float:
    match.refresh_from_db()
    assert match.next_deadline is not None
    return match.next_deadline.timestamp()


# --- vacations -------------------------------------------------------------------------------------


def test_a_vacation_stops_the_clock_and_the_sweep_leaves_the_match_alone(make_user: Any, at_march: Any) -> None:
    match, users = started_match(make_user, time_limit=2 * 86400)  # heist planning: 2 days, all four seats
    due = deadline_of(match)
    assert due == pytest.approx(MARCH + 2 * DAY)
    at_march[0] = MARCH + DAY
    vacations.start(users[1], 5)
    assert deadline_of(match) == pytest.approx(due + 5 * DAY)
    at_march[0] = due + 3600  # the decision's own time is over, but its player is away
    assert tasks.sweep_deadlines() == 0
    assert services.next_automatic_move(Match.objects.get(pk=match.pk)) is None
    assert timed_out(match) == 0
    at_march[0] = due + 5 * DAY + 1  # the vacation and the day left have passed
    assert tasks.sweep_deadlines() == 1
    assert timed_out(match) == 4


def test_ending_early_restarts_the_clock_with_the_time_that_was_left(make_user: Any, at_march: Any) -> None:
    match, users = started_match(make_user, time_limit=2 * 86400)
    at_march[0] = MARCH + DAY  # one day of the two left
    vacations.start(users[2], 10)
    at_march[0] = MARCH + 3 * DAY  # back after two days
    done = vacations.end(users[2])
    assert done.days == 2  # only the days begun are taken from the allowance
    assert vacations.days_left(users[2]) == vacations.ALLOWANCE_DAYS - 2
    assert deadline_of(match) == pytest.approx(MARCH + 4 * DAY)  # now + the one day that was left
    at_march[0] = MARCH + 4 * DAY - 60
    assert tasks.sweep_deadlines() == 0
    at_march[0] = MARCH + 4 * DAY + 1
    assert tasks.sweep_deadlines() == 1
    assert timed_out(match) == 4


def test_a_decision_opened_during_the_vacation_waits_for_its_end(make_user: Any, at_march: Any) -> None:
    match, users = started_match(make_user, time_limit=86400)
    vacations.start(users[0], 3)
    at_march[0] = MARCH + 2 * DAY  # the planning times out for the others? no: seat 0 is away
    assert tasks.sweep_deadlines() == 0
    for seat in (1, 2, 3):
        services.do_submit_action(match.pk, seat, {"type": "choose", "roles": ["THUG"]})
    assert deadline_of(match) == pytest.approx(MARCH + 4 * DAY)  # the vacation's 3 days + the 1 of the decision


def test_live_matches_are_not_affected(make_user: Any, at_march: Any) -> None:
    match, users = started_match(make_user, time_limit=60)
    due = deadline_of(match)
    vacations.start(users[0], 3)
    match.refresh_from_db()
    assert match.clock == {} and deadline_of(match) == due
    at_march[0] = due + 1
    assert tasks.sweep_deadlines() == 1
    assert timed_out(match) == 4


def test_the_others_see_on_vacation_until_and_the_player_does_not_see_it_of_themselves(
    make_user: Any, at_march: Any
) -> None:
    match, users = started_match(make_user, time_limit=86400)
    vacations.start(users[3], 4)
    name = users[3].profile.name
    for seat, client in page_viewers(make_user, users):  # every player, and a spectator last
        html = page_html(client, match)
        if seat == 3:
            assert "is on vacation until" not in html
        else:
            assert html.count(f"{name} is on vacation until March 6, 2026") == 1, seat  # the planned end
        assert "credit" not in html and str(4 * 86400) not in html  # only the label: no clock internals
    vacations.end(users[3])
    assert "is on vacation until" not in page_html(client_for(users[0]), match)


def test_the_label_is_in_the_readers_language(make_user: Any, at_march: Any) -> None:
    match, users = started_match(make_user, time_limit=86400)
    users[0].profile.language = "zh-hant"
    users[0].profile.save()
    vacations.start(users[1], 4)
    html = page_html(client_for(users[0]), match)
    assert f"{users[1].profile.name} 休假至" in html


def test_reminders_skip_a_player_on_vacation(make_user: Any, at_march: Any, settings: Any) -> None:
    settings.REMINDER_AFTER = timedelta(minutes=10)
    _, users = started_match(make_user, time_limit=86400)
    vacations.start(users[0], 2)
    at_march[0] += 11 * 60
    assert tasks.sweep_reminders() == 3
    assert users[0].email not in {message.to[0] for message in mail.outbox}
    assert users[0].pk in set(vacations.away_user_ids())


def test_the_allowance_is_enforced_with_a_clear_form_error(make_user: Any, at_march: Any) -> None:
    user = make_user()
    client = client_for(user)
    response = client.post(reverse("profile_vacation"), {"action": "start", "days": "25"})
    assert response.status_code == 302
    at_march[0] += 26 * DAY  # over, the same year
    page = client.get(reverse("profile")).content.decode()
    assert "You have 5 days of vacation left this year." in page
    response = client.post(reverse("profile_vacation"), {"action": "start", "days": "6"})
    assert response.status_code == 400
    assert "You have 5 days of vacation left this year; choose at most that many." in response.content.decode()
    assert Vacation.objects.filter(user=user).count() == 1
    for bad in ("0", "abc", ""):
        response = client.post(reverse("profile_vacation"), {"action": "start", "days": bad})
        assert response.status_code == 400 and 'role="alert"' in response.content.decode()
    assert Vacation.objects.filter(user=user).count() == 1


def test_one_vacation_at_a_time_and_ending_one_that_is_not_there_is_refused(make_user: Any, at_march: Any) -> None:
    user = make_user()
    with pytest.raises(ServiceError):
        vacations.end(user)
    vacations.start(user, 3)
    with pytest.raises(ServiceError):
        vacations.start(user, 1)
    response = client_for(user).post(reverse("profile_vacation"), {"action": "end"})
    assert response.status_code == 302
    assert vacations.current(user) is None


# --- time banks ------------------------------------------------------------------------------------


def bank_race(make_user: Any, bank: str = "3d+1d") -> tuple[Match, list[Any]]:
    users = [make_user() for _ in range(3)]
    match = services.do_create_match(users[0], "bridge_race", 3, {"mode": "standard"}, 60, bank)
    for user in users[1:]:
        services.do_join_match(match.pk, user)
    services.do_start_match(match.pk, users[0])
    match.refresh_from_db()
    return match, users


def waited_seat(match: Match) -> int:
    match.refresh_from_db()
    (seat,) = (int(n) for n in match.waiting)
    return seat


def first_move(match: Match, seat: int) -> None:
    rules = store.rules_for(match)
    action = next(a for a in rules.legal_actions(state_of(match), seat) if a["type"] != "resign")
    services.do_submit_action(match.pk, seat, action)


def left_of(match: Match, seat: int) -> float:
    match.refresh_from_db()
    left = clock_policy.seconds_left(match.clock, seat)
    assert left is not None
    return left


def test_the_bank_runs_down_over_decisions_and_the_increment_is_added(make_user: Any, at_march: Any) -> None:
    match, _ = bank_race(make_user)
    assert match.time_limit == 86400  # the increment: the engine's own time per decision
    seat = waited_seat(match)
    assert deadline_of(match) == pytest.approx(MARCH + 3 * DAY)  # the whole reserve
    at_march[0] += 1.5 * DAY  # past the engine's day: the bank keeps the decision open
    assert tasks.sweep_deadlines() == 0
    first_move(match, seat)
    assert left_of(match, seat) == pytest.approx(3 * DAY - 1.5 * DAY + DAY)
    other = waited_seat(match)
    assert other != seat and deadline_of(match) == pytest.approx(at_march[0] + 3 * DAY)


def test_the_default_move_fires_when_the_bank_is_empty_and_the_replay_is_identical(
    make_user: Any, at_march: Any
) -> None:
    match, _ = bank_race(make_user)
    seat = waited_seat(match)
    at_march[0] += 3 * DAY - 1
    assert tasks.sweep_deadlines() == 0
    at_march[0] += 2
    assert tasks.sweep_deadlines() == 1
    fired = MatchEvent.objects.filter(match=match, actor=SYSTEM, data__timeout=True)
    assert fired.exists()
    assert left_of(match, seat) == pytest.approx(DAY)  # empty, and the increment added
    match.refresh_from_db()
    rules = store.rules_for(match)
    events = [event.to_event() for event in MatchEvent.objects.filter(match=match).order_by("seq")]
    assert replay(rules, store.initial_state(match), events) == store.load_state(match)
    assert store.rebuild_from_log(match) == store.load_state(match)


def test_each_players_time_left_is_on_the_page(make_user: Any, at_march: Any) -> None:
    match, users = bank_race(make_user)
    seat = waited_seat(match)
    at_march[0] += DAY / 2
    first_move(match, seat)
    html = page_html(client_for(users[0]), match)
    assert "Time bank" in html
    assert '<span class="bank-left">3d 12h</span>' in html  # 3 days - 12 hours + 1 day, as a countdown writes it
    assert html.count('class="countdown"') >= 2  # the running one: on the turn line and in the bank


def test_a_bank_is_offered_only_where_the_game_has_one(make_user: Any) -> None:
    client = client_for(make_user())
    form = {"game": "heist", "seats": "4", "time_amount": "1", "time_unit": "days", "time_bank": "3d+1d"}
    response = client.post(reverse("match_create"), form)
    assert response.status_code == 400
    assert "This game cannot be played with a time bank." in response.content.decode()
    assert not Match.objects.exists()
    form = {"game": "bridge_race", "seats": "3", "time_bank": "7d+1d", "bridge_race__mode": "standard"}
    assert client.post(reverse("match_create"), form).status_code == 302
    match = Match.objects.get()
    assert match.time_limit == 86400 and match.clock["reserve"] == 7 * 86400
    with pytest.raises(ServiceError):
        services.do_create_match(match.host, "heist", 4, {}, 86400, "3d+1d")


def test_a_plain_match_never_asks_the_clock_policy(make_user: Any, monkeypatch: Any) -> None:
    """A match with neither bank nor vacation is timed by its engine alone: no work, no query added."""
    calls = count_calls(monkeypatch, clock_policy, "advance")
    match, _ = started_match(make_user, time_limit=86400)
    for seat in range(4):
        services.do_submit_action(match.pk, seat, {"type": "choose", "roles": ["THUG"]})
    assert calls == []


def test_a_bank_or_a_vacation_adds_no_query_to_a_move(make_user: Any, at_march: Any) -> None:
    """The clock rides on the match row the move writes anyway. Measured on a move after a first
    one: a vacation begun since this process cached the row changes its clock, so on PostgreSQL
    the first move after it is refused by the guarded statement's clock check and written by the
    row lock, which caches the row afresh."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def move(match: Match) -> None:
        seat = waited_seat(match)
        rules = store.rules_for(match)
        action = next(a for a in rules.legal_actions(state_of(match), seat) if a["type"] != "resign")
        services.do_submit_action(match.pk, seat, action)

    def queries_of_first_move(match: Match) -> int:
        move(match)
        with CaptureQueriesContext(connection) as captured:
            move(match)
        return len(captured)

    plain = [make_user() for _ in range(3)]
    match = services.do_create_match(plain[0], "bridge_race", 3, {"mode": "standard"}, 86400)
    for user in plain[1:]:
        services.do_join_match(match.pk, user)
    services.do_start_match(match.pk, plain[0])
    match.refresh_from_db()
    banked, _ = bank_race(make_user)
    away = Seat.objects.filter(match=banked).exclude(number=waited_seat(banked)).first()
    assert away is not None
    vacations.start(away.user, 3)  # a player not on turn is away: the move keeps a clock with a credit
    banked.refresh_from_db()
    assert banked.clock["away"] and banked.clock["bank"]
    assert queries_of_first_move(banked) == queries_of_first_move(match)


def test_a_vacation_stops_a_bank_whose_increment_is_under_a_day(make_user: Any, at_march: Any) -> None:
    match, _ = bank_race(make_user, "2d+12h")
    seat = waited_seat(match)
    player = Seat.objects.get(match=match, number=seat).user
    vacations.start(player, 3)
    assert deadline_of(match) == pytest.approx(MARCH + 2 * DAY + 3 * DAY)
    at_march[0] = MARCH + 4 * DAY
    assert tasks.sweep_deadlines() == 0
    at_march[0] = MARCH + 5 * DAY + 1
    assert tasks.sweep_deadlines() == 1
    assert left_of(match, seat) == pytest.approx(DAY / 2)  # the reserve spent, the vacation not drawn from it


def test_a_game_on_its_own_clock_is_stopped_at_its_correspondence_pace_only(make_user: Any, at_march: Any) -> None:
    """dirty_money keeps its own clock: its correspondence pace (hours a decision) is what a vacation stops."""
    slow, slow_users = started_match(make_user, "dirty_money", 3, {"pace": "correspondence"})
    fast, fast_users = started_match(make_user, "dirty_money", 3, {"pace": "live"})
    slow_due, fast_due = deadline_of(slow), deadline_of(fast)
    for user in [*slow_users.values(), *fast_users.values()]:
        vacations.start(user, 2)
    assert deadline_of(slow) == pytest.approx(slow_due + 2 * DAY)
    assert deadline_of(fast) == fast_due


def test_a_match_that_starts_during_a_vacation_waits_for_its_end(make_user: Any, at_march: Any) -> None:
    users = [make_user() for _ in range(4)]
    vacations.start(users[2], 3)
    match = services.do_create_match(users[0], "heist", 4, {}, 86400)
    for user in users[1:]:
        services.do_join_match(match.pk, user)
    services.do_start_match(match.pk, users[0])
    assert deadline_of(match) == pytest.approx(MARCH + 4 * DAY)  # planning waits on everyone, one of them away
    at_march[0] = MARCH + 2 * DAY
    assert tasks.sweep_deadlines() == 0
