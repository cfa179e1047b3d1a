"""police_alarm's presentation, the parts in the same places as every game's:

- :mod:`.context`: the engine's view turned into its board's context (``board_context``), and
  the driving school's (``school_context``);
- :mod:`.words`: the words its page's script writes on the board, translated;
- :mod:`.guide`: its How to play pictures.

Its board is drawn once by its template (``templates/games/police_alarm/``) and then kept live by
its script (``static/js/police_alarm.js``), so it has no panels written in Python, no fragments of
its own and no template library. The platform reads ``board_context`` here (:mod:`games.boards`),
and the site's driving school page ``school_context``.
"""

from __future__ import annotations

from games.boards.contract import BoardContext
from games.boards.police_alarm.context import board_context as _board_context
from games.boards.police_alarm.context import school_context

board_context: BoardContext = _board_context

__all__ = ["board_context", "school_context"]
