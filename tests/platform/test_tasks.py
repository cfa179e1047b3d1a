"""Celery work: deadline sweep, automatic steps, stale tasks, e-mail reminders."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core import mail

from games.background import tasks
from games.models import Match, MatchEvent, Presence, Seat
from games.play import clock, services

from .helpers import started_match, state_of

pytestmark = pytest.mark.django_db(transaction=True)


def test_deadline_sweep_applies_the_default_when_time_runs_out(make_user: Any, later: Any) -> None:
    match, _ = started_match(make_user, time_limit=60)
    assert match.next_deadline is not None
    assert tasks.sweep_deadlines() == 0  # nothing overdue yet
    later(61)
    assert tasks.sweep_deadlines() == 1
    match.refresh_from_db()
    assert MatchEvent.objects.filter(match=match, type="choice_timed_out").count() == 4
    assert state_of(match).heist == 2  # everyone timed out, withdrew, next heist


def test_a_sweep_before_the_deadline_changes_nothing(make_user: Any, later: Any) -> None:
    match, _ = started_match(make_user, time_limit=60)
    later(30)
    tasks.sweep_deadlines()
    assert tasks.advance_match(match.pk, match.version) == 0
    match.refresh_from_db()
    assert match.version == MatchEvent.objects.filter(match=match).count()
    assert not MatchEvent.objects.filter(match=match, type="choice_timed_out").exists()


def test_a_task_for_an_old_version_does_nothing(make_user: Any) -> None:
    match, _ = started_match(make_user)
    old = match.version
    services.do_submit_action(match.pk, 0, {"type": "choose", "roles": ["THUG"]})
    match.refresh_from_db()
    now_version = match.version
    assert tasks.advance_match(match.pk, old) == 0
    match.refresh_from_db()
    assert match.version == now_version


def test_a_finished_or_aborted_match_is_left_alone(make_user: Any, later: Any) -> None:
    match, _ = started_match(make_user)
    services.do_abort_match(match.pk)
    later(10_000)
    assert tasks.sweep_deadlines() == 0
    assert tasks.advance_match(match.pk, match.version) == 0


def test_reminder_is_sent_once_per_turn_to_an_absent_player(make_user: Any, later: Any, settings: Any) -> None:
    settings.REMINDER_AFTER = timedelta(minutes=10)
    match, _ = started_match(make_user, time_limit=86400)
    later(11 * 60)
    assert tasks.sweep_reminders() == 4
    assert len(mail.outbox) == 4
    message = mail.outbox[0]
    assert f"/m/{match.pk}/" in message.body and message.to[0].endswith("@example.com")
    assert tasks.sweep_reminders() == 0  # never twice for the same turn
    assert len(mail.outbox) == 4


def test_reminder_respects_preference_and_open_sockets(make_user: Any, later: Any, settings: Any) -> None:
    settings.REMINDER_AFTER = timedelta(minutes=10)
    match, by_seat = started_match(make_user, time_limit=86400)
    by_seat[0].profile.email_reminders = False
    by_seat[0].profile.save()
    later(11 * 60)
    # Seat 1 has a page open: a socket that still beats (games.sockets.presence).
    Presence.objects.create(channel_name="page-1", match=match, user=by_seat[1], seen_at=clock.now_datetime())
    Seat.objects.filter(match=match, number=1).update(open_sockets=1)
    assert tasks.sweep_reminders() == 2
    recipients = {m.to[0] for m in mail.outbox}
    assert by_seat[0].email not in recipients and by_seat[1].email not in recipients


def test_reminder_waits_until_the_player_has_been_away_long_enough(make_user: Any, later: Any, settings: Any) -> None:
    settings.REMINDER_AFTER = timedelta(minutes=10)
    started_match(make_user, time_limit=86400)
    later(5 * 60)
    assert tasks.sweep_reminders() == 0
    assert mail.outbox == []


def test_a_new_turn_allows_a_new_reminder(make_user: Any, later: Any, settings: Any) -> None:
    settings.REMINDER_AFTER = timedelta(minutes=10)
    match, _ = started_match(make_user, time_limit=86400)
    later(11 * 60)
    tasks.sweep_reminders()
    for seat in range(4):
        services.do_submit_action(match.pk, seat, {"type": "choose", "roles": ["THUG"]})
    waiting = Seat.objects.filter(match=match, waiting_since__isnull=False)
    assert waiting.exists() and not waiting.filter(reminded_at__isnull=False).exists()


def test_resigned_seat_takes_defaults_at_once_r79(make_user: Any) -> None:
    match, _ = started_match(make_user)
    services.do_resign(match.pk, 3)
    match.refresh_from_db()
    assert MatchEvent.objects.filter(match=match, type="choice_timed_out").count() == 1
    assert match.status == Match.Status.ACTIVE


@pytest.mark.parametrize("live", [False, True])
def test_a_refused_automatic_move_is_an_error_but_in_a_live_game_r31(
    make_user: Any, monkeypatch: Any, caplog: Any, live: bool
) -> None:
    """A refused automatic move writes nothing and stops the advance. In a turn-based game it is a
    fault, logged as an error; in a live game a bot's planned move can be overtaken by a timed event
    (an alarm's pause, R-31) and is planned again later: logged for information only."""
    import logging

    from games.play.store import rules_for

    match, _ = started_match(make_user)
    monkeypatch.setattr(rules_for(match), "live", live, raising=False)
    moves = iter([(0, {"type": "no such move"})])
    monkeypatch.setattr(services, "next_automatic_move", lambda m, now=None: next(moves, None))
    version = match.version
    with caplog.at_level(logging.INFO, logger="games.play.services"):
        assert services.do_advance(match.pk) == 0
    refused = [r for r in caplog.records if r.getMessage().startswith("automatic move")]
    assert len(refused) == 1
    assert refused[0].levelno == (logging.INFO if live else logging.ERROR)
    match.refresh_from_db()
    assert match.version == version


@pytest.mark.parametrize(("language", "name"), [("en", "Heist"), ("zh-hant", None)])
def test_reminder_names_the_game_by_its_display_name_in_the_readers_language(
    make_user: Any, later: Any, settings: Any, language: str, name: str | None
) -> None:
    """Issue 54 #18: e-mails say "Heist #1", never the code name "heist #1"."""
    from django.utils import translation

    from games.engines.registry import get_rules

    settings.REMINDER_AFTER = timedelta(minutes=10)
    match, by_seat = started_match(make_user, time_limit=86400)
    for user in by_seat.values():
        user.profile.language = language
        user.profile.save()
    later(11 * 60)
    assert tasks.sweep_reminders() == 4
    with translation.override(language):
        expected = name or translation.gettext(get_rules("heist").name)
    assert expected != "heist"
    for message in mail.outbox:
        assert f"{expected} #{match.pk}" in message.subject
        assert f"{expected} #{match.pk}" in message.body
        assert f"heist #{match.pk}" not in message.body
