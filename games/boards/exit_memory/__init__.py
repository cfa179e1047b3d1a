"""exit_memory's presentation, in the parts every game's has (see :mod:`games.boards`): its view
turned into a board (:mod:`.context`), drawn by its templates alone (``templates/games/exit_memory/``),
its words (:mod:`.words`) and How to play pictures (:mod:`.guide`)."""

from __future__ import annotations

from games.boards.exit_memory.chart import chart
from games.boards.exit_memory.context import board_context

__all__ = ["board_context", "chart"]
