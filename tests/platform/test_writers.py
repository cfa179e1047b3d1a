"""How many socket moves a process writes at once: settings.SOCKET_WRITER_THREADS (games.writers)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable

from django.test import override_settings

from games import writers

from .helpers import run_on_its_own_loop

WAIT = 5  # s: far longer than any of these calls takes


def held_move(entered: threading.Semaphore, gate: threading.Event, done: list[int], number: int) -> Callable[[], None]:
    def move() -> None:
        entered.release()
        assert gate.wait(WAIT), "the test never opened the gate"
        done.append(number)

    return move


UnderWay = tuple[list[asyncio.Future[None]], threading.Semaphore, threading.Event, list[int]]


async def moves_under_way(count: int) -> UnderWay:
    writers.shutdown()  # the threads are made anew, as many as the settings say
    entered, gate, done = threading.Semaphore(0), threading.Event(), list[int]()
    moves: list[asyncio.Future[None]] = [
        asyncio.ensure_future(writers.write(held_move(entered, gate, done, n))) for n in range(count)
    ]
    return moves, entered, gate, done


async def how_many_started(entered: threading.Semaphore) -> int:
    started = 0
    while await asyncio.to_thread(entered.acquire, True, 0.3):
        started += 1
    return started


@override_settings(SOCKET_WRITER_THREADS=1)
def test_with_one_writer_thread_the_moves_are_written_one_after_another_in_order() -> None:
    async def three_moves() -> None:
        moves, entered, gate, done = await moves_under_way(3)
        assert await how_many_started(entered) == 1
        gate.set()
        await asyncio.wait_for(asyncio.gather(*moves), WAIT)
        assert done == [0, 1, 2]

    run_on_its_own_loop(three_moves)


def test_by_default_three_moves_are_written_at_once_and_a_fourth_waits() -> None:
    async def four_moves() -> None:
        moves, entered, gate, done = await moves_under_way(4)
        assert await how_many_started(entered) == 3
        assert done == []
        gate.set()
        await asyncio.wait_for(asyncio.gather(*moves), WAIT)
        assert sorted(done) == [0, 1, 2, 3]

    run_on_its_own_loop(four_moves)
