"""Starting parts of the production stack for the deploy and fault tests (reusing the e2e helpers)."""

from __future__ import annotations

import os
import subprocess
import urllib.parse
from pathlib import Path

import pytest

from tests.e2e.conftest import BASE_DIR, E2EDatabase, _bin, _is_postgres, _postgres_admin, session_setup

DEFAULT_POSTGRES = "postgres://root@127.0.0.1:5432/postgres"
DEFAULT_REDIS = "redis://127.0.0.1:6379/5"


def ci() -> bool:
    return os.environ.get("CI", "").strip().lower() == "true"


def skip_or_fail(reason: str) -> None:
    if ci():
        pytest.fail(reason)
    pytest.skip(reason)


def postgres_server() -> str:
    """DATABASE_URL if it is PostgreSQL, else the local server CI runs; skips (fails in CI) without one."""
    url = os.environ.get("DATABASE_URL", "")
    url = url if url and _is_postgres(url) else DEFAULT_POSTGRES
    try:
        _postgres_admin(url, wait=3).close()
    except RuntimeError as exc:
        skip_or_fail(f"deploy test skipped: no PostgreSQL ({exc})")
    return url


def redis_server() -> str:
    import redis

    url = os.environ.get("REDIS_URL") or DEFAULT_REDIS
    try:
        redis.Redis.from_url(url, socket_connect_timeout=1).ping()
    except redis.RedisError as exc:
        skip_or_fail(f"deploy test skipped: no Redis at {url} ({exc})")
    return url


def fresh_database(tmp: Path, server: str) -> E2EDatabase:
    old = os.environ.get("DATABASE_URL")
    os.environ["DATABASE_URL"] = server
    try:
        return E2EDatabase(tmp)
    finally:
        if old is None:
            os.environ.pop("DATABASE_URL", None)
        else:
            os.environ["DATABASE_URL"] = old


def terminate_connections(database_url: str) -> int:
    """Kill every server process of the database, as a PostgreSQL restart or failover would."""
    name = urllib.parse.urlsplit(database_url).path.lstrip("/")
    with _postgres_admin(database_url) as conn:
        rows = conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            (name,),
        ).fetchall()
    return len(rows)


# A site's user, match and session made in a shell of its own (the deploy tests' servers are other processes).
SETUP = session_setup("stopping")


def shell(env: dict[str, str], code: str) -> list[str]:
    """``code`` run by ``manage.py shell`` on the site of ``env``; the last two words it prints."""
    done = subprocess.run(
        [_bin("python"), "manage.py", "shell", "-c", code],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout.split()[-2:]  # past what the shell prints first (its automatic imports)
