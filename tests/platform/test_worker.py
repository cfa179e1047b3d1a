"""A real Celery worker and beat process apply overdue time-outs (the production set-up)."""

from __future__ import annotations

import subprocess
import sys
import time
from typing import Any

import pytest

from games.models import MatchEvent

from .helpers import started_match
from .redis_worker import ROOT, worker_env

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]


def test_worker_started_after_the_deadline_still_applies_the_time_out(make_user: Any, start_worker: Any) -> None:
    match, _ = started_match(make_user, time_limit=10)
    time.sleep(11)  # the deadline passes while no worker runs
    assert not MatchEvent.objects.filter(match=match, type="choice_timed_out").exists()
    start_worker()
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline:
        if MatchEvent.objects.filter(match=match, type="choice_timed_out").count() == 4:
            break
        time.sleep(0.5)
    assert MatchEvent.objects.filter(match=match, type="choice_timed_out").count() == 4
    match.refresh_from_db()
    assert match.version == MatchEvent.objects.filter(match=match).count()


def test_worker_runs_bridge_race_round_end_steps_and_bots_to_the_finish(
    make_user: Any, start_worker: Any, private_queue: str
) -> None:
    """Police fire, crane and shop refresh run as SYSTEM steps on a real worker."""
    from games.models import Match, Seat
    from games.play import services

    host = make_user()
    match = services.do_create_match(host, "bridge_race", 3, {"mode": "standard"}, 60)
    services.do_add_bot(match.pk, host)
    services.do_add_bot(match.pk, host)
    Seat.objects.filter(match=match, user=host).update(user=None, is_bot=True)
    start_worker()
    env = worker_env(private_queue)
    subprocess.run(
        [
            sys.executable,
            "-c",
            "import django; django.setup(); from games.play import services; "
            f"services.do_start_match({match.pk}, None)",
        ],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "config.settings"},
        check=True,
        timeout=60,
    )
    deadline = time.monotonic() + 150
    while time.monotonic() < deadline:
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            break
        time.sleep(1)
    assert match.status == Match.Status.FINISHED
    system_steps = set(MatchEvent.objects.filter(match=match, actor=-1).values_list("type", flat=True))
    assert {"POLICE_FIRE", "CRANE", "NEXT_ROUND"} <= system_steps
