"""A match's sockets watched while it is played: every message they are sent, searched (leak tests)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from games.models import Match
from games.play.store import load_state

from .socket_clients import as_user


async def search_every_message(
    match: Match,
    viewers: dict[int | None, Any],
    move: Callable[[], Any],
    check: Callable[[str, Any, int | None], None],
    moves: int = 60,
) -> int:
    """Open a socket for each viewer (seat number, ``None`` for a spectator), make ``moves`` moves
    with ``move()`` (which returns the state after it), and call ``check(message_text, state, seat)``
    on every message each socket is sent; returns how many were checked.

    A message is judged by the state of its own version: with Redis a push may arrive after the
    next move.
    """
    sockets = {}
    for seat, user in viewers.items():
        communicator = WebsocketCommunicator(as_user(user), f"/ws/match/{match.pk}/")
        connected, _ = await communicator.connect()
        assert connected
        sockets[seat] = communicator
    first = await sync_to_async(lambda: Match.objects.get(pk=match.pk))()
    at_version: dict[int, Any] = {first.version: await sync_to_async(load_state)(first)}
    checked = 0
    for _ in range(moves):
        state = await sync_to_async(move)()
        version = await sync_to_async(lambda: Match.objects.get(pk=match.pk).version)()
        at_version[version] = state
        for seat, communicator in sockets.items():
            while not await communicator.receive_nothing(timeout=0.05, interval=0.01):
                message = await communicator.receive_json_from(timeout=5)
                check(json.dumps(message), at_version.get(message.get("version"), state), seat)
                checked += 1
    for communicator in sockets.values():
        await communicator.disconnect()
    return checked
