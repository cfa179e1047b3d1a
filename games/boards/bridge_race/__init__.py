"""bridge_race's presentation, in the parts every game's has (see :mod:`games.boards`), its board
pushed in fragments (:mod:`.fragments`). Its busiest panels are written in Python for speed
(:mod:`.panels`) from its pieces (:mod:`.pieces`), its bridge drawn as SVG (:mod:`.drawing`,
:mod:`.geometry`) and the controls of the seat to act (:mod:`.controls`); its template library is
``{% load bridge_race %}`` (:mod:`.tags`)."""

from __future__ import annotations

from games.boards.bridge_race.chart import chart
from games.boards.bridge_race.context import board_context
from games.boards.bridge_race.fragments import FRAGMENT_INPUTS, SHELL_INPUTS

__all__ = ["FRAGMENT_INPUTS", "SHELL_INPUTS", "board_context", "chart"]
