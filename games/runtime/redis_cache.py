"""Django's Redis cache with one client (and connection pool) per process, that outlives Redis outages.

Django makes a cache object per thread and context, and under ASGI every request runs in a new
one, so the stock backend opened a new Redis connection pool, and a new connection, per request
(sessions are read from the cache on every request). The client is thread-safe; share it.

A cache is an optimisation: while Redis cannot be reached, :class:`ResilientRedisCache` answers
like an empty cache that keeps nothing (logging the outage) instead of raising into every page.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from threading import Lock
from typing import Any, TypeVar

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

_clients: dict[tuple[Any, ...], RedisCacheClient] = {}
_lock = Lock()

T = TypeVar("T")

# After a failure, Redis is left alone this long: the calls of the requests meanwhile answer at
# once instead of each waiting for its own refused (or timed-out) connection.
PAUSE_SECONDS = 1.0
# Keys written or deleted while Redis was unreachable, deleted once it answers again (a value
# cached before the outage, such as a session signed out meanwhile, must not come back).
MAX_STALE_KEYS = 50_000
_paused_until: dict[tuple[Any, ...], float] = {}
_stale: dict[tuple[Any, ...], set[str]] = {}

OUTAGE_ERRORS = (RedisError, OSError)


class SharedRedisCache(RedisCache):
    # Set by RedisCache.__init__ (django-stubs leaves these private attributes out).
    _servers: list[str]
    _options: dict[str, Any]
    _class: type[RedisCacheClient]

    def _client_key(self) -> tuple[Any, ...]:
        return (tuple(self._servers), tuple(sorted((k, repr(v)) for k, v in self._options.items())))

    @property
    def _cache(self) -> RedisCacheClient:
        key = self._client_key()
        client = _clients.get(key)
        if client is None:
            with _lock:
                client = _clients.setdefault(key, self._class(self._servers, **self._options))
        return client


class ResilientRedisCache(SharedRedisCache):
    """A shared Redis cache that, while Redis is unreachable, misses every read and drops every write.

    It then answers as Django's DummyCache does: ``add`` says True (callers using it as a lock,
    such as allauth's rate limits, go on rather than wait and refuse), ``incr`` raises ValueError
    as for a missing key.
    """

    def _call(self, call: Callable[[], T], fallback: T, written: Iterable[Any] = (), version: int | None = None) -> T:
        client = self._client_key()
        if _paused_until.get(client, 0.0) > time.monotonic():
            self._remember_stale(client, written, version)
            return fallback
        try:
            self._delete_stale(client)
            return call()
        except OUTAGE_ERRORS as exc:
            _paused_until[client] = time.monotonic() + PAUSE_SECONDS
            log.warning("Redis cache %s unreachable, doing without it for %ss: %s", self._servers, PAUSE_SECONDS, exc)
            self._remember_stale(client, written, version)
            return fallback

    def _remember_stale(self, client: tuple[Any, ...], keys: Iterable[Any], version: int | None) -> None:
        made = [self.make_and_validate_key(key, version=version) for key in keys]
        if not made:
            return
        with _lock:
            stale = _stale.setdefault(client, set())
            if len(stale) + len(made) > MAX_STALE_KEYS:
                log.error("Redis cache %s: too many keys written during the outage to forget them all", self._servers)
                return
            stale.update(made)

    def _delete_stale(self, client: tuple[Any, ...]) -> None:
        stale = _stale.get(client)
        if not stale:
            return
        with _lock:
            keys = list(stale)
        self._cache.delete_many(keys)  # raises, keeping them, if Redis is still away
        with _lock:
            stale.difference_update(keys)
        log.warning("Redis cache %s is back: %s keys written during the outage deleted", self._servers, len(keys))

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        parent = super().add
        return self._call(lambda: parent(key, value, timeout, version), True, [key], version)

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        parent = super().get
        return self._call(lambda: parent(key, default, version), default)

    def set(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> None:
        parent = super().set
        self._call(lambda: parent(key, value, timeout, version), None, [key], version)

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        parent = super().touch
        return self._call(lambda: parent(key, timeout, version), False, [key], version)

    def delete(self, key: Any, version: int | None = None) -> bool:
        parent = super().delete
        return self._call(lambda: parent(key, version), False, [key], version)

    def get_many(self, keys: Iterable[Any], version: int | None = None) -> dict[Any, Any]:
        parent = super().get_many
        return self._call(lambda: parent(keys, version), {})

    def has_key(self, key: Any, version: int | None = None) -> bool:
        parent = super().has_key
        return self._call(lambda: parent(key, version), False)

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        parent = super().incr
        value: int | None = self._call(lambda: parent(key, delta, version), None, [key], version)
        if value is None:
            raise ValueError(f"Key '{key}' not found (the cache is unreachable).")
        return value

    def set_many(self, data: dict[Any, Any], timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> list[Any]:
        parent = super().set_many
        return self._call(lambda: parent(data, timeout, version), list(data), list(data), version)

    def delete_many(self, keys: Iterable[Any], version: int | None = None) -> None:
        parent = super().delete_many
        keys = list(keys)
        self._call(lambda: parent(keys, version), None, keys, version)

    def clear(self) -> None:
        parent = super().clear
        self._call(parent, None)
