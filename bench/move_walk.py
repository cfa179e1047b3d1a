#!/usr/bin/env python
"""The walk of one move sent over the socket: which platform modules it enters on its way from the
mover's socket to an opponent's, and who calls whom among them (docs/architecture.md draws it).

A heist table of four on SQLite with the in-memory channel layer; seat 0 and seat 1 connect real
sockets (Channels' ``WebsocketCommunicator``), seat 0 sends its planning choice, and every call in
every thread is recorded by a profiler until seat 1 receives its update. A call counts when it
enters a platform module (``games`` less the engines, the boards and the template tags: the
game-specific code a move calls into); its caller is the nearest platform frame below it on the
stack. It prints the modules in the order first entered, the call edges, and the edges that close a
circle (a module called back, directly or through others, by a module it called).

The walk itself is the modules that carry the move: those on the stack each time the move leaves
the platform (``EXITS``: into the engine, onto another thread or loop, into the database, into the
channel layer, onto a socket). Each such stack is printed, and any module a stack enters again after
leaving it for another (a back-and-forth). With ``--database pg`` the guarded statement is on the
path; with ``--redis`` the Redis channel layer (with the in-memory layer, Channels' own is).
The communicator stands in for daphne, so daphne's frame compression (``runtime.wscompress``) is
not on these stacks; under daphne it is one module more, at both ends.

    .venv/bin/python bench/move_walk.py [--database pg] [--redis redis://127.0.0.1:6379/0]
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import threading
from pathlib import Path
from types import FrameType
from typing import Any, cast

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import TempDatabase, django_setup, start_match

GAME_SPECIFIC = ("games.engines", "games.boards", "games.templatetags")


def platform(module: str) -> bool:
    return module.startswith("games.") and not module.startswith(GAME_SPECIFIC)


# Where the move leaves the platform: into the engine, onto another thread, into the database, into
# the channel layer, onto a socket. (module prefix, function name)
EXITS = (
    ("games.engines.", "decide"),
    ("concurrent.futures.thread", "submit"),
    ("asyncio.tasks", "run_coroutine_threadsafe"),
    ("asyncio.base_events", "call_soon_threadsafe"),
    ("django.db.backends.utils", "execute"),
    ("psycopg.", "_execute_gen"),
    ("channels.layers", "group_send"),
    ("games.runtime.channel_layer", "hand_over"),  # the Redis layer's own, patched: to this process's sockets
    ("channels_redis.", "group_send"),
    ("channels.generic.websocket", "send"),
)


def is_exit(module: str, function: str) -> bool:
    return any(module.startswith(prefix) and function == name for prefix, name in EXITS)


class Walk:
    """The platform modules entered while ``on``, who called whom among them, and the modules that
    carry the move: those on the stack (in the thread at hand) each time the move leaves the
    platform (``EXITS``), in the order first seen from the bottom of a stack."""

    def __init__(self) -> None:
        self.modules: list[str] = []
        self.carrying: list[str] = []
        self.paths: list[tuple[str, ...]] = []  # each distinct stack at an exit, bottom first
        self.edges: set[tuple[str, str]] = set()
        self.lock = threading.Lock()
        self.on = False

    def profile(self, frame: FrameType, event: str, arg: Any) -> None:
        if not self.on or event != "call":
            return
        module = frame.f_globals.get("__name__", "")
        caller = frame.f_back
        if is_exit(module, frame.f_code.co_name) or (
            caller is not None and caller.f_code.co_name == "_send_text" and not platform(module)
        ):  # the last: a socket's frame handed to the server (its ASGI ``send``)
            self.carried(frame)
        if not platform(module):
            return
        while caller is not None and not platform(caller.f_globals.get("__name__", "")):
            caller = caller.f_back
        with self.lock:
            if module not in self.modules:
                self.modules.append(module)
            if caller is not None and (calling := caller.f_globals["__name__"]) != module:
                self.edges.add((calling, module))

    def carried(self, frame: FrameType) -> None:
        stack: list[str] = []  # the platform modules below the exit, from the top, each run once
        below: FrameType | None = frame.f_back
        while below is not None:
            module = below.f_globals.get("__name__", "")
            if platform(module) and (not stack or stack[-1] != module):
                stack.append(module)
            below = below.f_back
        exit_module = frame.f_globals.get("__name__", "")
        path = (*reversed(stack), f"{exit_module}.{frame.f_code.co_name}")
        if platform(exit_module):  # a patched layer: the move passes through it too
            stack.insert(0, exit_module)
        with self.lock:
            if path not in self.paths:
                self.paths.append(path)
            for module in reversed(stack):
                if module not in self.carrying:
                    self.carrying.append(module)

    def returns(self) -> list[str]:
        """The modules a stack enters again after leaving them for another (a back-and-forth)."""
        again: list[str] = []
        for path in self.paths:
            for i, module in enumerate(path[:-1]):
                if module in path[:i] and module not in again:
                    again.append(module)
        return again

    def circles(self) -> list[tuple[str, str]]:
        """Every call edge whose callee reaches its caller again through the edges."""
        reach: dict[str, set[str]] = {}
        for caller, callee in self.edges:
            reach.setdefault(caller, set()).add(callee)
        changed = True
        while changed:
            changed = False
            for targets in reach.values():
                more = set().union(*(reach.get(t, set()) for t in targets)) - targets
                if more:
                    targets |= more
                    changed = True
        return sorted((a, b) for a, b in self.edges if a in reach.get(b, set()))


async def one_move(walk: Walk, match_id: int, version: int, users: dict[int, Any]) -> None:
    from asgiref.typing import WebSocketScope
    from channels.routing import URLRouter
    from channels.testing import WebsocketCommunicator

    from games.sockets.routing import websocket_urlpatterns

    def as_user(user: Any) -> Any:
        router = URLRouter(websocket_urlpatterns)

        async def app(scope: Any, receive: Any, send: Any) -> Any:
            return await router(cast("WebSocketScope", {**scope, "user": user}), receive, send)

        return app

    sockets = []
    for seat in (0, 1):
        socket = WebsocketCommunicator(as_user(users[seat]), f"/ws/match/{match_id}/")
        assert (await socket.connect())[0]
        assert (await socket.receive_json_from(timeout=10))["type"] == "update"
        sockets.append(socket)
    mover, opponent = sockets
    move = {"type": "act", "action": json.dumps({"type": "choose"}), "version": version, "key": "walk"}
    walk.on = True
    await mover.send_json_to({**move, "fields": {"roles[]": ["GOON"]}})
    while (await opponent.receive_json_from(timeout=10))["type"] != "update":
        pass
    walk.on = False
    for socket in sockets:
        await socket.disconnect()


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", choices=("sqlite", "pg"), default="sqlite", help="pg: a new PostgreSQL database")
    parser.add_argument("--redis", metavar="URL", help="the channel layer on this Redis (else in memory)")
    args = parser.parse_args()
    database = TempDatabase(args.database)
    if args.redis:
        os.environ["REDIS_URL"] = args.redis
    try:
        django_setup()
        database.migrate()
        from games.models import Match

        match, _users = start_match("heist", 4, "walk", seed="move-walk")
        match = Match.objects.get(pk=match.pk)
        users = {seat.number: seat.user for seat in match.seats.select_related("user")}
        walk = Walk()
        sys.setprofile(walk.profile)
        threading.setprofile(walk.profile)
        try:
            asyncio.run(one_move(walk, match.pk, match.version, users))
        finally:
            sys.setprofile(None)
            threading.setprofile(None)  # None turns it off
        print(f"platform modules entered: {len(walk.modules)}")
        for module in walk.modules:
            print(f"  {module}")
        print(f"modules that carry the move (on the stack where it leaves the platform): {len(walk.carrying)}")
        for module in walk.carrying:
            print(f"  {module}")
        print(f"stacks where it leaves the platform (bottom first, then the exit): {len(walk.paths)}")
        for path in walk.paths:
            print("  " + " > ".join(name.removeprefix("games.") for name in path))
        again = walk.returns()
        print(f"modules a stack enters again after leaving them: {len(again)} {' '.join(again)}")
        print(f"call edges: {len(walk.edges)}")
        for caller, callee in sorted(walk.edges):
            print(f"  {caller} -> {callee}")
        circles = walk.circles()
        print(f"edges that close a circle: {len(circles)}")
        for caller, callee in circles:
            print(f"  {caller} -> {callee}")
    finally:
        database.close()


if __name__ == "__main__":
    main()
