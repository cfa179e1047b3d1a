"""The components of exit_memory: headings (2.2), direction tiles (2.3, 2.4), floor and danger
cards (2.5, 2.6) and the setup table (section 3)."""

from __future__ import annotations

from ..base import gettext_noop as _

# -- headings (2.2) -------------------------------------------------------------------------------

N, E, S, W = "N", "E", "S", "W"
HEADINGS: tuple[str, ...] = (N, E, S, W)
VECTORS: dict[str, tuple[int, int]] = {N: (0, 1), E: (1, 0), S: (0, -1), W: (-1, 0)}

STRAIGHT_TURN, LEFT_TURN, RIGHT_TURN = "straight", "left", "right"


def right(h: str) -> str:
    """A quarter turn clockwise: N→E→S→W→N."""
    return HEADINGS[(HEADINGS.index(h) + 1) % 4]


def left(h: str) -> str:
    """A quarter turn counter-clockwise: N→W→S→E→N."""
    return HEADINGS[(HEADINGS.index(h) + 3) % 4]


def back(h: str) -> str:
    return HEADINGS[(HEADINGS.index(h) + 2) % 4]


def turned(h: str, turn: str) -> str:
    """The heading ``h`` after a straight, left or right turn."""
    if turn == LEFT_TURN:
        return left(h)
    if turn == RIGHT_TURN:
        return right(h)
    return h


def turn_between(entry: str, exit_: str) -> str:
    """2.2 Turns: straight if exit = entry, left if exit = left(entry), right if exit = right(entry)."""
    if exit_ == entry:
        return STRAIGHT_TURN
    return LEFT_TURN if exit_ == left(entry) else RIGHT_TURN


def step(cell: tuple[int, int], h: str) -> tuple[int, int]:
    dx, dy = VECTORS[h]
    return (cell[0] + dx, cell[1] + dy)


# -- direction tiles (2.3) ------------------------------------------------------------------------

START, STRAIGHT, LEFT, RIGHT = "START", "STRAIGHT", "LEFT", "RIGHT"
DOUBLE_LEFT, DOUBLE_RIGHT, CROSS, ROUNDABOUT = "DOUBLE_LEFT", "DOUBLE_RIGHT", "CROSS", "ROUNDABOUT"

_TYPE_RANGES: tuple[tuple[str, int, int], ...] = (
    (START, 0, 0),
    (STRAIGHT, 1, 7),
    (LEFT, 8, 13),
    (RIGHT, 14, 17),
    (DOUBLE_LEFT, 18, 22),
    (DOUBLE_RIGHT, 23, 25),
    (CROSS, 26, 31),
    (ROUNDABOUT, 32, 37),
)
START_TILE = "T00"
TILE_TYPE: dict[str, str] = {f"T{i:02d}": kind for kind, lo, hi in _TYPE_RANGES for i in range(lo, hi + 1)}
SHUFFLED_TILES: tuple[str, ...] = tuple(f"T{i:02d}" for i in range(1, 38))
"""T01–T37: the tiles shuffled into the direction deck (section 3 step 6, R-44)."""

PATH1_TURN: dict[str, str] = {
    START: STRAIGHT_TURN,
    STRAIGHT: STRAIGHT_TURN,
    CROSS: STRAIGHT_TURN,
    LEFT: LEFT_TURN,
    DOUBLE_LEFT: LEFT_TURN,
    RIGHT: RIGHT_TURN,
    DOUBLE_RIGHT: RIGHT_TURN,
}
"""2.3 (and R-31): the turn of path 1; a roundabout has none of its own."""


def path2_sides(kind: str, facing: str) -> tuple[str, str] | None:
    """2.3: the two sides joined by path 2 of a double or cross tile with facing ``facing``."""
    if kind == DOUBLE_LEFT:
        return (facing, right(facing))
    if kind == DOUBLE_RIGHT:
        return (facing, left(facing))
    if kind == CROSS:
        return (left(facing), right(facing))
    return None


def display_exit(kind: str, facing: str) -> str:
    """R-6: the display exit heading of a face-up, non-roundabout top tile (path 1 only)."""
    return turned(facing, PATH1_TURN[kind])


# -- marks (2.4) ----------------------------------------------------------------------------------

CHARACTER: dict[str, str] = {
    "T01": "RUN", "T02": "FIR", "T03": "GRD", "T04": "JAN", "T05": "INT",
    "T08": "CAT", "T09": "RUN", "T10": "FIR", "T11": "GRD", "T12": "JAN",
    "T14": "INT", "T15": "CAT", "T16": "RUN",
    "T18": "FIR", "T19": "GRD", "T20": "JAN", "T21": "INT",
    "T23": "CAT", "T24": "RUN",
    "T26": "FIR", "T27": "GRD", "T28": "JAN", "T29": "INT", "T30": "CAT",
}  # fmt: skip
SYMBOL: dict[str, str] = {
    "T02": "FLAME", "T03": "SMOKE", "T06": "WATER",
    "T08": "FLAME", "T10": "BOLT", "T12": "GAS",
    "T14": "WATER", "T16": "SIREN",
    "T19": "SMOKE", "T20": "DEBRIS", "T23": "DEBRIS",
    "T27": "BOLT", "T28": "GAS", "T31": "SIREN",
}  # fmt: skip

# -- floor and danger cards (2.5, 2.6) ------------------------------------------------------------

FL0 = "FL0"
FLOOR_DECK: tuple[str, ...] = ("FL1", "FL2", "FL3", "FL4", "FL5", "FL6")
DANGER_DECK: tuple[str, ...] = ("DG1", "DG2", "DG3", "DG4", "DG5", "DG6", "DG7")
DANGER_SYMBOL: dict[str, str] = {
    "DG1": "FLAME",
    "DG2": "SMOKE",
    "DG3": "BOLT",
    "DG4": "WATER",
    "DG5": "DEBRIS",
    "DG6": "GAS",
    "DG7": "SIREN",
}

# -- outcomes (R-36) --------------------------------------------------------------------------------

ESCAPED, LOST = "ESCAPED", "LOST"
HEAD_ON, LOOP, DEAD_END = "HEAD-ON", "LOOP", "DEAD END"

# -- section 3 -------------------------------------------------------------------------------------

HAND_SIZE = 3


def target_score(players: int) -> int:
    """Section 3, R-46: 3 points with 2–3 players, 2 with 4–5."""
    return 3 if players <= 3 else 2


TERMS: dict[str, str] = {
    START: _("Start"),
    STRAIGHT: _("Straight"),
    LEFT: _("Left turn"),
    RIGHT: _("Right turn"),
    DOUBLE_LEFT: _("Double left"),
    DOUBLE_RIGHT: _("Double right"),
    CROSS: _("Crossing"),
    ROUNDABOUT: _("Roundabout"),
    "RUN": _("Runner"),
    "FIR": _("Firefighter"),
    "GRD": _("Guard"),
    "JAN": _("Janitor"),
    "INT": _("Intern"),
    "CAT": _("Cat"),
    "FLAME": _("Flame"),
    "SMOKE": _("Smoke"),
    "BOLT": _("Bolt"),
    "WATER": _("Water"),
    "DEBRIS": _("Debris"),
    "GAS": _("Gas"),
    "SIREN": _("Siren"),
    FL0: _("Ground floor"),
    "FL1": _("Crowded stairwell"),
    "FL2": _("Fire doors"),
    "FL3": _("Wrong way"),
    "FL4": _("Endless corridor"),
    "FL5": _("Hazard zone"),
    "FL6": _("Vertigo"),
    "DG1": _("Disorientation"),
    "DG2": _("Thick smoke"),
    "DG3": _("Power cut"),
    "DG4": _("Sprinklers"),
    "DG5": _("Collapsed corridor"),
    "DG6": _("Gas leak: run!"),
    "DG7": _("Jammed exit"),
    HEAD_ON: _("head-on collision"),
    LOOP: _("loop"),
    DEAD_END: _("dead end"),
}
"""Ids that log lines and views carry -> English names (translated by the web layer)."""
