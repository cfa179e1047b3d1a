"""dirty_money's presentation, in the parts every game's has (see :mod:`games.boards`). Its board is
drawn by its templates alone (``templates/games/dirty_money/``): no panels written in Python, no
fragments of its own, no template library."""

from __future__ import annotations

from games.boards.dirty_money.chart import chart
from games.boards.dirty_money.context import board_context

__all__ = ["board_context", "chart"]
