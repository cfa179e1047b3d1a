#!/usr/bin/env python
"""Live benchmark: concurrent police_alarm rounds over WebSockets, on PostgreSQL + Redis (issue 13).

Starts the same stack as ``load_bench.py`` (a fresh PostgreSQL database, Redis database 13 for the
channel layer and Celery, ``--daphnes`` daphne processes, one Celery worker) and plays ``--matches``
two-player police_alarm matches at once, the two players of a match on different daphnes (as
behind a proxy that spreads users). Each player is one WebSocket that sends what the page sends:

* the police drives at full legal speed: one ``move`` every ``step_ms`` (150 ms) by its own clock,
  pipelined (it never waits for the answer), naming the cell it believes the car is on. With
  ``--police patrol`` (the default, the issue's load: about 6.7 moves/s a match) it drives from
  crime scene to crime scene in a loop and never sounds the siren, so it drives all round long;
  with ``--police hunt`` it takes the shortest road to the nearest face-down crime scene and sounds
  the siren there (alarm pauses, caught thieves and new rounds: fewer moves);
* the thief places its two thieves at random, rolls the moment its cooldown ends (``roll_at`` of
  its view) and draws the next safe whenever it may;
* both ping every 2 s as the page does (the server closes a live socket silent for 6 s).

Measured from the events messages that reach the *opponent's* socket: the time from the input's
arrival at the server (``origin + t``, the server's receipt stamp, T-1) to the message's arrival,
for car moves (police -> thief) and rolls (thief -> police); also from the client's send to the
opponent. Printed: accepted moves/s, rejected inputs by reason (``too_fast`` must be 0), answers
that never came, event messages that did not follow the version the socket had (a gap: the page
would reload its board), sockets whose last version is not the database's, and the CPU of every
part. A match that ends is replaced by a new one for the same two players.

    .venv/bin/python bench/live_bench.py                       # 50 matches, 60 s   (~1.5 min)
    .venv/bin/python bench/live_bench.py --police hunt         # the police plays to catch
    .venv/bin/python bench/live_bench.py --matches 10 --duration 10                  (smoke run)

Target (issue 13): p50 <= 10 ms, p99 <= 50 ms from a move's arrival to the opponent's socket,
``too_fast`` = 0, nothing lost.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import random
import re
import sys
import tempfile
import time
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import spy
from _common import add_stack_arguments, django_setup, log, pct, table
from load_bench import PgMonitor, Player, Stack, cpu_delta, cpu_snapshot, database_name, make_players

from games.engines.police_alarm.constants import CELL_CIRCLE, CIRCLE_IDS, DIST_TO, route, step

GAME = "police_alarm"
TIME_LIMIT = 3600
PA_DATA = re.compile(r'<script id="pa-data" type="application/json">(.*?)</script>', re.S)
TARGET = "p50 <= 10 ms, p99 <= 50 ms (arrival -> opponent), too_fast = 0, nothing lost"


@dataclass
class Stats:
    move_arrival: list[float] = field(default_factory=list)  # ms: server receipt -> opponent socket
    move_arrival_at: list[tuple[float, float]] = field(default_factory=list)  # (wall time, ms) of each
    rounds_ended_at: list[float] = field(default_factory=list)  # wall times (seen by the thief's socket)
    roll_arrival: list[float] = field(default_factory=list)
    move_send: list[float] = field(default_factory=list)  # ms: client send -> opponent socket
    answer_rtt: list[float] = field(default_factory=list)  # ms: send -> the sender's answer
    ping_rtt: list[float] = field(default_factory=list)
    sent: Counter[str] = field(default_factory=Counter)
    accepted: Counter[str] = field(default_factory=Counter)
    accepted_in_window: Counter[str] = field(default_factory=Counter)
    rejected: Counter[str] = field(default_factory=Counter)
    unanswered: int = 0
    gaps: int = 0
    closed_by_server: Counter[int] = field(default_factory=Counter)
    matches_finished: int = 0
    matches: list[int] = field(default_factory=list)
    loop_lag: list[float] = field(default_factory=list)
    loop_lag_at: list[tuple[float, float]] = field(default_factory=list)  # (wall time, lag ms)
    client_gc_ms: list[tuple[float, float]] = field(default_factory=list)  # (wall time, pause ms), this process
    lost_sockets: list[str] = field(default_factory=list)
    in_window: bool = False


class Seat:
    """One player's socket: keeps its view and version, answers, and times the opponent's inputs."""

    def __init__(self, table_: Table, player: Player, ws: Any) -> None:
        self.table = table_
        self.player = player
        self.ws = ws
        self.view: dict[str, Any] = {}
        self.version = -1
        self.changed = asyncio.Event()
        self.answers: dict[str, tuple[str, float]] = {}
        self.sent_at: dict[tuple[int, int], float] = {}  # (x, y) target of a move -> when it was sent
        self.closed = False
        self.first = asyncio.get_running_loop().create_future()
        self.reader = asyncio.create_task(self._read())
        self.pinger = asyncio.create_task(self._ping())

    @property
    def stats(self) -> Stats:
        return self.table.stats

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message, separators=(",", ":")))

    async def act(self, action: dict[str, Any]) -> None:
        key = uuid.uuid4().hex[:16]
        self.answers[key] = (str(action["type"]), time.perf_counter())
        self.stats.sent[str(action["type"])] += 1
        await self.send({"type": "act", "action": json.dumps(action, separators=(",", ":")), "fields": {}, "key": key})

    async def _ping(self) -> None:
        with contextlib.suppress(Exception):
            while not self.closed:
                await self.send({"type": "ping", "c": time.time() * 1000})
                await asyncio.sleep(2.0)

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                now, wall = time.perf_counter(), time.time()
                msg = json.loads(raw)
                kind = msg.get("type")
                if kind == "events":
                    self._events(msg, now, wall)
                elif kind == "answer":
                    self._answer(msg, now)
                elif kind == "update" and msg.get("html"):
                    found = PA_DATA.search(msg["html"])
                    if found:
                        self.view = json.loads(found.group(1))["view"]
                        self.version = int(msg["version"])
                        self.changed.set()
                        if not self.first.done():
                            self.first.set_result(True)
                elif kind == "pong" and isinstance(msg.get("c"), int | float) and self.stats.in_window:
                    self.stats.ping_rtt.append(wall * 1000 - msg["c"])
        except Exception:
            pass
        finally:
            self.closed = True
            with contextlib.suppress(Exception):
                code = self.ws.close_code
                if code is not None and not self.table.closing:
                    self.stats.closed_by_server[int(code)] += 1
            if not self.first.done():
                self.first.set_result(False)
            self.changed.set()

    def _events(self, msg: dict[str, Any], now: float, wall: float) -> None:
        if int(msg["after"]) != self.version:
            self.stats.gaps += 1
        self.version = int(msg["version"])
        if "view" in msg:
            self.view = msg["view"]
        origin = float(self.view.get("origin") or 0.0)
        me = self.view.get("role")
        for event in msg["events"]:
            data = event.get("data") or {}
            kind = event.get("type")
            if kind == "car_moved" and me == "thief" and self.stats.in_window:
                self.stats.move_arrival.append((wall - origin) * 1000 - data["t"])
                self.stats.move_arrival_at.append((wall, self.stats.move_arrival[-1]))
                police = self.table.police_seat()
                sent = police.sent_at.pop(tuple(data["to"]), None) if police is not None else None
                if sent is not None:
                    self.stats.move_send.append((now - sent) * 1000)
            elif kind == "round_ended" and me == "thief" and self.stats.in_window:
                self.stats.rounds_ended_at.append(wall)
            elif kind == "dice_rolled" and me == "police" and self.stats.in_window:
                self.stats.roll_arrival.append((wall - origin) * 1000 - data["t"])
            if kind == "car_moved" and me == "police":
                self.view["car"] = data["to"]
        self.changed.set()

    def _answer(self, msg: dict[str, Any], now: float) -> None:
        sent = self.answers.pop(str(msg.get("key")), None)
        if sent is None:
            return
        kind, at = sent
        self.stats.answer_rtt.append((now - at) * 1000)
        if msg.get("status") == 200:
            self.stats.accepted[kind] += 1
            if self.stats.in_window:
                self.stats.accepted_in_window[kind] += 1
            return
        detail = msg.get("detail") or {}
        code = str(detail.get("code") or msg.get("status"))
        self.stats.rejected[f"{kind}: {code}"] += 1
        if code == "bad_move" and isinstance(detail.get("car"), list):
            self.table.car = tuple(detail["car"])

    async def close(self) -> None:
        self.closed = True
        with contextlib.suppress(Exception):
            await self.ws.close()
        for task in (self.reader, self.pinger):
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
        self.stats.unanswered += len(self.answers)


class Table:
    """Two players and their current match; plays police and thief from each seat's view."""

    def __init__(self, bench: Bench, players: tuple[Player, Player]) -> None:
        self.bench = bench
        self.players = players
        self.stats = bench.stats
        self.seats: list[Seat] = []
        self.match_id = 0
        self.closing = False
        self.car: tuple[int, int] = (9, 9)
        self.sirened: set[str] = set()
        self.round: Any = -1
        self.patrol = CIRCLE_IDS[random.randrange(len(CIRCLE_IDS))]  # --police patrol: the next scene

    def police_seat(self) -> Seat | None:
        return next((s for s in self.seats if s.view.get("role") == "police"), None)

    async def run(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            self.match_id = await self.bench.new_match([p.user_id for p in self.players])
            self.stats.matches.append(self.match_id)
            opened = [await self.bench.connect(p, self.match_id, self) for p in self.players]
            self.seats = [s for s in opened if s is not None]
            if len(self.seats) < 2:
                self.stats.rejected["socket did not open"] += 1
                return
            try:
                await asyncio.gather(*(self._play(seat, stop) for seat in self.seats))
                if stop.is_set():
                    await self.bench.settled.wait()  # the database's versions are read with the sockets open
            finally:
                self.closing = True
                await asyncio.gather(*(s.close() for s in self.seats))
                self.closing = False
            if any(s.view.get("phase") == "over" for s in self.seats):
                self.stats.matches_finished += 1

    async def _play(self, seat: Seat, stop: asyncio.Event) -> None:
        sent_for: tuple[Any, ...] = ()
        sent_when = 0.0
        while not stop.is_set() and not seat.closed:
            view = seat.view
            phase, role = view.get("phase"), view.get("role")
            if phase in ("over", "abandoned"):
                return
            if role == "police" and phase == "running":
                await self._drive(seat, stop)
                continue
            wanted = self._thief_or_setup(view, role)
            key = (view.get("round"), phase, view.get("current"), view.get("t"), view.get("at_choice"))
            if wanted is not None and (key != sent_for or time.perf_counter() - sent_when > 1.0):
                action, at_ms = wanted
                delay = float(view.get("origin", 0)) + at_ms / 1000 + 0.003 - time.time()
                if delay > 0:
                    with contextlib.suppress(TimeoutError):
                        seat.changed.clear()
                        await asyncio.wait_for(seat.changed.wait(), delay)
                        continue  # news came first: decide again
                sent_for, sent_when = key, time.perf_counter()
                await seat.act(action)
            seat.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(seat.changed.wait(), 0.5)

    @staticmethod
    def _thief_or_setup(view: dict[str, Any], role: Any) -> tuple[dict[str, Any], float] | None:
        phase = view.get("phase")
        if role == "police" and phase == "setup" and not view.get("ready"):
            return {"type": "ready"}, 0.0
        if role != "thief":
            return None
        if phase == "setup" and not view.get("placed"):
            return {"type": "place_random"}, 0.0
        if phase == "running":
            if view.get("at_choice"):
                return {"type": "draw"}, 0.0
            if int(view.get("current", -1)) >= 0:
                return {"type": "roll"}, float(view.get("roll_at") or 0)
        return None

    async def _drive(self, seat: Seat, stop: asyncio.Event) -> None:
        """Full legal speed: a move every step_ms by the client's clock, without waiting for answers."""
        view = seat.view
        if view.get("round") != self.round:
            self.round, self.sirened = view.get("round"), set()
        self.car = tuple(view["car"])
        step_s = view["step_ms"][view["police"]] / 1000
        last = 0.0
        while not stop.is_set() and not seat.closed and seat.view.get("phase") == "running":
            here = CELL_CIRCLE.get(self.car)
            if self.bench.args.police == "patrol":
                if here == self.patrol:
                    self.patrol = CIRCLE_IDS[(CIRCLE_IDS.index(here) + 1) % len(CIRCLE_IDS)]
                targets = [self.patrol]
            else:
                targets = [c for c in CIRCLE_IDS if c not in seat.view.get("tiles", {}) and c not in self.sirened]
            if not targets:
                break
            if here in targets and self.bench.args.police == "hunt":
                self.sirened.add(here)
                await seat.act({"type": "siren", "circle": here})
                until = time.perf_counter() + 2.0
                while here not in seat.view.get("tiles", {}) and time.perf_counter() < until and not seat.closed:
                    seat.changed.clear()  # wait for the view that shows the tile (maybe an alarm pause)
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(seat.changed.wait(), 0.1)
                continue
            wait = last + step_s - time.perf_counter()
            if wait > 0:
                await asyncio.sleep(wait)
                continue
            target = min(targets, key=lambda c: (DIST_TO[c][self.car], c))
            direction = route(self.car, target)[0]
            move = {"type": "move", "dir": direction, "from": list(self.car)}
            self.car = step(self.car, direction)
            last = time.perf_counter()
            seat.sent_at[self.car] = last
            await seat.act(move)
        seat.changed.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(seat.changed.wait(), 0.5)


class Bench:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.stats = Stats()
        self.db = ThreadPoolExecutor(2)
        self.settled = asyncio.Event()

    async def new_match(self, user_ids: list[int]) -> int:
        return await asyncio.get_running_loop().run_in_executor(self.db, create_started_match, user_ids)

    async def connect(self, player: Player, match_id: int, table_: Table) -> Seat | None:
        from websockets.asyncio.client import connect
        from websockets.typing import Origin

        # As the proxy routes sockets: by the match id in the path (a match's sockets on one daphne,
        # its one sequencer) or, with --route user, each user to its own daphne.
        base = self.args.urls[match_id % len(self.args.urls)] if self.args.route == "match" else player.base
        url = base.replace("http://", "ws://") + f"/ws/match/{match_id}/"
        for attempt in range(5):
            try:
                ws = await connect(
                    url,
                    additional_headers={"Cookie": player.cookie()},
                    origin=Origin(base),
                    compression="deflate",
                    max_size=None,
                    ping_interval=None,
                    open_timeout=30,
                )
            except Exception:
                await asyncio.sleep(0.2 * 2**attempt)
                continue
            seat = Seat(table_, player, ws)
            if await seat.first:
                return seat
            await seat.close()
        return None

    async def lag(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            t = time.perf_counter()
            await asyncio.sleep(0.01)
            if self.stats.in_window:
                self.stats.loop_lag.append((time.perf_counter() - t - 0.01) * 1000)
                self.stats.loop_lag_at.append((time.time(), self.stats.loop_lag[-1]))

    def time_collections(self) -> None:
        """Record this client's garbage-collector pauses: they delay what it measures as much as the server's."""
        started = [0.0]

        def timed(phase: str, info: dict[str, Any]) -> None:
            if phase == "start":
                started[0] = time.perf_counter()
            elif self.stats.in_window:
                self.stats.client_gc_ms.append((time.time(), (time.perf_counter() - started[0]) * 1000))

        gc.callbacks.append(timed)


def create_started_match(user_ids: list[int]) -> int:
    from django.contrib.auth import get_user_model
    from django.db import close_old_connections

    from games.play import services

    close_old_connections()
    users = {u.pk: u for u in get_user_model().objects.filter(pk__in=user_ids)}
    match = services.do_create_match(users[user_ids[0]], GAME, 2, {}, TIME_LIMIT)
    services.do_join_match(match.pk, users[user_ids[1]])
    services.do_start_match(match.pk, users[user_ids[0]])
    return int(match.pk)


async def play(args: argparse.Namespace, players: list[Player]) -> tuple[Stats, float, dict[str, float]]:
    bench = Bench(args)
    stop = asyncio.Event()
    tables = [Table(bench, (players[2 * i], players[2 * i + 1])) for i in range(args.matches)]
    lag = asyncio.create_task(bench.lag(stop))
    bench.time_collections()
    runs = [asyncio.create_task(t.run(stop)) for t in tables]
    await asyncio.sleep(args.warmup)
    log(f"{sum(len(t.seats) for t in tables)} sockets open; measuring for {args.duration:.0f} s")
    monitor = PgMonitor(args.pg_admin, args.dbname) if args.dbname else None
    if monitor:
        monitor.start()
    if args.spy:
        args.spy_out = Path(tempfile.mkdtemp(prefix="hideout-spy-")) / "daphne0.txt"
        args.spy_run = spy.start(args.daphne_pids[0], args.duration, args.spy_out)
    cpu0 = cpu_snapshot(args)
    # This client's own full collections (its heap grows with what it measures) stalled it 60-100 ms
    # near second 52, which showed as server latency: the window runs with the young generations only.
    gc.freeze()
    gc.set_threshold(700, 10, 1_000_000)
    start = time.perf_counter()
    bench.stats.in_window = True
    await asyncio.sleep(args.duration)
    bench.stats.in_window = False
    gc.set_threshold(700, 10, 10)
    gc.unfreeze()
    elapsed = time.perf_counter() - start
    cpu1 = cpu_snapshot(args)
    pg = monitor.stop() if monitor else {}
    stop.set()
    await asyncio.sleep(1.5)  # in-flight inputs are answered and pushed
    versions = await asyncio.get_running_loop().run_in_executor(bench.db, database_versions, tables)
    await asyncio.sleep(0.5)  # what was committed by then has reached the sockets
    bench.stats.lost_sockets = [
        f"match {t.match_id}: a socket at version {s.version}, the database at {versions.get(t.match_id)}"
        for t in tables
        for s in t.seats
        if s.version < versions.get(t.match_id, 0)
    ]
    bench.settled.set()
    await asyncio.gather(*runs, return_exceptions=True)
    lag.cancel()
    bench.db.shutdown()
    return bench.stats, elapsed, {**cpu_delta(cpu0, cpu1, elapsed), **pg}


def database_versions(tables: list[Table]) -> dict[int, int]:
    """Each table's match version in the database: every socket must have reached it (nothing lost)."""
    from django.db import close_old_connections

    from games.models import Match

    close_old_connections()
    return dict(Match.objects.filter(pk__in=[t.match_id for t in tables]).values_list("pk", "version"))


def check_log(match_ids: list[int]) -> list[str]:
    """Every match's events run 1..version with no hole."""
    from django.db.models import Count, Max

    from games.models import Match, MatchEvent

    problems = []
    rows = MatchEvent.objects.filter(match_id__in=match_ids).values("match_id").annotate(n=Count("id"), top=Max("seq"))
    versions = dict(Match.objects.filter(pk__in=match_ids).values_list("pk", "version"))
    for row in rows:
        if row["n"] != row["top"] or row["top"] != versions[row["match_id"]]:
            problems.append(f"match {row['match_id']}: {row['n']} events, top seq {row['top']}")
    return problems


def report(stats: Stats, elapsed: float, cpu: dict[str, float], log_problems: list[str], police: str) -> bool:
    def ms(values: list[float]) -> list[Any]:
        return [len(values), pct(values, 50), pct(values, 90), pct(values, 99), max(values, default=float("nan"))]

    moves = stats.accepted_in_window["move"]
    rolls = stats.accepted_in_window["roll"]
    too_fast = sum(n for k, n in stats.rejected.items() if k.endswith("too_fast"))
    lost = stats.lost_sockets
    print()
    print(
        table(
            ["latency (ms)", "n", "p50", "p90", "p99", "max"],
            [
                ["car move: arrival at server -> opponent socket", *ms(stats.move_arrival)],
                ["roll: arrival at server -> opponent socket", *ms(stats.roll_arrival)],
                ["car move: client send -> opponent socket", *ms(stats.move_send)],
                ["any input: client send -> own answer", *ms(stats.answer_rtt)],
                ["ping round trip", *ms(stats.ping_rtt)],
                ["client event-loop lag", *ms(stats.loop_lag)],
                ["client garbage-collector pause", *ms([ms_ for _, ms_ in stats.client_gc_ms])],
            ],
            title=f"police_alarm live, police {police}, {len(set(stats.matches))} matches, window {elapsed:.1f} s",
        )
    )
    rows: list[list[Any]] = [
        ["accepted car moves / s", moves / elapsed],
        ["accepted rolls / s", rolls / elapsed],
        ["accepted inputs / s (all kinds)", sum(stats.accepted_in_window.values()) / elapsed],
        ["rejected as too_fast", too_fast],
        ["rejected, all reasons", sum(stats.rejected.values())],
        ["inputs never answered", stats.unanswered],
        ["events messages not following the socket's version", stats.gaps],
        ["sockets behind the database at the end", len(lost)],
        ["sockets closed by the server", sum(stats.closed_by_server.values())],
        ["matches finished (replaced by new ones)", stats.matches_finished],
        ["log holes", len(log_problems)],
    ]
    rows += [[k, v] for k, v in cpu.items()]
    print(table(["", "value"], rows))
    if stats.rejected:
        print("rejections:", dict(stats.rejected.most_common()))
    for line in (lost + log_problems)[:10]:
        print("  ", line)
    print_worst_seconds(stats)
    p50, p99 = pct(stats.move_arrival, 50), pct(stats.move_arrival, 99)
    ok = p50 <= 10 and p99 <= 50 and too_fast == 0 and not lost and not log_problems and stats.unanswered == 0
    print(f"target: {TARGET} -> {'met' if ok else 'NOT met'}")
    return ok


def print_worst_seconds(stats: Stats, shown: int = 5) -> None:
    """The seconds of the window with the slowest car moves: is the tail spread out or a burst?"""
    if not stats.move_arrival_at:
        return
    start = min(t for t, _ in stats.move_arrival_at)
    by_second: dict[int, list[float]] = {}
    for wall, latency in stats.move_arrival_at:
        by_second.setdefault(int(wall - start), []).append(latency)
    ended = Counter(int(t - start) for t in stats.rounds_ended_at)
    lag: dict[int, float] = {}
    for wall, ms in stats.loop_lag_at:
        lag[int(wall - start)] = max(lag.get(int(wall - start), 0.0), ms)
    collected: dict[int, float] = {}
    for wall, ms in stats.client_gc_ms:
        collected[int(wall - start)] = collected.get(int(wall - start), 0.0) + ms
    worst = sorted(by_second, key=lambda s: pct(by_second[s], 99), reverse=True)[:shown]
    rows = [
        [
            s,
            len(by_second[s]),
            pct(by_second[s], 50),
            pct(by_second[s], 99),
            ended[s],
            lag.get(s, 0.0),
            collected.get(s, 0.0),
        ]
        for s in sorted(worst)
    ]
    head = [
        "second of the window",
        "car moves",
        "p50 ms",
        "p99 ms",
        "rounds ended",
        "client lag max ms",
        "client GC ms",
    ]
    print(table(head, rows, title="worst seconds"))


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--matches", type=int, default=50, help="concurrent two-player matches (default 50)")
    p.add_argument("--duration", type=float, default=60.0, help="seconds measured (default 60)")
    p.add_argument("--warmup", type=float, default=8.0, help="seconds before measuring (hiding, countdown)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--police",
        choices=["patrol", "hunt"],
        default="patrol",
        help="patrol: drive scene to scene all round, no siren (default); hunt: siren at face-down scenes",
    )
    add_stack_arguments(
        p, "match", "how the proxy spreads sockets: by match id (default: one daphne per match) or by user"
    )
    return p.parse_args()


def main() -> int:
    args = parse_args()
    random.seed(args.seed)
    stack = Stack(args)
    try:
        stack.create_database()
        django_setup()
        args.dbname = database_name()
        stack.migrate()
        from django.db import connections

        stack.start_servers()
        args.daphne_pids, args.celery_pid = list(stack.daphne_pids), stack.celery_pid
        args.urls = list(stack.urls)
        players = make_players(2 * args.matches, stack.urls)
        connections.close_all()
        stats, elapsed, cpu = asyncio.run(play(args, players))
        stack.stop()
        ok = report(stats, elapsed, cpu, check_log(sorted(set(stats.matches))), args.police)
        if args.spy:
            spy.report(args.spy_run, args.spy_out, title="where daphne0's Python time went (py-spy --gil)")
            print(f"raw samples: {args.spy_out}")
    finally:
        stack.stop()
        stack.drop_database()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
