"""Where bridge_race's bridge is drawn (R-11): x = lane, y = row, row 0 at the bottom and the finish at
the top; and the cells of a view looked up by position, for the controls' hints."""

from __future__ import annotations

from typing import Any

LANES = 5
ROWS = 33
CELL = 40
WATER = 26  # river strip on each side
TOP = 38  # finish band
BOTTOM = 28  # start end band
WIDTH = 2 * WATER + LANES * CELL
HEIGHT = TOP + ROWS * CELL + BOTTOM
START_ROWS = (0, 1, 2)


def cell_x(lane: int) -> int:
    return WATER + lane * CELL


def cell_y(row: int) -> int:
    return TOP + (ROWS - 1 - row) * CELL


def on_bridge(lane: int, row: int) -> bool:
    return 0 <= lane < LANES and 0 <= row < ROWS


class BoardCells:
    """Cell lookups over the view's sparse cell list."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.cells: dict[tuple[int, int], dict[str, Any]] = {}
        for c in (view.get("board") or {}).get("cells") or ():
            self.cells[(c["lane"], c["row"])] = c

    def obj(self, lane: int, row: int) -> dict[str, Any] | None:
        c = self.cells.get((lane, row))
        return c["object"] if c else None

    def car(self, lane: int, row: int) -> dict[str, Any] | None:
        c = self.cells.get((lane, row))
        return c["car"] if c else None

    def money(self, lane: int, row: int) -> int:
        c = self.cells.get((lane, row))
        return int(c["money"]) if c else 0

    def trace(self, lane: int, row: int, dl: int, dr: int) -> tuple[str, tuple[int, int] | None]:
        """What a shot from (lane, row) along (dl, dr) stops at (R-51), for the hint only."""
        lane, row = lane + dl, row + dr
        while on_bridge(lane, row):
            if self.car(lane, row) is not None:
                return "car", (lane, row)
            o = self.obj(lane, row)
            if o is not None:
                if o["kind"] in ("container", "ramp") or o["fortified"]:
                    return "block", (lane, row)
                if o["kind"] in ("roadblock", "police"):
                    return o["kind"], (lane, row)
            lane, row = lane + dl, row + dr
        return "none", None
