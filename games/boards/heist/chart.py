"""heist's end-of-game chart: every balance at the start and after each heist (R-64: public)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.boards.charts import numbered_chart, numbered_from_end
from games.push.speaking import gettext as _


def chart(view: Mapping[str, Any], names: Mapping[int, str]) -> dict[str, Any] | None:
    """The chart of ``view``'s ``money_history`` (in the view once the game is over), else ``None``."""
    history = view.get("money_history") or []
    if not history:
        return None
    return numbered_chart(
        title=_("Money after each heist"),
        axis=_("Heist number"),
        value_name=_("millions"),
        point=_("Heist %(n)s"),
        numbers=numbered_from_end(len(history), int(view["heist"])),
        rows=history,
        names=names,
        start=(_("Before the first heist"), _("Start")),
    )
