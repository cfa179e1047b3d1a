"""Each game's presentation, one package per game, ``games.boards.<game>``, with the same parts in
the same places:

- ``__init__``: what the platform reads of it: ``board_context`` (a :data:`BoardContext`, called
  with one :class:`BoardInputs`) and, for a game whose board is pushed in fragments,
  ``FRAGMENT_INPUTS`` and ``SHELL_INPUTS``;
- ``context``: the engine's view turned into what its board template reads as ``board``;
- ``words``: its player-facing names and help, translated;
- ``fragments``: what each named fragment of its board reads, and what its shell reads;
- ``panels`` (and such): markup written in Python where the template engine was too slow;
- ``guide``: its How to play pictures (``guide_context``);
- ``tags``: its template library, if any (registered in ``TEMPLATES``' ``libraries``).

Its templates are ``templates/games/<game>/``. What every board shares is here: the match page's
own fragments (:mod:`.common`), action forms (:mod:`.forms`) and small lookups (:mod:`.lookups`).
A game without ``board_context`` gets no ``board``. Boards import nothing from
``games.templatetags`` (which imports them).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache
from typing import Any

from games.boards.contract import BoardContext, BoardInputs, FragmentInputs


@cache
def _module(game: str) -> Any:
    """``games.boards.<game>``, or ``None`` if the game has no board module."""
    try:
        return importlib.import_module(f"games.boards.{game}")
    except ModuleNotFoundError as exc:
        if exc.name != f"games.boards.{game}":
            raise
        return None


def _builder(game: str) -> BoardContext | None:
    found: BoardContext | None = getattr(_module(game), "board_context", None)
    return found


def context_for(game: str, inputs: BoardInputs) -> dict[str, Any] | None:
    """The board context of ``game`` for these inputs, or ``None`` if the game has no board module."""
    builder = _builder(game)
    if builder is None:
        return None
    return builder(inputs)


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
