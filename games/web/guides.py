"""How to play: one page per game offered on the site, written for players (no rule ids).

The words of each page are in ``templates/games/<slug>/how_to_play.html``; the pictures and names
it shows are given by its game's ``games.boards.<slug>.guide``, drawn as that game's board draws them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.boards.bridge_race import guide as bridge_race
from games.boards.dirty_money import guide as dirty_money
from games.boards.exit_memory import guide as exit_memory
from games.boards.heist import guide as heist
from games.boards.police_alarm import guide as police_alarm

GUIDES: dict[str, Callable[[], dict[str, Any]]] = {
    "heist": heist.guide_context,
    "bridge_race": bridge_race.guide_context,
    "dirty_money": dirty_money.guide_context,
    "exit_memory": exit_memory.guide_context,
    "police_alarm": police_alarm.guide_context,
}


def template_for(slug: str) -> str:
    return f"games/{slug}/how_to_play.html"
