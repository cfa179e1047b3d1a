"""Each game's presentation, one package per game, ``games.boards.<game>``, with the same parts in
the same places:

- ``__init__``: what the platform reads of it: ``board_context`` (a :data:`BoardContext`, called
  with one :class:`BoardInputs`), ``chart`` (a :data:`ChartBuilder`: the end-of-game chart of a
  view, also the board's ``chart`` once the match is finished) and, for a game whose board is
  pushed in fragments, ``FRAGMENT_INPUTS`` and ``SHELL_INPUTS``;
- ``chart``: its end-of-game chart, drawn by the shared :mod:`.charts`;
- ``context``: the engine's view turned into what its board template reads as ``board``;
- ``words``: its player-facing names and help, translated;
- ``fragments``: what each named fragment of its board reads, and what its shell reads;
- ``panels`` (and such): markup written in Python where the template engine was too slow;
- ``guide``: its How to play pictures (``guide_context``);
- ``tags``: its template library, if any (registered in ``TEMPLATES``' ``libraries``).

Its templates are ``templates/games/<game>/``. What every board shares is here: the match page's
own fragments (:mod:`.common`), action forms (:mod:`.forms`), small lookups (:mod:`.lookups`) and
the chart (:mod:`.charts`, with :func:`chart_for` for the pages outside a match, such as the replay).
A game without ``board_context`` gets no ``board``. Boards import nothing from
``games.templatetags`` (which imports them).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from games.boards.contract import BoardContext, BoardInputs, ChartBuilder, FragmentInputs


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


def chart_for(game: str, view: Mapping[str, Any], names: Mapping[int, str]) -> dict[str, Any] | None:
    """The end-of-game chart of ``game`` drawn from ``view`` (an engine's view of a finished match,
    for any seat or a spectator: the series is public once it is over) with the seats' display
    names, for ``templates/games/includes/chart.html`` (``{% include ... with chart=... %}``);
    ``None`` if the game has no chart or the view holds no series (a match not over)."""
    found: ChartBuilder | None = getattr(_module(game), "chart", None)
    return found(view, names) if found is not None else None


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
