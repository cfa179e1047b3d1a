"""police_alarm's end-of-game chart: the points after each round and the safes cracked in it (the
young variant: the cards after each turn). All public (H-2)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.boards.charts import numbered_chart
from games.push.speaking import gettext as _


def chart(view: Mapping[str, Any], names: Mapping[int, str]) -> dict[str, Any] | None:
    """The chart of ``view``'s ``round_history`` (in the view once the game is over), else ``None``.

    Each entry is the round's (turn's) number, the safes cracked in it (cards won), then each
    seat's points (cards) after it.
    """
    history = view.get("round_history") or []
    young = view.get("variant") == "young"
    return numbered_chart(
        title=_("Cards after each turn") if young else _("Points after each round"),
        axis=_("Turn") if young else _("Round"),
        value_name=_("cards") if young else _("points"),
        point=_("Turn %(n)s") if young else _("Round %(n)s"),
        numbers=[entry[0] for entry in history],
        rows=[entry[2:] for entry in history],
        names=names,
        bars=None if young else (_("Safes cracked"), [entry[1] for entry in history]),
    )
