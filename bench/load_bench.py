#!/usr/bin/env python
"""Load benchmark: live 4-seat heist matches played over HTTP POST + WebSocket.

By default it starts its own stack on PostgreSQL + Redis: a fresh database (created, migrated and
dropped again), N daphne processes on free ports (clients are spread over them as if behind a
proxy, each user sticking to one), and a real Celery worker. With ``--url`` it attaches to running
servers instead; it then needs the same DATABASE_URL (and REDIS_URL) as those servers, because it
creates its users, sessions and matches through the ORM.

Each player is a user with a Django session (SessionStore + ``sessionid`` cookie) and a CSRF token
read from the match page. It opens one WebSocket to ``/ws/match/<id>/`` and moves with the HTMX
POST ``/m/<id>/action/`` (form fields action=<json>, version, key). Which move to make is decided
*before the clock starts*, in a separate helper process that loads the match state from the
database and calls ``RULES.bot_action`` for every seat in ``waiting_seats & actors`` (the rule
``games.play.services.waiting_seats`` uses). With ``--client scripted`` each match's moves are planned
before it is played and sent one at a time, so the client's CPU in the window is its sockets' alone.

Measured per accepted action: the time from the start of the POST until an ``update`` with a
version >= the new version (the ``data-version`` of the board in the POST response) has arrived on
EVERY opponent's socket.

Scenarios::

    --scenario paced     every player thinks a random 1-3 s before moving
    --scenario flat-out  players move the instant it is their turn
    --scenario sockets   1,000 WebSockets to one daphne; its RSS before and after
    --scenario all       the three, one after the other, on one stack

Tables of 4 users play match after match until ``--duration`` is over; then no new move is made,
in-flight work is waited for and the database log is checked against what the clients saw.

Quick smoke run (< 30 s)::

    .venv/bin/python bench/load_bench.py --scenario flat-out --matches 10 --duration 5
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import multiprocessing as mp
import os
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Coroutine
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from http.cookiejar import CookieJar, DefaultCookiePolicy
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
import spy
import trace_report
from _common import (
    ROOT,
    add_stack_arguments,
    children_of,
    cpu_seconds,
    django_setup,
    free_port,
    log,
    machine_cpu,
    pct,
    pids_named,
    postgres_cpu_seconds,
    rss_mb,
    stop_processes,
    table,
)

if "sniffio" not in sys.modules:
    try:
        import sniffio  # noqa: F401
    except ImportError:
        # httpcore tries ``import sniffio`` on every request; without the package each try is a
        # failed import that walks sys.path (measurable client CPU). The client only runs asyncio.
        import types

        _stub = types.ModuleType("sniffio")
        _stub.current_async_library = lambda: "asyncio"  # type: ignore[attr-defined]
        sys.modules["sniffio"] = _stub

GAME = "heist"
SEATS = 4
TIME_LIMIT = 3600  # no deadline falls due during a run
SPARES = 1  # --client scripted: a table's next match, made and planned before the clock
BIN = Path(sys.executable).parent
BOARD_VERSION = re.compile(r'id="board"[^>]*?data-version="(\d+)"')
CSRF_IN_PAGE = re.compile(r'"X-CSRFToken":\s*"([A-Za-z0-9]+)"')
# An update's head: the consumer writes "type" and "revision" first (games.sockets.frames.SentFrames.update_for), so a
# board push is read by its first bytes; its fragments (most of it) are not parsed by the client.
T = TypeVar("T")
UPDATE_HEAD = re.compile(r'\{"type": "update", "revision": (\d+), "version": (\d+),')
# A diff's shared fragments, sent ahead of its update (games.sockets.frames.shared_part): the update
# that follows at once is what counts, so a part is passed over unread.
PART_HEAD = '{"type": "part", '

TARGETS = {
    "paced": "p50 <= 5 ms, p99 <= 30 ms",
    "flat-out": ">= 350 moves/s, nothing lost",
    "sockets": "daphne RSS < 300 MB with 1,000 sockets",
}


# =================================================================================================
# The stack: database, daphne processes, Celery worker
# =================================================================================================


class Stack:
    """Starts (and always stops) everything this benchmark needs, only on 127.0.0.1."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.procs: list[tuple[str, subprocess.Popen[bytes]]] = []
        self.urls: list[str] = []
        self.daphne_pids: list[int] = []
        self.celery_pid: int | None = None
        self.dbname: str | None = None
        self.logdir = Path(tempfile.mkdtemp(prefix="hideout-bench-"))

    # -- database --------------------------------------------------------------------------------

    def create_database(self) -> None:
        import psycopg

        admin = self.args.pg_admin
        self.dbname = f"hideout_bench_{os.getpid()}_{int(time.time())}"
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{self.dbname}"')
        parts = urlsplit(admin)
        db_url = urlunsplit(("postgres", parts.netloc, "/" + self.dbname, "", ""))
        os.environ["DATABASE_URL"] = db_url
        os.environ["REDIS_URL"] = self.args.redis
        os.environ.setdefault("DEBUG", "0")
        os.environ.setdefault("LOG_LEVEL", "WARNING")
        log(f"database {self.dbname} created; REDIS_URL={self.args.redis}; logs in {self.logdir}")

    def drop_database(self) -> None:
        if not self.dbname:
            return
        import psycopg

        try:
            from django.db import connections

            connections.close_all()
        except Exception:
            pass
        try:
            with psycopg.connect(self.args.pg_admin, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{self.dbname}" WITH (FORCE)')
            log(f"database {self.dbname} dropped")
        except Exception as exc:  # pragma: no cover - best effort
            log(f"could not drop database {self.dbname}: {exc}")
        self.dbname = None

    def migrate(self) -> None:
        from django.core.management import call_command

        t = time.perf_counter()
        call_command("migrate", verbosity=0, interactive=False)
        log(f"migrated in {time.perf_counter() - t:.1f} s")

    # -- processes -------------------------------------------------------------------------------

    def _spawn(self, name: str, cmd: list[str]) -> subprocess.Popen[bytes]:
        out = open(self.logdir / f"{name}.log", "wb")  # noqa: SIM115 - closed with the process
        proc = subprocess.Popen(
            cmd, cwd=ROOT, env=os.environ.copy(), stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
        self.procs.append((name, proc))
        return proc

    def start_servers(self) -> None:
        for i in range(self.args.daphnes):
            port = free_port()
            proc = self._spawn(
                f"daphne{i}",
                [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port), "-v", "0", "config.asgi:application"],
            )
            self.urls.append(f"http://127.0.0.1:{port}")
            self.daphne_pids.append(proc.pid)
        worker = self._spawn(
            "celery",
            [
                str(BIN / "celery"),
                "-A",
                "config",
                "worker",
                "-l",
                "INFO",
                "-P",
                "prefork",
                "--concurrency",
                str(self.args.celery_concurrency),
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
            ],
        )
        self.celery_pid = worker.pid
        self._wait_ready()
        log(f"daphne pids {self.daphne_pids} on {', '.join(self.urls)}; celery worker pid {self.celery_pid}")

    def _wait_ready(self, timeout: float = 60.0) -> None:
        import httpx

        deadline = time.monotonic() + timeout
        pending = set(self.urls)
        celery_ready = False
        while time.monotonic() < deadline and (pending or not celery_ready):
            for name, proc in self.procs:
                if proc.poll() is not None:
                    raise RuntimeError(f"{name} exited early; see {self.logdir / (name + '.log')}")
            for url in list(pending):
                try:
                    httpx.get(url + "/", timeout=2)  # any answer: the server is up (errors show later)
                    pending.discard(url)
                except httpx.HTTPError:
                    pass
            if not celery_ready:
                text = (self.logdir / "celery.log").read_bytes()
                celery_ready = b" ready." in text
            time.sleep(0.2)
        if pending or not celery_ready:
            raise RuntimeError(f"stack not ready after {timeout:.0f} s; see {self.logdir}")

    def stop(self) -> None:
        stop_processes([proc for _name, proc in self.procs], grace=15)
        self.procs.clear()
        self.urls.clear()
        self.daphne_pids.clear()
        self.celery_pid = None


class PgMonitor:
    """Samples how many PostgreSQL connections the benchmark database has (one extra connection)."""

    def __init__(self, admin_url: str, dbname: str) -> None:
        self.admin_url = admin_url
        self.dbname = dbname
        self.samples: list[int] = []
        self.sessions_start = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _query(self, conn: Any, sql: str) -> int:
        row = conn.execute(sql, (self.dbname,)).fetchone()
        return int(row[0] or 0) if row else 0

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        import psycopg

        try:
            with psycopg.connect(self.admin_url, autocommit=True) as conn:
                self.sessions_start = self._query(conn, "SELECT sessions FROM pg_stat_database WHERE datname = %s")
                while not self._stop.is_set():
                    self.samples.append(self._query(conn, "SELECT count(*) FROM pg_stat_activity WHERE datname = %s"))
                    self._stop.wait(0.5)
                self.sessions_end = self._query(conn, "SELECT sessions FROM pg_stat_database WHERE datname = %s")
        except Exception as exc:  # the numbers are then just missing
            self.error = str(exc)

    def stop(self) -> dict[str, Any]:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(10)
        end = getattr(self, "sessions_end", None)
        return {
            "PG connections: peak": max(self.samples, default=float("nan")),
            "PG connections: median": pct(self.samples, 50),
            "PG connections opened in window": (end - self.sessions_start) if end is not None else float("nan"),
        }


def _engine() -> str:
    from django.conf import settings

    return str(settings.DATABASES["default"]["ENGINE"])


def database_name() -> str:
    from django.conf import settings

    return str(settings.DATABASES["default"]["NAME"])


# =================================================================================================
# Work done in helper processes (Django ORM): deciding moves, creating matches
# =================================================================================================


def w_init() -> None:
    django_setup()


_kept_matches: dict[int, Any] = {}


def _match_now(match_id: int) -> Any:
    """The match as it is now, for ``load_state``: its row read once with the ORM (without the
    snapshot), then only the columns that move, with plain SQL (Django's query would be most of
    this helper's CPU). The snapshot stays unloaded: the state comes from this process's cache and
    the events after it."""
    from django.db import connection

    from games.models import Match

    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT version, revision, status, snapshot_version FROM {Match._meta.db_table} WHERE id = %s",
            [match_id],
        )
        version, revision, status, snapshot_version = cursor.fetchone()
    match = _kept_matches.get(match_id)
    if match is None:
        match = _kept_matches[match_id] = Match.objects.defer("snapshot").get(pk=match_id)
    match.__dict__.pop("snapshot", None)  # read again if the cache ever misses
    match.version, match.revision, match.status, match.snapshot_version = version, revision, status, snapshot_version
    return match


def w_decide(match_id: int, salt: str, only: tuple[int, ...] | None = None) -> dict[str, Any]:
    """Load the state of a match and choose a bot move for every seat the game waits on.

    ``only``: the seats free to move (the others are already thinking or sending a move), so that
    the client spends no CPU choosing moves it would throw away.
    """
    from games.models import Match
    from games.play.services import waiting_seats
    from games.play.store import load_state, rules_for

    match = _match_now(match_id)
    seen = match.revision  # what pushes count (see w_version)
    if match.status != Match.Status.ACTIVE:
        return {"version": match.version, "seen": seen, "over": True, "actions": {}}
    rules = rules_for(match)
    state = load_state(match)
    if rules.outcome(state) is not None:
        return {"version": match.version, "seen": seen, "over": True, "actions": {}}
    seats = waiting_seats(rules, state) & set(rules.actors(state))
    actions = {
        seat: rules.bot_action(state, seat, random.Random(f"{salt}:{match_id}:{match.version}:{seat}"))
        for seat in sorted(seats)
        if seat >= 0 and (only is None or seat in only)
    }
    return {"version": match.version, "seen": seen, "over": False, "actions": actions}


def w_script(match_id: int, salt: str) -> list[tuple[int, dict[str, Any], int, int]]:
    """The whole rest of a match, planned before it is played (``--client scripted``).

    The match is played here on the engine, as the server will play it when the moves come one at
    a time in this order: the same seeded RNG for each move (``rng_for(seed, version)``), the bot's
    choice for a seat the game waits on, and the server's own steps (``SYSTEM``) where it makes
    them. Each step is (seat, action, version before, version after); a ``SYSTEM`` step is made by
    the worker, and the client waits to see it. Playing then costs the client no decision at all.
    """
    from games.engines.base import SYSTEM, DecideContext, replay, rng_for
    from games.play import clock
    from games.play.services import waiting_seats
    from games.play.store import load_state, rules_for

    match = _match_now(match_id)
    rules = rules_for(match)
    state = load_state(match)
    version = match.version
    rng = random.Random(f"{salt}:{match_id}:script")
    steps: list[tuple[int, dict[str, Any], int, int]] = []
    while rules.outcome(state) is None and len(steps) < 5000:
        actors = rules.actors(state)
        if SYSTEM in actors:
            seat, action = SYSTEM, rules.legal_actions(state, SYSTEM)[0]
        else:
            free = sorted((waiting_seats(rules, state) & set(actors)) - {SYSTEM})
            if not free:
                break
            seat = rng.choice(free)
            action = rules.bot_action(state, seat, random.Random(f"{salt}:{match_id}:{version}:{seat}"))
        ctx = DecideContext(rng=rng_for(match.seed, version), now=clock.now())
        events = rules.decide(state, seat, rules.parse_action(action), ctx)
        state = replay(rules, state, events)
        steps.append((seat, action, version, version + len(events)))
        version += len(events)
    return steps


def w_version(match_id: int) -> int:
    """What the pushes and the board's data-version count: the match's ``revision``."""
    from games.models import Match

    return int(Match.objects.filter(pk=match_id).values_list("revision", flat=True).get())


def create_started_match(user_ids: list[int]) -> tuple[int, dict[int, int]]:
    """A started heist match of these users (through services, as the lobby does); {seat: user id}."""
    from django.contrib.auth import get_user_model

    from games.models import Seat
    from games.play import services

    users = {u.pk: u for u in get_user_model().objects.filter(pk__in=user_ids)}
    host = users[user_ids[0]]
    match = services.do_create_match(host, GAME, SEATS, {}, TIME_LIMIT)
    for uid in user_ids[1:]:
        services.do_join_match(match.pk, users[uid])
    services.do_start_match(match.pk, host)
    seats = dict(Seat.objects.filter(match_id=match.pk).values_list("number", "user_id"))
    return match.pk, {int(k): int(v) for k, v in seats.items()}


# =================================================================================================
# Setup in the main process (before the event loop runs)
# =================================================================================================


@dataclass
class Player:
    user_id: int
    session: str
    base: str  # which daphne this user talks to
    csrf_cookie: str = ""
    csrf_token: str = ""

    def cookie(self) -> str:
        if self.csrf_cookie:
            return f"sessionid={self.session}; csrftoken={self.csrf_cookie}"
        return f"sessionid={self.session}"


def make_players(count: int, urls: list[str]) -> list[Player]:
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.utils.module_loading import import_string

    from games.models import Profile

    user_model = get_user_model()
    prefix = f"b{os.getpid()}x{int(time.time()) % 100000}u"
    fresh = []
    for i in range(count):
        user = user_model(username=f"{prefix}{i}", email=f"{prefix}{i}@bench.invalid")
        user.set_unusable_password()  # no password hashing: setup stays fast
        fresh.append(user)
    users = user_model.objects.bulk_create(fresh, batch_size=500)
    Profile.objects.bulk_create(
        [Profile(user=u, display_name=f"P{i}") for i, u in enumerate(users)], batch_size=500, ignore_conflicts=True
    )
    store_class = import_string(settings.SESSION_ENGINE + ".SessionStore")
    players = []
    for i, user in enumerate(users):
        store = store_class()
        store[SESSION_KEY] = str(user.pk)
        store[BACKEND_SESSION_KEY] = "games.web.auth.ProfileModelBackend"
        store[HASH_SESSION_KEY] = user.get_session_auth_hash()
        store.create()
        players.append(Player(user.pk, store.session_key, urls[i % len(urls)]))
    return players


# =================================================================================================
# Measurements
# =================================================================================================


@dataclass
class Stats:
    latency: list[float] = field(default_factory=list)  # POST start -> update on every opponent
    post_rtt: list[float] = field(default_factory=list)  # POST start -> response
    accepted_at: list[float] = field(default_factory=list)
    attempts: int = 0
    conflicts: int = 0  # 409: somebody else moved first (re-decided on the next version)
    decisions: int = 0  # moves chosen by the helper processes (each a database read and a replay)
    errors: Counter[str] = field(default_factory=Counter)
    lost: int = 0  # an opponent never received the new version within --lost-timeout
    lost_examples: list[str] = field(default_factory=list)
    accepted_by_match: Counter[int] = field(default_factory=Counter)
    matches: list[int] = field(default_factory=list)
    finished_matches: int = 0
    final_ok: int = 0
    final_bad: list[str] = field(default_factory=list)
    socket_failures: int = 0
    dropped_sockets: int = 0  # sockets lost during play (the client does not reconnect)
    closes: Counter[str] = field(default_factory=Counter)  # how each ended
    ws_errors: Counter[str] = field(default_factory=Counter)  # refused handshakes (retried)
    initial_connect: tuple[list[float], Counter[str]] = field(default_factory=lambda: ([], Counter()))
    loop_lag: list[float] = field(default_factory=list)
    connect_times: list[float] = field(default_factory=list)


@dataclass(frozen=True)
class Pending:
    """An accepted move whose arrival at its opponents is measured when its match is over."""

    t0: float
    target: int
    opponents: list[Sock]
    match_id: int


class MatchConn:
    """The open sockets of one match's players, and the event their updates set."""

    def __init__(self, match_id: int, seats: dict[int, Player]) -> None:
        self.match_id = match_id
        self.seats = seats
        self.socks: dict[int, Sock] = {}
        self.changed = asyncio.Event()

    def on_update(self, _version: int) -> None:
        self.changed.set()


class Sock:
    """One player's WebSocket: records when each update version arrived."""

    def __init__(self, ws: Any, on_update: Callable[[int], None], on_lost: Callable[[str], None] | None = None) -> None:
        self.ws = ws
        self.on_update = on_update
        self.on_lost = on_lost
        self.closing = False
        self.history: list[tuple[int, float]] = []
        self.max_version = -1
        self.game_version = -1  # the highest game version (events) an update showed
        self.closed = False
        self.waiters: list[tuple[int, asyncio.Future[float | None]]] = []
        self.first = asyncio.get_running_loop().create_future()
        self.answers: dict[str, asyncio.Future[dict[str, Any]]] = {}  # moves sent up this socket, by key
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        reason = "its read loop ended"  # made more precise below
        try:
            async for raw in self.ws:
                now = time.perf_counter()
                if isinstance(raw, str) and raw.startswith(PART_HEAD):
                    continue
                head = UPDATE_HEAD.match(raw) if isinstance(raw, str) else None
                if head is not None:
                    version = int(head.group(1))
                    game_version = int(head.group(2))
                else:
                    msg = json.loads(raw)
                    if msg.get("type") == "answer":
                        waiting = self.answers.pop(str(msg.get("key")), None)
                        if waiting is not None and not waiting.done():
                            waiting.set_result({**msg, "at": now})
                        continue
                    if msg.get("type") != "update":
                        continue
                    # What a push counts: the board's revision.
                    version = int(msg.get("revision", msg.get("version", -1)))
                    game_version = int(msg.get("version", -1))
                self.history.append((version, now))
                self.game_version = max(self.game_version, game_version)
                if version > self.max_version:
                    self.max_version = version
                if not self.first.done():
                    self.first.set_result(now)
                if self.waiters:
                    keep = []
                    for target, fut in self.waiters:
                        if fut.done():
                            continue
                        if version >= target:
                            fut.set_result(now)
                        else:
                            keep.append((target, fut))
                    self.waiters = keep
                self.on_update(version)
            # The loop ends quietly on a normal close: say which end sent it, and its code.
            protocol = self.ws.protocol
            close = protocol.close_rcvd or protocol.close_sent
            if close is not None:
                who = "the server" if protocol.close_rcvd is not None else "this client"
                reason = f"closed by {who}: code {close.code}{' ' + close.reason if close.reason else ''}"
        except asyncio.CancelledError:
            reason = "its reader cancelled (this client)"
            raise
        except (ConnectionClosed, OSError) as exc:
            reason = f"{type(exc).__name__}: {str(exc)[:80]}"
        except Exception as exc:  # a message this client could not read: reported, not hidden
            reason = f"client error {type(exc).__name__}: {str(exc)[:80]}"
        finally:
            self.closed = True
            if not self.closing and self.on_lost is not None:
                self.on_lost(reason)
            for _target, fut in self.waiters:
                if not fut.done():
                    fut.set_result(None)
            for answer in self.answers.values():
                if not answer.done():
                    answer.set_result({"status": 0})
            if not self.first.done():
                self.first.set_result(None)

    async def act(self, action: dict[str, Any], version: int, timeout: float) -> dict[str, Any]:
        """Send a move up this socket as the page does (``match.js``) and wait for its answer."""
        key = uuid.uuid4().hex
        answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.answers[key] = answer
        message = {"type": "act", "action": json.dumps(action, separators=(",", ":")), "fields": {}}
        await self.ws.send(json.dumps({**message, "version": str(version), "key": key}))
        try:
            return await asyncio.wait_for(answer, timeout)
        except TimeoutError:
            self.answers.pop(key, None)
            return {"status": 0}

    def arrived(self, target: int) -> float | None:
        """When the first update with version >= target arrived, if one did."""
        return next((at for version, at in self.history if version >= target), None)

    async def arrival(self, target: int, timeout: float) -> float | None:
        """When the first update with version >= target arrived (waits for it up to ``timeout``)."""
        for version, at in self.history:
            if version >= target:
                return at
        if self.closed:
            return None
        fut: asyncio.Future[float | None] = asyncio.get_running_loop().create_future()
        self.waiters.append((target, fut))
        try:
            return await asyncio.wait_for(fut, timeout)
        except TimeoutError:
            return None

    async def close(self) -> None:
        self.closing = True
        with contextlib.suppress(Exception):
            await self.ws.close()
        self.task.cancel()
        with contextlib.suppress(BaseException):
            await self.task


# =================================================================================================
# The client
# =================================================================================================


class Client:
    def __init__(self, args: argparse.Namespace, urls: list[str], pools: list[ProcessPoolExecutor]) -> None:
        self.args = args
        self.urls = urls
        self.pools = pools
        self.stats = Stats()
        self.stop = asyncio.Event()
        self.http: dict[str, Any] = {}
        self.salt = uuid.uuid4().hex[:8]
        self.think: tuple[float, float] | None = None
        self.setup_errors: Counter[str] = Counter()
        self.connect_sem = asyncio.Semaphore(args.connect_concurrency)
        self.scripts: dict[int, list[tuple[int, dict[str, Any], int, int]]] = {}  # --client scripted

    async def __aenter__(self) -> Client:
        return self

    async def __aexit__(self, *exc: Any) -> None:
        for client in self.http.values():
            await client.aclose()

    def http_for(self, player: Player) -> Any:
        """One small HTTP client per user, as each browser has its own keep-alive connections.

        (One shared httpx pool with hundreds of connections spends its time in
        ``AsyncConnectionPool._assign_requests_to_connections``, which would slow the client, not
        the server.) Cookies are sent by hand, so the jar refuses to store any.
        """
        import httpx

        key = f"{player.user_id}"
        client = self.http.get(key)
        if client is None:
            client = self.http[key] = httpx.AsyncClient(
                base_url=player.base,
                cookies=CookieJar(policy=DefaultCookiePolicy(allowed_domains=[])),
                timeout=httpx.Timeout(60.0),
                limits=httpx.Limits(max_connections=4, max_keepalive_connections=4),
            )
        return client

    # -- helpers ---------------------------------------------------------------------------------

    async def call(self, match_id: int, fn: Callable[..., Any], *a: Any) -> Any:
        pool = self.pools[match_id % len(self.pools)]  # one match -> one process (its state cache)
        return await asyncio.get_running_loop().run_in_executor(pool, fn, *a)

    async def fetch_csrf(self, player: Player, match_id: int) -> None:
        client = self.http_for(player)
        for attempt in range(6):
            resp = await client.get(f"/m/{match_id}/", headers={"Cookie": player.cookie()})
            if resp.status_code == 200:
                break
            self.setup_errors[f"GET match page: HTTP {resp.status_code}"] += 1
            await asyncio.sleep(0.5 * 2**attempt)  # setup only: wait and try again
        else:
            raise RuntimeError(f"GET /m/{match_id}/ as user {player.user_id}: HTTP {resp.status_code}")
        token = CSRF_IN_PAGE.search(resp.text)
        cookie = resp.cookies.get("csrftoken")
        if not token or not cookie:
            raise RuntimeError("no CSRF token on the match page")
        player.csrf_token = token.group(1)
        player.csrf_cookie = cookie

    async def open_socket(self, player: Player, match_id: int, on_update: Callable[[int], None]) -> Sock | None:
        """Open a socket and wait for its first update; a refused handshake is retried (and counted)."""
        from websockets.asyncio.client import connect
        from websockets.typing import Origin

        # As the proxy routes sockets: each user to its own daphne (the default: a table's four sockets
        # alternate daphnes) or, with --route match, by the match id in the path (one daphne per match).
        base = self.args.urls[match_id % len(self.args.urls)] if self.args.route == "match" else player.base
        ws_url = base.replace("http://", "ws://") + f"/ws/match/{match_id}/"
        started = 0.0  # from the first attempt: a retried handshake's wait is the user's too
        for attempt in range(self.args.ws_retries + 1):
            async with self.connect_sem:  # ramp: browsers do not all connect in the same millisecond
                started = started or time.perf_counter()
                try:
                    ws = await connect(
                        ws_url,
                        additional_headers={"Cookie": player.cookie()},
                        origin=Origin(base),  # channels' AllowedHostsOriginValidator wants an Origin
                        compression=None if self.args.no_deflate else "deflate",  # browsers offer it
                        max_size=None,
                        ping_interval=None,
                        open_timeout=30,
                    )
                except Exception as exc:
                    self.stats.socket_failures += 1
                    self.stats.ws_errors[f"ws connect: {type(exc).__name__}: {str(exc)[:70]}"] += 1
                    await asyncio.sleep(0.2 * 2**attempt)
                    continue
                sock = Sock(ws, on_update, self._socket_dropped)
                try:
                    first = await asyncio.wait_for(asyncio.shield(sock.first), 30)
                except TimeoutError:
                    first = None
            if first is None:
                self.stats.socket_failures += 1
                self.stats.ws_errors["ws: closed before its first update"] += 1
                await sock.close()
                await asyncio.sleep(0.2 * 2**attempt)
                continue
            self.stats.connect_times.append(first - started)
            return sock
        self.stats.errors["ws: gave up after retries"] += 1
        return None

    def _socket_dropped(self, reason: str) -> None:
        self.stats.dropped_sockets += 1
        self.stats.closes[reason] += 1

    async def connect_match(self, match_id: int, seats: dict[int, Player]) -> MatchConn | None:
        conn = MatchConn(match_id, seats)
        opened = await asyncio.gather(*(self.open_socket(p, match_id, conn.on_update) for p in seats.values()))
        if any(s is None for s in opened):
            await asyncio.gather(*(s.close() for s in opened if s is not None))
            return None
        conn.socks = {seat: s for seat, s in zip(seats, opened, strict=True) if s is not None}
        return conn

    async def loop_lag_monitor(self) -> None:
        """How late the client's own event loop wakes up (its lag adds to every measurement)."""
        while not self.stop.is_set():
            t = time.perf_counter()
            await asyncio.sleep(0.01)
            self.stats.loop_lag.append(time.perf_counter() - t - 0.01)

    # -- moves -----------------------------------------------------------------------------------

    async def post_move(
        self, player: Player, match_id: int, version: int, action: dict[str, Any], opponents: list[Sock]
    ) -> tuple[int, Pending | None]:
        client = self.http_for(player)
        data = {"action": json.dumps(action, separators=(",", ":")), "version": str(version), "key": uuid.uuid4().hex}
        headers = {"Cookie": player.cookie(), "X-CSRFToken": player.csrf_token, "HX-Request": "true"}
        self.stats.attempts += 1
        t0 = time.perf_counter()
        try:
            resp = await client.post(f"/m/{match_id}/action/", data=data, headers=headers)
        except Exception as exc:
            self.stats.errors[f"POST {type(exc).__name__}"] += 1
            return 0, None
        t1 = time.perf_counter()
        if resp.status_code == 409:
            self.stats.conflicts += 1
            return 409, None
        if resp.status_code != 200:
            snippet = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", resp.text))[:80]
            self.stats.errors[f"HTTP {resp.status_code}: {snippet}"] += 1
            return resp.status_code, None
        found = BOARD_VERSION.search(resp.text)
        if not found:
            self.stats.errors["200 without a board version"] += 1
            return 200, None
        new_version = int(found.group(1))
        self.stats.post_rtt.append(t1 - t0)
        self.stats.accepted_at.append(t1)
        self.stats.accepted_by_match[match_id] += 1
        return 200, Pending(t0, new_version, opponents, match_id)

    async def socket_move(
        self, mover: Sock, match_id: int, version: int, action: dict[str, Any], opponents: list[Sock]
    ) -> tuple[int, Pending | None]:
        """The move up the mover's own socket (issue 8, item 1); its answer carries the new revision."""
        self.stats.attempts += 1
        t0 = time.perf_counter()
        try:
            answer = await mover.act(action, version, self.args.lost_timeout)
        except Exception as exc:
            self.stats.errors[f"socket send {type(exc).__name__}"] += 1
            return 0, None
        status = int(answer.get("status", 0))
        if status == 409:
            self.stats.conflicts += 1
            return 409, None
        if status != 200:
            self.stats.errors[f"answer {status}: {str(answer.get('message', 'no answer'))[:80]}"] += 1
            return status, None
        self.stats.post_rtt.append(answer["at"] - t0)
        self.stats.accepted_at.append(answer["at"])
        self.stats.accepted_by_match[match_id] += 1
        target = int(answer.get("revision", answer.get("version", 0)))
        return 200, Pending(t0, target, opponents, match_id)

    def measure(self, move: Pending) -> None:
        """When the move reached its last opponent, read from the sockets' arrival records once the
        match is over (a task per move waiting for it cost the client more than the rest of a move)."""
        arrivals = [s.arrived(move.target) for s in move.opponents]
        if any(a is None or a - move.t0 > self.args.lost_timeout for a in arrivals):
            self.stats.lost += 1
            if len(self.stats.lost_examples) < 5:
                self.stats.lost_examples.append(
                    f"match {move.match_id} v{move.target}: seen {[s.max_version for s in move.opponents]}"
                )
            return
        self.stats.latency.append(max(a for a in arrivals if a is not None) - move.t0)

    # -- a table of 4 users playing match after match ---------------------------------------------

    async def run_table(
        self, players: list[Player], first: MatchConn | None, spares: list[tuple[int, dict[int, int]]]
    ) -> None:
        """Play match after match with the same 4 users until time is up: the ``spares`` made before
        the clock first (with ``--client scripted``, so that the client makes no match in the window
        while it can), then new ones."""
        conn = first
        try:
            while not self.stop.is_set():
                if conn is not None:
                    await self.play_match(conn)
                if self.stop.is_set():
                    return
                if conn is None:
                    await asyncio.sleep(1.0)  # its sockets could not be opened; try a new match later
                try:
                    match_id, seats = (
                        spares.pop(0)
                        if spares
                        else await self.call(
                            len(self.stats.matches), create_started_match, [p.user_id for p in players]
                        )
                    )
                except Exception as exc:
                    self.stats.errors[f"create match: {type(exc).__name__}: {str(exc)[:60]}"] += 1
                    return
                self.stats.matches.append(match_id)
                if self.args.client == "scripted" and match_id not in self.scripts:
                    self.scripts[match_id] = await self.call(match_id, w_script, match_id, self.salt)
                by_user = {p.user_id: p for p in players}
                conn = await self.connect_match(match_id, {seat: by_user[uid] for seat, uid in seats.items()})
        finally:
            # A match created as time ran out is not played: its sockets are closed here. Left open,
            # asyncio.run's shutdown cancelled their readers, which counted them as lost during play
            # (the "sockets closed by the server" of earlier runs: 16-72 a run, none of them closed
            # by a server).
            if conn is not None:
                await asyncio.gather(*(s.close() for s in conn.socks.values()))

    async def play_match(self, conn: MatchConn) -> None:
        if self.args.client == "scripted":
            measures: list[Pending] = []
            over = await self.play_script(conn, measures)
            await self.finish_match(conn, measures, over)
        else:
            await self.play_deciding(conn)

    async def play_script(self, conn: MatchConn, measures: list[Pending]) -> bool:
        """Play the match's planned moves (:func:`w_script`) one at a time; whether it reached its end.

        A move goes as soon as the one before it is answered (or, for the server's own step, seen
        on a socket), so a match never has two moves in flight and no move is refused as stale:
        a refusal means the plan and the server disagree, and is counted as an error.
        """
        steps = self.scripts.pop(conn.match_id, [])
        for seat, action, before, after in steps:
            if self.stop.is_set():
                return False
            if seat < 0:  # the worker makes the server's own step
                if not await self.game_version_seen(conn, after):
                    self.stats.errors["scripted: the server's own step never reached a socket"] += 1
                    return False
                continue
            if not await self.thought():
                return False
            status, pending = await self.send_move(conn, seat, before, action)
            if pending is None:
                if status == 409:
                    self.stats.errors["scripted: a planned move was refused as stale"] += 1
                return False
            measures.append(pending)
        return bool(steps)

    async def thought(self) -> bool:
        """A paced player's think time (none flat-out); whether there is still time to move."""
        if self.think is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stop.wait(), random.uniform(*self.think))
        return not self.stop.is_set()

    async def send_move(
        self, conn: MatchConn, seat: int, version: int, action: dict[str, Any]
    ) -> tuple[int, Pending | None]:
        """``seat``'s move, by its socket or as a form POST (``--transport``); its arrival is measured
        on the other seats' sockets."""
        opponents = [s for n, s in conn.socks.items() if n != seat]
        if self.args.transport == "socket":
            return await self.socket_move(conn.socks[seat], conn.match_id, version, action, opponents)
        return await self.post_move(conn.seats[seat], conn.match_id, version, action, opponents)

    async def game_version_seen(self, conn: MatchConn, target: int) -> bool:
        """Wait until a socket of the match shows game version ``target`` (``--lost-timeout`` at most)."""
        deadline = time.perf_counter() + self.args.lost_timeout
        while True:
            conn.changed.clear()
            if max(s.game_version for s in conn.socks.values()) >= target:
                return True
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                return False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(conn.changed.wait(), remaining)

    async def play_deciding(self, conn: MatchConn) -> None:
        """Every free seat moves at once, on the helpers' decisions for the version its sockets show."""
        match_id, ready, changed = conn.match_id, conn.socks, conn.changed
        table = {"force": True}
        busy: set[int] = set()
        inflight: set[asyncio.Task[None]] = set()
        measures: list[Pending] = []
        last = -1
        over = False

        async def move(seat: int, version: int, seen: int, action: dict[str, Any]) -> None:
            status = 0
            try:
                if not await self.thought():
                    return
                if self.think is not None and ready[seat].max_version > seen:
                    # The board changed while this player thought: the browser's form now carries the
                    # new version, so decide again (still before the clock starts).
                    self.stats.decisions += 1
                    fresh = await self.call(match_id, w_decide, match_id, self.salt, (seat,))
                    if fresh["over"] or seat not in fresh["actions"]:
                        return
                    version, action = fresh["version"], fresh["actions"][seat]
                if self.stop.is_set():
                    return
                status, pending = await self.send_move(conn, seat, version, action)
                if pending is not None:
                    measures.append(pending)
            finally:
                busy.discard(seat)
                # Accepted or stale, a push brings (or brought) the version to decide on next; anything
                # else may bring none, so the table looks at the database again.
                if status not in (200, 409):
                    table["force"] = True
                changed.set()

        while not self.stop.is_set():
            top = max(s.max_version for s in ready.values())
            if top <= last and not table["force"]:
                changed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(changed.wait(), self.args.stall_timeout)
                if not changed.is_set():
                    table["force"] = True  # a dropped push: look at the database again
                continue
            table["force"] = False
            free = tuple(n for n in ready if n not in busy)
            if not free:  # everybody is already moving: look again when one of them is done
                last = top
                continue
            try:
                self.stats.decisions += 1
                decision = await self.call(match_id, w_decide, match_id, self.salt, free)
            except Exception as exc:
                self.stats.errors[f"decide: {type(exc).__name__}: {str(exc)[:60]}"] += 1
                break
            last = decision["seen"]
            if decision["over"]:
                over = True
                break
            for seat, action in decision["actions"].items():
                if seat in busy or seat not in ready:
                    continue
                busy.add(seat)
                task = asyncio.create_task(move(seat, decision["version"], last, action))
                inflight.add(task)
                task.add_done_callback(inflight.discard)
        if inflight:
            await asyncio.gather(*inflight, return_exceptions=True)
        await self.finish_match(conn, measures, over)

    async def finish_match(self, conn: MatchConn, measures: list[Pending], over: bool) -> None:
        """Measure the match's moves once every socket saw its final version (or waited for it)."""
        match_id, ready = conn.match_id, conn.socks
        if over:
            self.stats.finished_matches += 1
        # Every client must have seen the final version of the match.
        final = await self.call(match_id, w_version, match_id)
        seen = await asyncio.gather(*(s.arrival(final, self.args.lost_timeout) for s in ready.values()))
        for pending_move in measures:  # every socket has seen the final version, or waited lost_timeout for it
            self.measure(pending_move)
        if all(a is not None for a in seen):
            self.stats.final_ok += 1
        else:
            self.stats.final_bad.append(
                f"match {match_id}: final v{final}, sockets saw {[s.max_version for s in ready.values()]}"
            )
        await asyncio.gather(*(s.close() for s in ready.values()))


# =================================================================================================
# Scenarios
# =================================================================================================


def setup_tables(
    count: int, urls: list[str], spares: int = 0
) -> tuple[list[list[Player]], list[tuple[int, dict[int, int]]], list[list[tuple[int, dict[int, int]]]]]:
    """``count`` tables of users, each with a started match, and ``spares`` more started matches each."""
    t = time.perf_counter()
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connections

    players = make_players(count * SEATS, urls)
    tables = [players[i * SEATS : (i + 1) * SEATS] for i in range(count)]

    def create(user_ids: list[int]) -> tuple[int, dict[int, int]]:
        try:
            return create_started_match(user_ids)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(4) as pool:
        # Round by round, so that the first matches' ids (and with --route match, their daphnes) alternate.
        made = list(pool.map(create, [[p.user_id for p in tbl] for _ in range(1 + spares) for tbl in tables]))
    connections.close_all()
    log(f"{len(players)} users with sessions and {len(made)} started matches in {time.perf_counter() - t:.1f} s")
    per_table = [made[i::count] for i in range(count)]
    return tables, [m[0] for m in per_table], [m[1:] for m in per_table]


async def run_play(
    args: argparse.Namespace,
    urls: list[str],
    pools: list[ProcessPoolExecutor],
    scenario: str,
    tables: list[list[Player]],
    firsts: list[tuple[int, dict[int, int]]],
    spares: list[list[tuple[int, dict[int, int]]]],
) -> tuple[Stats, float, dict[str, float]]:
    async with Client(args, urls, pools) as client:
        client.think = (args.think_min, args.think_max) if scenario == "paced" else None
        client.stats.matches.extend(m for m, _ in firsts)
        # Log in: each user reads a CSRF token from its first match page.
        sem = asyncio.Semaphore(8)

        async def login(p: Player, match_id: int) -> None:
            async with sem:
                await client.fetch_csrf(p, match_id)

        t = time.perf_counter()
        await asyncio.gather(*(login(p, m) for tbl, (m, _) in zip(tables, firsts, strict=True) for p in tbl))
        log(
            f"{len(tables) * SEATS} clients fetched their CSRF tokens in {time.perf_counter() - t:.1f} s"
            + (f" (retried: {dict(client.setup_errors)})" if client.setup_errors else "")
        )
        # Warm the helper processes (Django import) before the clock runs.
        await asyncio.gather(*(client.call(i, w_version, firsts[0][0]) for i in range(len(pools))))
        if args.client == "scripted":
            t = time.perf_counter()
            planned = [m for m, _ in firsts] + [m for table_spares in spares for m, _ in table_spares]
            plans = await asyncio.gather(*(client.call(m, w_script, m, client.salt) for m in planned))
            client.scripts.update(zip(planned, plans, strict=True))
            log(f"{len(plans)} matches planned in {time.perf_counter() - t:.1f} s: {sum(map(len, plans))} steps")

        t = time.perf_counter()
        by_user = {p.user_id: p for tbl in tables for p in tbl}
        conns = await asyncio.gather(
            *(client.connect_match(m, {seat: by_user[uid] for seat, uid in seats.items()}) for m, seats in firsts)
        )
        connect_stats = (list(client.stats.connect_times), Counter(client.stats.ws_errors))
        log(
            f"{sum(len(c.socks) for c in conns if c)} sockets open in {time.perf_counter() - t:.1f} s"
            + (
                f"; refused handshakes (retried): {sum(client.stats.ws_errors.values())}"
                if client.stats.ws_errors
                else ""
            )
        )
        client.stats.connect_times.clear()
        client.stats.ws_errors.clear()
        client.stats.errors.clear()
        client.stats.socket_failures = 0
        client.stats.dropped_sockets = 0
        client.stats.closes.clear()
        client.stats.initial_connect = connect_stats
        lag = asyncio.create_task(client.loop_lag_monitor())
        pg = PgMonitor(args.pg_admin, args.dbname) if args.dbname else None
        if pg is not None:
            pg.start()
        cpu0 = cpu_snapshot(args)
        start = time.perf_counter()
        if args.spy and args.daphne_pids:
            out = Path(tempfile.mkdtemp(prefix="hideout-spy-")) / "daphne0.txt"
            args.spy_run = (spy.start(args.daphne_pids[0], args.duration, out), out)
        log(f"{scenario}: {len(tables)} tables play for {args.duration:.0f} s ...")
        tasks = [
            asyncio.create_task(client.run_table(tbl, conn, table_spares))
            for tbl, conn, table_spares in zip(tables, conns, spares, strict=True)
        ]
        await asyncio.sleep(args.duration)
        client.stop.set()
        stopped = time.perf_counter()
        cpu1 = cpu_snapshot(args)
        pg_numbers = pg.stop() if pg is not None else {}
        log("time is up: no new moves; waiting for in-flight moves and pushes ...")
        done, pending = await asyncio.wait(tasks, timeout=args.lost_timeout * 3 + 30)
        for task in pending:
            task.cancel()
        for task in done:
            if task.exception() is not None:
                client.stats.errors[f"table crashed: {task.exception()!r}"[:100]] += 1
        lag.cancel()
        elapsed = stopped - start
        return client.stats, elapsed, {**cpu_delta(cpu0, cpu1, elapsed), **pg_numbers}


def cpu_snapshot(args: argparse.Namespace) -> dict[str, float]:
    snap: dict[str, float] = {}
    busy, total = machine_cpu()
    snap["machine_busy"], snap["machine_total"] = busy, total
    stack_pids = set(args.daphne_pids) | ({args.celery_pid} if args.celery_pid else set())
    helpers = [pid for pid in children_of(os.getpid()) if pid not in stack_pids]  # decider processes
    snap["client"] = sum(os.times()[:2]) + sum(cpu_seconds(pid) for pid in helpers)
    snap["client_helpers"] = sum(cpu_seconds(pid) for pid in helpers)  # its share: choosing the moves
    for i, pid in enumerate(args.daphne_pids):
        snap[f"daphne{i}"] = cpu_seconds(pid)
    if args.celery_pid:
        snap["celery"] = cpu_seconds(args.celery_pid) + sum(cpu_seconds(c) for c in children_of(args.celery_pid))
    snap["postgres"] = postgres_cpu_seconds()
    snap["redis"] = sum(cpu_seconds(p) for p in pids_named("redis-server"))
    return snap


def cpu_delta(a: dict[str, float], b: dict[str, float], elapsed: float) -> dict[str, float]:
    out = {}
    total = b["machine_total"] - a["machine_total"]
    out["machine busy %"] = 100.0 * (b["machine_busy"] - a["machine_busy"]) / total if total else float("nan")
    for key in a:
        if key.startswith("machine"):
            continue
        out[f"{key} cores"] = (b.get(key, 0.0) - a[key]) / elapsed
    return out


def verify_log(match_ids: list[int], accepted: Counter[int]) -> tuple[list[list[Any]], list[str]]:
    """Every event accounted for: contiguous seq 1..version, one receipt per accepted POST, and each
    receipt's span of events by its seat (after any automatic SYSTEM steps)."""
    from django.db import connections

    from games.engines.base import SYSTEM
    from games.models import ActionReceipt, Match, MatchEvent

    problems: list[str] = []
    versions = dict(Match.objects.filter(pk__in=match_ids).values_list("pk", "version"))
    events: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for mid, seq, actor in (
        MatchEvent.objects.filter(match_id__in=match_ids)
        .order_by("match_id", "seq")
        .values_list("match_id", "seq", "actor")
    ):
        events[mid].append((seq, actor))
    receipts: dict[int, dict[int, int]] = defaultdict(dict)
    for mid, version, seat in ActionReceipt.objects.filter(match_id__in=match_ids).values_list(
        "match_id", "version", "seat"
    ):
        receipts[mid][version] = seat
    totals = Counter[str]()
    for mid in match_ids:
        evs = events.get(mid, [])
        version = versions.get(mid, -1)
        seqs = [s for s, _ in evs]
        if seqs != list(range(1, version + 1)):
            problems.append(f"match {mid}: seq not 1..{version} ({len(seqs)} events)")
            continue
        rec = receipts.get(mid, {})
        if len(rec) != accepted.get(mid, 0):
            problems.append(f"match {mid}: {accepted.get(mid, 0)} POSTs accepted but {len(rec)} receipts")
        steps = 0
        player_events = 0
        system_events = 0
        prev_actor = None
        current_owner: int | None = None  # seat whose action the current span belongs to
        for seq, actor in evs:
            if actor == SYSTEM:
                system_events += 1
                if prev_actor != SYSTEM:
                    steps += 1
            else:
                player_events += 1
                if current_owner is None:
                    # this span must end at a receipt of the same seat
                    end = min((v for v in rec if v >= seq), default=None)
                    if end is None or rec[end] != actor:
                        problems.append(f"match {mid}: event {seq} by seat {actor} belongs to no accepted POST")
                    current_owner = actor
                if seq in rec:
                    current_owner = None
            prev_actor = actor
        totals["matches"] += 1
        totals["events"] += len(evs)
        totals["player events"] += player_events
        totals["system events"] += system_events
        totals["accepted moves"] += accepted.get(mid, 0)
        totals["receipts"] += len(rec)
        totals["automatic steps"] += steps
    connections.close_all()
    rows = [[k, v] for k, v in totals.items()]
    return rows, problems


def retry_db(fn: Callable[[], Any], seconds: float = 60.0) -> Any:
    """Run an ORM read, waiting while PostgreSQL refuses connections (leaked server connections)."""
    from django.db import OperationalError, connections

    deadline = time.monotonic() + seconds
    while True:
        try:
            return fn()
        except OperationalError:
            connections.close_all()
            if time.monotonic() > deadline:
                raise
            time.sleep(1.0)


def report_play(scenario: str, stats: Stats, elapsed: float, cpu: dict[str, float], args: argparse.Namespace) -> bool:
    ms = 1000.0
    accepted = len(stats.post_rtt)
    rate = accepted / elapsed if elapsed else 0.0
    # The steady part: the middle of the run (skip the first and last 10 %).
    lo = min(stats.accepted_at, default=0.0)
    hi = max(stats.accepted_at, default=0.0)
    span = hi - lo
    mid = [t for t in stats.accepted_at if lo + 0.1 * span <= t <= hi - 0.1 * span]
    steady = len(mid) / (0.8 * span) if span > 0 else float("nan")
    rows: list[list[Any]] = [
        [
            "tables (4 seats each) / daphnes",
            f"{args.matches} / {len(args.urls)} "
            + ("(a match's sockets on one daphne)" if args.route == "match" else "(a table's seats alternate daphnes)"),
        ],
        ["moves sent by", "the mover's WebSocket" if args.transport == "socket" else "form POST"],
        ["client event loop", client_loop()],
        [
            "moves chosen",
            "planned per match before it is played, one move in flight a match"
            if args.client == "scripted"
            else "by the helpers on each version, every free seat at once",
        ],
        ["matches played (finished)", f"{len(stats.matches)} ({stats.finished_matches})"],
        ["window (s)", round(elapsed, 1)],
        ["moves offered / s", stats.attempts / elapsed if elapsed else 0.0],
        ["moves accepted", accepted],
        ["moves / s (whole window)", rate],
        ["moves / s (steady middle 80 %)", steady],
        ["409 conflicts (re-decided)", stats.conflicts],
        ["decisions asked of the helpers", stats.decisions],
        ["errors", sum(stats.errors.values())],
        ["updates later than 1 s (all opponents)", sum(1 for x in stats.latency if x > 1.0)],
        [f"lost updates (none within {args.lost_timeout:.0f} s)", stats.lost],
        ["clients that missed the final version", len(stats.final_bad)],
        ["sockets lost during play", stats.dropped_sockets],
    ]
    print()
    print(table(["scenario: " + scenario, "value"], rows))
    lat = [x * ms for x in stats.latency]
    rtt = [x * ms for x in stats.post_rtt]
    lag = [x * ms for x in stats.loop_lag]
    conn = [x * ms for x in stats.connect_times]
    first_conn = [x * ms for x in stats.initial_connect[0]]
    print(
        table(
            ["latency (ms)", "n", "p50", "p95", "p99", "max"],
            [
                [
                    "move -> all opponents' sockets",
                    len(lat),
                    pct(lat, 50),
                    pct(lat, 95),
                    pct(lat, 99),
                    max(lat, default=float("nan")),
                ],
                [
                    "move round trip (socket answer or POST response)",
                    len(rtt),
                    pct(rtt, 50),
                    pct(rtt, 95),
                    pct(rtt, 99),
                    max(rtt, default=float("nan")),
                ],
                [
                    "client event-loop lag",
                    len(lag),
                    pct(lag, 50),
                    pct(lag, 95),
                    pct(lag, 99),
                    max(lag, default=float("nan")),
                ],
                [
                    "socket connect -> first update (retries in)",
                    len(conn),
                    pct(conn, 50),
                    pct(conn, 95),
                    pct(conn, 99),
                    max(conn, default=float("nan")),
                ],
                [
                    "  (first sockets, before the clock)",
                    len(first_conn),
                    pct(first_conn, 50),
                    pct(first_conn, 95),
                    pct(first_conn, 99),
                    max(first_conn, default=float("nan")),
                ],
            ],
        )
    )
    per_move = 1000.0 / rate if rate else float("nan")  # ms of one core per accepted move, per core used
    server_cores = sum(v for k, v in cpu.items() if k.endswith(" cores") and not k.startswith("client"))
    cpu_rows = [[k, v] for k, v in cpu.items()]
    cpu_rows.append(["client CPU per accepted move (ms; target <= 1)", cpu.get("client cores", 0.0) * per_move])
    helpers = cpu.get("client_helpers cores", 0.0)
    cpu_rows.append(["  of which choosing the moves (helper processes)", helpers * per_move])
    cpu_rows.append(["server CPU per accepted move (ms; daphnes, worker, PostgreSQL, Redis)", server_cores * per_move])
    print(table(["CPU and PostgreSQL during the window", "value"], cpu_rows))
    if stats.errors:
        print(table(["error", "count"], [[k, v] for k, v in stats.errors.most_common(10)]))
    if stats.closes:
        closes = [[reason, n] for reason, n in stats.closes.most_common(5)]
        print(table(["sockets lost during play: how", "count"], closes))
    refused = stats.initial_connect[1] + stats.ws_errors
    if refused:
        print(table(["refused WebSocket handshakes (retried)", "count"], [[k, v] for k, v in refused.most_common(5)]))
    for example in stats.lost_examples:
        print("  lost:", example)
    for example in stats.final_bad[:5]:
        print("  final:", example)
    try:
        rows, problems = retry_db(lambda: verify_log(stats.matches, stats.accepted_by_match))
    except Exception as exc:  # e.g. PostgreSQL still full of the attached servers' connections
        rows, problems = [], [f"the log check could not run: {type(exc).__name__}: {str(exc)[:100]}"]
    print(table(["database log check", "value"], rows))
    for p in problems[:10]:
        print("  LOG PROBLEM:", p)
    print(
        "  events = player events + system events; accepted moves must equal receipts; "
        f"log check: {'OK' if not problems else f'{len(problems)} problem(s)'}"
    )
    ok = not problems and stats.lost == 0 and not stats.final_bad
    if scenario == "paced":
        met = pct(lat, 50) <= 5 and pct(lat, 99) <= 30
        print(f"  target ({TARGETS['paced']}): {'MET' if met else 'MISSED'}")
    else:
        met = rate >= 350 and ok
        print(f"  target ({TARGETS['flat-out']}): {'MET' if met else 'MISSED'}; nothing lost: {'yes' if ok else 'NO'}")
    return ok


async def run_sockets(
    args: argparse.Namespace, url: str, tables: list[list[Player]], firsts: list[tuple[int, dict[int, int]]]
) -> None:
    count = args.sockets
    pid = args.daphne_pids[0] if args.daphne_pids else None
    async with Client(args, [url], []) as client:
        targets = [(p, m) for tbl, (m, _) in zip(tables, firsts, strict=True) for p in tbl][:count]
        await asyncio.sleep(1.0)
        rss_before = rss_mb(pid) if pid else float("nan")
        sem = asyncio.Semaphore(args.connect_concurrency)
        noop = lambda _v: None  # noqa: E731

        async def one(p: Player, m: int) -> Sock | None:
            async with sem:
                return await client.open_socket(p, m, noop)

        t = time.perf_counter()
        socks = await asyncio.gather(*(one(p, m) for p, m in targets))
        open_s = time.perf_counter() - t
        await asyncio.sleep(2.0)
        opened = [s for s in socks if s is not None]
        rss_open = rss_mb(pid) if pid else float("nan")
        # One move in each match, so every open socket also renders and receives a push.
        from games.engines.heist import RULES  # noqa: F401  (import cost outside the clock)

        t_push = time.perf_counter()
        await asyncio.get_running_loop().run_in_executor(None, _one_move_each, [m for m, _ in firsts])
        deadline = time.perf_counter() + 60.0
        while time.perf_counter() < deadline and sum(1 for s in opened if len(s.history) >= 2) < len(opened):
            await asyncio.sleep(0.2)
        push_s = time.perf_counter() - t_push
        pushed = sum(1 for s in opened if len(s.history) >= 2)
        rss_push = rss_mb(pid) if pid else float("nan")
        await asyncio.gather(*(s.close() for s in opened))
        await asyncio.sleep(2.0)
        rss_closed = rss_mb(pid) if pid else float("nan")
    conn = [x * 1000 for x in client.stats.connect_times]
    print()
    rows: list[list[Any]] = [
        ["sockets asked / open", f"{count} / {len(opened)}"],
        ["time to open all (s)", open_s],
        ["connect -> first update p50 / p99 (ms)", f"{pct(conn, 50):.1f} / {pct(conn, 99):.1f}"],
        ["daphne RSS before (MB)", rss_before],
        ["daphne RSS with sockets open (MB)", rss_open],
        ["daphne RSS after one push to each (MB)", rss_push],
        ["sockets that got the push / seconds until the last", f"{pushed} / {push_s:.1f}"],
        ["per socket (KB)", (rss_push - rss_before) * 1024 / max(1, len(opened))],
        ["daphne RSS after closing all (MB)", rss_closed],
    ]
    print(table(["scenario: sockets (one daphne)", "value"], rows))
    if client.stats.errors:
        print(table(["error", "count"], [[k, v] for k, v in client.stats.errors.most_common(10)]))
    if pid:
        met = rss_push < 300
        print(f"  target ({TARGETS['sockets']}): {'MET' if met else 'MISSED'}")
    else:
        print("  (no daphne pid: pass --pid with --url to read its RSS)")


def _one_move_each(match_ids: list[int]) -> None:
    from django.db import connections

    from games.play import services

    for mid in match_ids:
        decision = w_decide(mid, "sockets")
        for seat, action in list(decision["actions"].items())[:1]:
            services.do_submit_action(mid, seat, action, expected_version=decision["version"])
    connections.close_all()


# =================================================================================================
# main
# =================================================================================================


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--scenario", choices=["paced", "flat-out", "sockets", "all"], default="all")
    p.add_argument("--matches", type=int, default=200, help="live matches (tables of 4 users), default 200")
    p.add_argument("--duration", type=float, default=None, help="seconds of play (default 60 paced, 45 flat-out)")
    p.add_argument("--think-min", type=float, default=1.0, help="paced: shortest think time (s)")
    p.add_argument("--think-max", type=float, default=3.0, help="paced: longest think time (s)")
    p.add_argument("--sockets", type=int, default=1000, help="sockets scenario: how many WebSockets")
    p.add_argument("--connect-concurrency", type=int, default=20, help="sockets opening at once (ramp)")
    p.add_argument("--ws-retries", type=int, default=4, help="retries of a refused WebSocket handshake")
    p.add_argument(
        "--transport",
        choices=["socket", "post"],
        default="socket",
        help="moves up the mover's WebSocket, as the page sends them (default), or as form POSTs",
    )
    p.add_argument("--deciders", type=int, default=1, help="client helper processes that choose moves")
    p.add_argument(
        "--client",
        choices=["deciding", "scripted"],
        default="deciding",
        help="deciding: every free seat moves at once on the helpers' choice for the version it sees (stale"
        " moves are refused and decided again); scripted: each match's moves are planned before it is played"
        " and sent one at a time, so the client spends almost nothing a move",
    )
    p.add_argument("--url", default="", help="attach to running servers: comma-separated base URLs")
    p.add_argument("--pid", type=int, default=0, help="with --url: daphne pid for the sockets RSS reading")
    p.add_argument(
        "--conn-max-age",
        default=None,
        help="own stack: CONN_MAX_AGE for the servers (default: the project's setting, 60)",
    )
    p.add_argument("--lost-timeout", type=float, default=30.0, help="an update later than this counts as lost")
    p.add_argument("--no-deflate", action="store_true", help="sockets do not offer permessage-deflate (browsers do)")
    p.add_argument("--trace", action="store_true", help="own stack: time each move's stages (trace_report.py)")
    p.add_argument("--stall-timeout", type=float, default=3.0, help="re-read a match after this long without news")
    add_stack_arguments(
        p, "user", "how the proxy spreads sockets: by user (default: a table's seats alternate daphnes) or by match id"
    )
    return p.parse_args()


def client_loop() -> str:
    """The client's event loop: uvloop's where it is installed (with asyncio's own, its bookkeeping
    of tasks, timers and callbacks was a third of the client's CPU), else asyncio's."""
    try:
        import uvloop  # noqa: F401
    except ImportError:
        return "asyncio (uvloop is not installed)"
    return "uvloop"


def run_client(coro: Coroutine[Any, Any, T]) -> T:
    if client_loop() != "uvloop":
        return asyncio.run(coro)
    import uvloop

    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(coro)


def main() -> int:
    args = parse_args()
    for url in args.url.split(",") if args.url else []:
        host = urlsplit(url).hostname or ""
        if not (host.startswith("127.") or host in ("localhost", "::1")):
            print(f"refusing to load {url}: only 127.0.0.1 / localhost are allowed", file=sys.stderr)
            return 2
    stack = None if args.url else Stack(args)
    if args.trace:  # read by games.play.latency_trace in the servers the stack starts
        os.environ["HIDEOUT_TRACE_DIR"] = tempfile.mkdtemp(prefix="hideout-trace-")
    pools: list[ProcessPoolExecutor] = []
    ok = True
    try:
        if args.conn_max_age is not None:
            os.environ["CONN_MAX_AGE"] = str(args.conn_max_age)
        if stack is not None:
            stack.create_database()
        django_setup()
        args.dbname = database_name() if "postgresql" in _engine() else None
        if stack is not None:
            stack.migrate()
        else:
            args.urls = [u.rstrip("/") for u in args.url.split(",")]
            args.daphne_pids = [args.pid] if args.pid else []
            args.celery_pid = None
        from django.db import connections

        connections.close_all()
        ctx = mp.get_context("spawn")
        pools = [ProcessPoolExecutor(1, mp_context=ctx, initializer=w_init) for _ in range(args.deciders)]
        scenarios = ["paced", "flat-out", "sockets"] if args.scenario == "all" else [args.scenario]
        for scenario in scenarios:
            if stack is not None:  # fresh server processes for every scenario
                stack.start_servers()
                args.urls = list(stack.urls)
                args.daphne_pids = list(stack.daphne_pids)
                args.celery_pid = stack.celery_pid
            if scenario == "sockets":
                tables, firsts, _ = setup_tables(math.ceil(args.sockets / SEATS), args.urls[:1])
                run_client(run_sockets(args, args.urls[0], tables, firsts))
                if stack is not None:
                    stack.stop()
                continue
            saved = args.duration
            if args.duration is None:
                args.duration = 60.0 if scenario == "paced" else 45.0
            tables, firsts, spares = setup_tables(args.matches, args.urls, SPARES if args.client == "scripted" else 0)
            stats, elapsed, cpu = run_client(run_play(args, args.urls, pools, scenario, tables, firsts, spares))
            if stack is not None:
                stack.stop()  # also frees the PostgreSQL connections the servers still hold
            ok = report_play(scenario, stats, elapsed, cpu, args) and ok
            if getattr(args, "spy_run", None):
                proc, out = args.spy_run
                spy.report(proc, out, title=f"where daphne0's Python time went during {scenario} (py-spy --gil)")
                args.spy_run = None
            if args.trace:
                trace_report.report(Path(os.environ["HIDEOUT_TRACE_DIR"]))
            args.duration = saved
    finally:
        for pool in pools:
            pool.shutdown(wait=True, cancel_futures=True)
        if stack is not None:
            stack.stop()
            stack.drop_database()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
