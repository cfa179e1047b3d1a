"""police_alarm's presentation, in the parts every game's has (see :mod:`games.boards`), and the
site's driving school page's context (``school_context``). Its board is drawn once by its template
(``templates/games/police_alarm/``) and then kept live by its script (``static/js/police_alarm.js``),
so it has no panels written in Python, no fragments of its own and no template library; its words
(:mod:`.words`) are the ones that script writes on the board."""

from __future__ import annotations

from games.boards.police_alarm.chart import chart
from games.boards.police_alarm.context import board_context, school_context

__all__ = ["board_context", "chart", "school_context"]
