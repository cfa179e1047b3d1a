"""Redis and a real Celery worker for the platform tests that need them: where Redis is, whether it
answers (a test without it fails in CI and is skipped elsewhere), and the environment of a worker
process bound to this test's database and queue."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.db import connection

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
