"""Small helpers shared by the benchmark scripts (tables, percentiles, /proc readings, Django setup)."""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
# Celery's Django fixup puts the working directory first on sys.path when the app loads: a script of
# one checkout run from another (an A/B against a worktree) would import the other's games package.
os.chdir(ROOT)

CLK_TCK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


def django_setup() -> None:
    """Configure Django from the environment (DATABASE_URL / REDIS_URL as config/settings.py reads them)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def log(msg: str) -> None:
    """A progress line with the time of day."""
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def stop_processes(procs: Sequence[subprocess.Popen[bytes]], grace: float) -> None:
    """SIGTERM each process's group (started with start_new_session), SIGKILL what is left after ``grace`` s."""
    for proc in procs:
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
    deadline = time.monotonic() + grace
    for proc in procs:
        try:
            proc.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def pct(values: Sequence[float], p: float) -> float:
    """The p-th percentile (0..100) by linear interpolation; NaN for no values."""
    if not values:
        return float("nan")
    xs = sorted(values)
    if len(xs) == 1:
        return xs[0]
    k = (len(xs) - 1) * p / 100.0
    lo = int(k)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def fmt(value: Any, digits: int = 2) -> str:
    if isinstance(value, float):
        if value != value:  # NaN
            return "-"
        return f"{value:,.{digits}f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]], title: str | None = None) -> str:
    cells = [[str(h) for h in headers]] + [[fmt(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    lines = []
    if title:
        lines.append(title)
    sep = "+-" + "-+-".join("-" * w for w in widths) + "-+"
    lines.append(sep)
    for n, row in enumerate(cells):
        parts = [c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True))]
        lines.append("| " + " | ".join(parts) + " |")
        if n == 0:
            lines.append(sep)
    lines.append(sep)
    return "\n".join(lines)


def rss_mb(pid: int) -> float:
    """Resident set size of a process, in MiB (VmRSS)."""
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return float("nan")


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds a process has used (read-only look at /proc)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK
    except (OSError, IndexError, ValueError):
        return 0.0


def cpu_seconds_with_reaped(pid: int) -> float:
    """CPU of a process plus that of its children that have already exited (cutime + cstime)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return sum(int(f) for f in fields[11:15]) / CLK_TCK
    except (OSError, IndexError, ValueError):
        return 0.0


def postgres_cpu_seconds() -> float:
    """All PostgreSQL processes, including backends that have exited (via the postmaster's cutime)."""
    pids = set(pids_named("postgres"))
    total = 0.0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as fh:
                ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        total += cpu_seconds_with_reaped(pid) if ppid not in pids else cpu_seconds(pid)
    return total


def _pids_where(file: str, wanted: Callable[[str], bool]) -> list[int]:
    """The processes whose ``/proc/<pid>/<file>`` passes ``wanted``; one gone meanwhile is passed over."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/{file}") as fh:
                if wanted(fh.read()):
                    out.append(int(entry))
        except (OSError, IndexError, ValueError):
            continue
    return out


def children_of(pid: int) -> list[int]:
    return _pids_where("stat", lambda stat: int(stat.rsplit(")", 1)[1].split()[1]) == pid)


def pids_named(name: str) -> list[int]:
    return _pids_where("comm", lambda comm: comm.strip() == name)


def machine_cpu() -> tuple[float, float]:
    """(busy, total) jiffies of the whole machine since boot."""
    with open("/proc/stat") as fh:
        parts = [int(x) for x in fh.readline().split()[1:]]
    idle = parts[3] + (parts[4] if len(parts) > 4 else 0)
    total = sum(parts[:8])
    return float(total - idle), float(total)


class TempDatabase:
    """A throwaway database for a benchmark: a SQLite file in /tmp, or a fresh PostgreSQL database.

    ``DATABASE_URL`` is set for this process (before Django is set up) and everything is removed
    again in ``close()``. Celery runs eagerly and the channel layer is in memory (no REDIS_URL).
    """

    def __init__(self, kind: str = "sqlite", pg_admin: str = "postgresql://root@127.0.0.1:5432/postgres") -> None:
        import tempfile
        import time
        from urllib.parse import urlsplit, urlunsplit

        self.kind = kind
        self.pg_admin = pg_admin
        self.path: str | None = None
        self.dbname: str | None = None
        os.environ.pop("REDIS_URL", None)
        os.environ["CELERY_TASK_ALWAYS_EAGER"] = "1"
        os.environ.setdefault("DEBUG", "0")
        if kind == "sqlite":
            fd, self.path = tempfile.mkstemp(prefix="hideout-bench-", suffix=".sqlite3")
            os.close(fd)
            os.environ["DATABASE_URL"] = f"sqlite:///{self.path}"
        elif kind == "pg":
            import psycopg

            self.dbname = f"hideout_bench_{os.getpid()}_{int(time.time())}"
            with psycopg.connect(pg_admin, autocommit=True) as conn:
                conn.execute(f'CREATE DATABASE "{self.dbname}"')
            parts = urlsplit(pg_admin)
            os.environ["DATABASE_URL"] = urlunsplit(("postgres", parts.netloc, "/" + self.dbname, "", ""))
        elif kind != "env":
            raise ValueError(kind)

    def migrate(self) -> None:
        from django.core.management import call_command

        call_command("migrate", verbosity=0, interactive=False)

    def close(self) -> None:
        try:
            from django.db import connections

            connections.close_all()
        except Exception:
            pass
        if self.path:
            for suffix in ("", "-wal", "-shm", "-journal"):
                with contextlib.suppress(OSError):
                    os.unlink(self.path + suffix)
            self.path = None
        if self.dbname:
            import psycopg

            with psycopg.connect(self.pg_admin, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{self.dbname}" WITH (FORCE)')
            self.dbname = None

    def describe(self) -> str:
        if self.kind == "sqlite":
            return f"SQLite (temp file {self.path})"
        if self.kind == "pg":
            return f"PostgreSQL (temp database {self.dbname})"
        return "DATABASE_URL from the environment"


def make_user(prefix: str, n: int) -> Any:
    """A user with a profile, without password hashing (fast)."""
    from django.contrib.auth import get_user_model

    user = get_user_model()(username=f"{prefix}{n}", email=f"{prefix}{n}@bench.invalid")
    user.set_unusable_password()
    user.save()  # the post_save signal creates the profile
    return user


def start_match(game: str, players: int, prefix: str, seed: str | None = None) -> tuple[Any, list[Any]]:
    """A started match of ``players`` new users (time limit 1 h) and those users, host first;
    ``seed``: the match's seed (the same seating, deals and dice on every run), else a random one."""
    from games.models import Match
    from games.play import services

    users = [make_user(prefix, i) for i in range(players)]
    match = services.do_create_match(users[0], game, players, {}, 3600)
    if seed is not None:
        Match.objects.filter(pk=match.pk).update(seed=seed)
    for user in users[1:]:
        services.do_join_match(match.pk, user)
    services.do_start_match(match.pk, users[0])
    return match, users


def add_stack_arguments(p: argparse.ArgumentParser, route_default: str, route_help: str) -> None:
    """The options of a bench that starts its own stack (daphnes behind the proxy, a Celery worker,
    PostgreSQL and Redis): the same names and defaults in load_bench.py and live_bench.py."""
    p.add_argument("--daphnes", type=int, default=2, help="daphne processes to start (default 2)")
    p.add_argument("--celery-concurrency", type=int, default=2)
    p.add_argument("--pg-admin", default=os.environ.get("BENCH_PG_ADMIN", "postgresql://root@127.0.0.1:5432/postgres"))
    p.add_argument("--redis", default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/13"))
    p.add_argument("--route", choices=["user", "match"], default=route_default, help=route_help)
    p.add_argument("--spy", action="store_true", help="sample daphne0 with py-spy during the window (bench/spy.py)")
