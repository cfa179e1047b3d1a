"""What a game's board package provides, as types: its ``board_context`` and its fragments' inputs.

Kept apart from ``games.boards`` (which finds a game's package) so that the shared board code and
every game's package can name these types without importing the finder.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class BoardInputs:
    """What every game's ``board_context`` is built from, passed as one argument.

    ``view`` is the engine's view for ``seat`` (``None``: a spectator), ``legal`` the seat's legal
    actions, ``names`` the seats' display names; ``state_key`` is the match, seed and version of
    the state the view is of (``None`` outside a match), so that a builder may keep what every
    viewer of that state sees alike.
    """

    view: dict[str, Any]
    seat: int | None
    legal: list[dict[str, Any]]
    names: Mapping[int, str]
    finished: bool
    state_key: tuple[Any, ...] | None = None


BoardContext = Callable[[BoardInputs], dict[str, Any]]
"""``board_context(inputs)``: the context a game's board template reads as ``board``."""


ChartBuilder = Callable[[Mapping[str, Any], Mapping[int, str]], "dict[str, Any] | None"]
"""``chart(view, names)``: the end-of-game chart of a game's view (:func:`games.boards.charts.line_chart`'s
dict), ``None`` when the view holds no series."""


FragmentInputs = Callable[[Any, Any], object]
"""``inputs(context, key)``: everything a fragment reads from its context, for :mod:`games.push.fragment_memo`.

``context`` is the viewer's template context (the spectator's for a ``{% shared_fragment %}``) and
``key`` the fragment's loop key (``None`` for a single one). What it returns need only be
comparable by ``repr``; leaving out something the fragment shows makes it stale, which the tests
catch (``HIDEOUT_CHECK_FRAGMENT_INPUTS``).
"""
