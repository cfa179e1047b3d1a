"""Fixed data of Police Alarm: the city map (section 3), the safe deck (D-1), the timings (T-5)."""

from __future__ import annotations

from collections import deque
from itertools import combinations_with_replacement

from ..base import gettext_noop

_ = gettext_noop

# Section 3.1 (normative): 19 x 19, '#' building, '.' road, 'S' start, 'A'-'L' circles (D-2).
MAP_ROWS: tuple[str, ...] = (
    "###################",
    "#A....###B........#",
    "#.###.#####.###.#.#",
    "#.###.#####.###C#.#",
    "#.###.###########.#",
    "#.........###.....#",
    "#.###.###.###.###.#",
    "#..D#.###.###E###.#",
    "#.###.###.###.#####",
    "#F###....S....###G#",
    "#####.###.###.###.#",
    "#####..H..###...#.#",
    "#####.###.###.###.#",
    "#..I..###.........#",
    "#.###.#######.###.#",
    "#...#.#####J..###.#",
    "#.###.#######.###.#",
    "#........K###....L#",
    "###################",
)
SIZE = 19

Cell = tuple[int, int]

# Section 3.3: directions (x to the right, y downwards).
DIRS: dict[str, Cell] = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}
DIR_ORDER: tuple[str, ...] = ("up", "down", "left", "right")
OPPOSITE: dict[str, str] = {"up": "down", "down": "up", "left": "right", "right": "left"}

ROAD: frozenset[Cell] = frozenset((x, y) for y, row in enumerate(MAP_ROWS) for x, ch in enumerate(row) if ch != "#")
START: Cell = next((x, y) for y, row in enumerate(MAP_ROWS) for x, ch in enumerate(row) if ch == "S")
CIRCLE_IDS: tuple[str, ...] = tuple("ABCDEFGHIJKL")
CIRCLE_CELL: dict[str, Cell] = {
    ch: (x, y) for y, row in enumerate(MAP_ROWS) for x, ch in enumerate(row) if ch in CIRCLE_IDS
}
CELL_CIRCLE: dict[Cell, str] = {cell: cid for cid, cell in CIRCLE_CELL.items()}


def step(cell: Cell, direction: str) -> Cell:
    dx, dy = DIRS[direction]
    return (cell[0] + dx, cell[1] + dy)


NEIGHBOURS: dict[Cell, tuple[tuple[str, Cell], ...]] = {
    cell: tuple((d, step(cell, d)) for d in DIR_ORDER if step(cell, d) in ROAD) for cell in ROAD
}


def _bfs(origin: Cell) -> dict[Cell, int]:
    dist = {origin: 0}
    queue = deque([origin])
    while queue:
        cell = queue.popleft()
        for _d, nxt in NEIGHBOURS[cell]:
            if nxt not in dist:
                dist[nxt] = dist[cell] + 1
                queue.append(nxt)
    return dist


def _far_side(cell: Cell, nxt: Cell) -> frozenset[Cell] | None:
    """The cells behind the street from ``cell`` to ``nxt`` if it is a bridge (None otherwise)."""
    seen = {nxt}
    queue = deque([nxt])
    while queue:
        here = queue.popleft()
        for _d, other in NEIGHBOURS[here]:
            if here == nxt and other == cell:
                continue
            if other == cell:
                return None  # another way back: not a bridge
            if other not in seen:
                seen.add(other)
                queue.append(other)
    return frozenset(seen)


# For every move across a bridge (a street whose far side has no other way back, e.g. an alley):
# the circles behind it. Used only to leave pointless dead ends out of the listed moves.
BEHIND: dict[tuple[Cell, str], frozenset[str]] = {}
for _cell in ROAD:
    for _dir, _next in NEIGHBOURS[_cell]:
        _side = _far_side(_cell, _next)
        if _side is not None:
            BEHIND[(_cell, _dir)] = frozenset(CELL_CIRCLE[c] for c in _side if c in CELL_CIRCLE)


# Distances from every circle to every road cell (used by the bots and tap to drive).
DIST_TO: dict[str, dict[Cell, int]] = {cid: _bfs(cell) for cid, cell in CIRCLE_CELL.items()}


def route(origin: Cell, circle: str) -> list[str]:
    """A shortest route (directions) from ``origin`` to ``circle``; ties prefer up, down, left, right.

    The client's *tap to drive* (W-10) and the police bot follow it one move per STEP_MS.
    """
    dist = DIST_TO[circle]
    out: list[str] = []
    cell = origin
    while dist[cell] > 0:
        for d, nxt in NEIGHBOURS[cell]:
            if dist[nxt] == dist[cell] - 1:
                out.append(d)
                cell = nxt
                break
    return out


# D-1: every multiset of three values 1-6 except the triples and {1,3,5}, {2,4,6}; ids in
# lexicographic order of the ascending codes.
CODES: tuple[tuple[int, int, int], ...] = tuple(
    c
    for c in combinations_with_replacement(range(1, 7), 3)
    if not (c[0] == c[1] == c[2]) and c not in ((1, 3, 5), (2, 4, 6))
)
CARD_CODE: dict[int, tuple[int, int, int]] = {i + 1: c for i, c in enumerate(CODES)}
CARD_IDS: tuple[int, ...] = tuple(CARD_CODE)


def code_str(card: int) -> str:
    return "".join(str(v) for v in CARD_CODE[card])


# T-5 constants (D-24), in milliseconds.
STEP_MS = 150
ROLL_MS = 1000
ALARM_PAUSE_MS = 2000
COUNTDOWN_MS = 3000
PLACEMENT_TIMEOUT_MS = 60_000
AUTO_READY_MS = 30_000
HEARTBEAT_MS = 2000
DISCONNECT_MS = 6000
ABANDON_OFFER_MS = 120_000
CARDS_PER_ROUND = 6
YOUNG_TARGET = 3  # V-8

STEP_CHOICES: tuple[int, ...] = (150, 200, 250, 300)  # W-10
ROLL_CHOICES: tuple[int, ...] = (1000, 1500, 2000)  # W-10
TAP_TO_DRIVE_MS = 250  # W-10: tap to drive from this step_ms on

TERMS: dict[str, str] = {
    "thief": _("thief"),
    "police": _("police"),
    "green": _("green light"),
    "escaped": _("the thief got away"),
    "all_cracked": _("all six safes cracked"),
    "caught": _("the thief was caught"),
    "forfeited": _("the thief gave up"),
}
