"""How many socket moves a process writes at once: settings.SOCKET_WRITER_THREADS (games.play.writers)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable

import pytest
from django.test import override_settings

from games.play import writers
from tests.own_loop import run_on_its_own_loop

# No database fixture, but the channel layer, the broker or a database connection: CI's backends pass runs it.
pytestmark = pytest.mark.backends

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


class Refused(Exception):
    pass


def test_what_a_write_hands_to_the_loop_goes_with_its_result_in_order_even_when_it_fails() -> None:
    """A move's pushes to this process's sockets (games.runtime.channel_layer.hand_over) reach the loop with
    the write's result, in one wake-up: first the pushes, then the mover's answer."""

    async def handed_over() -> None:
        loop = asyncio.get_running_loop()
        seen: list[str] = []
        handed = threading.Event()

        def write_then_go_on(fail: bool) -> str:
            writers.call_on_loop(loop, seen.append, "pushes")
            handed.set()
            time.sleep(0.2)  # the rest of the write: the pushes wait for it
            if fail:
                raise Refused
            return "answer"

        writing = asyncio.ensure_future(writers.write(write_then_go_on, False))
        assert await asyncio.to_thread(handed.wait, WAIT)
        await asyncio.sleep(0.05)
        assert seen == [], "handed over before the write ended"
        seen.append(await asyncio.wait_for(writing, WAIT))
        assert seen == ["pushes", "answer"]

        seen.clear()
        with pytest.raises(Refused):
            await asyncio.wait_for(writers.write(write_then_go_on, True), WAIT)
        assert seen == ["pushes"]

    run_on_its_own_loop(handed_over)


def test_a_write_whose_caller_gave_up_still_hands_its_pushes_over() -> None:
    """The mover's socket closed while its move was written: the move is in the log, and its
    opponents' pushes still go out."""

    async def gave_up() -> None:
        loop = asyncio.get_running_loop()
        seen: list[str] = []
        started, finish = threading.Event(), threading.Event()

        def write() -> None:
            started.set()
            assert finish.wait(WAIT)
            writers.call_on_loop(loop, seen.append, "pushes")

        writing = asyncio.ensure_future(writers.write(write))
        assert await asyncio.to_thread(started.wait, WAIT)
        writing.cancel()
        finish.set()
        deadline = time.monotonic() + WAIT
        while not seen and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        assert seen == ["pushes"]
        assert writing.cancelled()

    run_on_its_own_loop(gave_up)


def test_a_call_from_a_thread_that_is_not_writing_reaches_the_loop_at_once() -> None:
    async def at_once() -> None:
        loop = asyncio.get_running_loop()
        seen: list[str] = []
        await asyncio.to_thread(writers.call_on_loop, loop, seen.append, "live event")
        deadline = time.monotonic() + WAIT
        while not seen and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        assert seen == ["live event"]

    run_on_its_own_loop(at_once)
