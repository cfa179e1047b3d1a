"""What was worked out from an object, kept for the latest objects and found by identity.

For objects that many callers hold and that never change once made (an engine state asked the same
questions several times per move, a fragment's HTML shared by every seat's board, a part of a board
model kept for a match state): looking one up costs no hashing or comparing of its content. Each
object is held with what was kept for it, so that its id is not reused meanwhile. Full, it is
emptied (simpler than an LRU: the latest objects are the ones asked again).

Here, free of Django, so that the engines and the site keep their answers the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

V = TypeVar("V")


class KeptByIdentity(Generic[V]):
    """At most ``size`` answers, by (object, question)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: dict[tuple[int, Hashable], tuple[Any, V]] = {}

    def get(self, obj: Any, make: Callable[[Any], V], question: Hashable = None) -> V:
        """The answer kept for ``obj`` and ``question``, else ``make(obj)``, kept."""
        key = (id(obj), question)
        kept = self._entries.get(key)
        if kept is not None and kept[0] is obj:
            return kept[1]
        value = make(obj)
        if len(self._entries) >= self.size:
            self._entries.clear()
        self._entries[key] = (obj, value)  # a dict operation is atomic: safe between threads
        return value

    def clear(self) -> None:
        self._entries.clear()
