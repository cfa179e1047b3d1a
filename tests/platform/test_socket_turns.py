"""A match socket's messages: one at a time, in few loop turns (games.runtime.channels_dispatch)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.exceptions import StopConsumer

from games.runtime.channels_dispatch import serve_in_turn
from tests.own_loop import run_on_its_own_loop

# No database fixture, but the channel layer, the broker or a database connection: CI's backends pass runs it.
pytestmark = pytest.mark.backends


async def cancel(serving: asyncio.Future[None]) -> None:
    """Stop serving, as daphne cancels a consumer whose client has gone."""
    serving.cancel()
    with pytest.raises(asyncio.CancelledError):
        await serving


def test_a_queued_message_is_handled_at_the_next_turn_of_the_loop() -> None:
    """Channels' ``await_many_dispatch`` takes three turns (the receiving task, the wait, the
    consumer); each turn can cost a switch interval beside a rendering writer thread."""

    async def scenario() -> None:
        client: asyncio.Queue[Any] = asyncio.Queue()
        layer: asyncio.Queue[Any] = asyncio.Queue()
        handled: list[Any] = []

        async def dispatch(message: Any) -> None:
            handled.append(message)

        serving = asyncio.ensure_future(serve_in_turn([client.get, layer.get], dispatch))
        await asyncio.sleep(0)  # both sources wait for a message
        layer.put_nowait("push")
        await asyncio.sleep(0)  # one turn
        assert handled == ["push"]
        client.put_nowait("frame")
        await asyncio.sleep(0)
        assert handled == ["push", "frame"]
        await cancel(serving)

    run_on_its_own_loop(scenario)


def test_messages_are_handled_one_at_a_time_in_the_order_they_came() -> None:
    async def scenario() -> None:
        client: asyncio.Queue[Any] = asyncio.Queue()
        layer: asyncio.Queue[Any] = asyncio.Queue()
        log: list[str] = []
        release = asyncio.Event()

        async def dispatch(message: str) -> None:
            log.append(f"start {message}")
            if message == "slow":
                await release.wait()  # as a move waits for its writer thread
            log.append(f"end {message}")

        serving = asyncio.ensure_future(serve_in_turn([client.get, layer.get], dispatch))
        client.put_nowait("slow")
        await asyncio.sleep(0.01)
        layer.put_nowait("push 1")
        client.put_nowait("frame")
        layer.put_nowait("push 2")
        await asyncio.sleep(0.01)
        assert log == ["start slow"]  # nothing else is handled while a handler waits
        release.set()
        await asyncio.sleep(0.01)
        assert log == [
            "start slow",
            "end slow",
            "start push 1",
            "end push 1",
            "start frame",
            "end frame",
            "start push 2",
            "end push 2",
        ]
        await cancel(serving)

    run_on_its_own_loop(scenario)


def test_a_handler_that_stops_the_consumer_stops_every_source() -> None:
    async def scenario() -> None:
        client: asyncio.Queue[Any] = asyncio.Queue()
        cleaned_up: list[str] = []

        async def layer_receive() -> Any:
            try:
                await asyncio.Event().wait()  # nothing ever comes
            finally:
                cleaned_up.append("layer")  # as channels_redis unsubscribes a cancelled receive

        async def dispatch(message: str) -> None:
            if message == "websocket.disconnect":
                raise StopConsumer

        client.put_nowait("websocket.disconnect")
        with pytest.raises(StopConsumer):
            await asyncio.wait_for(serve_in_turn([client.get, layer_receive], dispatch), 5)
        assert cleaned_up == ["layer"]

    run_on_its_own_loop(scenario)


def test_a_handler_error_is_raised_not_swallowed() -> None:
    async def scenario() -> None:
        layer: asyncio.Queue[Any] = asyncio.Queue()

        async def dispatch(message: str) -> None:
            raise ValueError(f"No handler for message type {message}")

        layer.put_nowait("nonsense")
        with pytest.raises(ValueError, match="nonsense"):
            await asyncio.wait_for(serve_in_turn([asyncio.Event().wait, layer.get], dispatch), 5)

    run_on_its_own_loop(scenario)
