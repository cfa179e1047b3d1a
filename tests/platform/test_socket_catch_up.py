"""Redis back after a loss: the sockets that missed something are found by one query, and only they render."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from games.play import services
from games.sockets import catch_up
from games.sockets.turn_consumer import TurnConsumer

from .helpers import count_calls, started_match
from .socket_clients import connect, messages

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def redis_is_back() -> None:
    """What the Redis layer tells every socket of its process once it has Redis again (the tests'
    layer is the in-memory one: the same message, to every channel)."""
    layer: Any = get_channel_layer()
    for channel in list(layer.channels):
        await layer.send(channel, {"type": "layer.resumed"})


async def test_after_redis_is_back_one_query_finds_the_sockets_that_missed_something(
    make_user: Any, monkeypatch: Any
) -> None:
    behind, by_seat_behind = await sync_to_async(started_match)(make_user, players=3)
    current, by_seat_current = await sync_to_async(started_match)(make_user, players=3)
    sockets_behind = [await connect(by_seat_behind[seat], behind.pk) for seat in (0, 1)]
    sockets_current = [await connect(by_seat_current[seat], current.pk) for seat in (0, 1)]

    # A chat line written while Redis was away: its publication was lost with it.
    monkeypatch.setattr(services, "publish_after_commit", lambda *args, **kwargs: None)
    await sync_to_async(services.do_post_chat)(behind.pk, 0, "said during the outage")

    reads: list[list[int]] = []
    read = catch_up._versions

    def counted(match_ids: list[int]) -> catch_up.Versions:
        reads.append(match_ids)
        return read(match_ids)

    monkeypatch.setattr(catch_up, "_versions", counted)
    renders = count_calls(monkeypatch, TurnConsumer, "push")

    await redis_is_back()

    for communicator in sockets_behind:
        assert "said during the outage" in str(await messages(communicator))
    for communicator in sockets_current:
        assert await messages(communicator) == []
    assert reads == [sorted([behind.pk, current.pk])]  # one query for every socket's match
    assert len(renders) == len(sockets_behind)  # the sockets that were up to date rendered nothing
    for communicator in sockets_behind + sockets_current:
        await communicator.disconnect()


async def test_a_socket_renders_as_before_when_the_query_fails(make_user: Any, monkeypatch: Any) -> None:
    from django.db import OperationalError

    match, by_seat = await sync_to_async(started_match)(make_user, players=3)
    socket = await connect(by_seat[0], match.pk)
    monkeypatch.setattr(services, "publish_after_commit", lambda *args, **kwargs: None)
    await sync_to_async(services.do_post_chat)(match.pk, 1, "lost with the publication")

    def unreachable(match_ids: list[int]) -> catch_up.Versions:
        raise OperationalError("the database is away")

    monkeypatch.setattr(catch_up, "_versions", unreachable)
    await redis_is_back()
    assert "lost with the publication" in str(await messages(socket))
    await socket.disconnect()
