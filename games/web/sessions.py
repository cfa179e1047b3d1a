"""Sessions kept in the database and cached, that a failing cache cannot make unreadable.

Django's ``cached_db`` engine reads the cache first and the database on a miss, but raises when
the cache cannot be written, checked or deleted from, so a cache outage answered every signed-in
page with a 500. The database holds every session: here every cache error is logged and taken
as a miss, and the session is read from and written to the database alone.
"""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.sessions.backends.cached_db import SessionStore as CachedDBStore

log = logging.getLogger(__name__)


class ForgivingCache:
    """The session cache, with each error logged and answered as a miss (or a write not done)."""

    def __init__(self, cache: Any) -> None:
        self._inner = cache

    def _failed(self, operation: str, exc: Exception) -> None:
        log.warning("session cache %s failed, using the database: %r", operation, exc)

    def get(self, key: str, default: Any = None) -> Any:
        try:
            return self._inner.get(key, default)
        except Exception as exc:
            self._failed("get", exc)
            return default

    def set(self, key: str, value: Any, timeout: Any = None) -> None:
        try:
            self._inner.set(key, value, timeout)
        except Exception as exc:
            self._failed("set", exc)

    def delete(self, key: str) -> bool:
        try:
            return bool(self._inner.delete(key))
        except Exception as exc:
            self._failed("delete", exc)
            return False

    def __contains__(self, key: str) -> bool:
        try:
            return key in self._inner
        except Exception as exc:
            self._failed("has_key", exc)
            return False

    async def aget(self, key: str, default: Any = None) -> Any:
        try:
            return await self._inner.aget(key, default)
        except Exception as exc:
            self._failed("get", exc)
            return default

    async def aset(self, key: str, value: Any, timeout: Any = None) -> None:
        try:
            await self._inner.aset(key, value, timeout)
        except Exception as exc:
            self._failed("set", exc)

    async def adelete(self, key: str) -> bool:
        try:
            return bool(await self._inner.adelete(key))
        except Exception as exc:
            self._failed("delete", exc)
            return False

    def __str__(self) -> str:
        return str(self._inner)


class SessionStore(CachedDBStore):
    _cache: Any  # set by CachedDBStore.__init__ (the stubs leave it out)

    def __init__(self, session_key: str | None = None) -> None:
        super().__init__(session_key)
        self._cache = ForgivingCache(self._cache)
