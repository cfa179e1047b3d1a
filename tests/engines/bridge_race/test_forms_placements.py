"""R-93: actions sent by plain HTML forms (flat string fields), and the full placement cells that
``view`` gives the seat whose decision it is (every cell ``decide`` accepts, not just a sample)."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

import pytest

from games.engines.base import SYSTEM, DecideContext, IllegalAction, InvalidAction
from games.engines.bridge_race import RULES
from games.engines.bridge_race.state import Game, Prompt

from .helpers import car, do, scenario, turn_of

# ---- flat form encodings ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("flat", "nested"),
    [
        # a form's adjust[] selects: "index:+10" / "index:-10"; "unused" and "index:0" are skipped
        (
            {"type": "RESOLVE_DICE", "repair": ["3"], "adjust": ["0:+10", "1:-10", "2:0", "unused", "6:unused"]},
            {"type": "RESOLVE_DICE", "repair": [3], "adjust": [[0, 10], [1, -10]]},
        ),
        (
            {"type": "RESOLVE_DICE", "repair": [], "adjust": ["5:10", " 1 : -10 "]},
            {"type": "RESOLVE_DICE", "repair": [], "adjust": [[1, -10], [5, 10]]},
        ),
        (
            {"type": "RESOLVE_DICE", "adjust": "0:+10"},  # one select named adjust (no [])
            {"type": "RESOLVE_DICE", "adjust": [[0, 10]]},
        ),
        (
            {"type": "RESOLVE_DICE", "adjust": ["unused", "unused"], "repair": [""]},
            {"type": "RESOLVE_DICE", "adjust": []},
        ),
        # Roadworks: moves[] as "lane,row>lane,row"; a blank choice ("no move") is skipped
        (
            {"type": "USE_TILE", "tile": "B24", "moves": ["2,12>3,13", "2,12>3,13", ""]},
            {"type": "USE_TILE", "tile": "B24", "moves": [[[2, 12], [3, 13]], [[2, 12], [3, 13]]]},
        ),
        (
            {"type": "USE_TILE", "tile": "B24", "moves": "2,12>1,11"},
            {"type": "USE_TILE", "tile": "B24", "moves": [[[2, 12], [1, 11]]]},
        ),
        # the other USE_TILE parameters as a form sends them
        (
            {"type": "USE_TILE", "tile": "B25", "cells": ["1,11", "3,11"]},
            {"type": "USE_TILE", "tile": "B25", "cells": [[1, 11], [3, 11]]},
        ),
        ({"type": "USE_TILE", "tile": "B25", "cells": "1,11"}, {"type": "USE_TILE", "tile": "B25", "cells": [[1, 11]]}),
        ({"type": "USE_TILE", "tile": "B03", "target": "2"}, {"type": "USE_TILE", "tile": "B03", "target": 2}),
        (
            {"type": "USE_TILE", "tile": "B23", "die": "4", "face": "POINTER"},
            {"type": "USE_TILE", "tile": "B23", "die": 4, "face": "POINTER"},
        ),
        ({"type": "USE_TILE", "tile": "B18", "dir": "-1,1"}, {"type": "USE_TILE", "tile": "B18", "dir": [-1, 1]}),
        ({"type": "USE_TILE", "tile": "B29", "cell": "0,30"}, {"type": "USE_TILE", "tile": "B29", "cell": [0, 30]}),
        ({"type": "PLACE_RAMP", "cell": "4,30", "dir": "-1"}, {"type": "PLACE_RAMP", "cell": [4, 30], "dir": -1}),
        ({"type": "PLACE_MINE", "tile": "B27", "cell": "1,25"}, {"type": "PLACE_MINE", "tile": "B27", "cell": [1, 25]}),
        ({"type": "SHOOT", "die": "1", "dir": "1,-1"}, {"type": "SHOOT", "die": 1, "dir": [1, -1]}),
    ],
)
def test_r93_flat_form_fields_parse_like_json(flat: dict[str, Any], nested: dict[str, Any]) -> None:
    assert RULES.parse_action(flat) == RULES.parse_action(nested)


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ({"type": "RESOLVE_DICE", "adjust": ["0+10"]}, "index:+10"),
        ({"type": "RESOLVE_DICE", "adjust": ["x:+10"]}, "index:+10"),
        ({"type": "RESOLVE_DICE", "adjust": ["0:+ten"]}, "index:+10"),
        ({"type": "RESOLVE_DICE", "adjust": ["0:+10:5"]}, "index:+10"),
        ({"type": "RESOLVE_DICE", "adjust": [":10"]}, "index:+10"),
        ({"type": "RESOLVE_DICE", "adjust": ["0:"]}, "index:+10"),
        ({"type": "RESOLVE_DICE", "adjust": ["\u00b2:10"]}, "index:+10"),  # a unicode digit
        ({"type": "RESOLVE_DICE", "adjust": 10}, "adjust must be a list"),
        ({"type": "RESOLVE_DICE", "adjust": [[0, 10, 1]]}, "index, delta"),
        ({"type": "RESOLVE_DICE", "repair": ["one"]}, "repair must be an integer"),
        ({"type": "USE_TILE", "tile": "B24", "moves": ["2,12-3,13"]}, "lane,row>lane,row"),
        ({"type": "USE_TILE", "tile": "B24", "moves": ["2,12>"]}, "lane,row>lane,row"),
        ({"type": "USE_TILE", "tile": "B24", "moves": ["2,12>3,13>4,14"]}, "lane,row>lane,row"),
        ({"type": "USE_TILE", "tile": "B24", "moves": ["a,b>3,13"]}, "lane,row>lane,row"),
        ({"type": "USE_TILE", "tile": "B24", "moves": ["2>3"]}, "lane,row>lane,row"),
        ({"type": "USE_TILE", "tile": "B24", "moves": 7}, "moves must be a list"),
        ({"type": "USE_TILE", "tile": "B25", "cells": ["1"]}, "cells must be a cell"),
        ({"type": "USE_TILE", "tile": "B25", "cells": ["1,2,3"]}, "cells must be a cell"),
        ({"type": "USE_TILE", "tile": "B25", "cells": ["a,b"]}, "cells must be a cell"),
        ({"type": "USE_TILE", "tile": "B25", "cells": 12}, "cells must be a list"),
        ({"type": "USE_TILE", "tile": "B29", "cell": "north"}, "cell must be a cell"),
        ({"type": "USE_TILE", "tile": "B03", "target": "Player 2"}, "target must be an integer"),
        ({"type": "USE_TILE", "tile": "B23", "die": "first", "face": "POINTER"}, "die must be an integer"),
        ({"type": "USE_TILE", "tile": "B18", "dir": "up"}, "dir must be a cell"),
        ({"type": "PLACE_RAMP", "cell": "2,12", "dir": "up"}, "dir must be an integer"),
    ],
)
def test_r93_malformed_flat_form_fields_are_refused(payload: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidAction, match=re.escape(message)):
        RULES.parse_action(payload)


def test_r93_flat_form_actions_are_decided_like_json() -> None:
    mod = scenario(
        "row 10: . . 0 . .\nrow 14: . . 1 . .\nrow 1: 2 . . . .",
        stage="mod",
        speeds={0: 20},
        dice=("POINTER", "POINTER", "STEER", "SHOOT", "REPAIR"),
    )
    g, _ = do(mod, 0, {"type": "RESOLVE_DICE", "repair": [], "adjust": ["0:+10", "1:+10", "unused"]})
    assert car(g, 0).speed == 40 and [d.state for d in turn_of(g).dice][:2] == ["used", "used"]
    g, _ = do(mod, 0, {"type": "RESOLVE_DICE", "adjust": ["0:-10", "1:0"]})
    assert car(g, 0).speed == 10 and turn_of(g).dice[1].state == ""
    with pytest.raises(IllegalAction):  # well formed, but die 2 is no pointer
        do(mod, 0, {"type": "RESOLVE_DICE", "adjust": ["2:+10"]})
    with pytest.raises(IllegalAction):  # well formed, but not a ±10 step
        do(mod, 0, {"type": "RESOLVE_DICE", "adjust": ["0:+20"]})

    after = scenario(
        "row 10: . . 0 . .\nrow 12: . . r3 . .\nrow 14: . . 1 . .\nrow 1: 2 . . . .",
        stage="after",
        tiles={0: ("B24", "B25", "B03")},
    )
    g, _ = do(after, 0, {"type": "USE_TILE", "tile": "B24", "moves": ["2,12>3,13", "2,12>3,13"]})
    assert g.objects[(2, 12)].n == 1 and g.objects[(3, 13)].n == 2
    g, _ = do(after, 0, {"type": "USE_TILE", "tile": "B25", "cells": ["1,9", "3,9"]})
    assert g.objects[(1, 9)].kind == "container" and g.objects[(3, 9)].kind == "container"
    g, _ = do(after, 0, {"type": "USE_TILE", "tile": "B03", "target": "1"})
    assert car(g, 1).dur == car(after, 1).dur - 1


# ---- full placement cells in the view ------------------------------------------------------------

EVERY_CELL = [(lane, row) for row in range(-1, 34) for lane in range(-1, 6)]
BOARD = """
row 31: . . . 1 .
row 20: r1 . . . .
row 14: . # . . .
row 12: # . r3 . .
row 11: . . . c2 .
row 10: . . 0 . .
row 8: . s . . .
row 1: 2 . . . .
"""


def accepts(g: Game, seat: int, payload: dict[str, Any]) -> bool:
    try:
        RULES.decide(g, seat, RULES.parse_action(payload), DecideContext(random.Random(1), 1000.0))
    except IllegalAction:
        return False
    return True


def accepted_cells(
    g: Game, seat: int, make: Callable[[list[int]], dict[str, Any]], cells: Iterable[tuple[int, int]] = EVERY_CELL
) -> set[tuple[int, int]]:
    return {c for c in cells if accepts(g, seat, make(list(c)))}


def placing(kind: str, tile: str) -> Callable[[list[int]], dict[str, Any]]:
    """For ``accepted_cells``: the ``kind`` payload putting ``tile`` at a cell."""
    return lambda c: {"type": kind, "tile": tile, "cell": c}


def as_set(cells: list[list[int]]) -> set[tuple[int, int]]:
    return {(c[0], c[1]) for c in cells}


def sample(g: Game, seat: int, kind: str, tile: str | None = None, key: str = "cell") -> set[tuple[int, int]]:
    """The cells the (limited) legal_actions list for one placement."""
    out = set()
    for a in RULES.legal_actions(g, seat):
        if a["type"] == kind and (tile is None or a.get("tile") == tile):
            c = a[key][0] if key == "cells" else a[key]
            out.add((c[0], c[1]))
    return out


def placements_of(g: Game, seat: int) -> dict[str, Any]:
    v = RULES.view(g, seat)
    assert json.loads(json.dumps(v)) == v  # JSON-safe
    for other in {None, *range(g.players)} - {seat}:
        assert "placements" not in RULES.view(g, other)
    return v["placements"]


def test_r93_view_ramp_cells_are_every_cell_decide_accepts() -> None:
    g = scenario(BOARD, stage="pre", speeds={0: 20})
    places = placements_of(g, 0)
    assert set(places) == {"PLACE_RAMP"}
    cells = as_set(places["PLACE_RAMP"])
    assert cells == accepted_cells(g, 0, lambda c: {"type": "PLACE_RAMP", "cell": c, "dir": 1})
    old = sample(g, 0, "PLACE_RAMP")
    assert old < cells
    for far in ((4, 30), (0, 3), (1, 9), (0, 32)):  # behind the car and far ahead: outside the old sample
        assert far in cells and far not in old
    for refused in ((2, 10), (1, 14), (2, 12), (0, 2), (3, 31)):  # car, container, roadblock, start, car
        assert refused not in cells


def test_r93_view_tile_and_mine_cells_are_every_cell_decide_accepts() -> None:
    g = scenario(BOARD, stage="after", tiles={0: ("B27", "B28", "B29", "B30", "B25", "B24")})
    places = placements_of(g, 0)
    assert set(places) == {"B27", "B28", "B29", "B30", "B25", "B24"}
    for tile in ("B27", "B28"):
        want = accepted_cells(g, 0, placing("PLACE_MINE", tile))
        assert as_set(places[tile]) == want
    for tile in ("B29", "B30"):
        want = accepted_cells(g, 0, placing("USE_TILE", tile))
        assert as_set(places[tile]) == want
        old = sample(g, 0, "USE_TILE", tile)
        assert old < want and {(4, 30), (0, 4), (3, 20)} <= want - old
    assert {(4, 30), (0, 25)} <= as_set(places["B27"]) - sample(g, 0, "PLACE_MINE")
    drop = as_set(places["B25"])
    assert drop == accepted_cells(g, 0, lambda c: {"type": "USE_TILE", "tile": "B25", "cells": [c]})
    # next to the car, free, not in the start area, touching no container: (1, 11) touches (0, 12)
    assert drop == {(1, 9), (2, 9), (3, 9), (1, 10), (3, 10), (2, 11)}
    a, b = (1, 9), (3, 9)
    assert accepts(g, 0, {"type": "USE_TILE", "tile": "B25", "cells": [list(a), list(b)]})
    moves = {((m[0][0], m[0][1]), (m[1][0], m[1][1])) for m in places["B24"]}
    sources = [(2, 12), (0, 20), (3, 11), (2, 11)]  # the roadblocks, caltrops and an empty cell
    want_moves = {
        (src, dst)
        for src in sources
        for dst in EVERY_CELL
        if accepts(g, 0, {"type": "USE_TILE", "tile": "B24", "moves": [[list(src), list(dst)]]})
    }
    assert moves == want_moves
    old_moves = {
        ((a["moves"][0][0][0], a["moves"][0][0][1]), (a["moves"][0][1][0], a["moves"][0][1][1]))
        for a in RULES.legal_actions(g, 0)
        if a.get("tile") == "B24"
    }
    assert old_moves < moves and len(moves - old_moves) >= 8


def test_r93_view_placements_follow_the_stage() -> None:
    tiles = {0: ("B27", "B29", "B25", "B24", "B21")}
    move = scenario(BOARD, stage="move", speeds={0: 20}, tiles=tiles)
    assert set(placements_of(move, 0)) == {"B29", "B25", "B24"}  # mines wait for the end of the turn
    pre = scenario(BOARD, stage="pre", speeds={0: 20}, tiles=tiles)
    assert set(placements_of(pre, 0)) == {"PLACE_RAMP"}  # tiles wait for final dice
    no_ramp = scenario(BOARD, stage="pre", speeds={0: 20}, mode="first_game")
    assert placements_of(no_ramp, 0) == {}
    for payload in (
        {"type": "PLACE_MINE", "tile": "B27", "cell": [4, 30]},
        {"type": "PLACE_RAMP", "cell": [4, 30], "dir": 1},
    ):
        assert not accepts(move, 0, payload)


def test_r93_view_adventure_and_choose_cells() -> None:
    s = RULES.initial(3, {"mode": "standard", "time_limit": 60})
    s, _ = do(s, SYSTEM, {"type": "start"})
    while s.phase == "choose_car":
        seat = next(iter(RULES.actors(s)))
        s, _ = do(s, seat, RULES.legal_actions(s, seat)[0])
    assert s.phase == "adventure"
    seat = next(iter(RULES.actors(s)))
    places = placements_of(s, seat)
    assert set(places) == set(s.face_up)
    for tile in sorted(s.face_up)[:2]:  # decide is slow-ish here: two tiles are enough
        want = accepted_cells(s, seat, placing("PLACE_ADVENTURE", tile))
        assert as_set(places[tile]) == want and len(want) > 100

    g = scenario(BOARD, stage="move", speeds={0: 20}, tiles={0: ("B29",)})
    g = replace(g, prompt=Prompt(0, "dodge", ((1, 12), (3, 12)), {"type": "SHOOT"}, (), ()))
    assert placements_of(g, 0) == {"CHOOSE": [[1, 12], [3, 12]]}
