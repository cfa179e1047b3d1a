"""bridge_race's end-of-game chart: every car's place at the end of each round (public, R-89)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.boards.charts import numbered_chart
from games.push.speaking import gettext as _


def chart(view: Mapping[str, Any], names: Mapping[int, str]) -> dict[str, Any] | None:
    """The chart of ``view``'s ``place_history`` (in the view once the game is over), else ``None``.

    Each entry is the round's number then each seat's place (1: in front); 1st is drawn at the top.
    """
    history = view.get("place_history") or []
    return numbered_chart(
        title=_("Places at the end of each round"),
        axis=_("Round"),
        value_name=_("place, 1 is in front"),
        point=_("Round %(n)s"),
        numbers=[entry[0] for entry in history],
        rows=[entry[1:] for entry in history],
        names=names,
        lower_is_better=True,
    )
