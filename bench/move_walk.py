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

    .venv/bin/python bench/move_walk.py
"""

from __future__ import annotations

import asyncio
import json
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


class Walk:
    """The platform modules entered while ``on``, and who called whom among them."""

    def __init__(self) -> None:
        self.modules: list[str] = []
        self.edges: set[tuple[str, str]] = set()
        self.lock = threading.Lock()
        self.on = False

    def profile(self, frame: FrameType, event: str, arg: Any) -> None:
        if not self.on or event != "call":
            return
        module = frame.f_globals.get("__name__", "")
        if not platform(module):
            return
        caller = frame.f_back
        while caller is not None and not platform(caller.f_globals.get("__name__", "")):
            caller = caller.f_back
        with self.lock:
            if module not in self.modules:
                self.modules.append(module)
            if caller is not None and (calling := caller.f_globals["__name__"]) != module:
                self.edges.add((calling, module))

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
    database = TempDatabase("sqlite")
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
