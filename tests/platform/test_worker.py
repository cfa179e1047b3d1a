"""A real Celery worker and beat process apply overdue time-outs (the production set-up)."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from games.models import MatchEvent

from .helpers import started_match

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]

ROOT = Path(__file__).resolve().parents[2]


def redis_url() -> str:
    return os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"


def redis_is_up(url: str) -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=1).ping())
    except redis.RedisError:
        return False


def require_redis(url: str, what: str) -> None:
    """Fail in CI, and elsewhere skip saying so in one line, when no Redis answers at ``url``."""
    if redis_is_up(url):
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"Redis is not reachable at {url}")
    pytest.skip(f"{what} skipped: no Redis at {url}")


def database_url() -> str:
    settings = connection.settings_dict
    if settings["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{settings['NAME']}"
    user, host, port = settings["USER"] or "root", settings["HOST"] or "127.0.0.1", settings["PORT"] or 5432
    return f"postgres://{user}@{host}:{port}/{settings['NAME']}"


def worker_env(queue: str) -> dict[str, str]:
    """The environment of this test's worker and of what queues tasks for it.

    The broker is shared (Redis database 0 unless ``REDIS_URL`` says otherwise), the database is
    this test's own: a queue of its own keeps another run's worker from taking this test's tasks to
    its database, and this worker from taking a task left over by an earlier run whose match id
    happens to exist here too.
    """
    return {
        **os.environ,
        "DATABASE_URL": database_url(),
        "REDIS_URL": redis_url(),
        "CELERY_TASK_DEFAULT_QUEUE": queue,
    }


@pytest.fixture
def private_queue() -> Any:
    import redis

    name = f"hideout-test-{uuid.uuid4().hex}"
    yield name
    client = redis.Redis.from_url(redis_url(), socket_connect_timeout=1)
    with contextlib.suppress(redis.RedisError):  # no Redis: the test was skipped
        client.delete(name)  # whatever the worker did not take
    client.close()


@pytest.fixture
def start_worker(tmp_path: Path, private_queue: str) -> Any:
    require_redis(redis_url(), "worker tests")
    processes: list[subprocess.Popen[bytes]] = []

    def start() -> None:
        env = worker_env(private_queue)
        log = open(tmp_path / "worker.log", "wb")  # noqa: SIM115
        processes.append(
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "config",
                    "worker",
                    "-B",
                    "-P",
                    "solo",
                    "-l",
                    "warning",
                    "-s",
                    str(tmp_path / "beat-schedule"),
                    "--without-gossip",
                    "--without-mingle",
                ],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        )

    yield start
    for process in processes:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
    log_file = tmp_path / "worker.log"
    if log_file.exists():
        print(log_file.read_text()[-3000:])


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
