"""exit_memory's end-of-game chart: every seat's score after each round (public, section 8)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.boards.charts import line_chart, numbered_from_end
from games.push.speaking import gettext as _


def chart(view: Mapping[str, Any], names: Mapping[int, str]) -> dict[str, Any] | None:
    """The chart of ``view``'s ``score_history`` (in the view once the game is over), else ``None``."""
    history = view.get("score_history") or []
    if not history:
        return None
    numbers = numbered_from_end(len(history), int(view["round"]))
    return line_chart(
        title=_("Scores after each round"),
        axis=_("Round"),
        value_name=_("points"),
        labels=[_("Round %(n)s") % {"n": n} for n in numbers],
        ticks=[str(n) for n in numbers],
        rows=history,
        names=names,
    )
