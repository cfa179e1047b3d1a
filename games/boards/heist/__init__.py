"""heist's presentation, the parts in the same places as every game's:

- :mod:`.context`: the engine's view turned into the board's context (``board_context``);
- :mod:`.words`: the names and help its board and How to play page show, translated;
- :mod:`.cards` and :mod:`.panels`: its cards and busiest panels, written in Python for speed;
- :mod:`.fragments`: what each named fragment of its board reads, and what its shell reads;
- :mod:`.guide`: its How to play pictures;
- :mod:`.tags`: its template library (``{% load heist %}``).

The platform reads ``board_context``, ``FRAGMENT_INPUTS`` and ``SHELL_INPUTS`` here
(:mod:`games.boards`); its templates are ``templates/games/heist/``.
"""

from __future__ import annotations

from games.boards.contract import BoardContext
from games.boards.heist.context import board_context as _board_context
from games.boards.heist.fragments import FRAGMENT_INPUTS, SHELL_INPUTS

board_context: BoardContext = _board_context

__all__ = ["FRAGMENT_INPUTS", "SHELL_INPUTS", "board_context"]
