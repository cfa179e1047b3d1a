"""The resolution walk against routes drawn as text (R-25..R-37): the laid-out picture, every step
of the transcript and the stop with its reason, cell and side."""

from __future__ import annotations

import textwrap
from typing import Any

import pytest

from games.engines.exit_memory.walk import walk

from .routes import ROUTES, Route

GLYPH = {
    "START": "S",
    "LEFT": "L",
    "RIGHT": "R",
    "DOUBLE_LEFT": "D",
    "DOUBLE_RIGHT": "d",
    "CROSS": "+",
    "ROUNDABOUT": "O",
}


def picture_of(result: dict[str, Any]) -> str:
    cells: dict[tuple[int, int], str] = {(0, 0): "S"}
    for s in result["steps"]:
        if s["kind"] == "REVEAL":
            glyph = ("|" if s["facing"] in "NS" else "-") if s["type"] == "STRAIGHT" else GLYPH[s["type"]]
            cells[(s["cell"][0], s["cell"][1])] = glyph
    xs, ys = [x for x, _ in cells], [y for _, y in cells]
    rows = []
    for y in range(max(ys), min(ys) - 1, -1):
        rows.append("".join(cells.get((x, y), ".") for x in range(min(xs), max(xs) + 1)))
    return "\n".join(rows)


def step_lines(result: dict[str, Any]) -> list[str]:
    return [
        f"{s['kind']} {s['tile']} {s['cell'][0]},{s['cell'][1]} {s['entry']}>{s['exit']} {s['turn']} {s['k']}"
        for s in result["steps"]
    ]


def outcome_of(result: dict[str, Any]) -> str:
    if result["outcome"] == "ESCAPED":
        return "ESCAPED"
    text = f"LOST {result['lost_at']} {' '.join(result['reasons'])}"
    if result["blocked"]:
        x, y = result["blocked"]["cell"]
        text += f" at {x},{y} {result['blocked']['side']}"
    return text


@pytest.mark.parametrize("route", ROUTES, ids=[r.name for r in ROUTES])
def test_walk_matches_the_drawn_route(route: Route) -> None:
    """Each route (routes.txt) is named for the rule it checks: the step M1-M6 (R-28), a second
    path (R-30), roundabouts (R-31), the stops (R-33)."""
    result = walk(route.tiles.split(), route.floors.split())
    assert picture_of(result) == textwrap.dedent(route.picture).strip()
    assert step_lines(result) == [line.strip() for line in route.steps.strip().splitlines()]
    assert outcome_of(result) == route.outcome
    assert [s["step"] for s in result["steps"]] == list(range(1, len(result["steps"]) + 1))  # R-71 numbering


def test_every_lost_condition_has_a_route() -> None:
    """R-36: HEAD-ON, LOOP and DEAD END (by M6 and by M2) and FL1..FL6 each end some route."""
    seen = {reason for r in ROUTES for reason in outcome_of(walk(r.tiles.split(), r.floors.split())).split()}
    assert {"HEAD-ON", "LOOP", "DEAD", "FL1", "FL2", "FL3", "FL4", "FL5", "FL6", "ESCAPED"} <= seen
    edge_stops = {r.name for r in ROUTES if r.name.startswith("R-34")}
    assert len(edge_stops) == 2


def test_R29_a_geometric_stop_is_charged_to_the_last_revealed_tile() -> None:
    """R-29: L is k at the stop, even when the stop comes on the move after tile #k."""
    result = walk(["T09", "T11", "T13", "T01", "T02"], ["FL0"])
    assert (result["outcome"], result["lost_at"]) == ("LOST", 3)  # tiles 4 and 5 are never laid


def test_R37_floor_checks_run_before_the_next_move() -> None:
    """R-37: a floor loss at #k comes before a geometric failure on the move after #k (same L)."""
    # Three lefts run into the start tile's side after #3, but FL4 is not met and FL6 needs 4;
    # with a fourth left-turning step the floor card wins.
    result = walk(["T09", "T11", "T13"], ["FL0", "FL6"])
    assert result["reasons"] == ["DEAD END"]
    result = walk(["T09", "T07", "T11", "T06", "T13", "T10", "T12"], ["FL0", "FL6"])
    assert (result["lost_at"], result["reasons"], result["blocked"]) == (6, ["FL6"], None)


def test_R32_the_walk_ends_for_every_pile_of_roundabouts() -> None:
    """R-32: a pile of nothing but roundabouts still stops."""
    result = walk([f"T{i}" for i in range(32, 38)], ["FL0"])
    assert result["outcome"] in ("LOST", "ESCAPED") and len(result["steps"]) <= 6 * 5


def test_R26_the_walk_starts_on_the_start_tile_heading_north_and_a_first_roundabout_goes_straight() -> None:
    """R-26: p = (0,0), h = N, k = 0, and the start tile (straight) is the latest revealed tile."""
    result = walk(["T32"], ["FL0"])  # a roundabout copies the turn of the tile revealed before it
    first = result["steps"][0]
    assert (first["cell"], first["entry"], first["exit"], first["turn"], first["k"]) == (
        [0, 1],
        "N",
        "N",
        "straight",
        1,
    )
    assert result["outcome"] == "ESCAPED"


def test_R27_the_start_cells_flow_set_is_north_so_a_side_entry_is_a_dead_end() -> None:
    """R-27: F(start) = {N}; entering it heading E is neither against a flow (HEAD-ON) nor along one (LOOP)."""
    result = walk(["T09", "T11", "T13"], ["FL0"])  # three lefts come back into the start cell heading E
    assert result["reasons"] == ["DEAD END"] and result["blocked"] == {"cell": [0, 0], "side": "W"}
