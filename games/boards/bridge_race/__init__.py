"""bridge_race's presentation, the parts in the same places as every game's:

- :mod:`.context`: the engine's view turned into the board's model (``board_context``);
- :mod:`.words`: the names and help its board and How to play page show, translated;
- :mod:`.panels`: its busiest panels, written in Python for speed, from its pieces
  (:mod:`.pieces`), its bridge drawn as SVG (:mod:`.drawing`, :mod:`.geometry`) and the controls
  of the seat to act (:mod:`.controls`);
- :mod:`.fragments`: what each named fragment of its board reads, and what its shell reads;
- :mod:`.guide`: its How to play pictures;
- :mod:`.tags`: its template library (``{% load bridge_race %}``).

The platform reads ``board_context``, ``FRAGMENT_INPUTS`` and ``SHELL_INPUTS`` here
(:mod:`games.boards`); its templates are ``templates/games/bridge_race/``.
"""

from __future__ import annotations

from games.boards.bridge_race.context import board_context as _board_context
from games.boards.bridge_race.fragments import FRAGMENT_INPUTS, SHELL_INPUTS
from games.boards.contract import BoardContext

board_context: BoardContext = _board_context

__all__ = ["FRAGMENT_INPUTS", "SHELL_INPUTS", "board_context"]
