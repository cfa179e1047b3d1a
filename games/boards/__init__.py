"""Each game's presentation: ``games.boards.<game>.board_context`` turns the engine's view into what
its board template draws (plain, tested functions; the templates stay simple and template tags
stay tiny filters).

A game module defines::

    def board_context(*, view, seat, legal, names, finished) -> dict[str, Any]

and its template reads the result as ``board``; it may also name what each board fragment reads
(``FRAGMENT_INPUTS``, below). A game without ``board_context`` gets no ``board``: bridge_race, whose
board predates this, builds its model in the ``bridge_model`` tag and its module names only the
inputs of its fragments.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache
from typing import Any


@cache
def _module(game: str) -> Any:
    """``games.boards.<game>``, or ``None`` if the game has no board module."""
    try:
        return importlib.import_module(f"games.boards.{game}")
    except ModuleNotFoundError as exc:
        if exc.name != f"games.boards.{game}":
            raise
        return None


def _builder(game: str) -> Any:
    return getattr(_module(game), "board_context", None)


def context_for(game: str, **inputs: Any) -> dict[str, Any] | None:
    """The board context of ``game`` for these inputs, or ``None`` if the game has no board module."""
    builder = _builder(game)
    if builder is None:
        return None
    result: dict[str, Any] = builder(**inputs)
    return result


FragmentInputs = Callable[[Any, Any], object]
"""``inputs(context, key)``: everything a fragment reads from its context, for :mod:`games.fragment_memo`.

``context`` is the viewer's template context (the spectator's for a ``{% shared %}`` block) and
``key`` the fragment's loop key (``None`` for a single one). What it returns need only be
comparable by ``repr``; leaving out something the fragment shows makes it stale, which the tests
catch (``HIDEOUT_CHECK_FRAGMENT_INPUTS``).
"""


@cache
def fragment_inputs(game: str, name: str) -> FragmentInputs | None:
    """How fragment ``name`` of ``game``'s match page names its inputs; ``None``: rendered every time."""
    from . import common

    module_inputs: dict[str, FragmentInputs] = getattr(_module(game), "FRAGMENT_INPUTS", {})
    return module_inputs.get(name) or common.FRAGMENT_INPUTS.get(name)
