#!/usr/bin/env python
"""The time and the queries of a player's page, "My matches" and a leaderboard for a player with
1,000 finished matches.

Builds (in bulk, not through the write path: this measures the reading pages) ``--matches``
finished two-player matches of one player against a pool of 20 opponents over the five games,
with outcomes drawn at random, plus 50 running matches (half of them waiting on the player);
the ratings are worked out by ``games.ratings.recompute`` as ``recompute_ratings`` does, and the
tables analysed (PostgreSQL plans the bulk-made tables badly without statistics). Then it
GETs each page through Django's whole request stack (the test client, signed in) ``--reps``
times, interleaved, and prints the wall time (p50, p95) and the queries of one request.

    .venv/bin/python bench/player_page.py [--matches 1000] [--reps 30] [--db sqlite|pg]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import TempDatabase, django_setup, make_user, pct, table

GAMES = ("heist", "bridge_race", "dirty_money", "exit_memory", "police_alarm")


def build(matches: int) -> Any:
    from django.db import connection
    from django.utils import timezone

    from games.models import Match, Seat
    from games.ratings.recompute import recompute, store

    rng = random.Random(55)
    me = make_user("me", 0)
    others = [make_user("opponent", n) for n in range(20)]
    start = timezone.now() - timedelta(days=matches)
    rows = []
    for n in range(matches):
        winner = rng.randrange(2)
        rows.append(
            Match(
                game=GAMES[n % len(GAMES)],
                status=Match.Status.FINISHED,
                host=me,
                seat_count=2,
                outcome={
                    "scores": [0, 0],
                    "ranks": [1 + (s != winner) for s in range(2)],
                    "winners": [winner],
                    "reason": "bench",
                },
                started_at=start + timedelta(days=n),
                finished_at=start + timedelta(days=n, hours=1),
            )
        )
    for n in range(50):
        rows.append(Match(game=GAMES[n % len(GAMES)], status=Match.Status.ACTIVE, host=me, seat_count=2))
    made = Match.objects.bulk_create(rows)
    seats = []
    for n, match in enumerate(made):
        mine = n % 2
        waiting = timezone.now() if match.status == Match.Status.ACTIVE and n % 2 else None
        seats.append(Seat(match=match, number=mine, user=me, waiting_since=waiting, waiting_key="x" if waiting else ""))
        seats.append(Seat(match=match, number=1 - mine, user=others[n % len(others)]))
    Seat.objects.bulk_create(seats)
    store(recompute())
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # the statistics autovacuum would gather: bulk rows have none yet
    return me


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--reps", type=int, default=30)
    parser.add_argument("--db", choices=("sqlite", "pg"), default="sqlite")
    args = parser.parse_args()
    database = TempDatabase(args.db)
    try:
        django_setup()
        database.migrate()
        from django.conf import settings
        from django.db import connection
        from django.test import Client
        from django.test.utils import CaptureQueriesContext
        from django.urls import reverse

        from games.models import Rating, RatingChange

        settings.ALLOWED_HOSTS = ["*"]
        built = time.perf_counter()
        me = build(args.matches)
        print(
            f"{database.describe()}: {args.matches} finished matches of one player built and rated in "
            f"{time.perf_counter() - built:.1f} s ({Rating.objects.count()} ratings, "
            f"{RatingChange.objects.count()} rating changes)"
        )
        client = Client()
        client.force_login(me)
        pages = {
            "player's page /u/me0/": reverse("player", args=["me0"]),
            "My matches, first page": reverse("my_matches"),
            "My matches, finished, page 25": reverse("my_matches") + "?state=finished&page=25",
            "My matches, one game, my turn": reverse("my_matches") + "?game=heist&my_turn=on",
            "leaderboard (heist)": reverse("leaderboard", args=["heist"]),
            "for scale: the profile form /profile/": reverse("profile"),
        }
        times: dict[str, list[float]] = {name: [] for name in pages}
        queries: dict[str, int] = {}
        for name, url in pages.items():  # warm: templates compiled, translations loaded
            with CaptureQueriesContext(connection) as captured:
                response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)
            queries[name] = len(captured.captured_queries)
        for _ in range(args.reps):
            for name, url in pages.items():
                began = time.perf_counter()
                client.get(url)
                times[name].append((time.perf_counter() - began) * 1000)
        rows = [(name, queries[name], pct(times[name], 50), pct(times[name], 95)) for name in pages]
        print(
            table(
                ["page (GET, signed in)", "queries", "p50 ms", "p95 ms"],
                rows,
                title=f"{args.reps} requests of each page",
            )
        )
    finally:
        database.close()


if __name__ == "__main__":
    main()
