#!/usr/bin/env python
"""How long a replay takes to show one step of a long finished match (issue 55: at most 50 ms for
any step of a 2,000-event match).

For each game, random legal play (``tests/engines/random_play.py``) makes finished matches until one
has at least ``--events`` events (or the longest of ``--tries`` seeds), stored as the site stores a
match (``play.archive.import_match``) in a throwaway SQLite database. It then asks for the replay
through Django's test client, signed in as a player, as HTMX does when a key is pressed (the body
of the page alone) and as a shared link opens it (the whole page): the first request builds the
match's timeline (every event read and replayed once, a state kept every ``KEEP_EVERY`` events),
each later one is a step at random, from a random viewpoint (everything revealed or a seat). It
prints the wall time of each request and its CPU time in this thread (on a loaded machine the
wall time adds the waits for a core), with the load average. "no index": the first replay of the
match ever (the whole log replayed, its index stored); "cold": the whole page of a step at random in a
process that never opened the match (the stored index, stored states, blocks of events); then warm
steps.

    .venv/bin/python bench/replay_step.py [--events 2000] [--steps 200]
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import ROOT, TempDatabase, django_setup, pct, table

PLAYERS = {"heist": 8, "bridge_race": 5, "dirty_money": 5, "exit_memory": 5, "police_alarm": 2}


def long_log(game: str, events: int, tries: int) -> tuple[int, dict[str, Any], list[Any]]:
    """(players, options, log) of the first random game with ``events`` events, else the longest."""
    from games.engines.registry import get_rules
    from tests.engines.random_play import option_sets, play

    rules = get_rules(game)
    best: tuple[int, dict[str, Any], list[Any]] = (0, {}, [])
    for seed in range(tries):
        options = option_sets(rules)[seed % len(option_sets(rules))]
        players = PLAYERS[game]
        _initial, final, log = play(rules, players, options, seed)
        if rules.outcome(final) is not None and len(log) > len(best[2]):
            best = (players, options, log)
        if len(best[2]) >= events:
            break
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=2000)
    parser.add_argument("--steps", type=int, default=200, help="random steps asked for per game and kind")
    parser.add_argument("--cold", type=int, default=30, help="steps asked for as a fresh process would")
    parser.add_argument("--tries", type=int, default=12, help="random games tried per game for a long one")
    parser.add_argument("--game", choices=sorted(PLAYERS), action="append", help="only these games")
    parser.add_argument("--profile", action="store_true", help="print where the HTMX steps' time goes")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    db = TempDatabase("sqlite")
    try:
        django_setup()
        db.migrate()
        from django.conf import settings
        from django.contrib.auth import get_user_model
        from django.test import Client

        from games.play.archive import import_match
        from games.replay import timeline
        from games.runtime import gc_tuning
        from games.web.replay import replay_url
        from tests.engines.random_play import stored_document

        gc_tuning.tune(settings.HIDEOUT_GC_TUNING)  # as config/asgi.py tunes a daphne once loaded
        settings.ALLOWED_HOSTS = ["*"]
        rows = []
        rng = random.Random(1)
        for game in args.game or sorted(PLAYERS):
            players, options, log = long_log(game, args.events, args.tries)
            users = [get_user_model().objects.create_user(f"{game}{n}", password="x") for n in range(players)]
            match = import_match(stored_document(game, players, options, log, f"bench-{game}"), users)
            client = Client()
            client.force_login(users[0])
            viewpoints = ["all", *(str(n + 1) for n in range(players))]
            timeline.forget()
            started = time.perf_counter()
            assert client.get(replay_url(match.pk, 1, "all"), headers={"HX-Request": "true"}).status_code == 200
            unindexed = (time.perf_counter() - started) * 1000  # replays the whole log, stores the index
            cold_times = []
            for _ in range(args.cold):  # as a process that never opened it: the stored index, a state
                timeline.forget()
                url = replay_url(match.pk, rng.randint(1, len(log)), rng.choice(viewpoints))
                started = time.perf_counter()
                assert client.get(url).status_code == 200  # the whole page, as a shared link opens it
                cold_times.append((time.perf_counter() - started) * 1000)
            cold = [pct(cold_times, 50), pct(cold_times, 95), max(cold_times)]
            for kind, headers in (("HTMX step", {"HX-Request": "true"}), ("whole page", {})):
                times, cpu = [], []
                profiler = cProfile.Profile() if args.profile and kind == "HTMX step" else None
                if profiler is not None:
                    profiler.enable()
                for _ in range(args.steps):
                    url = replay_url(match.pk, rng.randint(1, len(log)), rng.choice(viewpoints))
                    started, started_cpu = time.perf_counter(), time.thread_time()
                    response = client.get(url, headers=headers)
                    times.append((time.perf_counter() - started) * 1000)
                    cpu.append((time.thread_time() - started_cpu) * 1000)
                    assert response.status_code == 200, response.status_code
                if profiler is not None:
                    profiler.disable()
                    pstats.Stats(profiler).sort_stats("cumulative").print_stats(45)
                rows.append(
                    [
                        game,
                        kind,
                        len(log),
                        unindexed,
                        *cold,
                        pct(times, 50),
                        pct(times, 95),
                        max(times),
                        pct(cpu, 50),
                        max(cpu),
                    ]
                )
        print(
            table(
                [
                    "game",
                    "request",
                    "events",
                    "no index ms",
                    "cold p50",
                    "cold p95",
                    "cold max",
                    "p50 ms",
                    "p95 ms",
                    "max ms",
                    "CPU p50",
                    "CPU max",
                ],
                rows,
                title=f"Replay: one step of a long finished match, {args.steps} random steps each (SQLite)",
            )
        )
        # The CPU time is what the step costs this process; the wall time adds the waits for a core.
        load = " ".join(f"{n:.1f}" for n in os.getloadavg())
        print(f"load average while measured: {load} on {os.cpu_count()} cores")
    finally:
        db.close()


if __name__ == "__main__":
    main()
