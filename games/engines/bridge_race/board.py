"""Board geometry: grid, start cells, zones, guardrails (R-11..R-16)."""

from __future__ import annotations

LANES = 5
ROWS = 33
LAST_ROW = ROWS - 1

Cell = tuple[int, int]

# R-12 start cells: id -> (cell, money, initial rank)
START_CELLS: dict[str, tuple[Cell, int]] = {
    "S1": ((2, 2), 600),
    "S2": ((1, 1), 700),
    "S3": ((3, 1), 800),
    "S4": ((0, 0), 900),
    "S5": ((4, 0), 1000),
}
START_AREA_ROWS = (0, 1, 2)

# R-13 zones
ZONES: dict[int, tuple[int, int]] = {
    1: (3, 8),
    2: (9, 14),
    3: (15, 20),
    4: (21, 26),
    5: (27, 32),
}

# R-14 guardrails: (name, kind, side, first row, last row); side -1 west, +1 east
GUARDRAILS: tuple[tuple[str, str, int, int, int], ...] = (
    ("GR1", "small", -1, 0, 2),
    ("GR2", "small", 1, 0, 2),
    ("GR3", "large", -1, 12, 17),
    ("GR4", "large", 1, 15, 20),
    ("GR5", "small", -1, 24, 26),
    ("GR6", "small", 1, 27, 29),
)

# R-4 free steering tokens by speed
FREE_TOKENS = {0: 0, 10: 4, 20: 3, 30: 2, 40: 1, 50: 0}

# R-19 prizes by player count
PRIZES = {3: (600,), 4: (800, 200), 5: (1000, 400, 100)}

# R-84 forced zone by player count; R-85 wall
FORCED_ZONE = {5: 3, 4: 4, 3: 5}
WALL_POLICE = {5: (), 4: ((2, "A14", 1),), 3: ((1, "A14", 1), (3, "A16", 2))}
WALL_CONTAINER_LANES = {5: (0, 1, 2, 3, 4), 4: (0, 1, 3, 4), 3: (0, 2, 4)}

DIRS8: tuple[Cell, ...] = (
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
)


def on_bridge(cell: Cell) -> bool:
    return 0 <= cell[0] < LANES and 0 <= cell[1] < ROWS


def edge_kind(side: int, row: int) -> str:
    """'open', 'small' or 'large' for the side edge (-1 west, +1 east) of ``row``."""
    for _name, kind, s, lo, hi in GUARDRAILS:
        if s == side and lo <= row <= hi:
            return kind
    return "open"


def guarded(side: int, row: int) -> bool:
    return edge_kind(side, row) != "open"


def zone_of(row: int) -> int:
    for z, (lo, hi) in ZONES.items():
        if lo <= row <= hi:
            return z
    return 0


def zone_rows(zone: int) -> tuple[int, int]:
    return ZONES[zone]


def wall_row(players: int) -> int:
    return ZONES[FORCED_ZONE[players]][1]


def adjacent(cell: Cell) -> list[Cell]:
    out = []
    for dl in (-1, 0, 1):
        for dr in (-1, 0, 1):
            if dl == 0 and dr == 0:
                continue
            c = (cell[0] + dl, cell[1] + dr)
            if on_bridge(c):
                out.append(c)
    return out


def key(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def unkey(text: str) -> Cell:
    a, b = text.split(",")
    return (int(a), int(b))


def crane_order(cell: Cell, max_dist: int = 40) -> list[Cell]:
    """R-43 search order around ``cell`` (excluding the cell itself)."""
    out: list[Cell] = []
    lane, row = cell
    for dist in range(1, max_dist + 1):
        row_offsets = [0]
        for k in range(1, dist + 1):
            row_offsets += [-k, k]
        for dr in row_offsets:
            cands = []
            for dl in range(-dist, dist + 1):
                if max(abs(dl), abs(dr)) != dist:
                    continue
                c = (lane + dl, row + dr)
                if not on_bridge(c):
                    continue
                cands.append((abs(dl), abs(c[0] - 2), c[0], c))
            cands.sort()
            out.extend(c for *_r, c in cands)
    return out
