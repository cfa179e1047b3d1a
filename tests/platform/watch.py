"""A match's sockets watched while it is played: every message they are sent, searched (leak tests)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from games.models import Match
from games.play.store import load_state

from .helpers import play_bots, started_match
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


async def bots_watched(make_user: Any, game: str, seed: int, check: Callable[[str, Any, int | None], None]) -> int:
    """A 3-seat ``game`` match played by bots one move at a time (``random.Random(seed)``), every
    seat and a spectator watching it over the socket: :func:`search_every_message` with ``check``."""
    match, users = await sync_to_async(started_match)(make_user, game, 3)
    viewers: dict[int | None, Any] = {seat: user for seat, user in users.items()}
    viewers[None] = await sync_to_async(make_user)()  # a spectator
    rng = random.Random(seed)
    return await search_every_message(match, viewers, lambda: play_bots(match, rng, 1), check)
