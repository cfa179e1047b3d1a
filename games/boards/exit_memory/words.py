"""exit_memory's words: the names and help its board and How to play page show, marked for
translation here and translated where they are shown."""

from __future__ import annotations

from django.utils.translation import gettext_noop

from games.engines.exit_memory.tiles import TERMS
from games.push.speaking import gettext as _

TYPE_HELP = {
    "START": gettext_noop("The start tile: the route leaves it along its arrow."),
    "STRAIGHT": gettext_noop("The route goes straight on."),
    "LEFT": gettext_noop("The route turns left."),
    "RIGHT": gettext_noop("The route turns right."),
    "DOUBLE_LEFT": gettext_noop(
        "The arrow turns left. The second curve, without an arrow, can be used once if the route comes back to it."
    ),
    "DOUBLE_RIGHT": gettext_noop(
        "The arrow turns right. The second curve, without an arrow, can be used once if the route comes back to it."
    ),
    "CROSS": gettext_noop(
        "The arrow goes straight on. The crossing line can be used once if the route comes back to it."
    ),
    "ROUNDABOUT": gettext_noop(
        "Turns the way the tile revealed just before it turned, every time the route enters it. "
        "Any tile may follow it, facing any way."
    ),
}
FLOOR_HELP = {
    "FL0": gettext_noop("Lost on a head-on collision, a loop or a dead end."),
    "FL1": gettext_noop("Lost when the revealed tiles show 5 different characters."),
    "FL2": gettext_noop("Lost when a tile lands 5 or more cells from the start along a row or a column."),
    "FL3": gettext_noop("Lost when a tile lands below the start tile's row."),
    "FL4": gettext_noop("Lost after 3 straight steps in a row."),
    "FL5": gettext_noop("Lost when 4 revealed tiles bear a hazard symbol."),
    "FL6": gettext_noop("Lost when the left turns outnumber the right turns by 4, or the other way round."),
}
DANGER_HELP = {
    "DG1": gettext_noop("A tile with a flame turns the whole pile a quarter turn clockwise."),
    "DG2": gettext_noop("After a tile with smoke, the next tile is placed face down."),
    "DG3": gettext_noop("A tile with a bolt turns the whole pile half a turn."),
    "DG4": gettext_noop("After a tile with water, every player still in the round passes their hand to the left."),
    "DG5": gettext_noop("After a tile with debris, the next player misses their next turn."),
    "DG6": gettext_noop("Whoever places a tile with gas must place one more tile at once."),
    "DG7": gettext_noop("After a tile with a siren, the next player may not declare lost on their next turn."),
}
REASON_HELP = {
    "HEAD-ON": gettext_noop("Head-on collision: the route ran against itself."),
    "LOOP": gettext_noop("Loop: the route ran back into its own path."),
    "DEAD END": gettext_noop("Dead end: the route hit the side of a corridor."),
}
STATUS_NAMES = {
    "premature": gettext_noop("too early"),
    "scoring": gettext_noop("scores"),
    "too late": gettext_noop("too late"),
}
WALK_KINDS = {
    "REVEAL": gettext_noop("revealed"),
    "SECOND_PATH": gettext_noop("second path"),
    "ROUNDABOUT_AGAIN": gettext_noop("roundabout again"),
}

# Which way a tile faces, as a button says it (with its arrow): the page's up, right, down, left.
FACING_WORDS = {
    "N": gettext_noop("up"),
    "E": gettext_noop("right"),
    "S": gettext_noop("down"),
    "W": gettext_noop("left"),
}


def term(key: str) -> str:
    return _(TERMS[key]) if key in TERMS else key
