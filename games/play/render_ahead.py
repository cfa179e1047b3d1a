"""A move's pushes rendered while its write is still on the wire, held apart until the write answers.

On PostgreSQL a move is written by one statement (:mod:`games.play.guarded`), and most of that
statement's time is PostgreSQL's: the writer thread only waits. The pushes after the move render
every connected seat's fragments from the new state, which the process already decided; so the
writer renders them while the statement runs (``games.push.pushes.render_ahead``), and sends them once
the statement confirms the revision they were rendered for.

Whatever such a render would store in a cache that belongs to a revision (a :class:`BoundedCache`
made with ``revision_keyed=True``: rendered boards, shared fragments, log lines, engine states) is
held here, per thread, and reaches those caches only when the write confirms it
(:meth:`Ahead.commit`). If the guard refuses the write (another process moved the match on), or
the match row or its seats are not as foreseen, everything held is dropped and the pushes are
rendered again after the write, as without this. Reads during the render see what it held.

Nothing here imports Django: the refusal of database queries during such a render is the caller's
(a query would need the connection that is still waiting for the statement).
"""

from __future__ import annotations

import threading
from collections.abc import Hashable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol


class _Cache(Protocol):
    def put(self, key: Any, value: Any) -> None: ...

    def put_many(self, items: list[tuple[Any, Any]]) -> None: ...


class Ahead:
    """What one render ahead of its write stored: each cache's entries, by key."""

    def __init__(self) -> None:
        self._held: dict[tuple[int, Hashable], tuple[_Cache, Hashable, Any]] = {}
        self.refused = False  # it asked for something it may not have before the write (a query)

    def get(self, cache: _Cache, key: Hashable) -> Any:
        entry = self._held.get((id(cache), key))
        return None if entry is None else entry[2]

    def put(self, cache: _Cache, key: Hashable, value: Any) -> None:
        self._held[(id(cache), key)] = (cache, key, value)

    def commit(self) -> None:
        """The write confirmed the revision: store what the render held (call outside :func:`rendering`)."""
        assert current() is None, "commit after the render, not during it"
        by_cache: dict[int, tuple[_Cache, list[tuple[Any, Any]]]] = {}
        for cache, key, value in self._held.values():
            by_cache.setdefault(id(cache), (cache, []))[1].append((key, value))
        for cache, items in by_cache.values():
            cache.put_many(items)
        self._held.clear()


class _Local(threading.local):
    # A default on the class: a thread that never rendered ahead (a socket's event loop) finds it
    # there, where a missing attribute would cost an AttributeError caught (some 0.3 µs, asked
    # by every lookup of a revision-keyed cache).
    ahead: Ahead | None = None


_local = _Local()


def current() -> Ahead | None:
    """The render ahead of its write that this thread is in, if any."""
    return _local.ahead


@contextmanager
def rendering() -> Iterator[Ahead]:
    """Within it, this thread's stores to revision-keyed caches are held in the ``Ahead`` it yields."""
    assert current() is None, "renders ahead do not nest"
    ahead = Ahead()
    _local.ahead = ahead
    try:
        yield ahead
    finally:
        _local.ahead = None
