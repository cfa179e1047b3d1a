"""The platform tests' fixtures (pytest-django): eager Celery, fast passwords, fresh caches, closed
writer threads, ``make_user``, and the server's clock moved on (``later``) or held (``test_clock``).
They live in this tree only, so the engine tests (tests/engines, pure Python) run without any of
them, with or without pytest-django (``-p no:django``). In CI's second pass (``make test-backends``,
on PostgreSQL and Redis) only the tests that touch a backend run: see ``pytest_collection_modifyitems``."""

from __future__ import annotations

import contextlib
import itertools
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

_counter = itertools.count(1)

# Set by `make test-backends`: the pass that repeats, on PostgreSQL and Redis, what can depend on them.
BACKENDS_PASS = os.environ.get("HIDEOUT_BACKENDS_PASS") == "1"


def touches_a_backend(item: pytest.Item) -> bool:
    """A test that uses the database (a fixture or the marker) or is marked ``backends`` (the channel
    layer, the broker or a connection of its own, without a database fixture)."""
    fixtures = set(getattr(item, "fixturenames", ()))
    return bool(
        {"db", "transactional_db"} & fixtures
        or item.get_closest_marker("django_db")
        or item.get_closest_marker("backends")
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In the backends pass, the pure tests (templates, wording, engines under a board) are left to
    the first pass, which runs the same code on the same interpreter: a second run could not differ."""
    if not BACKENDS_PASS:
        return
    pure = [item for item in items if "tests/platform/" in item.nodeid and not touches_a_backend(item)]
    if pure:
        config.hook.pytest_deselected(items=pure)
        items[:] = [item for item in items if item not in set(pure)]


@pytest.fixture(autouse=True)
def _eager_celery(settings: Any, request: pytest.FixtureRequest) -> Any:
    """Run Celery tasks in-process unless the test asks for a real worker."""
    if request.node.get_closest_marker("worker"):
        yield
        return
    from config.celery import app

    old = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = old


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _no_live_timers(settings: Any) -> Any:
    """Live games' in-memory timers stay off (tests of them turn them on and wait for them)."""
    from games.background import livetimers

    settings.HIDEOUT_LIVE_TIMERS = False
    yield
    livetimers.quiesce()  # and wait for a fire in flight: the database is flushed next


# What the flush's post_migrate handlers put back at once (content types, permissions, the site):
# left in place, those handlers find them there and write nothing.
REFILLED = frozenset({"django_content_type", "auth_permission", "django_site"})


@pytest.fixture(scope="session", autouse=True)
def _emptied_quickly() -> Any:
    """After a transactional test, the tables are emptied without what costs and changes nothing.

    Django's ``flush`` empties every table, then its post_migrate handlers write the content types,
    permissions and site back; on PostgreSQL it empties them with TRUNCATE, which makes new files
    for every table and index. Here the tables those handlers refill are left as they are, and
    PostgreSQL's are emptied by DELETE (a test leaves a few rows; the foreign keys are deferred, so
    the order does not matter). A test sees the same: its tables empty, sequences not reset (nor
    does Django's flush reset them). A flush that asks for more (sequences reset, cascade) is
    Django's own. What it saves: docs/decisions/0026-test-flush.md.
    """
    from django.db import connection

    ops = connection.ops
    flush = ops.sql_flush

    def sql_flush(style: Any, tables: Any, *, reset_sequences: bool = False, allow_cascade: bool = False) -> list[str]:
        if reset_sequences or allow_cascade:
            return flush(style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
        emptied = [table for table in tables if table not in REFILLED]
        if connection.vendor == "postgresql":
            return [f"DELETE FROM {ops.quote_name(table)};" for table in emptied]
        return flush(style, emptied)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ops, "sql_flush", sql_flush)
        yield


@pytest.fixture(scope="session")
def _writers_closed_before_the_database_goes(django_db_setup: Any, django_db_blocker: Any) -> Any:
    """Set up after the test database, so torn down before it: a write that a test's socket left
    on its way may have opened a writer connection after that test's own clean-up."""
    from games.play import writers

    yield
    writers.shutdown()
    with django_db_blocker.unblock():
        _other_sessions_ended()


def _other_sessions_ended() -> None:
    """On PostgreSQL, end any other session still on the test database (a thread of an async test,
    such as the database thread of database_sync_to_async, keeps its own connection until it ends),
    so that the test database can be dropped after the suite instead of left behind with a warning."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


@pytest.fixture(autouse=True)
def _writers_closed(request: pytest.FixtureRequest) -> Any:
    """The writer threads keep their connections (games.play.writers): close them after each
    test, and once more before the test database is dropped, or it could not be dropped."""
    from games.play import writers

    if request.node.get_closest_marker("django_db") or {"db", "transactional_db"} & set(request.fixturenames):
        request.getfixturevalue("_writers_closed_before_the_database_goes")
    yield
    writers.shutdown()


@pytest.fixture(autouse=True)
def _language_reset() -> Any:
    """A page requested in zh-Hant leaves that language active in the thread (LocaleMiddleware
    activates it per request); the next test starts from the default again."""
    from django.utils import translation

    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _fragment_inputs_checked(settings: Any) -> None:
    """Every fragment reused for unchanged inputs is rendered anyway and must be the same
    (games.push.fragment_memo): a declared input that misses something fails the test that shows it."""
    settings.HIDEOUT_CHECK_FRAGMENT_INPUTS = True


@pytest.fixture
def fragment_inputs_unchecked(settings: Any) -> None:
    """For a test that counts renders or digests: the check would render every reused fragment (and
    walk every reused shell) again."""
    settings.HIDEOUT_CHECK_FRAGMENT_INPUTS = False


@pytest.fixture(autouse=True)
def _fresh_state_cache() -> Any:
    from games.play import store
    from games.push import presenter, pushes
    from games.templatetags.hideout import forget_shared

    store.forget_all()
    presenter.forget_log_cache()
    forget_shared()
    pushes.forget_rendered()
    yield
    store.forget_all()
    presenter.forget_log_cache()
    forget_shared()
    pushes.forget_rendered()


@pytest.fixture
def make_user(db: Any) -> Any:
    from allauth.account.models import EmailAddress
    from django.contrib.auth import get_user_model

    def make(name: str | None = None, **extra: Any) -> Any:
        name = name or f"player{next(_counter)}"
        user = get_user_model().objects.create_user(
            username=name, email=f"{name}@example.com", password="a-long-secret-9", **extra
        )
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
        user.profile.display_name = name.capitalize()
        user.profile.save()
        return user

    return make


@pytest.fixture
def private_queue() -> Any:
    """A Celery queue of this test's own on the shared Redis broker, emptied afterwards."""
    import redis

    from .redis_worker import redis_url

    name = f"hideout-test-{uuid.uuid4().hex}"
    yield name
    client = redis.Redis.from_url(redis_url(), socket_connect_timeout=1)
    with contextlib.suppress(redis.RedisError):  # no Redis: the test was skipped
        client.delete(name)  # whatever the worker did not take
    client.close()


@pytest.fixture
def start_worker(tmp_path: Path, private_queue: str) -> Any:
    """Starts (when called) a real Celery worker with beat on ``private_queue``; stops it afterwards
    and prints the end of its log. Skipped without Redis (a failure in CI)."""
    from .redis_worker import ROOT, redis_url, require_redis, worker_env

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


@pytest.fixture
def later(monkeypatch: Any) -> Any:
    """Move the server clock (games.play.clock.now) forward by some seconds."""
    from games.play import clock

    real = clock.now

    def move(seconds: float) -> None:
        monkeypatch.setattr(clock, "now", lambda: real() + seconds)

    return move


@pytest.fixture
def test_clock(monkeypatch: Any) -> list[float]:
    """The server's clock (games.play.clock.now) under the test's control: set or advance ``[0]``."""
    from games.play import clock

    now = [time.time()]
    monkeypatch.setattr(clock, "now", lambda: now[0])
    return now
