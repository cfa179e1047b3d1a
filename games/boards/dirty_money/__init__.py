"""dirty_money's presentation, the parts in the same places as every game's:

- :mod:`.context`: the engine's view turned into what its board template draws (``board_context``);
- :mod:`.words`: the names and help its board and How to play page show, translated;
- :mod:`.guide`: its How to play pictures.

Its board is drawn by its templates alone (``templates/games/dirty_money/``), so it has no panels
written in Python, no fragments of its own and no template library. The platform reads
``board_context`` here (:mod:`games.boards`).
"""

from __future__ import annotations

from games.boards.contract import BoardContext
from games.boards.dirty_money.context import board_context as _board_context

board_context: BoardContext = _board_context

__all__ = ["board_context"]
