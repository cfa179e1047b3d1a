#!/usr/bin/env python
"""Engine costs for every registered game (``games.engines.registry.GAMES``).

For each game that imports (``registry.available()``), seeded random bot playouts to the end:

* decide + evolve per action (``parse_action`` + ``decide`` + folding ``evolve`` over its events), in µs;
  the bot's own choice (``bot_action``) is timed apart and not included;
* full-game replay: a fold of ``evolve`` over a finished game's whole log, from ``initial``;
* the board partial a seat sees: ``render_to_string("games/match.html#board", match_context(...))``
  for a mid-game match stored in a temporary SQLite database (Django set up), plus the context build
  and the partials a WebSocket push renders (board, log, chat).

Targets (issue, bridge_race): action <= 1 ms p50, 5-player race replay <= 100 ms, board partial <= 15 ms.
A game whose engine does not import, or whose board template is missing, is reported as skipped.

    .venv/bin/python bench/engine_bench.py [--games 20] [--budget 40] [--render-reps 50]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
import traceback
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import TempDatabase, django_setup, make_user, pct, table

DEFAULT_PLAYERS = {"heist": 4, "bridge_race": 5}
TARGETS = {
    "bridge_race": {"action_p50_us": 1000.0, "replay_ms": 100.0, "board_ms": 15.0},
    "dirty_money": {"action_p50_us": 1000.0, "replay_ms": 100.0, "board_ms": 10.0},  # issue 11
    "exit_memory": {"action_p50_us": 1000.0, "replay_ms": 100.0, "board_ms": 10.0},  # issue 12
    "police_alarm": {"action_p50_us": 1000.0, "replay_ms": 100.0, "board_ms": 10.0},  # issue 13
}
RESOLUTION_TARGET_MS = 5.0  # issue 12: the action that ends a 5-player exit_memory round
TIME_LIMIT = 3600
MAX_ACTIONS = 20000


def waiting(rules: Any, state: Any, system: int) -> set[int]:
    """Same rule as games.play.services.waiting_seats: the seats of pending deadlines, else the actors."""
    deadlines = rules.deadlines(state)
    seats = {s for d in deadlines for s in d.seats} if deadlines else set(rules.actors(state))
    seats.discard(system)
    return seats


def next_live_move(rules: Any, state: Any, actors: Any, seed: int, version: int) -> tuple[float, int, Any] | None:
    """The earliest of the bots' planned actions and the game's timers: (epoch second, seat, action)."""
    from games.engines.base import SYSTEM

    options = [(d.due, SYSTEM, d.action) for d in rules.deadlines(state)]
    for seat in sorted(set(actors) - {SYSTEM}):
        plan = rules.bot_plan(state, seat, random.Random(f"{seed}:{version}:{seat}"))
        if plan is not None:
            options.append((plan[1], seat, plan[0]))
    return min(options, key=lambda option: (option[0], option[1])) if options else None


def playout(rules: Any, players: int, seed: int) -> dict[str, Any]:
    from games.engines.base import SYSTEM, DecideContext, replay, rng_for

    rng = random.Random(seed)
    state = rules.initial(players, {"time_limit": TIME_LIMIT})
    version = 0
    log: list[tuple[int, Any]] = []  # (actor, event)
    states: list[tuple[int, Any]] = [(0, state)]
    act_times: list[float] = []
    bot_times: list[float] = []
    slowest: list[Any] = [0.0, ""]
    now = time.time()
    secret = f"bench-{seed}"
    for _ in range(MAX_ACTIONS):
        if rules.outcome(state) is not None:
            break
        actors = rules.actors(state)
        live = getattr(rules, "live", False) and SYSTEM not in actors
        if not actors and not live:
            break
        if live:  # a live game's bots act at their planned times; its timers fire when due
            planned = next_live_move(rules, state, actors, seed, version)
            if planned is None:
                break
            at, seat, payload = planned
            now = max(now, at)
        elif SYSTEM in actors:
            seat = SYSTEM
            payload = rules.legal_actions(state, SYSTEM)[0]
        else:
            choices = sorted((waiting(rules, state, SYSTEM) & set(actors)) or actors)
            seat = rng.choice(choices)
            t0 = time.perf_counter()
            payload = rules.bot_action(state, seat, random.Random(f"{seed}:{version}:{seat}"))
            bot_times.append(time.perf_counter() - t0)
        ctx = DecideContext(rng=rng_for(secret, version), now=now if live else now + version * 0.01)
        t0 = time.perf_counter()
        action = rules.parse_action(payload)
        events = rules.decide(state, seat, action, ctx)
        state = replay(rules, state, events)
        act_times.append(time.perf_counter() - t0)
        if act_times[-1] > slowest[0]:
            slowest[:] = [act_times[-1], f"{payload.get('type')} by seat {seat} at v{version} ({len(events)} events)"]
        version += len(events)
        log.extend((seat, e) for e in events)
        states.append((version, state))
    return {
        "finished": rules.outcome(state) is not None,
        "events": log,
        "act_times": act_times,
        "bot_times": bot_times,
        "states": states,
        "players": players,
        "slowest": slowest,
    }


def time_replay(rules: Any, game: dict[str, Any], repeat: int = 3) -> float:
    from games.engines.base import replay

    events = [e for _, e in game["events"]]
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        replay(rules, rules.initial(game["players"], {"time_limit": TIME_LIMIT}), events)
        best = min(best, time.perf_counter() - t0)
    return best


def store_match(slug: str, game: dict[str, Any], upto: int) -> tuple[Any, list[Any]]:
    """A match in the database holding the first ``upto`` events of a playout."""
    from django.utils import timezone

    from games.models import Match, MatchEvent, Seat

    prefix = f"eb{os.getpid()}{slug[:3]}{int(time.time() * 1000) % 10**7}u"
    users = [make_user(prefix, i) for i in range(game["players"])]
    match = Match.objects.create(
        game=slug,
        host=users[0],
        seat_count=game["players"],
        options={},
        time_limit=TIME_LIMIT,
        status=Match.Status.ACTIVE,
        version=upto,
        started_at=timezone.now(),
    )
    Seat.objects.bulk_create(Seat(match=match, number=i, user=u) for i, u in enumerate(users))
    MatchEvent.objects.bulk_create(
        MatchEvent(
            match=match,
            seq=n,
            actor=actor,
            type=e.type,
            data=e.data,
            secret=e.secret,
            visible_to=list(e.visible_to),
        )
        for n, (actor, e) in enumerate(game["events"][:upto], start=1)
    )
    return match, users


PUSH_PARTS = ("board", "log", "chat")  # what a WebSocket push renders (games/sockets/turn_consumer.py)


def existing_partials(names: tuple[str, ...]) -> list[str]:
    from django.template import TemplateDoesNotExist
    from django.template.loader import get_template

    found = []
    for name in names:
        try:
            get_template(f"games/match.html#{name}")
        except TemplateDoesNotExist:
            continue
        found.append(name)
    return found


def time_render(slug: str, game: dict[str, Any], reps: int) -> dict[str, Any]:
    from django.template.loader import render_to_string

    from games.models import Match
    from games.play import store
    from games.push.presenter import match_context

    # A mid-game position: the state after the action closest to half of the log.
    half = len(game["events"]) // 2
    upto = min((v for v, _ in game["states"] if v >= half), default=len(game["events"]))
    match, users = store_match(slug, game, upto)
    seat = 0
    push_parts = existing_partials(PUSH_PARTS)
    out: dict[str, Any] = {"version": upto, "ctx": [], "board": [], "push": [], "push_parts": push_parts}
    store.forget_all()
    match = Match.objects.get(pk=match.pk)
    context = match_context(match, users[seat])
    html = render_to_string("games/match.html#board", context)  # raises if the game has no board template
    out["html_kb"] = len(html.encode()) / 1024
    out["push_kb"] = sum(len(render_to_string(f"games/match.html#{p}", context).encode()) for p in push_parts) / 1024
    for _ in range(reps):
        t0 = time.perf_counter()
        m = Match.objects.get(pk=match.pk)
        context = match_context(m, users[seat])
        t1 = time.perf_counter()
        render_to_string("games/match.html#board", context)
        t2 = time.perf_counter()
        for part in push_parts:
            render_to_string(f"games/match.html#{part}", context)
        t3 = time.perf_counter()
        out["ctx"].append(t1 - t0)
        out["board"].append(t2 - t1)
        out["push"].append(t3 - t2)
    return out


def exit_memory_resolutions(games: int, seed: int) -> list[float]:
    """Seconds of decide+evolve for each action that ends a 5-player exit_memory round: the walk,
    the scoring, and the next round's deal when it follows at once."""
    from games.engines.base import SYSTEM, DecideContext
    from games.engines.exit_memory import RULES

    times: list[float] = []
    for i in range(games):
        rng = random.Random(seed * 1000 + i)
        state = RULES.initial(5, {"danger": bool(i % 2)})
        now = 0.0
        while RULES.actors(state):
            actors = sorted(RULES.actors(state))
            seat = actors[0]
            action = {"type": "start"} if seat == SYSTEM else RULES.bot_action(state, seat, rng)
            now += 1.0
            t0 = time.perf_counter()
            events = RULES.decide(state, seat, action, DecideContext(rng, now))
            for event in events:
                state = RULES.evolve(state, event)
            elapsed = time.perf_counter() - t0
            if any(e.type == "resolved" for e in events):
                times.append(elapsed)
    return times


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=20, help="playouts per game (default 20)")
    p.add_argument("--budget", type=float, default=40.0, help="seconds of playouts per game at most")
    p.add_argument("--render-reps", type=int, default=50)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--players", action="append", default=[], help="slug=n, e.g. heist=6 (repeatable)")
    args = p.parse_args()
    players = dict(DEFAULT_PLAYERS)
    for item in args.players:
        slug, _, n = item.partition("=")
        players[slug] = int(n)

    db = TempDatabase("sqlite")
    try:
        django_setup()
        db.migrate()
        from games.engines.registry import GAMES, get_rules

        rows_act, rows_replay, rows_render, verdicts, skipped = [], [], [], [], []
        slow_lines: list[str] = []
        for slug in GAMES:
            try:
                rules = get_rules(slug)
            except Exception as exc:
                skipped.append(f"{slug}: skipped, engine not importable ({type(exc).__name__}: {exc})")
                continue
            n = players.get(slug, rules.max_players)
            t_start = time.monotonic()
            games: list[dict[str, Any]] = []
            try:
                for i in range(args.games):
                    if games and time.monotonic() - t_start > args.budget:
                        break
                    games.append(playout(rules, n, args.seed * 1000 + i))
            except Exception as exc:
                skipped.append(f"{slug}: skipped, playout failed: {type(exc).__name__}: {exc}")
                traceback.print_exc()
                continue
            acts = [t * 1e6 for g in games for t in g["act_times"]]
            worst = max((g["slowest"] for g in games), key=lambda w: w[0])
            slow_lines.append(f"{slug}: slowest action {worst[0] * 1000:,.1f} ms: {worst[1]}")
            bots = [t * 1e6 for g in games for t in g["bot_times"]]
            finished = [g for g in games if g["finished"]]
            rows_act.append(
                [
                    f"{slug} ({n} players)",
                    len(games),
                    len(finished),
                    len(acts),
                    pct(acts, 50),
                    pct(acts, 95),
                    max(acts, default=float("nan")),
                    pct(bots, 50),
                    pct(bots, 95),
                ]
            )
            replays = [time_replay(rules, g) * 1000 for g in finished]
            lengths = [len(g["events"]) for g in finished]
            rows_replay.append(
                [
                    f"{slug} ({n} players)",
                    len(finished),
                    pct(lengths, 50),
                    max(lengths, default=0),
                    pct(replays, 50),
                    pct(replays, 95),
                    max(replays, default=float("nan")),
                ]
            )
            render: dict[str, Any] | None = None
            try:
                render = time_render(slug, games[0], args.render_reps)
                rows_render.append(
                    [
                        f"{slug} (seat 0, v{render['version']})",
                        len(render["board"]),
                        pct(render["ctx"], 50) * 1000,
                        pct(render["board"], 50) * 1000,
                        pct(render["board"], 95) * 1000,
                        pct(render["push"], 50) * 1000,
                        render["html_kb"],
                        render["push_kb"],
                    ]
                )
            except Exception as exc:
                name = type(exc).__name__
                reason = f"{name}: {exc}" if name != "TemplateDoesNotExist" else f"template {exc} does not exist"
                skipped.append(f"{slug}: board partial skipped ({reason})")
            target = TARGETS.get(slug)
            if target:
                checks = [
                    ("action p50", pct(acts, 50), target["action_p50_us"], "µs"),
                    ("replay max", max(replays, default=float("nan")), target["replay_ms"], "ms"),
                ]
                if render is not None:
                    checks.append(("board partial p50", pct(render["board"], 50) * 1000, target["board_ms"], "ms"))
                for name, value, limit, unit in checks:
                    state = "MET" if value <= limit else "MISSED"
                    verdicts.append(f"  {slug} {name}: {value:,.2f} {unit} (target <= {limit:,.0f} {unit}) {state}")

        if "exit_memory" in GAMES:
            resolutions = [t * 1000 for t in exit_memory_resolutions(args.games, args.seed)]
            worst = pct(resolutions, 50)
            state = "MET" if worst <= RESOLUTION_TARGET_MS else "MISSED"
            verdicts.append(
                f"  exit_memory 5-player round resolution p50: {worst:,.3f} ms "
                f"(p95 {pct(resolutions, 95):,.3f}, max {max(resolutions):,.3f}, {len(resolutions)} rounds; "
                f"target <= {RESOLUTION_TARGET_MS:,.0f} ms) {state}"
            )

        print()
        print(
            table(
                [
                    "decide+evolve per action",
                    "games",
                    "finished",
                    "actions",
                    "p50 µs",
                    "p95 µs",
                    "max µs",
                    "bot p50 µs",
                    "bot p95 µs",
                ],
                rows_act,
            )
        )
        print(
            table(["full-game replay", "games", "events p50", "events max", "p50 ms", "p95 ms", "max ms"], rows_replay)
        )
        if rows_render:
            print(
                table(
                    [
                        "board partial",
                        "reps",
                        "context p50 ms",
                        "#board p50 ms",
                        "#board p95 ms",
                        "push partials p50 ms",
                        "#board KB",
                        "push KB",
                    ],
                    rows_render,
                )
            )
        if rows_render:
            print(
                "  context = Match fetch + presenter.match_context (cache warm); push partials = "
                + "+".join(PUSH_PARTS)
                + " rendered again from the same context, as a socket push does"
            )
        for line in slow_lines + skipped:
            print("  " + line)
        for line in verdicts:
            print(line)
        return 0
    finally:
        db.close()


if __name__ == "__main__":
    sys.exit(main())
