"""heist's presentation, in the parts every game's has (see :mod:`games.boards`), its board pushed in
fragments (:mod:`.fragments`). Its cards (:mod:`.cards`) and busiest panels (:mod:`.panels`) are
written in Python for speed; its template library is ``{% load heist %}`` (:mod:`.tags`)."""

from __future__ import annotations

from games.boards.heist.chart import chart
from games.boards.heist.context import board_context
from games.boards.heist.fragments import FRAGMENT_INPUTS, SHELL_INPUTS

__all__ = ["FRAGMENT_INPUTS", "SHELL_INPUTS", "board_context", "chart"]
