"""A cap on the HTTP requests one server process works on at once.

Django's ASGI handler gives every request its own thread. Under load that means hundreds of
threads taking turns at one interpreter lock and queueing for a handful of database connections,
until some give up (a pool time-out is a 500). Requests over the cap wait here instead, in the
event loop, at no cost, and are served in the order they came.
"""

from __future__ import annotations

import asyncio
from typing import Any


class HttpConcurrencyLimit:
    def __init__(self, app: Any, limit: int) -> None:
        self.app = app
        self.limit = max(1, limit)
        self._semaphore: asyncio.Semaphore | None = None

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        if self._semaphore is None:
            self._semaphore = asyncio.Semaphore(self.limit)
        async with self._semaphore:
            return await self.app(scope, receive, send)
