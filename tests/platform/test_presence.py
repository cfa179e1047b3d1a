"""Issue 9, item 5: who has a page open survives restarts and crashes (presence by heartbeat)."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.core import mail

from games.background import tasks
from games.models import Presence, Seat
from games.play import clock
from games.sockets import presence

from .helpers import started_match
from .socket_clients import connect

pytestmark = pytest.mark.django_db(transaction=True)


def test_item5_a_socket_that_died_without_closing_stops_counting(
    make_user: Any, monkeypatch: Any, settings: Any
) -> None:
    """A daphne killed (or a consumer crashed) leaves a count and a record behind; once the record
    stops beating, the sweep recounts the seat and its player gets turn reminders again."""
    settings.REMINDER_AFTER = timedelta(minutes=10)
    match, by_seat = started_match(make_user, time_limit=86400)
    for number, user in by_seat.items():  # every player had a page open when their daphne died
        Presence.objects.create(channel_name=f"dead-{number}", match=match, user=user, seen_at=clock.now_datetime())
    Seat.objects.filter(match=match).update(open_sockets=1)
    assert tasks.sweep_reminders() == 0
    real = clock.now
    monkeypatch.setattr(clock, "now", lambda: real() + 11 * 60)
    assert tasks.sweep_reminders() == match.seat_count  # nobody's socket beats any more
    assert not Presence.objects.filter(match=match).exists()
    assert set(Seat.objects.filter(match=match).values_list("open_sockets", flat=True)) == {0}
    assert len(mail.outbox) == match.seat_count


@pytest.mark.asyncio
async def test_item5_a_live_socket_keeps_its_presence_by_heartbeat(make_user: Any, monkeypatch: Any) -> None:
    monkeypatch.setattr(presence, "HEARTBEAT_SECONDS", 0.05)
    match, by_seat = await sync_to_async(started_match)(make_user)
    socket = await connect(by_seat[1], match.pk)
    old = clock.now_datetime() - timedelta(seconds=presence.STALE_SECONDS * 2)
    await sync_to_async(Presence.objects.filter(match=match).update)(seen_at=old)
    await asyncio.sleep(0.3)  # a few heartbeats
    await sync_to_async(presence.sweep)()
    seat = await sync_to_async(Seat.objects.get)(match=match, number=1)
    assert seat.open_sockets == 1, "a socket that beats keeps counting"
    assert await sync_to_async(Presence.objects.filter(match=match).count)() == 1
    await socket.disconnect()
    assert not await sync_to_async(Presence.objects.filter(match=match).exists)()
    seat = await sync_to_async(Seat.objects.get)(match=match, number=1)
    assert seat.open_sockets == 0


async def until(condition: Any, timeout: float = 10.0) -> None:
    """Wait for ``condition()`` (a slow machine beats late), failing after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out waiting"
        await asyncio.sleep(0.02)


@pytest.mark.asyncio
async def test_a_process_refreshes_all_its_sockets_records_in_one_statement_a_beat(
    make_user: Any, monkeypatch: Any
) -> None:
    """One refresh per heartbeat for every socket of the process (not one per socket), carrying
    exactly the sockets that are open."""
    monkeypatch.setattr(presence, "HEARTBEAT_SECONDS", 0.05)
    refreshed: list[list[str]] = []
    real_refresh = presence.refresh

    def counting_refresh(channel_names: list[str]) -> None:
        refreshed.append(list(channel_names))
        real_refresh(channel_names)

    monkeypatch.setattr(presence, "refresh", counting_refresh)
    match, by_seat = await sync_to_async(started_match)(make_user)
    sockets = [await connect(by_seat[number], match.pk) for number in (0, 1, 2)]
    names = set(await sync_to_async(lambda: list(Presence.objects.values_list("channel_name", flat=True)))())
    assert len(names) == 3
    refreshed.clear()
    started = time.monotonic()
    await until(lambda: len(refreshed) >= 3)
    assert len(refreshed) <= (time.monotonic() - started) / presence.HEARTBEAT_SECONDS + 2, "one a beat at most"
    assert all(set(batch) == names for batch in refreshed), "each statement carries every open socket"
    await sockets[0].disconnect()
    left = set(await sync_to_async(lambda: list(Presence.objects.values_list("channel_name", flat=True)))())
    refreshed.clear()
    await until(lambda: len(refreshed) >= 1)
    assert all(set(batch) == left for batch in refreshed)
    beating = presence.heartbeats().task
    for socket in sockets[1:]:
        await socket.disconnect()
    assert presence.heartbeats().task is None, "no beat is left asleep once the last socket closed"
    await asyncio.sleep(0)
    assert beating is not None and beating.cancelled()


@pytest.mark.asyncio
async def test_a_failed_refresh_does_not_stop_the_heartbeats(make_user: Any, monkeypatch: Any) -> None:
    """The database away for one beat: the next beats refresh the records again."""
    monkeypatch.setattr(presence, "HEARTBEAT_SECONDS", 0.05)
    calls: list[int] = []
    real_refresh = presence.refresh

    def failing_once(channel_names: list[str]) -> None:
        calls.append(len(channel_names))
        if len(calls) == 1:
            raise RuntimeError("database away")
        real_refresh(channel_names)

    monkeypatch.setattr(presence, "refresh", failing_once)
    match, by_seat = await sync_to_async(started_match)(make_user)
    socket = await connect(by_seat[1], match.pk)
    await until(lambda: len(calls) >= 3)  # the beats go on after the failed one
    await socket.disconnect()
