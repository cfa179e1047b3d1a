"""Django's Redis cache with one client (and connection pool) per process.

Django makes a cache object per thread and context, and under ASGI every request runs in a new
one, so the stock backend opened a new Redis connection pool, and a new connection, per request
(sessions are read from the cache on every request). The client is thread-safe; share it.
"""

from __future__ import annotations

from threading import Lock
from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient

_clients: dict[tuple[Any, ...], RedisCacheClient] = {}
_lock = Lock()


class SharedRedisCache(RedisCache):
    # Set by RedisCache.__init__ (django-stubs leaves these private attributes out).
    _servers: list[str]
    _options: dict[str, Any]
    _class: type[RedisCacheClient]

    @property
    def _cache(self) -> RedisCacheClient:
        key = (tuple(self._servers), tuple(sorted((k, repr(v)) for k, v in self._options.items())))
        client = _clients.get(key)
        if client is None:
            with _lock:
                client = _clients.setdefault(key, self._class(self._servers, **self._options))
        return client
