#!/usr/bin/env python
"""Floor benchmark: the fastest daphne + Django can answer on this machine, before any game work.

A move is an HTTP POST that goes through daphne, Django's ASGI handler and the whole middleware
stack before the view touches the database, renders templates or pushes to sockets. This script
measures that fixed part alone, so a reader can see what a move's POST can never beat:

``raw``
    daphne serving a minimal ASGI app (written to a temp directory at run time) that answers
    ``200 ok``: the cost of daphne / Twisted / the event loop alone.
``django``
    daphne serving the project's ``config.asgi:application`` (``HttpConcurrencyLimit`` + Django's
    ASGI handler + every middleware in settings), asked ``GET /m/1/action/`` anonymously:
    ``login_required`` answers 302 to the login page without a database query (no session
    cookie, so no session is loaded). By default the servers run on the embedded defaults (no
    ``DATABASE_URL`` / ``REDIS_URL``: SQLite + the in-memory channel layer), with the SQLite file
    pointed at an empty, unmigrated temp file instead of the project's ``db.sqlite3``: any query
    would fail there, and the 302 is checked before measuring. ``--database-url`` and ``--redis``
    pass production-like settings through to the servers instead.

Each is run with 1 and with 2 daphne processes (``--daphnes``; the load is spread round-robin over
them), every setup started fresh on free ports on 127.0.0.1 with ``DEBUG=0`` and
``LOG_LEVEL=WARNING``, and stopped again at the end (also on Ctrl-C or an error).

The load comes from ``--clients`` worker processes, each with ``--connections`` HTTP/1.1
keep-alive connections, speaking HTTP on bare asyncio streams (no httpx/aiohttp: they cost more
CPU per request than the servers under test). Two modes per setup, each measured for
``--duration`` seconds after a ``--warmup``:

``saturate``
    every connection sends its next request the moment the previous answer is in. Reported:
    requests/s, p50/p99 latency (send -> whole answer read), the CPU (cores) of the daphne
    processes and of the client processes over the window (from /proc), daphne CPU per request,
    and how busy the whole machine was (/proc/stat; other processes included).
``paced``
    a fixed offered rate (``--rate`` requests/s in total) on a schedule spread evenly over all
    connections. Latency counts from the scheduled send time, so a request held back by a slow
    earlier answer on its connection counts its wait. (asyncio timers wake up to 1 ms late, so
    requests are woken up to 1 ms early and timed from the earlier of scheduled and actual send
    time: timer jitter of the client does not count, queueing does.) Reported: achieved rate,
    p50/p95/p99 latency, daphne CPU per request.

The clients share the machine with the servers (and anything else running): on 2 cores the
saturate numbers are the floor of *this* machine with its own load generator on it, which is why
the client CPU and the machine busy % are printed next to them.

Quick run (~35 s)::

    .venv/bin/python bench/floor_bench.py --duration 3
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing as mp
import os
import platform
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import ROOT, cpu_seconds, free_port, log, machine_cpu, pct, stop_processes, table

BIN = Path(sys.executable).parent
DJANGO_PATH = "/m/1/action/"
EARLY = 0.001  # paced mode: wake this much before the scheduled time (asyncio timers fire up to 1 ms late)

RAW_APP = '''\
"""Minimal ASGI app for bench/floor_bench.py: 200 "ok" to every HTTP request."""

HEADERS = [(b"content-type", b"text/plain"), (b"content-length", b"2")]


async def app(scope, receive, send):
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    if scope["type"] != "http":
        return
    message = await receive()
    while message.get("more_body"):
        message = await receive()
    await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
    await send({"type": "http.response.body", "body": b"ok"})
'''


def hide_password(url: str) -> str:
    parts = urlsplit(url)
    if parts.password:
        netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
        return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))
    return url


# =================================================================================================
# The servers under test
# =================================================================================================


@dataclass
class Setup:
    kind: str  # "raw" or "django"
    daphnes: int

    @property
    def name(self) -> str:
        return f"{self.kind} ×{self.daphnes}"

    @property
    def path(self) -> str:
        return "/" if self.kind == "raw" else DJANGO_PATH

    @property
    def expect(self) -> int:
        return 200 if self.kind == "raw" else 302


class Servers:
    """Starts ``setup.daphnes`` daphne processes for one setup; ``stop()`` always stops them."""

    def __init__(self, setup: Setup, workdir: Path, args: argparse.Namespace) -> None:
        self.setup = setup
        self.workdir = workdir
        self.args = args
        self.procs: list[subprocess.Popen[bytes]] = []
        self.ports: list[int] = []
        self.logs: list[Path] = []

    def env(self) -> dict[str, str]:
        env = os.environ.copy()
        for key in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL"):
            env.pop(key, None)
        env["DEBUG"] = "0"
        env["LOG_LEVEL"] = "WARNING"
        env["PYTHONUNBUFFERED"] = "1"
        if self.setup.kind == "django":
            env["DJANGO_SETTINGS_MODULE"] = "config.settings"
            # An empty, unmigrated SQLite file: the measured request must not need the database.
            env["DATABASE_URL"] = self.args.database_url or f"sqlite:///{self.workdir / 'unmigrated.sqlite3'}"
            if self.args.redis:
                env["REDIS_URL"] = self.args.redis
        return env

    def start(self) -> None:
        app = "floor_raw_app:app" if self.setup.kind == "raw" else "config.asgi:application"
        cwd = self.workdir if self.setup.kind == "raw" else ROOT
        env = self.env()
        for i in range(self.setup.daphnes):
            port = free_port()
            logfile = self.workdir / f"{self.setup.kind}{self.setup.daphnes}-daphne{i}.log"
            with open(logfile, "wb") as out:
                proc = subprocess.Popen(
                    [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port), "-v", "0", app],
                    cwd=cwd,
                    env=env,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            self.procs.append(proc)
            self.ports.append(port)
            self.logs.append(logfile)
        self.wait_ready()

    def wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        for proc, port, logfile in zip(self.procs, self.ports, self.logs, strict=True):
            while True:
                if proc.poll() is not None:
                    raise RuntimeError(f"daphne on port {port} exited early (rc {proc.returncode}); see {logfile}")
                try:
                    status, head = probe(port, self.setup.path)
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        msg = f"daphne on port {port} not up after {timeout:.0f} s; see {logfile}"
                        raise RuntimeError(msg) from None
                    time.sleep(0.1)
            location = next((line for line in head.split("\r\n") if line.lower().startswith("location:")), "")
            if status != self.setup.expect or (self.setup.kind == "django" and "login" not in location):
                first = head.split("\r\n\r\n", 1)[0][:400]
                raise RuntimeError(
                    f"{self.setup.name}: GET {self.setup.path} answered {status}, expected {self.setup.expect}"
                    f"{' to the login page' if self.setup.kind == 'django' else ''}; answer:\n{first}\n"
                    f"(server log: {logfile})"
                )

    @property
    def pids(self) -> list[int]:
        return [p.pid for p in self.procs]

    def stop(self) -> None:
        stop_processes(self.procs, grace=10)
        self.procs.clear()


def probe(port: int, path: str) -> tuple[int, str]:
    """One blocking GET; (status, response head + start of body)."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    text = data.decode("latin-1")
    try:
        return int(text.split(" ", 2)[1]), text
    except (IndexError, ValueError):
        raise OSError(f"no HTTP answer: {text[:80]!r}") from None


# =================================================================================================
# The load generator (runs in worker processes)
# =================================================================================================


@dataclass
class WorkerConfig:
    index: int
    mode: str  # "saturate" or "paced"
    ports: list[int]
    path: str
    expect: int
    connections: int
    total_connections: int
    warmup: float
    duration: float
    rate: float  # paced: requests/s offered by ALL workers together
    grace: float = 5.0


@dataclass
class WorkerResult:
    latencies: list[float] = field(default_factory=list)  # seconds, requests counted in the window
    completed: int = 0  # answers that arrived inside the window
    scheduled: int = 0  # paced: requests scheduled inside the window
    errors: Counter[str] = field(default_factory=Counter)


class Connection:
    def __init__(self, port: int, path: str) -> None:
        self.port = port
        self.request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def get(self) -> int:
        """Send one request and read the whole answer; its status."""
        if self.writer is None:
            await self.open()
        reader, writer = self.reader, self.writer
        assert reader is not None and writer is not None
        writer.write(self.request)
        head = await reader.readuntil(b"\r\n\r\n")
        status = int(head[9:12])
        lower = head.lower()
        i = lower.find(b"\r\ncontent-length:")
        if i >= 0:
            length = int(lower[i + 17 : lower.index(b"\r\n", i + 2)])
            if length:
                await reader.readexactly(length)
        elif b"\r\ntransfer-encoding: chunked" in lower:
            while True:
                size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
                await reader.readexactly(size + 2)
                if size == 0:
                    break
        if b"\r\nconnection: close" in lower:
            self.close()
        return status


async def saturate_loop(conn: Connection, cfg: WorkerConfig, start: float, res: WorkerResult) -> None:
    window_start = start + cfg.warmup
    end = window_start + cfg.duration
    now = time.monotonic()
    while now < end:
        try:
            status = await conn.get()
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError) as exc:
            res.errors[type(exc).__name__] += 1
            conn.close()
            await asyncio.sleep(0.01)
            now = time.monotonic()
            continue
        done = time.monotonic()
        if done >= window_start and done < end:
            res.completed += 1
            res.latencies.append(done - now)
            if status != cfg.expect:
                res.errors[f"HTTP {status}"] += 1
        now = done


async def paced_loop(conn: Connection, slot: int, cfg: WorkerConfig, start: float, res: WorkerResult) -> None:
    window_start = start + cfg.warmup
    end = window_start + cfg.duration
    interval = cfg.total_connections / cfg.rate  # seconds between two requests of one connection
    first = start + slot / cfg.rate  # connection `slot` of all: evenly spread over the schedule
    k = 0
    while True:
        scheduled = first + k * interval
        k += 1
        if scheduled >= end:
            break
        in_window = scheduled >= window_start
        res.scheduled += in_window
        delay = scheduled - time.monotonic() - EARLY
        if delay > 0:
            await asyncio.sleep(delay)
        sent = time.monotonic()
        try:
            status = await conn.get()
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError) as exc:
            res.errors[type(exc).__name__] += 1
            conn.close()
            continue
        done = time.monotonic()
        if window_start <= done < end:
            res.completed += 1
        if in_window:
            res.latencies.append(done - min(sent, scheduled))
            if status != cfg.expect:
                res.errors[f"HTTP {status}"] += 1


async def worker_main(cfg: WorkerConfig, ready: Any, go: Any, start_at: Any) -> WorkerResult:
    res = WorkerResult()
    conns = []
    for c in range(cfg.connections):
        slot = cfg.index * cfg.connections + c  # global connection number: decides its daphne
        conn = Connection(cfg.ports[slot % len(cfg.ports)], cfg.path)
        await conn.open()
        conns.append((slot, conn))
    ready.put(cfg.index)
    if not await asyncio.to_thread(go.wait, 60):
        return res
    start = start_at.value
    delay = start - time.monotonic()
    if delay > 0:
        await asyncio.sleep(delay)
    if cfg.mode == "saturate":
        tasks = [asyncio.create_task(saturate_loop(conn, cfg, start, res)) for _slot, conn in conns]
    else:
        tasks = [asyncio.create_task(paced_loop(conn, slot, cfg, start, res)) for slot, conn in conns]
    timeout = start + cfg.warmup + cfg.duration + cfg.grace - time.monotonic()
    _done, pending = await asyncio.wait(tasks, timeout=max(0.1, timeout))
    for task in pending:
        task.cancel()
    if pending:
        res.errors["unfinished at cut-off"] += len(pending)
    for _slot, conn in conns:
        conn.close()
    return res


def worker_process(cfg: WorkerConfig, ready: Any, go: Any, start_at: Any, results: Any) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and stops us
    try:
        res = asyncio.run(worker_main(cfg, ready, go, start_at))
    except Exception as exc:  # reported by the parent
        res = WorkerResult()
        res.errors[f"worker crashed: {exc!r}"[:120]] += 1
        ready.put(cfg.index)
    results.put(res)


# =================================================================================================
# One measurement: workers against a running setup
# =================================================================================================


def run_mode(mode: str, setup: Setup, servers: Servers, args: argparse.Namespace) -> dict[str, Any]:
    ctx = mp.get_context("spawn")  # clean worker processes (no inherited Popen objects or state)
    ready, results = ctx.Queue(), ctx.Queue()
    go = ctx.Event()
    start_at = ctx.Value("d", 0.0)
    total = args.clients * args.connections
    procs = []
    try:
        for i in range(args.clients):
            cfg = WorkerConfig(
                index=i,
                mode=mode,
                ports=servers.ports,
                path=setup.path,
                expect=setup.expect,
                connections=args.connections,
                total_connections=total,
                warmup=args.warmup,
                duration=args.duration,
                rate=args.rate,
            )
            proc = ctx.Process(target=worker_process, args=(cfg, ready, go, start_at, results), daemon=True)
            proc.start()
            procs.append(proc)
        for _ in procs:
            ready.get(timeout=60)
        start = time.monotonic() + 0.05
        start_at.value = start
        go.set()

        window_start = start + args.warmup
        time.sleep(max(0.0, window_start - time.monotonic()))
        busy0, total0 = machine_cpu()
        d0 = sum(cpu_seconds(pid) for pid in servers.pids)
        c0 = sum(cpu_seconds(p.pid) for p in procs if p.pid)
        t0 = time.monotonic()
        time.sleep(max(0.0, window_start + args.duration - time.monotonic()))
        busy1, total1 = machine_cpu()
        d1 = sum(cpu_seconds(pid) for pid in servers.pids)
        c1 = sum(cpu_seconds(p.pid) for p in procs if p.pid)
        elapsed = time.monotonic() - t0

        parts: list[WorkerResult] = [results.get(timeout=args.duration + 60) for _ in procs]
        for proc in procs:
            proc.join(10)
    finally:
        for proc in procs:
            if proc.is_alive():
                proc.terminate()
                proc.join(5)

    lat = [x * 1000.0 for r in parts for x in r.latencies]
    completed = sum(r.completed for r in parts)
    errors: Counter[str] = Counter()
    for r in parts:
        errors.update(r.errors)
    daphne_cpu = d1 - d0
    return {
        "rate": completed / args.duration,
        "scheduled": sum(r.scheduled for r in parts),
        "p50": pct(lat, 50),
        "p95": pct(lat, 95),
        "p99": pct(lat, 99),
        "daphne cores": daphne_cpu / elapsed,
        "client cores": (c1 - c0) / elapsed,
        "busy %": 100.0 * (busy1 - busy0) / (total1 - total0) if total1 > total0 else float("nan"),
        "cpu ms/req": 1000.0 * daphne_cpu / completed if completed else float("nan"),
        "errors": errors,
    }


def error_text(errors: Counter[str]) -> str:
    if not errors:
        return "0"
    return ", ".join(f"{k}: {v}" for k, v in errors.most_common(3))


# =================================================================================================
# Main
# =================================================================================================


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description="Floor of the web stack: requests/s and latency of daphne alone (raw ASGI app) and of "
        "daphne + Django's whole middleware stack (anonymous GET answered 302 by login_required), "
        "with 1 and 2 daphne processes, saturated and at a paced rate.",
        epilog="Quick run (~35 s): .venv/bin/python bench/floor_bench.py --duration 3",
    )
    p.add_argument(
        "--servers", default="raw,django", help="servers to measure: raw, django or both (default: %(default)s)"
    )
    p.add_argument(
        "--daphnes", default="1,2", help="daphne process counts to measure, comma-separated (default: %(default)s)"
    )
    p.add_argument(
        "--modes", default="saturate,paced", help="modes to run: saturate, paced or both (default: %(default)s)"
    )
    p.add_argument("--clients", type=int, default=2, help="load generator processes (default: %(default)s)")
    p.add_argument(
        "--connections", type=int, default=16, help="keep-alive connections per client process (default: %(default)s)"
    )
    p.add_argument(
        "--duration", type=float, default=8.0, help="seconds measured per mode and setup (default: %(default)s)"
    )
    p.add_argument(
        "--warmup", type=float, default=1.0, help="seconds of load before the measured window (default: %(default)s)"
    )
    p.add_argument(
        "--rate", type=float, default=100.0, help="paced mode: requests/s offered in total (default: %(default)s)"
    )
    p.add_argument(
        "--database-url",
        default="",
        metavar="URL",
        help="DATABASE_URL for the django servers (default: none, an empty unmigrated SQLite temp file)",
    )
    p.add_argument(
        "--redis",
        default="",
        metavar="URL",
        help="REDIS_URL for the django servers (default: none, the in-memory channel layer and cache)",
    )
    args = p.parse_args(argv)
    args.server_list = [s.strip() for s in args.servers.split(",") if s.strip()]
    args.daphne_list = [int(n) for n in args.daphnes.split(",") if n.strip()]
    args.mode_list = [m.strip() for m in args.modes.split(",") if m.strip()]
    if not set(args.server_list) <= {"raw", "django"} or not args.server_list:
        p.error("--servers: raw and/or django")
    if not set(args.mode_list) <= {"saturate", "paced"} or not args.mode_list:
        p.error("--modes: saturate and/or paced")
    if not args.daphne_list or min(args.daphne_list) < 1:
        p.error("--daphnes: positive numbers")
    if args.clients < 1 or args.connections < 1 or args.duration <= 0 or args.rate <= 0 or args.warmup < 0:
        p.error("--clients, --connections, --duration and --rate must be positive")
    return args


def machine_line() -> str:
    model = ""
    with contextlib.suppress(OSError), open("/proc/cpuinfo") as fh:
        for line in fh:
            if line.startswith("model name"):
                model = " (" + line.split(":", 1)[1].strip() + ")"
                break
    versions = []
    for dist in ("daphne", "Twisted", "Django"):
        with contextlib.suppress(metadata.PackageNotFoundError):
            versions.append(f"{dist} {metadata.version(dist)}")
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    return (
        f"machine: {os.cpu_count()} CPUs{model}, Python {platform.python_version()}, "
        f"{', '.join(versions)}; load average at start {load}"
    )


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    workdir = Path(tempfile.mkdtemp(prefix="hideout-floor-"))
    (workdir / "floor_raw_app.py").write_text(RAW_APP)
    setups = [Setup(kind, n) for kind in args.server_list for n in args.daphne_list]
    results: dict[str, dict[str, dict[str, Any]]] = {m: {} for m in args.mode_list}
    failed = False
    servers: Servers | None = None

    def on_sigterm(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_sigterm)
    header = machine_line()
    print(header, flush=True)
    if "django" in args.server_list:
        db = hide_password(args.database_url) if args.database_url else "none (empty unmigrated SQLite temp file)"
        redis = hide_password(args.redis) if args.redis else "none (in-memory channel layer)"
        print(f"django servers: GET {DJANGO_PATH} -> 302; DATABASE_URL {db}; REDIS_URL {redis}", flush=True)
    print(
        f"load: {args.clients} client processes x {args.connections} keep-alive connections; "
        f"{args.warmup:g} s warm-up + {args.duration:g} s measured per mode; paced rate {args.rate:g} req/s",
        flush=True,
    )
    try:
        for setup in setups:
            servers = Servers(setup, workdir, args)
            t = time.monotonic()
            servers.start()
            up = time.monotonic() - t
            log(f"{setup.name}: daphne pids {servers.pids} on ports {servers.ports} (up in {up:.1f} s)")
            for mode in args.mode_list:
                r = run_mode(mode, setup, servers, args)
                results[mode][setup.name] = r
                log(
                    f"{setup.name} {mode}: {r['rate']:,.0f} req/s, p50 {r['p50']:.2f} ms, p99 {r['p99']:.2f} ms, "
                    f"errors {error_text(r['errors'])}"
                )
            servers.stop()
            servers = None
    except KeyboardInterrupt:
        failed = True
        log("interrupted; stopping the servers")
    except Exception as exc:
        failed = True
        log(f"failed: {exc}")
    finally:
        if servers is not None:
            servers.stop()
        signal.signal(signal.SIGTERM, signal.SIG_DFL)

    if any(results.values()):
        print_tables(results, header, args)
    if failed:
        print(f"server logs kept in {workdir}")
        return 1
    shutil.rmtree(workdir, ignore_errors=True)
    return 0


def print_tables(results: dict[str, dict[str, dict[str, Any]]], header: str, args: argparse.Namespace) -> None:
    print()
    print(header)
    connections = args.clients * args.connections
    Column = tuple[str, Callable[[dict[str, Any]], Any]]
    daphne: list[Column] = [
        ("daphne cores", lambda r: r["daphne cores"]),
        ("daphne CPU ms/req", lambda r: r["cpu ms/req"]),
    ]
    errors: Column = ("errors", lambda r: error_text(r["errors"]))
    columns: dict[str, list[Column]] = {
        "saturate": [
            ("req/s", lambda r: r["rate"]),
            ("p50 ms", lambda r: r["p50"]),
            ("p99 ms", lambda r: r["p99"]),
            *daphne,
            ("client cores", lambda r: r["client cores"]),
            ("machine busy %", lambda r: r["busy %"]),
            errors,
        ],
        "paced": [
            ("offered req/s", lambda r: args.rate),
            ("achieved req/s", lambda r: r["rate"]),
            ("p50 ms", lambda r: r["p50"]),
            ("p95 ms", lambda r: r["p95"]),
            ("p99 ms", lambda r: r["p99"]),
            *daphne,
            errors,
        ],
    }
    titles = {
        "saturate": f"saturate: {connections} connections, each sends again as soon as its answer is in "
        f"({args.duration:g} s window)",
        "paced": f"paced: {args.rate:g} req/s in total on a fixed schedule over {connections} connections; "
        "latency from the scheduled send time",
    }
    for mode, cols in columns.items():
        if not results.get(mode):
            continue
        rows = [[name, *(value(r) for _, value in cols)] for name, r in results[mode].items()]
        print(table(["setup", *(head for head, _ in cols)], rows, title=titles[mode]))
        print()
    print(
        "raw = daphne + a bare ASGI app (200 'ok'); django = daphne + config.asgi (HttpConcurrencyLimit, all "
        f"middleware), anonymous GET {DJANGO_PATH} -> 302 by login_required, no database query. "
        "Latency: send -> whole answer read, in the client (ms)."
    )


if __name__ == "__main__":
    sys.exit(main())
