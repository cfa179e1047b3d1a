"""Each game's presentation: ``games.boards.<game>.board_context`` turns the engine's view into what
its board template draws (plain, tested functions; the templates stay simple and template tags
stay tiny filters).

A game module defines::

    def board_context(*, view, seat, legal, names, finished) -> dict[str, Any]

and its template reads the result as ``board``. Games without a module (heist, bridge_race, whose
boards predate this) get no ``board``.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any


@cache
def _builder(game: str) -> Any:
    try:
        module = importlib.import_module(f"games.boards.{game}")
    except ModuleNotFoundError as exc:
        if exc.name != f"games.boards.{game}":
            raise
        return None
    return getattr(module, "board_context", None)


def context_for(game: str, **inputs: Any) -> dict[str, Any] | None:
    """The board context of ``game`` for these inputs, or ``None`` if the game has no board module."""
    builder = _builder(game)
    if builder is None:
        return None
    result: dict[str, Any] = builder(**inputs)
    return result
