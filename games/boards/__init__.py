"""Each game's presentation: ``games.boards.<game>.board_context`` turns the engine's view into what
its board template draws (plain, tested functions; the templates stay simple and template tags
stay tiny filters).

A game module defines::

    def board_context(*, view, seat, legal, names, finished, state_key=None) -> dict[str, Any]

(``state_key``: match, seed and version of the state the view is of, ``None`` outside a match, so
that a builder may keep what every viewer of that state sees alike) and its template reads the
result as ``board``; it may also name what each board fragment reads
(``FRAGMENT_INPUTS``, below) and what its board reads around them (``SHELL_INPUTS``). A game
without ``board_context`` gets no ``board``.
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
"""``inputs(context, key)``: everything a fragment reads from its context, for :mod:`games.push.fragment_memo`.

``context`` is the viewer's template context (the spectator's for a ``{% shared_fragment %}``) and
``key`` the fragment's loop key (``None`` for a single one). What it returns need only be
comparable by ``repr``; leaving out something the fragment shows makes it stale, which the tests
catch (``HIDEOUT_CHECK_FRAGMENT_INPUTS``).
"""


@cache
def fragment_inputs(game: str, name: str) -> FragmentInputs | None:
    """How fragment ``name`` of ``game``'s match page names its inputs; ``None``: rendered every time."""
    from games.boards import common

    module_inputs: dict[str, FragmentInputs] = getattr(_module(game), "FRAGMENT_INPUTS", {})
    return module_inputs.get(name) or common.FRAGMENT_INPUTS.get(name)


@cache
def shell_inputs(game: str) -> Callable[[Any], object] | None:
    """What ``game``'s board reads outside its fragments (``SHELL_INPUTS(context)`` in its module), for
    :mod:`games.push.shell_memo`; ``None``: the shell is rendered every time."""
    found: Callable[[Any], object] | None = getattr(_module(game), "SHELL_INPUTS", None)
    return found
