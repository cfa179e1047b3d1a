"""Process-level plumbing: the HTTP concurrency cap and the shared Redis cache client."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from config.limits import HttpConcurrencyLimit
from games.cache import SharedRedisCache


def run_in_own_thread(coroutine: Any) -> None:
    """Run a coroutine on a fresh event loop in another thread (the browser tests leave
    Playwright's loop marked as running in this one)."""
    errors: list[BaseException] = []

    def target() -> None:
        try:
            asyncio.run(coroutine)
        except BaseException as exc:  # re-raised below, in the test's thread
            errors.append(exc)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]


def test_http_requests_over_the_cap_wait_their_turn() -> None:
    run_in_own_thread(_requests_over_the_cap_wait())


async def _requests_over_the_cap_wait() -> None:
    running = 0
    peak = 0

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        nonlocal running, peak
        running += 1
        peak = max(peak, running)
        await asyncio.sleep(0.01)
        running -= 1

    limited = HttpConcurrencyLimit(app, 3)
    await asyncio.gather(*(limited({"type": "http"}, None, None) for _ in range(12)))
    peak_http = peak
    await asyncio.gather(*(limited({"type": "websocket"}, None, None) for _ in range(6)))
    assert peak_http == 3 and peak == 6  # sockets are not counted


@pytest.mark.parametrize("location", ["redis://127.0.0.1:6379/9"])
def test_cache_objects_share_one_redis_client(location: str) -> None:
    first, second = SharedRedisCache(location, {}), SharedRedisCache(location, {})
    assert first._cache is second._cache
    assert SharedRedisCache("redis://127.0.0.1:6379/8", {})._cache is not first._cache
