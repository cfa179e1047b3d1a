"""What was worked out from a game state, kept for the latest states and found by identity.

A state is never changed once made, and the site asks the same questions of the state a move left
several times per move (its spectator's view, the acting seat's legal actions, the bridge's free
cells). Each state is held with what was kept for it, so that its id is not reused meanwhile.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from .state import Game


class KeptPerState:
    """At most ``size`` answers, by (state, question); emptied when full (simpler than an LRU: the
    latest states are the ones asked again)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: dict[tuple[int, Hashable], tuple[Game, Any]] = {}

    def get(self, state: Game, question: Hashable, build: Callable[[], Any]) -> Any:
        key = (id(state), question)
        hit = self._entries.get(key)
        if hit is not None and hit[0] is state:
            return hit[1]
        value = build()
        if len(self._entries) >= self.size:
            self._entries.clear()
        self._entries[key] = (state, value)
        return value
