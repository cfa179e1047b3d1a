#!/usr/bin/env python
"""The cost of loading a match against the length of its event log.

Builds matches of about 20, 200 and 2,000 events through ``games.play.services`` (the one write path),
then times, many times over and interleaved so machine noise hits every size alike:

* ``load_state`` cold: the state cache cleared, the match row fetched (its snapshot JSON decoded)
  and ``games.play.store.load_state`` run (snapshot + the events after it);
* ``match_context`` cold and warm: the full page context of one seat (``games.push.presenter``), with the
  state cache cleared, and with it primed.

Games:

* heist — 4 humans; after the planning choices one player makes and cancels offers in negotiation
  until the log is long enough (no chat). A closed offer (accepted, declined, cancelled, failed or
  expired) leaves the heist state at once, only a counter for the next offer id stays, so the state
  (and its snapshot) stays small however long the log; the offer history is in the log only.
* bridge_race — 5 bots playing a race through services (sizes capped by the length of a race,
  about 500 events), a log whose state does not keep every past action.

Target: load cost at 2,000 events <= 2x the cost at 20 events.

Runs on a temporary SQLite file by default; ``--db pg`` makes a throwaway PostgreSQL database;
``--db env`` uses DATABASE_URL as set (it must point at a database you may write to).

    .venv/bin/python bench/load_cost.py [--reps 200] [--db sqlite|pg|env] [--game heist|bridge_race|both]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import TempDatabase, django_setup, pct, start_match, table

SIZES = (20, 200, 2000)


def _build(game: str, players: int, target: int, prefix: str, move: Callable[[Any, Any, random.Random], Any]) -> Any:
    """A ``game`` match played through the services to version ``target`` (or its end, or a state
    nobody may act in), ``move(rules, state, rng)`` choosing each (seat, action); (match id, seat 0's user)."""
    from games.engines.registry import get_rules
    from games.models import Match
    from games.play import services
    from games.play.store import load_state

    rules = get_rules(game)
    match, _users = start_match(game, players, prefix)
    rng = random.Random(target)
    while True:
        match = Match.objects.get(pk=match.pk)
        if match.version >= target or match.status != Match.Status.ACTIVE:
            break
        chosen = move(rules, load_state(match), rng)
        if chosen is None:
            break
        seat, action = chosen
        services.do_submit_action(match.pk, seat, action, expected_version=match.version)
    by_seat = {s.number: s.user for s in match.seats.select_related("user")}
    return match.pk, by_seat[0]


def _heist_move(rules: Any, state: Any, rng: random.Random) -> tuple[int, Any]:
    if state.phase == "planning":
        seat = next(s for s in range(4) if rules.legal_actions(state, s))
        return seat, rules.bot_action(state, seat, rng)
    # Negotiation: the first seat that can make offers offers 1M to another, then cancels it.
    seat = next(s for s in range(4) if any(a["type"] == "offer" for a in rules.legal_actions(state, s)))
    legal = rules.legal_actions(state, seat)
    cancel = [a for a in legal if a["type"] == "cancel"]
    if cancel:
        return seat, cancel[0]
    return seat, next(a for a in legal if a["type"] == "offer" and a.get("clause_slot") is None)


def _bot_move(rules: Any, state: Any, rng: random.Random) -> tuple[int, Any] | None:
    """The lowest acting seat's bot move (the server's own first legal step for SYSTEM); None: nobody acts."""
    from games.engines.base import SYSTEM

    actors = sorted(rules.actors(state))
    if not actors:
        return None
    seat = actors[0]
    return seat, rules.legal_actions(state, SYSTEM)[0] if seat == SYSTEM else rules.bot_action(state, seat, rng)


def build_heist(target: int, prefix: str) -> tuple[int, Any]:
    return _build("heist", 4, target, prefix, _heist_move)


def build_bridge_race(target: int, prefix: str) -> tuple[int, Any]:
    """A race of one human (seat 0's viewer) and 4 bots; the human's moves are made by the bot too."""
    return _build("bridge_race", 5, target, prefix, _bot_move)


def fast_writes(on: bool) -> None:
    """SQLite only: no fsync per commit while the matches are built (setup, not measured)."""
    from django.db import connection

    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute(f"PRAGMA synchronous={'OFF' if on else 'FULL'}")


def measure(builds: list[tuple[int, int, Any]], reps: int, budget: float) -> dict[int, dict[str, list[float]]]:
    from games.models import Match
    from games.play import store
    from games.push.presenter import match_context

    out: dict[int, dict[str, list[float]]] = {
        size: {"load": [], "ctx_cold": [], "ctx_warm": []} for size, _, _ in builds
    }
    deadline = time.monotonic() + budget
    for _rep in range(reps):
        if time.monotonic() > deadline:
            break
        for size, match_id, user in builds:
            store.forget_all()
            t0 = time.perf_counter()
            match = Match.objects.get(pk=match_id)
            store.load_state(match)
            out[size]["load"].append(time.perf_counter() - t0)

            store.forget_all()
            t0 = time.perf_counter()
            match = Match.objects.get(pk=match_id)
            match_context(match, user)
            out[size]["ctx_cold"].append(time.perf_counter() - t0)

            t0 = time.perf_counter()
            match = Match.objects.get(pk=match_id)
            match_context(match, user)
            out[size]["ctx_warm"].append(time.perf_counter() - t0)
    return out


def report(game: str, builds: list[tuple[int, int, Any]], results: dict[int, dict[str, list[float]]]) -> bool:
    from games.models import Match

    rows = []
    ms = 1000.0
    for size, match_id, _user in builds:
        match = Match.objects.get(pk=match_id)
        r = results[size]
        snap_kb = len(json.dumps(match.snapshot)) / 1024 if match.snapshot else 0.0
        rows.append(
            [
                f"~{size}",
                match.version,
                match.version - match.snapshot_version if match.snapshot else match.version,
                snap_kb,
                len(r["load"]),
                pct(r["load"], 50) * ms,
                pct(r["load"], 95) * ms,
                pct(r["ctx_cold"], 50) * ms,
                pct(r["ctx_cold"], 95) * ms,
                pct(r["ctx_warm"], 50) * ms,
                pct(r["ctx_warm"], 95) * ms,
            ]
        )
    small, big = results[builds[0][0]], results[builds[-1][0]]
    versions = [Match.objects.get(pk=m).version for _, m, _ in builds]

    def ratio(key: str) -> float:
        return pct(big[key], 50) / pct(small[key], 50)

    rows.append(
        [
            f"ratio {versions[-1]}/{versions[0]} events (p50)",
            "",
            "",
            "",
            "",
            ratio("load"),
            "",
            ratio("ctx_cold"),
            "",
            ratio("ctx_warm"),
            "",
        ]
    )
    print()
    print(
        table(
            [
                f"{game}: events",
                "version",
                "replayed",
                "snapshot KB",
                "reps",
                "load p50 ms",
                "load p95 ms",
                "ctx cold p50",
                "ctx cold p95",
                "ctx warm p50",
                "ctx warm p95",
            ],
            rows,
        )
    )
    ok = ratio("load") <= 2.0
    print(
        f"  target: load_state at {versions[-1]} events <= 2x at {versions[0]}: "
        f"{'MET' if ok else 'MISSED'} ({ratio('load'):.2f}x); full context cold {ratio('ctx_cold'):.2f}x"
    )
    print("  replayed = events after the snapshot that load_state folds; ctx = presenter.match_context (one seat)")
    return ok


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument(
        "--db", choices=["sqlite", "pg", "env"], default="env" if os.environ.get("DATABASE_URL") else "sqlite"
    )
    p.add_argument("--pg-admin", default=os.environ.get("BENCH_PG_ADMIN", "postgresql://root@127.0.0.1:5432/postgres"))
    p.add_argument("--game", choices=["heist", "bridge_race", "both"], default="both")
    p.add_argument("--reps", type=int, default=200, help="repetitions per size (default 200)")
    p.add_argument("--budget", type=float, default=60.0, help="seconds of timing per game at most")
    args = p.parse_args()

    db = TempDatabase(args.db, args.pg_admin)
    try:
        django_setup()
        db.migrate()
        from django.conf import settings

        from games.engines.registry import available

        print(f"database: {db.describe()} ({settings.DATABASES['default']['ENGINE'].rsplit('.', 1)[-1]})")
        games = ["heist", "bridge_race"] if args.game == "both" else [args.game]
        ok = True
        for game in games:
            if game not in available():
                print(f"\n{game}: skipped (engine not importable)")
                continue
            builder = build_heist if game == "heist" else build_bridge_race
            builds = []
            fast_writes(True)
            for size in SIZES:
                t = time.perf_counter()
                prefix = f"lc{os.getpid()}{game[:2]}{size}u"
                match_id, user = builder(size, prefix)
                builds.append((size, match_id, user))
                print(f"  built {game} match with ~{size} events in {time.perf_counter() - t:.1f} s", flush=True)
            fast_writes(False)
            from games.models import Match

            versions = dict(Match.objects.filter(pk__in=[m for _, m, _ in builds]).values_list("pk", "version"))
            if game == "bridge_race" and versions[builds[-1][1]] < SIZES[-1]:
                print(f"  (a whole race has {versions[builds[-1][1]]} events: the largest size is one full race)")
            results = measure(builds, args.reps, args.budget)
            ok = report(game, builds, results) and ok
            if args.db == "env":
                Match.objects.filter(pk__in=[m for _, m, _ in builds]).delete()
        return 0 if ok else 1
    finally:
        db.close()


if __name__ == "__main__":
    sys.exit(main())
