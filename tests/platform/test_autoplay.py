"""Hardening item 7: bot and automatic moves survive a lost task or a killed worker."""

from __future__ import annotations

import subprocess
import sys
import time
from typing import Any

import pytest

from games.background import autoplay, tasks
from games.models import Match, MatchEvent
from games.play import services

from .redis_worker import ROOT, redis_url, require_redis, worker_env

pytestmark = pytest.mark.django_db(transaction=True)


def bots_moved(match: Match) -> int:
    match.refresh_from_db()
    return MatchEvent.objects.filter(match=match, actor__in=match.bot_seats).count()


def match_with_bots(make_user: Any) -> Match:
    """A heist match of one person and three bots, started; bots then owe their planning choices."""
    host = make_user()
    match = services.do_create_match(host, "heist", 4, {}, 3600)
    for _ in range(3):
        services.do_add_bot(match.pk, host)
    services.do_start_match(match.pk, host)
    match.refresh_from_db()
    return match


@pytest.fixture
def lost_tasks(monkeypatch: Any) -> list[tuple[int, int]]:
    """advance_match messages vanish, as with a worker killed while holding them."""
    lost: list[tuple[int, int]] = []
    monkeypatch.setattr(tasks.advance_match, "delay", lambda match_id, version: lost.append((match_id, version)))
    return lost


def test_item7_advance_task_is_acknowledged_only_when_done() -> None:
    assert tasks.advance_match.acks_late is True
    assert tasks.advance_match.reject_on_worker_lost is True


def test_item7_sweep_plays_the_bots_of_a_lost_task(make_user: Any, lost_tasks: Any, monkeypatch: Any) -> None:
    match = match_with_bots(make_user)
    assert lost_tasks and bots_moved(match) == 0
    monkeypatch.undo()
    assert tasks.sweep_deadlines() == 1  # no deadline is due (an hour away): the bots are
    assert bots_moved(match) == 3


def test_item7_sweep_waits_for_a_fresh_task_until_a_worker_restarts(
    make_user: Any, lost_tasks: Any, monkeypatch: Any
) -> None:
    match = match_with_bots(make_user)
    autoplay.mark_queued(match.pk)  # the task was published, then its worker died
    time.sleep(0.01)
    monkeypatch.undo()
    assert tasks.sweep_deadlines() == 0
    assert bots_moved(match) == 0
    autoplay.note_worker_started()
    assert tasks.sweep_deadlines() == 1
    assert bots_moved(match) == 3


def test_item7_a_duplicate_task_for_the_same_version_does_nothing(
    make_user: Any, lost_tasks: Any, monkeypatch: Any
) -> None:
    match = match_with_bots(make_user)
    (_, version), *_ = lost_tasks
    monkeypatch.undo()
    assert tasks.advance_match(match.pk, version) == 3
    match.refresh_from_db()
    after = match.version
    assert tasks.advance_match(match.pk, version) == 0
    match.refresh_from_db()
    assert match.version == after and bots_moved(match) == 3


def test_item7_no_sweep_for_a_match_that_waits_on_people(make_user: Any) -> None:
    from .helpers import started_match

    started_match(make_user, time_limit=3600)
    assert tasks.sweep_deadlines() == 0


@pytest.mark.worker
def test_item7_fault_killed_worker_bot_moves_within_one_sweep_of_restart(
    make_user: Any, start_worker: Any, private_queue: str
) -> None:
    require_redis(redis_url(), "item 7 fault test")
    host = make_user()
    match = services.do_create_match(host, "heist", 4, {}, 3600)
    for _ in range(3):
        services.do_add_bot(match.pk, host)
    # Started in a process on the real broker, whose advance_match message is taken by a worker that
    # dies at once: published (so marked as on its way), then never run.
    script = (
        "import django; django.setup()\n"
        "from games.background import autoplay, tasks\nfrom games.play import services\n"
        "tasks.advance_match.delay = lambda match_id, version: autoplay.mark_queued(match_id)\n"
        f"services.do_start_match({match.pk}, None)\n"
    )
    env = {**worker_env(private_queue), "DJANGO_SETTINGS_MODULE": "config.settings"}
    subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, check=True, timeout=60)
    time.sleep(3)
    assert bots_moved(match) == 0
    started = time.monotonic()
    start_worker()  # the restarted worker (with beat, sweeping every 2 s)
    while time.monotonic() - started < 45 and bots_moved(match) < 3:
        time.sleep(0.25)
    assert bots_moved(match) == 3
    print(f"bots moved {time.monotonic() - started:.1f} s after the worker was started")


def test_item7_a_match_waiting_on_system_alone_is_swept(make_user: Any) -> None:
    from .helpers import started_match

    match, _ = started_match(make_user, time_limit=3600)
    Match.objects.filter(pk=match.pk).update(waiting={})  # nobody but SYSTEM is waited on
    match.refresh_from_db()
    assert autoplay.stalled() == [(match.pk, match.version)]
    autoplay.mark_queued(match.pk)
    assert autoplay.stalled() == []
