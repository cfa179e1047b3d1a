"""What a game's board package provides, as types: its ``board_context`` and its fragments' inputs.

Kept apart from ``games.boards`` (which finds a game's package) so that the shared board code and
every game's package can name these types without importing the finder.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol


class BoardContext(Protocol):
    """``board_context(*, view, seat, legal, names, finished, state_key=None)``: the board's context.

    ``view`` is the engine's view for ``seat`` (``None``: a spectator), ``legal`` the seat's legal
    actions, ``names`` the seats' display names; ``state_key`` is the match, seed and version of
    the state the view is of (``None`` outside a match), so that a builder may keep what every
    viewer of that state sees alike.
    """

    def __call__(
        self,
        *,
        view: dict[str, Any],
        seat: int | None,
        legal: list[dict[str, Any]],
        names: Mapping[int, str],
        finished: bool,
        state_key: tuple[Any, ...] | None = None,
    ) -> dict[str, Any]: ...


FragmentInputs = Callable[[Any, Any], object]
"""``inputs(context, key)``: everything a fragment reads from its context, for :mod:`games.push.fragment_memo`.

``context`` is the viewer's template context (the spectator's for a ``{% shared_fragment %}``) and
``key`` the fragment's loop key (``None`` for a single one). What it returns need only be
comparable by ``repr``; leaving out something the fragment shows makes it stale, which the tests
catch (``HIDEOUT_CHECK_FRAGMENT_INPUTS``).
"""
