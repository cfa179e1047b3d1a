"""dirty_money's end-of-game chart: the money in every hand as each round began and at the end
(R-3 values; the hands are revealed at the end, R-110, so the series is in the view only then)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.boards.charts import line_chart
from games.push.speaking import gettext as _


def chart(view: Mapping[str, Any], names: Mapping[int, str]) -> dict[str, Any] | None:
    """The chart of ``view``'s ``money_history`` (in the view once the game is over), else ``None``
    (also with fewer than two points: a game over before its first round ended has no course)."""
    history = view.get("money_history") or []
    if len(history) < 2:
        return None
    rounds = range(1, len(history))
    return line_chart(
        title=_("Money in hand over the rounds"),
        axis=_("Round"),
        value_name=_("money in hand"),
        labels=[*(_("Start of round %(n)s") % {"n": n} for n in rounds), _("End of the game")],
        ticks=[*(str(n) for n in rounds), _("End")],
        rows=history,
        names=names,
    )
