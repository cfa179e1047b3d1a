#!/usr/bin/env python
"""Server CPU per move, in one process: the move as it reaches the server, and the pushes it causes.

Matches are played by their bots (the move is chosen before the clock starts). Per accepted move it
times the server's CPU (the process's CPU time, every thread) for:

* ``--transport socket`` (the default, what a browser does): the mover's consumer receives the move
  over its socket (``{"type": "act"}``) and answers it, through the one write path; then every seat's
  consumer handles what the channel layer brings it (the changed fragments, or JSON events) and sends
  its client the bytes it would put on the wire;
* ``--transport post`` (the fallback): the HTMX POST through Django's whole request stack instead.

The process's garbage collector is tuned as a daphne's is (``games.runtime.gc_tuning``, ``config/asgi.py``);
``HIDEOUT_GC_TUNING=0`` measures with CPython's defaults instead.

``--live`` marks the game live (``rules.live``): its pushes are JSON events, nothing rendered.
It splits the CPU time by stage (each stage's own time, nested stages taken out) on about half the
moves, drawn at random, and reports the CPU of the others: the clock costs about 5 % of a move. It
prints the CPU by action type (which moves are dear) and of the moves that end a match (counted
under their action too), and the bytes each opponent's socket is sent
per move: on the wire (compressed as daphne compresses a message marked for it) and uncompressed.
``--profile`` prints cProfile's top functions.

    .venv/bin/python bench/move_cost.py [--game heist|bridge_race] [--seats 4] [--transport socket|post]
                                        [--live] [--moves 600] [--db sqlite|pg] [--profile] [--no-stages]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import functools
import inspect
import json
import operator
import pstats
import random
import sys
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import TempDatabase, django_setup, pct, start_match, table

FINISHING = "(the moves that end a match)"  # a row of the CPU by action, beside the actions' own


class Table:
    """One match, its users' logged-in clients and a fake socket per seat."""

    def __init__(self, index: int, game: str, seats: int) -> None:
        from django.test import Client

        # A seed per table: every run plays the same games, so that two checkouts can be compared.
        match, self.users = start_match(game, seats, f"mc{index}_", seed=f"move-cost-{game}-{index}")
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
        from games.play.services import waiting_seats
        from games.play.store import load_state, rules_for

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

    def finished(self) -> bool:
        """Whether the match is over (read after a move's clock has stopped)."""
        from games.models import Match

        return Match.objects.filter(pk=self.match_id).exclude(status=Match.Status.ACTIVE).exists()


class FakeSocket:
    """A consumer without a socket: what it receives is handed to it directly."""

    def __init__(self, match_id: int, client: Any) -> None:
        from games.sockets.base_consumer import find_seat
        from games.sockets.consumers import MatchConsumer
        from games.sockets.frames import SentFrames

        user = client_user(client)
        found = find_seat(match_id, user)
        assert found is not None
        self.consumer = MatchConsumer()
        self.consumer._become(found[1])  # a live game's consumer, as connecting makes it
        if found[1]:
            # Written at once, as every move here (a live game's socket sequences its inputs on a task).
            self.consumer._act = functools.partial(self.consumer._act_now, received=None)  # type: ignore[method-assign]
        self.consumer.match_id = match_id
        self.consumer.scope = {"user": user}  # type: ignore[typeddict-item]  # only the user is read
        self.consumer.seat = None
        self.consumer.sent_frames = SentFrames()
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

        from games.runtime.wscompress import DEFLATE, deflate

        async def base_send(message: Any) -> None:
            # Kept as text: parsing every message here would count the client's work as the server's.
            self.sent.append(message["text"])
            text = message["text"].encode()
            self.text.append(len(text))
            if message.get(DEFLATE) is True:
                # What daphne's permessage-deflate does with a message marked for it (games/runtime/wscompress.py),
                # on the server's CPU like the rest: each message on its own, 4 KB window, sync flush,
                # a message sent alike to several sockets of the process compressed once.
                text = deflate(text)
            self.wire.append(len(text))

        self.wire: list[int] = []  # payload bytes on the wire: compressed where the message is marked
        self.text: list[int] = []  # the same messages' text, uncompressed
        self.consumer.base_send = base_send  # what daphne would put on the wire

    def connect(self, loop: asyncio.AbstractEventLoop) -> None:
        """What the consumer does when its client connects: a full board, and its seat's group."""
        loop.run_until_complete(self.consumer.push(only_if_newer=True))
        self.sent.clear()
        self.wire.clear()
        self.text.clear()


def client_user(client: Any) -> Any:
    from django.contrib.auth import get_user_model

    session = client.session
    return get_user_model().objects.select_related("profile").get(pk=session["_auth_user_id"])


def harness(step: Any, *args: Any) -> Any:
    """``step(*args)``, the benchmark's own work (choosing a move), called through ``operator.call``:
    a C function nothing else in the process calls, so that ``instructions.py --server`` can count
    this work alone (callgrind's ``--toggle-collect``) and take it out of a move's instructions."""
    return operator.call(step, *args)


def play(
    tables: list[Table],
    moves: int,
    rng: random.Random,
    messages: list[tuple[str, dict[str, Any]]],
    transport: str,
    loop: asyncio.AbstractEventLoop,
    clock: StageClock | None = None,
    by_action: dict[str, list[float]] | None = None,
) -> dict[str, list[float]]:
    """Play ``moves`` accepted moves. With a ``clock``, about half of them, drawn at random (not every
    other move: with an even number of tables that would be the same tables' moves), are clocked
    by stage and the others' CPU is reported: a move is never both clocked and measured. ``by_action``
    collects each measured move's CPU under its action's type."""
    out: dict[str, list[float]] = {"cpu": [], "wall": [], "bytes": [], "text": []}
    done = 0
    draw = random.Random("stage clock")
    while done < moves:
        live = [t for t in tables if harness(t.next_move, rng) is not None]
        if not live:
            break
        for table_ in live:
            move = harness(table_.next_move, rng)
            if move is None:
                continue
            seat, action, version = move
            messages.clear()
            clocked = clock is not None and draw.random() < 0.5
            if clock is not None:
                clock.on = clocked
            c0 = time.process_time()
            t0 = time.perf_counter()
            if transport == "post":
                status = post(
                    table_.clients[seat],
                    f"/m/{table_.match_id}/action/",
                    {"action": json.dumps(action), "version": str(version), "key": uuid.uuid4().hex},
                )
            else:
                status = act(loop, table_.sockets[seat], action, version)
            if status == 200:
                for socket in table_.sockets.values():
                    deliver(loop, socket, messages)
            t1 = time.perf_counter()
            c1 = time.process_time()
            if clock is not None:
                clock.on = False
            opponents = [s for number, s in table_.sockets.items() if number != seat]
            if status == 200 and clocked:
                assert clock is not None
                clock.moves += 1
                done += 1
            elif status == 200:
                out["cpu"].append(c1 - c0)
                out["wall"].append(t1 - t0)
                out["bytes"].append(sum(sum(s.wire) for s in opponents) / len(opponents))
                out["text"].append(sum(sum(s.text) for s in opponents) / len(opponents))
                if by_action is not None:
                    by_action.setdefault(str(action.get("type", "?")), []).append(c1 - c0)
                    if harness(table_.finished):
                        by_action.setdefault(FINISHING, []).append(c1 - c0)
                done += 1
            for socket in table_.sockets.values():
                socket.sent.clear()
                socket.wire.clear()
                socket.text.clear()
    return out


def _parsed(message: Any) -> Any:
    """A message the socket was sent: as it was handed over (``send_json``) or parsed from its text
    (``base_send``) when it may be an answer, else ``None`` (a board is never parsed: the client's work)."""
    if not isinstance(message, str):
        return message
    return json.loads(message) if '"answer"' in message else None


def act(loop: asyncio.AbstractEventLoop, socket: FakeSocket, action: dict[str, Any], version: int) -> int:
    """The move sent up the mover's socket; returns the answer's status."""
    message = {"type": "act", "action": json.dumps(action), "fields": {}, "version": version, "key": uuid.uuid4().hex}
    loop.run_until_complete(socket.consumer.receive_json(message))
    answer = next(m for m in map(_parsed, reversed(socket.sent)) if m is not None and m.get("type") == "answer")
    return int(answer["status"])


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
    environ = (
        RequestFactory().post(path, data, HTTP_HX_REQUEST="true", HTTP_COOKIE=cookies, HTTP_X_CSRFTOKEN=token).environ
    )
    statuses: list[str] = []
    body = _handler(environ, lambda status, headers, exc_info=None: statuses.append(status))
    b"".join(body)
    return int(statuses[0].split()[0])


def deliver(loop: asyncio.AbstractEventLoop, socket: FakeSocket, messages: list[tuple[str, dict[str, Any]]]) -> None:
    """Hand the socket what the channel layer would: the messages sent to its groups."""
    consumer = socket.consumer
    for group, message in list(messages):
        if group in socket.groups:
            handler = getattr(consumer, message["type"].replace(".", "_"))
            loop.run_until_complete(handler(message))


class StageClock:
    """CPU time spent inside chosen functions, per stage, with nested stages taken out.

    It runs only while ``on``: its own cost (two readings of the process's CPU clock, each a
    system call, per stage entered: some 30 a bridge_race move) is about 5 % of a move's CPU, so
    the moves it clocks are not the moves whose CPU is reported (see :func:`play`)."""

    def __init__(self) -> None:
        self.totals: dict[str, float] = {}
        self._stack: list[list[float]] = []
        self.on = False
        self.moves = 0  # the moves clocked since the last reset

    def wrap(self, owner: Any, name: str, stage: str) -> None:
        real = getattr(owner, name)

        def timed(*args: Any, **kwargs: Any) -> Any:
            if not self.on:
                return real(*args, **kwargs)
            self._start()
            try:
                return real(*args, **kwargs)
            finally:
                self._stop(stage)

        async def timed_async(*args: Any, **kwargs: Any) -> Any:
            # A coroutine's time is taken over its awaits; the write thread it waits on (the only other
            # thing running here) is a nested stage of its own, and taken out.
            if not self.on:
                return await real(*args, **kwargs)
            self._start()
            try:
                return await real(*args, **kwargs)
            finally:
                self._stop(stage)

        setattr(owner, name, timed_async if inspect.iscoroutinefunction(real) else timed)

    def _start(self) -> None:
        self._stack.append([time.process_time(), 0.0])

    def _stop(self, stage: str) -> None:
        start, nested = self._stack.pop()
        spent = time.process_time() - start
        self.totals[stage] = self.totals.get(stage, 0.0) + spent - nested
        if self._stack:
            self._stack[-1][1] += spent

    def reset(self) -> None:
        self.totals.clear()
        self.moves = 0


def clock_stages() -> StageClock:
    from django.core.handlers.wsgi import WSGIHandler

    from games.play import guarded, write_paths
    from games.push import pushes
    from games.sockets import consumers

    clock = StageClock()
    clock.wrap(WSGIHandler, "__call__", "POST: Django request handling, sessions, auth, the view's queries")
    clock.wrap(consumers.MatchConsumer, "receive_json", "socket: reading the move, the seat, the answer")
    clock.wrap(write_paths, "write_guarded", "write path, guarded: decide on the cache, one statement")
    # Sent, then answered: the pushes are rendered in between (pushes.render_ahead), in their own stages.
    clock.wrap(guarded, "send", "the guarded statement's round trip")
    clock.wrap(guarded.Pending, "finish", "the guarded statement's round trip")
    clock.wrap(write_paths, "write_locked", "write path, ORM: lock, load, decide, append events, commit")
    clock.wrap(pushes, "publish", "publishing: seat rows, log events, chat, channel-layer sends")
    clock.wrap(pushes, "render_ahead", "publishing: seat rows, log events, chat, channel-layer sends")
    clock.wrap(pushes, "render_seat", "rendering every connected seat's partials (+ the mover's)")
    clock.wrap(consumers.MatchConsumer, "_deliver", "sockets: choosing the changed fragments, JSON, send")
    return clock


def profile_write_thread() -> cProfile.Profile:
    """A profiler of the write path, which runs on the database thread (``database_sync_to_async``):
    cProfile sees only the thread that enabled it, and the main thread meanwhile waits on its loop."""
    from games.play import services, write_paths

    profiler = cProfile.Profile(time.process_time)
    real = write_paths.do_submit_action

    def profiled(*args: Any, **kwargs: Any) -> Any:
        profiler.enable()
        try:
            return real(*args, **kwargs)
        finally:
            profiler.disable()

    write_paths.do_submit_action = profiled  # a socket's move (write_paths.do_submit_as_user)
    services.do_submit_action = profiled  # the POST view's
    return profiler


def capture_broadcasts(captured: list[tuple[str, dict[str, Any]]]) -> None:
    """Record what the write path sends to the channel layer instead of sending it."""
    from games.push import pushes

    def send_many(messages: list[tuple[str, dict[str, Any]]]) -> None:
        captured.extend(messages)

    pushes.send_many = send_many  # pushes.send goes through it too


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=600)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--game", choices=["heist", "bridge_race"], default="heist")
    parser.add_argument("--seats", type=int, default=None, help="default: 4 for heist, 5 for bridge_race")
    parser.add_argument("--transport", choices=["socket", "post"], default="socket")
    parser.add_argument("--live", action="store_true", help="push JSON events (rules.live), render nothing")
    parser.add_argument("--db", choices=["sqlite", "pg"], default="pg")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--no-stages", action="store_true", help="no stage clock at all (instructions.py)")
    parser.add_argument("--profile-out", metavar="FILE", help="with --profile: also save the stats for pstats")
    args = parser.parse_args()
    seats = args.seats or (4 if args.game == "heist" else 5)

    db = TempDatabase(args.db)
    try:
        django_setup()
        db.migrate()
        from django.conf import settings

        from games.engines.registry import get_rules
        from games.runtime import gc_tuning

        gc_tuning.tune(settings.HIDEOUT_GC_TUNING)  # as config/asgi.py tunes a daphne once loaded
        settings.ALLOWED_HOSTS = ["*"]
        if args.live:
            get_rules(args.game).live = True  # what a live game declares
        messages: list[tuple[str, dict[str, Any]]] = []
        capture_broadcasts(messages)
        rng = random.Random(1)
        loop = asyncio.new_event_loop()
        tables = [Table(i, args.game, seats) for i in range(args.tables)]
        for table_ in tables:
            for socket in table_.sockets.values():
                socket.connect(loop)
        clock = None if args.profile or args.no_stages else clock_stages()
        play(tables, 40, rng, messages, args.transport, loop)  # warm caches and templates
        if args.profile:
            profiler = cProfile.Profile(time.process_time)
            in_thread = profile_write_thread()
            profiler.enable()
            play(tables, args.moves, rng, messages, args.transport, loop)
            profiler.disable()
            stats = pstats.Stats(profiler).add(in_thread)
            if args.profile_out:
                stats.dump_stats(args.profile_out)
            stats.sort_stats("cumulative").print_stats(120)
            stats.sort_stats("tottime").print_stats(25)
            return
        by_action: dict[str, list[float]] = {}
        out = play(tables, args.moves, rng, messages, args.transport, loop, clock, by_action)
        loop.close()
        live = ", live JSON events" if args.live else ""
        what = f"{args.game}, {seats} seats with sockets, moves by {args.transport}{live}"
        rows = []
        for name, label, scale in (
            ("cpu", "server CPU per move, all seats' sockets (ms)", 1000),
            ("wall", "wall time per move (ms)", 1000),
            ("bytes", "bytes on the wire to each opponent's socket", 1),
            ("text", "  the same messages uncompressed", 1),
        ):
            values = [v * scale for v in out[name]]
            rows.append([label, len(values), pct(values, 50), pct(values, 95), sum(values) / len(values)])
        print(
            table(["per accepted move", "n", "p50", "p95", "mean"], rows, title=f"move cost: {what}; {db.describe()}")
        )
        actions = sorted(by_action.items(), key=lambda item: (item[0] == FINISHING, -sum(item[1])))
        rows = [
            [name, len(v), pct(v, 50) * 1000, pct(v, 95) * 1000, sum(v) / sum(out["cpu"]) * 100] for name, v in actions
        ]
        print(table(["action", "n", "CPU p50 (ms)", "p95", "% of all CPU"], rows, title="server CPU by action"))
        mean_cpu = sum(out["cpu"]) / len(out["cpu"])
        print(f"  one core at this cost: {1 / mean_cpu:.0f} moves/s")
        if clock is not None:
            moves = clock.moves or 1
            stages = [[stage, spent * 1000 / moves] for stage, spent in clock.totals.items() if spent > 0]
            stages.append(["all stages", sum(clock.totals.values()) * 1000 / moves])
            title = f"by stage, on {clock.moves} other moves (the clock's own cost in them)"
            print(table(["stage (own CPU, nested stages taken out)", "ms per move"], stages, title=title))
    finally:
        db.close()


if __name__ == "__main__":
    main()
