"""exit_memory's How to play pictures: every kind of tile, floor card and danger card, drawn and
named as the board draws them."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.boards.exit_memory import context as board
from games.boards.exit_memory.words import DANGER_HELP, FLOOR_HELP, term
from games.engines.exit_memory.tiles import DANGER_DECK, FL0, FLOOR_DECK

SAMPLE_TILES = (
    ("T00", "START"),
    ("T07", "STRAIGHT"),
    ("T13", "LEFT"),
    ("T17", "RIGHT"),
    ("T22", "DOUBLE_LEFT"),
    ("T25", "DOUBLE_RIGHT"),
    ("T29", "CROSS"),
    ("T32", "ROUNDABOUT"),
)


def guide_context() -> dict[str, Any]:
    return {
        "tiles": [board.tile(t, kind, "N") for t, kind in SAMPLE_TILES],
        "marked": [board.tile("T08", "LEFT", "N", character="CAT", symbol="FLAME")],
        "floors": [{"name": term(f), "help": _(FLOOR_HELP[f])} for f in (FL0, *FLOOR_DECK)],
        "dangers": [{"name": term(d), "help": _(DANGER_HELP[d])} for d in DANGER_DECK],
        "example": board.walk_picture(
            {
                "steps": [
                    {"kind": "REVEAL", "cell": [0, 1], "type": "STRAIGHT", "tile": "T01", "facing": "N", "step": 1},
                    {"kind": "REVEAL", "cell": [0, 2], "type": "LEFT", "tile": "T09", "facing": "N", "step": 2},
                    {"kind": "REVEAL", "cell": [-1, 2], "type": "LEFT", "tile": "T11", "facing": "W", "step": 3},
                    {"kind": "REVEAL", "cell": [-1, 1], "type": "LEFT", "tile": "T13", "facing": "S", "step": 4},
                ],
                "outcome": "LOST",
                "blocked": {"cell": [0, 1], "side": "W"},
            }
        ),
    }
