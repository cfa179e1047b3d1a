"""dirty_money's How to play pictures: money cards, action cards, placements, villains and
locations, each drawn by the board's own functions."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.boards.dirty_money import context as board
from games.engines.dirty_money import cards as C

# One clean and one dirty card of each currency, a crypto card, and one of each action card.
SAMPLE_MONEY = ("EUR-3C-1", "USD-5C-1", "YEN-4C-1", "EUR-7D-1", "USD-9D-1", "CRY-3C-1", "CRY-3D-1")
# One placement of each type, all from Europe (every region has the same structure).
SAMPLE_PLACEMENTS = tuple(f"EU-{n:02d}" for n in (1, 6, 7, 9, 10, 11, 12, 13, 14, 15, 16))


def guide_context() -> dict[str, Any]:
    actions = [board.money_card(f"ACT-{kind}-1") for kind in C.ACTION_COUNTS]
    locations = [{"name": _(C.LOCATION_NAMES[loc]), "help": board.location_help(loc)} for loc in C.LOCATION_ORDER]
    return {
        "money": [board.money_card(card) for card in SAMPLE_MONEY],
        "actions": actions,
        "placements": [board.placement(card) for card in SAMPLE_PLACEMENTS],
        "villains": [board.villain(v) for v in C.VILLAINS],
        "locations": locations,
    }
