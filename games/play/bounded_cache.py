"""A process-wide cache of at most a fixed number of entries, safe to share between threads.

The per-process caches of rendered fragments, boards, log lines, engine states and match rows all
need the same thing: look up, store, drop the entry touched least recently once full, clear between
tests. Each of them holds one of these.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from threading import Lock
from typing import Generic, TypeVar

from games.play import render_ahead as speculation

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class BoundedCache(Generic[K, V]):
    """A dictionary of at most ``size`` entries that drops the least recently stored or read one.

    ``revision_keyed``: an entry belongs to a match revision (or version) that only a write
    confirms. During a render ahead of a move's write (:mod:`games.play.render_ahead`) what is stored is
    held apart, and reaches the cache only if the write confirms that revision.
    """

    def __init__(self, size: int, *, revision_keyed: bool = False) -> None:
        self.size = size
        self._entries: OrderedDict[K, V] = OrderedDict()
        self._lock = Lock()
        self._revision_keyed = revision_keyed

    def get(self, key: K) -> V | None:
        if self._revision_keyed and (ahead := speculation.current()) is not None:
            held: V | None = ahead.get(self, key)
            if held is not None:
                return held
        # No lock to read: each dict operation is atomic, and an entry that another thread's put
        # dropped between the two is simply not moved (puts take the lock: they are several steps).
        value = self._entries.get(key)
        if value is not None:
            try:  # noqa: SIM105  (contextlib.suppress costs more than the lookup)
                self._entries.move_to_end(key)
            except KeyError:
                pass
        return value

    def get_or_build(self, key: K, build: Callable[[], V]) -> V:
        """The value kept under ``key``, else ``build()``, kept."""
        value = self.get(key)
        if value is None:
            value = build()
            self.put(key, value)
        return value

    def put(self, key: K, value: V) -> None:
        if self._revision_keyed and (ahead := speculation.current()) is not None:
            ahead.put(self, key, value)
            return
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def put_many(self, items: list[tuple[K, V]]) -> None:
        """``put`` of each item, under one taking of the lock (a render ahead's entries, committed)."""
        with self._lock:
            for key, value in items:
                self._entries[key] = value
                self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)
