#!/usr/bin/env python
"""Server CPU per move, in one process: the HTMX POST through the whole Django stack, and the
WebSocket pushes it causes, without sockets or a second process.

4-seat heist matches are played by their bots (the move is chosen before the clock starts). Per
accepted move it times:

* ``POST``: ``django.test.Client`` posting ``/m/<id>/action/`` as the seat's user (sessions,
  middleware, the write path, the HTMX answer and anything the write path does after commit);
* ``push``: the work a consumer does when that move's message reaches it, for every seat's socket
  (what one move costs the servers in total is ``POST + push``).

It also splits the POST's CPU time by stage (each stage's own time, nested stages taken out), to
show where a move's cost lies: Django's request handling around the view, the write path's
transaction, the publishing around the rendering, and the rendering of every seat's partials.

``--profile`` prints the functions that cost most (cProfile) instead of timing.

    .venv/bin/python bench/move_cost.py [--moves 600] [--db sqlite|pg] [--profile]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import pstats
import random
import sys
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import TempDatabase, django_setup, pct, start_match, table


class Table:
    """One match, its four users' logged-in clients and a fake socket per seat."""

    def __init__(self, index: int) -> None:
        from django.test import Client


        match, self.users = start_match("heist", 4, f"mc{index}_")
        self.match_id = match.pk
        self.clients: dict[int, Any] = {}
        for seat in match.seats.all():
            client = Client()
            client.force_login(seat.user)
            self.clients[seat.number] = client
        self.sockets = {number: FakeSocket(self.match_id, client) for number, client in self.clients.items()}
        match.seats.update(open_sockets=1)  # as a real consumer counts itself in when it connects

    def next_move(self, rng: random.Random) -> tuple[int, dict[str, Any], int] | None:
        from games.models import Match
        from games.services import waiting_seats
        from games.store import load_state, rules_for

        match = Match.objects.get(pk=self.match_id)
        if match.status != Match.Status.ACTIVE:
            return None
        rules = rules_for(match)
        state = load_state(match)
        seats = sorted(waiting_seats(rules, state) & rules.actors(state))
        if not seats:
            return None
        seat = rng.choice(seats)
        return seat, rules.bot_action(state, seat, rng), match.version


class FakeSocket:
    """A consumer without a socket: what it receives is handed to it directly."""

    def __init__(self, match_id: int, client: Any) -> None:
        from games.consumers import MatchConsumer

        self.consumer = MatchConsumer()
        self.consumer.match_id = match_id
        self.consumer.scope = {"user": client_user(client)}  # type: ignore[typeddict-item]  # only the user is read
        self.consumer.seat = None
        self.consumer.sent_revision = -1
        self.consumer.sent_chat = -1
        self.consumer.channel_name = "fake"
        self.sent: list[Any] = []
        self.groups: set[str] = set()
        groups = self.groups

        class Layer:
            async def group_add(self, group: str, channel: str) -> None:
                groups.add(group)

            async def group_discard(self, group: str, channel: str) -> None:
                groups.discard(group)

        self.consumer.channel_layer = Layer()  # type: ignore[assignment]  # only the group calls are made

        async def send_json(payload: Any, close: bool = False) -> None:
            self.sent.append(payload)

        self.consumer.send_json = send_json  # type: ignore[method-assign, assignment]  # a bound replacement


def client_user(client: Any) -> Any:
    from django.contrib.auth import get_user_model

    session = client.session
    return get_user_model().objects.select_related("profile").get(pk=session["_auth_user_id"])


def play(
    tables: list[Table], moves: int, rng: random.Random, messages: list[tuple[str, dict[str, Any]]]
) -> dict[str, list[float]]:
    from games.models import Match

    out: dict[str, list[float]] = {"post": [], "cpu": [], "push": [], "bytes": []}
    loop = asyncio.new_event_loop()
    done = 0
    while done < moves:
        live = [t for t in tables if (move := t.next_move(rng)) is not None]
        if not live:
            break
        for table_ in live:
            move = table_.next_move(rng)
            if move is None:
                continue
            seat, action, version = move
            messages.clear()
            c0 = time.process_time()
            t0 = time.perf_counter()
            status = post(
                table_.clients[seat],
                f"/m/{table_.match_id}/action/",
                {"action": json.dumps(action), "version": str(version), "key": uuid.uuid4().hex},
            )
            t1 = time.perf_counter()
            c1 = time.process_time()
            if status != 200:
                continue
            revision = Match.objects.values_list("revision", flat=True).get(pk=table_.match_id)
            t2 = time.perf_counter()
            for socket in table_.sockets.values():
                deliver(loop, socket, messages, revision)
            t3 = time.perf_counter()
            out["post"].append(t1 - t0)
            out["push"].append(t3 - t2)
            out["cpu"].append(c1 - c0)
            out["bytes"].append(sum(len(json.dumps(p)) for s in table_.sockets.values() for p in s.sent))
            for socket in table_.sockets.values():
                socket.sent.clear()
            done += 1
    loop.close()
    return out


_handler: Any = None


def post(client: Any, path: str, data: dict[str, str]) -> int:
    """An HTMX POST straight into Django's WSGI handler (the test client would copy every
    template context it renders, which costs more than the rendering)."""
    global _handler
    from django.core.handlers.wsgi import WSGIHandler
    from django.middleware.csrf import _get_new_csrf_string
    from django.test import RequestFactory

    if _handler is None:
        _handler = WSGIHandler()
    token = _get_new_csrf_string()
    cookies = f"sessionid={client.cookies['sessionid'].value}; csrftoken={token}"
    environ = RequestFactory().post(path, data, HTTP_HX_REQUEST="true", HTTP_COOKIE=cookies,
                                    HTTP_X_CSRFTOKEN=token).environ
    statuses: list[str] = []
    body = _handler(environ, lambda status, headers, exc_info=None: statuses.append(status))
    b"".join(body)
    return int(statuses[0].split()[0])


def deliver(
    loop: asyncio.AbstractEventLoop, socket: FakeSocket, messages: list[tuple[str, dict[str, Any]]], revision: int
) -> None:
    """Hand the socket what the channel layer would: the messages sent to its groups."""
    consumer = socket.consumer
    sent = [m for g, m in messages if g in socket.groups]
    if not socket.groups:  # not connected yet: it renders for itself and finds its group
        sent = [{"type": "match.changed", "revision": revision, "chat_version": 0}]
    for message in sent:
        handler = getattr(consumer, message["type"].replace(".", "_"))
        loop.run_until_complete(handler(message))


class StageClock:
    """CPU time spent inside chosen functions, per stage, with nested stages taken out."""

    def __init__(self) -> None:
        self.totals: dict[str, float] = {}
        self._stack: list[list[float]] = []

    def wrap(self, owner: Any, name: str, stage: str) -> None:
        real = getattr(owner, name)

        def timed(*args: Any, **kwargs: Any) -> Any:
            self._stack.append([time.process_time(), 0.0])
            try:
                return real(*args, **kwargs)
            finally:
                start, nested = self._stack.pop()
                spent = time.process_time() - start
                self.totals[stage] = self.totals.get(stage, 0.0) + spent - nested
                if self._stack:
                    self._stack[-1][1] += spent

        setattr(owner, name, timed)

    def reset(self) -> None:
        self.totals.clear()


def clock_stages() -> StageClock:
    from django.core.handlers.wsgi import WSGIHandler

    from games import pushes, services

    clock = StageClock()
    clock.wrap(WSGIHandler, "__call__", "Django request handling, sessions, auth, the view's own queries")
    clock.wrap(services, "_submit", "write path: lock, load, decide, append events, commit")
    clock.wrap(pushes, "publish", "publishing: seat rows, log events, chat, channel-layer sends")
    clock.wrap(pushes, "render_parts", "rendering every connected seat's partials (+ the mover's)")
    return clock


def capture_broadcasts(messages: list[tuple[str, dict[str, Any]]]) -> None:
    """Record what the write path sends to the channel layer instead of sending it."""
    from games import broadcaster

    def send(group: str, message: dict[str, Any]) -> None:
        messages.append((group, message))

    broadcaster.send = send


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=600)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--db", choices=["sqlite", "pg"], default="pg")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()

    db = TempDatabase(args.db)
    try:
        django_setup()
        db.migrate()
        from django.conf import settings

        settings.ALLOWED_HOSTS = ["*"]
        messages: list[tuple[str, dict[str, Any]]] = []
        capture_broadcasts(messages)
        rng = random.Random(1)
        tables = [Table(i) for i in range(args.tables)]
        clock = None if args.profile else clock_stages()
        play(tables, 40, rng, messages)  # warm caches and templates
        if clock is not None:
            clock.reset()
        if args.profile:
            profiler = cProfile.Profile(time.process_time)
            profiler.enable()
            play(tables, args.moves, rng, messages)
            profiler.disable()
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(120)
            pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
            return
        out = play(tables, args.moves, rng, messages)
        rows = []
        labels = (("post", "POST (ms)"), ("cpu", "POST, CPU time (ms)"), ("push", "pushes, all 4 sockets (ms)"))
        for name, label in labels:
            values = [v * 1000 for v in out[name]]
            rows.append([label, len(values), pct(values, 50), pct(values, 95), sum(values) / len(values)])
        total = [(a + b) * 1000 for a, b in zip(out["post"], out["push"], strict=True)]
        rows.append(["POST + pushes (ms)", len(total), pct(total, 50), pct(total, 95), sum(total) / len(total)])
        rows.append(["bytes pushed per move", len(out["bytes"]), pct(out["bytes"], 50), pct(out["bytes"], 95),
                     sum(out["bytes"]) / len(out["bytes"])])
        print(table(["per accepted move", "n", "p50", "p95", "mean"], rows, title=f"move cost, {db.describe()}"))
        print(f"  one core at this cost: {1000 / (sum(total) / len(total)):.0f} moves/s")
        if clock is not None:
            moves = len(out["cpu"]) or 1
            stages = [[stage, spent * 1000 / moves] for stage, spent in clock.totals.items()]
            stages.append(["POST, CPU time (all stages)", sum(clock.totals.values()) * 1000 / moves])
            print(table(["stage of a POST (own CPU, nested stages taken out)", "ms per move"], stages))
    finally:
        db.close()


if __name__ == "__main__":
    main()
