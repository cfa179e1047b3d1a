"""Process-level plumbing: the HTTP concurrency cap and the shared Redis cache client."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from config.limits import HttpConcurrencyLimit
from games.cache import SharedRedisCache


@pytest.mark.asyncio
async def test_http_requests_over_the_cap_wait_their_turn() -> None:
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
