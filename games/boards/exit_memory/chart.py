"""exit_memory's end-of-game chart: every seat's score after each round (public, section 8)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.boards.charts import numbered_chart, numbered_from_end
from games.push.speaking import gettext as _


def chart(view: Mapping[str, Any], names: Mapping[int, str]) -> dict[str, Any] | None:
    """The chart of ``view``'s ``score_history`` (in the view once the game is over), else ``None``."""
    history = view.get("score_history") or []
    if not history:
        return None
    return numbered_chart(
        title=_("Scores after each round"),
        axis=_("Round"),
        value_name=_("points"),
        point=_("Round %(n)s"),
        numbers=numbered_from_end(len(history), int(view["round"])),
        rows=history,
        names=names,
    )
