"""Bridge Race's words and drawing helpers for templates (the engine only knows ids).

``bridge_model(view, seat, legal, names)`` turns the engine view (R-89) and this seat's
legal actions (R-93) into what ``templates/games/bridge_race/board.html`` draws: SVG coordinates,
translated names and titles, and the legal actions grouped per control. ``{% bridge_backdrop view %}``
is the static part of the bridge (cells, water, guardrails, zones, symbols), cached per layout and
language because it never changes during a match.
"""

from __future__ import annotations

import json
from functools import lru_cache
from html import escape as html_escape
from typing import TYPE_CHECKING, Any

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from games.bounded import BoundedCache
from games.engines.bridge_race.board import GUARDRAILS, START_CELLS, ZONES
from games.engines.bridge_race.state import ADVENTURE
from games.speaking import current_language, speaking

from .hideout import named

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

register = template.Library()


def _escape(value: Any) -> str:
    """Django's ``escape`` without its lazy-string wrapper and SafeString: the SVG and <option>s
    built here run it hundreds of times a render, into strings marked safe whole."""
    return html_escape(str(value))


# ---- geometry: x = lane, y = row, row 0 at the bottom, the finish at the top ------------

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


@register.filter
def svg_x(lane: Any) -> int:
    """Left edge of a lane in the bridge SVG."""
    return cell_x(int(lane))


@register.filter
def svg_y(row: Any) -> int:
    """Top edge of a row in the bridge SVG (row 0 at the bottom)."""
    return cell_y(int(row))


# ---- words ----------------------------------------------------------------------------------


# A board model is built in one language, looked up once for the whole build (asking Django's
# translation machinery for each of a model's words and cell labels was about a third of building
# it, docs/performance.md section 16): inside games.speaking.speaking, current_language() is a
# context variable's value.


def _language() -> str:
    return current_language() or ""


class Words(dict[Any, Any]):
    """A table of words to translate. A word looked up is a plain string in the current language,
    each language's strings made once, not a lazy translation that every use translates again:
    a board's model looks up hundreds of them, and each lazy one cost a catalogue lookup."""

    def __init__(self, words: dict[Any, Any]) -> None:
        super().__init__(words)
        self._in_language: dict[str, dict[Any, str]] = {}

    def _table(self) -> dict[Any, str]:
        language = _language()
        table = self._in_language.get(language)
        if table is None:
            table = self._in_language[language] = {key: str(word) for key, word in self.items()}
        return table

    def __getitem__(self, key: Any) -> str:
        return self._table()[key]

    def get(self, key: Any, default: Any = None) -> Any:
        return self._table().get(key, default)


CHARACTER_NAMES = Words(
    {
        "C1": _("Pipetta"),
        "C2": _("Don Mochico"),
        "C3": _("W.B. Spender"),
        "C4": _("John Duke"),
        "C5": _("Clyde Parker"),
    }
)
CHARACTER_ABILITIES = Words(
    {
        "C1": _("Takes no damage and is not slowed when she hits another car."),
        "C2": _("Gets a $200 allowance at the end of each turn, unless he sold 2 or more dice."),
        "C3": _("Maximum durability 8 instead of 6."),
        "C4": _("Takes 1 less damage from the road, landings and bounces."),
        "C5": _("His turret shoots in any of the 8 directions."),
    }
)
CHARACTER_COLOUR_NAMES = Words(
    {"C1": _("red"), "C2": _("black"), "C3": _("white"), "C4": _("yellow"), "C5": _("green")}
)
# fill, ink (text on the car), outline
CHARACTER_PAINT = {
    "C1": ("#d8413a", "#ffffff", "#5e0f0b"),
    "C2": ("#1b1c20", "#ffffff", "#c9ccd4"),
    "C3": ("#f4f2ec", "#15161a", "#55585f"),
    "C4": ("#f2c230", "#1a1400", "#6a4f00"),
    "C5": ("#3aa55a", "#ffffff", "#0f4a22"),
}
NO_PAINT = ("#8b9099", "#ffffff", "#2a2d33")

BONUS_NAMES = Words(
    {
        "B01": _("Ramp Broker"),
        "B02": _("Rear Gunner"),
        "B03": _("Homing Bullet"),
        "B04": _("Gunsmith"),
        "B05": _("Onboard Mechanic"),
        "B06": _("Speed-Trap Pass"),
        "B07": _("Armoured Glass"),
        "B08": _("Puncture-Proof Tyres"),
        "B09": _("Crane Insurance"),
        "B10": _("Anchor"),
        "B11": _("Police Bribe"),
        "B12": _("Turbo Tuning"),
        "B13": _("Power Steering"),
        "B14": _("Pit Kit"),
        "B15": _("Tune-Up"),
        "B16": _("Rally Driver"),
        "B17": _("Second Chance"),
        "B18": _("Mortar"),
        "B19": _("Shotgun"),
        "B20": _("Molotov Cocktail"),
        "B21": _("Field Repair"),
        "B22": _("Lucky Double"),
        "B23": _("Loaded Die"),
        "B24": _("Roadworks"),
        "B25": _("Container Drop"),
        "B26": _("Payday"),
        "B27": _("Mine"),
        "B28": _("Mine"),
        "B29": _("Oil Slick"),
        "B30": _("Acid Pool"),
    }
)
BONUS_EFFECTS = Words(
    {
        "B01": _("At game end your unused ramp sells for $700 instead of $300."),
        "B02": _("Every Shoot die also fires a second shot in the opposite direction."),
        "B03": _("Once per turn: damage 1 to any car on the bridge, no die needed."),
        "B04": _("Once per turn: turn one final die (not a Damage) into Shoot."),
        "B05": _("Pay $100 to restore 1 durability; repeatable."),
        "B06": _("Speed-limit tiles have no effect on you until your next turn."),
        "B07": _("Shots and weapons of opponents and police do not hurt you until your next turn."),
        "B08": _("Caltrops have no effect on you until your next turn."),
        "B09": _("No crane fee if you fall into the river before your next turn."),
        "B10": _("No opponent can displace your car until your next turn."),
        "B11": _("Police shots pass through your car until your next turn."),
        "B12": _("2 extra speed adjustments this turn (before resolving the dice)."),
        "B13": _("+2 steering tokens this turn."),
        "B14": _("+1 steering token and restore 1 durability."),
        "B15": _("1 extra speed adjustment and restore 1 durability."),
        "B16": _("+1 steering token and 1 extra speed adjustment."),
        "B17": _("After your 2nd reroll, 2 more rerolls of any dice."),
        "B18": _("The first car in your line of fire is forced one cell along it."),
        "B19": _("Spend a Shoot die: the 2 cells straight ahead take damage 2."),
        "B20": _("The cell right behind your car takes damage 3."),
        "B21": _("Restore 2 durability."),
        "B22": _("One of your final dice counts twice."),
        "B23": _("Set one of your final dice to any face."),
        "B24": _("Move up to 5 roadblock pieces to adjacent cells."),
        "B25": _("Place 1 or 2 containers next to your car."),
        "B26": _("Gain $500."),
        "B27": _("Bury it at the end of your turn: the first opponent to enter takes damage 2."),
        "B28": _("Bury it at the end of your turn: the first opponent to enter takes damage 2."),
        "B29": _("Cars entering slide one more cell and lose their steering tokens."),
        "B30": _("As the oil slick, plus damage 1; the money goes to the bank."),
    }
)
TILE_COLOUR_NAMES = Words({"gold": _("gold"), "blue": _("blue"), "metal": _("metal"), "grey": _("grey")})
TILE_COLOUR_HINTS = Words(
    {
        "gold": _("permanent"),
        "blue": _("until your next turn"),
        "metal": _("one-time"),
        "grey": _("placed on the bridge"),
    }
)

OBJECT_NAMES = Words(
    {
        "caltrops": _("Caltrops"),
        "roadblock": _("Roadblock"),
        "police": _("Police"),
        "speed": _("Speed limit 30"),
        "container": _("Container"),
        "ramp": _("Ramp"),
        "mine": _("Mine"),
        "oil": _("Oil slick"),
        "acid": _("Acid pool"),
        "fortified": _("Fortified police"),
        "wall": _("Wall container"),
    }
)
OBJECT_EFFECTS = Words(
    {
        "caltrops": _("−10 mph per caltrop at the end of the movement"),
        "roadblock": _("damage 1 per piece when entered; stops shots"),
        "police": _("the officers dodge; they fire down their lane at the end of the round"),
        "speed": _("damage 1 at 40 mph, damage 2 at 50 mph"),
        "container": _("cannot be entered: crash"),
        "ramp": _("drive straight in with steps left to jump"),
        "mine": _("damage 2 to the first opponent who enters"),
        "oil": _("slide one more cell, lose all steering tokens"),
        "acid": _("slide one more cell, damage 1, lose all steering tokens"),
        "fortified": _("behaves as a container; the officers fire at the end of the round"),
        "wall": _("the wall cannot be passed"),
    }
)

FACE_NAMES = Words(
    {
        "POINTER": _("Pointer"),
        "STEER": _("Steering"),
        "SHOOT": _("Shoot"),
        "REPAIR": _("Repair"),
        "DAMAGE": _("Damage"),
    }
)
FACE_HINTS = Words(
    {
        "POINTER": _("+10 or −10 mph"),
        "STEER": _("1 steering token"),
        "SHOOT": _("1 shot"),
        "REPAIR": _("cancels a damage or +1 durability"),
        "DAMAGE": _("damage 1 to your own car"),
    }
)
DIE_STATE_NAMES = Words({"unused": _("unused"), "used": _("used"), "sold": _("sold")})
PHASE_NAMES = Words(
    {
        "setup": _("Setting up"),
        "choose_car": _("Choosing cars"),
        "adventure": _("Adventure phase: traps are placed"),
        "turn": _("Turns"),
        "round_end": _("End of the round"),
        "over": _("Game over"),
    }
)
STAGE_NAMES = Words(
    {
        "pre": _("before the roll"),
        "roll": _("rolling the dice"),
        "mod": _("dice are final: modify and resolve"),
        "move": _("driving"),
        "after": _("movement over"),
    }
)
STATUS_NAMES = Words(
    {
        "none": _("not on the bridge yet"),
        "board": _("on the bridge"),
        "river": _("in the river"),
        "finished": _("crossed the finish"),
        "exited": _("left the bridge"),
        "arrested": _("arrested"),
    }
)
END_STEP_NAMES = Words(
    {"police": _("Police fire"), "crane": _("Crane"), "shop": _("Shop refresh"), "next": _("Next round")}
)
END_REASON_NAMES = Words(
    {
        "finish": _("A car crossed the finish line and the round was played out."),
        "all_left": _("Every car has left the bridge."),
        "cap": _("The 60-round safety cap was reached."),
    }
)
PROMPT_NAMES = Words(
    {
        "dodge": _("Which side do the police dodge to?"),
        "land": _("Where does your car land?"),
        "river": _("Where does your car go over the edge?"),
        "bounce": _("Which car do you bounce on?"),
    }
)
MODE_NAMES = Words({"standard": _("Standard"), "first_game": _("First game"), "closed_border": _("Closed border")})
LEG_NAMES = Words({"OUT": _("outbound"), "RET": _("returning")})
RAMP_NAMES = Words({"held": _("ramp in hand"), "placed": _("ramp placed"), "none": _("no ramp")})
DIRECTION_NAMES = Words(
    {
        (0, 1): _("↑ towards the finish"),
        (1, 1): _("↗ finish side, lane +1"),
        (1, 0): _("→ lane +1"),
        (1, -1): _("↘ start side, lane +1"),
        (0, -1): _("↓ towards the start"),
        (-1, -1): _("↙ start side, lane −1"),
        (-1, 0): _("← lane −1"),
        (-1, 1): _("↖ finish side, lane −1"),
    }
)
STEP_NAMES = Words({"STRAIGHT": _("Straight"), "LANE-": _("Lane −1 (left)"), "LANE+": _("Lane +1 (right)")})
STEP_ARROWS = {"STRAIGHT": "↑", "LANE-": "↖", "LANE+": "↗"}
FREE_TOKENS = {0: 0, 10: 4, 20: 3, 30: 2, 40: 1, 50: 0}
SPEEDS = (0, 10, 20, 30, 40, 50)


@register.filter
def character_name(char: Any) -> Any:
    return CHARACTER_NAMES.get(str(char), char)


@register.filter
def tile_name(tile: Any) -> Any:
    tile = str(tile)
    if tile in BONUS_NAMES:
        return BONUS_NAMES[tile]
    return adventure_name(tile)


@register.filter
def money(amount: Any) -> str:
    """$1,200 or −$300 (debt)."""
    try:
        n = int(amount)
    except (TypeError, ValueError):
        return str(amount)
    sign = "−" if n < 0 else ""
    return f"{sign}${abs(n):,}"


def adventure_name(tile: str) -> str:
    kind, n = ADVENTURE.get(tile, ("", 0))
    return object_label(kind, n) if kind else tile


def object_label(kind: str, n: int) -> str:
    if kind == "caltrops":
        return ngettext("%(n)s caltrop", "%(n)s caltrops", n) % {"n": n}
    if kind == "roadblock":
        return ngettext("Roadblock (%(n)s piece)", "Roadblock (%(n)s pieces)", n) % {"n": n}
    if kind == "police":
        return ngettext("Police (%(n)s officer)", "Police (%(n)s officers)", n) % {"n": n}
    return str(OBJECT_NAMES.get(kind, kind))


@lru_cache(maxsize=16)
def _bridge_labels(language: str) -> dict[tuple[int, int], str]:
    """'lane l, row r' for every cell, translated once per language (cell_label is called a lot)."""
    del language  # the cache key
    fmt = gettext("lane %(lane)s, row %(row)s")
    return {(lane, row): fmt % {"lane": lane, "row": row} for row in range(ROWS) for lane in range(LANES)}


def _labels() -> dict[tuple[int, int], str]:
    """The labels of the bridge cells in the current language, for loops over many cells
    (``cell_label`` looks the language up on every call)."""
    return _bridge_labels(_language())


def cell_label(lane: int, row: int) -> str:
    if on_bridge(lane, row):
        return _bridge_labels(_language())[(lane, row)]
    if row >= ROWS:
        return gettext("beyond the finish")
    if row < 0:
        return gettext("beyond the start end")
    if lane < 0:
        return gettext("the river, west of row %(row)s") % {"row": row}
    if lane >= LANES:
        return gettext("the river, east of row %(row)s") % {"row": row}
    return gettext("lane %(lane)s, row %(row)s") % {"lane": lane, "row": row}


# ---- the static bridge -------------------------------------------------------------------------


def _star(cx: float, cy: float, r1: float, r2: float, points: int, turn: float = 0.0) -> str:
    import math

    out = []
    for i in range(points * 2):
        r = r1 if i % 2 == 0 else r2
        a = math.pi * i / points - math.pi / 2 + turn
        out.append(f"{cx + r * math.cos(a):.1f},{cy + r * math.sin(a):.1f}")
    return " ".join(out)


def _symbols() -> str:
    """<symbol>s in a 40×40 box: board objects, the car and the dice faces."""
    jack = "".join(
        f'<polygon points="{_star(x, y, 6.5, 1.8, 4, t)}"/>'
        for x, y, t in ((12, 13, 0.3), (28, 12, 0.0), (20, 28, 0.5), (9, 29, 0.1), (31, 27, 0.7))
    )
    spikes = "".join(
        f'<line x1="20" y1="20" x2="{20 + 13 * c:.1f}" y2="{20 + 13 * s:.1f}"/>'
        for c, s in ((1, 0), (-1, 0), (0, 1), (0, -1), (0.7, 0.7), (-0.7, 0.7), (0.7, -0.7), (-0.7, -0.7))
    )
    ribs = "".join(f'<line x1="{x}" y1="7" x2="{x}" y2="33"/>' for x in range(8, 34, 5))
    return (
        '<pattern id="br-p-water" width="16" height="10" patternUnits="userSpaceOnUse">'
        '<rect width="16" height="10" fill="#173a5c"/>'
        '<path d="M0 6 q4 -4 8 0 t8 0" fill="none" stroke="#3f7fb0" stroke-width="1.2" opacity=".7"/></pattern>'
        '<pattern id="br-p-stripes" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
        '<rect width="8" height="8" fill="#f3f1ea"/><rect width="4" height="8" fill="#d23a2f"/></pattern>'
        '<pattern id="br-p-hazard" width="10" height="10" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
        '<rect width="10" height="10" fill="#f0b429"/><rect width="5" height="10" fill="#1d1d1d"/></pattern>'
        '<pattern id="br-p-checker" width="12" height="12" patternUnits="userSpaceOnUse">'
        '<rect width="12" height="12" fill="#f4f4f4"/><rect width="6" height="6" fill="#111"/>'
        '<rect x="6" y="6" width="6" height="6" fill="#111"/></pattern>'
        '<pattern id="br-p-forced" width="12" height="12" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
        '<rect width="3" height="12" fill="#e09b2d" opacity=".28"/></pattern>'
        '<pattern id="br-p-arrest" width="12" height="12" patternUnits="userSpaceOnUse" patternTransform="rotate(-45)">'
        '<rect width="4" height="12" fill="#d9463e" opacity=".3"/></pattern>'
        # board objects
        f'<symbol id="br-s-caltrops" viewBox="0 0 40 40"><g fill="#cfd4dc" stroke="#2b2e35" '
        f'stroke-width=".8">{jack}</g></symbol>'
        '<symbol id="br-s-roadblock" viewBox="0 0 40 40"><rect x="6" y="24" width="3" height="10" fill="#555"/>'
        '<rect x="31" y="24" width="3" height="10" fill="#555"/>'
        '<rect x="3" y="12" width="34" height="13" rx="2" fill="url(#br-p-stripes)" stroke="#5a1410" '
        'stroke-width="1.2"/><circle cx="7" cy="9" r="3" fill="#ffb020"/><circle cx="33" cy="9" r="3" '
        'fill="#ffb020"/></symbol>'
        '<symbol id="br-s-police" viewBox="0 0 40 40"><path d="M20 3 L34 9 V20 C34 29 27 35 20 37 C13 35 6 29 '
        f'6 20 V9 Z" fill="#1f4fa6" stroke="#cfe0ff" stroke-width="1.5"/><polygon points="{_star(20, 20, 9, 3.8, 5)}" '
        'fill="#ffd54a"/></symbol>'
        '<symbol id="br-s-speed" viewBox="0 0 40 40"><circle cx="20" cy="20" r="15.5" fill="#fff" stroke="#d2261c" '
        'stroke-width="4.5"/><text x="20" y="24.5" text-anchor="middle" font-size="13" font-weight="700" '
        'font-family="system-ui,sans-serif" fill="#111">30</text></symbol>'
        '<symbol id="br-s-container" viewBox="0 0 40 40"><rect x="3" y="4" width="34" height="32" rx="1.5" '
        f'fill="#b4532a" stroke="#4f200c" stroke-width="1.5"/><g stroke="#7b3416" stroke-width="1.6">{ribs}</g>'
        '<rect x="3" y="4" width="34" height="4" fill="#8c3d1c"/></symbol>'
        '<symbol id="br-s-wall" viewBox="0 0 40 40"><rect x="2" y="3" width="36" height="34" fill="#6e737c" '
        'stroke="#2b2e35" stroke-width="1.5"/><rect x="2" y="16" width="36" height="8" fill="url(#br-p-hazard)"/>'
        "</symbol>"
        '<symbol id="br-s-fortified" viewBox="0 0 40 40"><rect x="2" y="3" width="36" height="34" fill="#6e737c" '
        'stroke="#2b2e35" stroke-width="1.5"/><path d="M20 7 L31 12 V20 C31 27 26 31 20 33 C14 31 9 27 9 20 '
        f'V12 Z" fill="#1f4fa6" stroke="#cfe0ff" stroke-width="1.2"/><polygon points="{_star(20, 20, 7, 3, 5)}" '
        'fill="#ffd54a"/></symbol>'
        '<symbol id="br-s-ramp" viewBox="0 0 40 40"><path d="M5 37 L35 37 L31 4 L9 4 Z" fill="#8d939d" '
        'stroke="#30343b" stroke-width="1.5"/><path d="M12 27 L20 19 L28 27 M12 18 L20 10 L28 18" fill="none" '
        'stroke="#ffd54a" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/></symbol>'
        f'<symbol id="br-s-mine" viewBox="0 0 40 40"><g stroke="#1a1a1a" stroke-width="3">{spikes}</g>'
        '<circle cx="20" cy="20" r="9" fill="#2f3136" stroke="#111" stroke-width="1"/>'
        '<circle cx="20" cy="20" r="3.2" fill="#ff3b30"/></symbol>'
        '<symbol id="br-s-oil" viewBox="0 0 40 40"><path d="M8 20 C4 10 16 4 22 8 C30 4 38 12 33 20 C38 28 30 37 '
        '21 33 C13 38 3 30 8 20 Z" fill="#0c0c0f" opacity=".92"/><path d="M13 17 C17 11 25 12 28 17" fill="none" '
        'stroke="#7a5cff" stroke-width="2" opacity=".8"/><path d="M15 24 C19 27 24 27 27 23" fill="none" '
        'stroke="#35c2ff" stroke-width="1.6" opacity=".7"/></symbol>'
        '<symbol id="br-s-acid" viewBox="0 0 40 40"><path d="M8 20 C4 10 16 4 22 8 C30 4 38 12 33 20 C38 28 30 37 '
        '21 33 C13 38 3 30 8 20 Z" fill="#6fd63a" stroke="#2c6d0f" stroke-width="1.2" opacity=".9"/>'
        '<circle cx="15" cy="16" r="3" fill="#c9ff9a"/><circle cx="25" cy="24" r="2.2" fill="#c9ff9a"/>'
        '<circle cx="22" cy="13" r="1.6" fill="#c9ff9a"/></symbol>'
        # the car: an arrow-shaped body pointing to the finish; fill comes from <use>
        '<symbol id="br-s-car" viewBox="0 0 40 40"><path d="M20 1.5 L32 12 L32 35 Q32 38.5 28.5 38.5 L11.5 38.5 '
        'Q8 38.5 8 35 L8 12 Z"/><path d="M12 14 L20 8 L28 14 L28 18 L12 18 Z" fill="#000" opacity=".38"/>'
        '<rect x="11" y="31" width="18" height="4" rx="1.5" fill="#000" opacity=".3"/></symbol>'
        # dice faces (monochrome, coloured by CSS currentColor)
        '<symbol id="br-f-POINTER" viewBox="0 0 40 40"><path d="M7 29 A14.5 14.5 0 1 1 33 29" fill="none" '
        'stroke="currentColor" stroke-width="3.5" stroke-linecap="round"/><path d="M20 27 L29 12" '
        'stroke="currentColor" stroke-width="3.5" stroke-linecap="round"/><circle cx="20" cy="27" r="3.5" '
        'fill="currentColor"/><path d="M20 9 v3 M10 14 l2 2 M30 14 l-2 2" stroke="currentColor" stroke-width="2"/>'
        "</symbol>"
        '<symbol id="br-f-STEER" viewBox="0 0 40 40"><circle cx="20" cy="20" r="14" fill="none" stroke="currentColor" '
        'stroke-width="4"/><circle cx="20" cy="21" r="4" fill="currentColor"/><path d="M6.5 19 H16 M24 19 H33.5 '
        'M20 25 V34" stroke="currentColor" stroke-width="4"/></symbol>'
        '<symbol id="br-f-SHOOT" viewBox="0 0 40 40"><path d="M4 10 H35 V18 H19 L17 21 H14 L12 33 H5 L8 21 H6 '
        'L4 18 Z" fill="currentColor"/><path d="M14 21 q2 5 6 4" fill="none" stroke="currentColor" '
        'stroke-width="2"/><rect x="31" y="7" width="3" height="3" fill="currentColor"/></symbol>'
        '<symbol id="br-f-REPAIR" viewBox="0 0 40 40"><g transform="rotate(45 20 20)"><rect x="16.5" y="15" '
        'width="7" height="23" rx="2.5" fill="currentColor"/><path d="M12 3 A10 10 0 0 0 28 3 L28 3 L28 11 '
        'L23 14 L17 14 L12 11 Z" fill="currentColor"/><path d="M17 1 H23 V8 H17 Z" fill="#000" opacity=".0"/>'
        "</g></symbol>"
        f'<symbol id="br-f-DAMAGE" viewBox="0 0 40 40"><polygon points="{_star(20, 20, 18, 8, 10, 0.15)}" '
        f'fill="currentColor"/><polygon points="{_star(20, 20, 9, 4, 8)}" fill="#fff5b0"/></symbol>'
    )


def _open_segments(side: int) -> list[tuple[int, int]]:
    guarded: set[int] = set()
    for _name, _kind, s, lo, hi in GUARDRAILS:
        if s == side:
            guarded.update(range(lo, hi + 1))
    segments: list[tuple[int, int]] = []
    start = None
    for row in range(ROWS + 1):
        is_open = row < ROWS and row not in guarded
        if is_open and start is None:
            start = row
        if not is_open and start is not None:
            segments.append((start, row - 1))
            start = None
    return segments


@lru_cache(maxsize=64)
def _backdrop(mode: str, players: int, forced: int | None, wall: int | None, language: str) -> str:
    del language  # only part of the cache key: the text below is translated
    parts: list[str] = [f"<defs>{_symbols()}</defs>"]
    add = parts.append
    road_top, road_bottom = cell_y(ROWS - 1), cell_y(0) + CELL
    # river on both sides, the road, the bands at both ends
    add(
        f'<rect class="br-water" x="0" y="{road_top}" width="{WATER}" height="{road_bottom - road_top}" '
        'fill="url(#br-p-water)"/>'
    )
    add(
        f'<rect class="br-water" x="{WIDTH - WATER}" y="{road_top}" width="{WATER}" height="{road_bottom - road_top}" '
        'fill="url(#br-p-water)"/>'
    )
    closed = mode == "closed_border"
    if closed:
        # (gettext outside the f-strings: makemessages does not look inside them)
        sealed, exit_text = _escape(gettext("SEALED END · ARREST")), _escape(gettext("↓ EXIT ↓"))
        add(
            f'<rect x="0" y="0" width="{WIDTH}" height="{TOP}" fill="url(#br-p-arrest)"/>'
            f'<text class="br-band-text" x="{WIDTH / 2}" y="{TOP / 2 + 5}" text-anchor="middle">'
            f"{sealed}</text>"
        )
        add(
            f'<rect x="{WATER}" y="{road_bottom}" width="{LANES * CELL}" height="{BOTTOM}" fill="#27402c"/>'
            f'<text class="br-band-text" x="{WIDTH / 2}" y="{road_bottom + 19}" text-anchor="middle">'
            f"{exit_text}</text>"
        )
    else:
        add(
            f'<rect x="{WATER}" y="4" width="{LANES * CELL}" height="{TOP - 8}" fill="url(#br-p-checker)" '
            'opacity=".9"/>'
        )
        finish, closed_end = _escape(gettext("FINISH")), _escape(gettext("closed end"))
        add(
            f'<rect x="{WIDTH / 2 - 38}" y="{TOP / 2 - 9}" width="76" height="18" rx="4" fill="#14161a"/>'
            f'<text class="br-band-text" x="{WIDTH / 2}" y="{TOP / 2 + 5}" text-anchor="middle">'
            f"{finish}</text>"
        )
        add(
            f'<rect x="{WATER}" y="{road_bottom}" width="{LANES * CELL}" height="{BOTTOM - 6}" fill="#3b3f47"/>'
            f'<text class="br-band-text small" x="{WIDTH / 2}" y="{road_bottom + 15}" text-anchor="middle">'
            f"{closed_end}</text>"
        )
    # the 5 × 33 cells
    cells = []
    for row in range(ROWS):
        for lane in range(LANES):
            css = "br-cell start" if row in START_ROWS else "br-cell"
            cells.append(
                f'<rect class="{css}" id="br-cell-{lane}-{row}" data-cell="{lane},{row}" '
                f'x="{cell_x(lane)}" y="{cell_y(row)}" width="{CELL}" height="{CELL}"/>'
            )
    add(f'<g class="br-cells">{"".join(cells)}</g>')
    # zones (shaded in closed-border mode, R-13, R-84, R-85)
    if closed:
        for z, (lo, hi) in ZONES.items():
            y1, y2 = cell_y(hi), cell_y(lo) + CELL
            fill = "url(#br-p-forced)" if z == forced else ("#ffffff" if z % 2 else "#000000")
            opacity = "1" if z == forced else ".05"
            if wall is not None and lo > wall:
                fill, opacity = "url(#br-p-arrest)", "1"
            label = gettext("Zone %(n)s") % {"n": z}
            if z == forced:
                label = gettext("Zone %(n)s · U-turn zone") % {"n": z}
            add(
                f'<g class="br-zone"><title>{_escape(label)}</title><rect x="{WATER}" y="{y1}" width="{LANES * CELL}" '
                f'height="{y2 - y1}" fill="{fill}" opacity="{opacity}"/></g>'
            )
            add(
                f'<text class="br-zone-label" transform="translate({WIDTH - 8} {(y1 + y2) / 2}) rotate(90)" '
                f'text-anchor="middle">{_escape(label)}</text>'
            )
        if wall is not None and wall < ROWS - 1:
            y1, y2 = cell_y(ROWS - 1), cell_y(wall + 1) + CELL
            arrest = _escape(gettext("Arrest area"))
            add(
                f'<g class="br-zone arrest"><title>{arrest}</title>'
                f'<rect x="{WATER}" y="{y1}" width="{LANES * CELL}" height="{y2 - y1}" fill="url(#br-p-arrest)"/></g>'
            )
    # lane dividers, start-area line, row numbers
    lines = []
    for lane in range(1, LANES):
        x = cell_x(lane)
        lines.append(f'<line x1="{x}" y1="{road_top}" x2="{x}" y2="{road_bottom}"/>')
    add(f'<g class="br-lanes">{"".join(lines)}</g>')
    y_start = cell_y(2)
    add(f'<line class="br-startline" x1="{WATER}" y1="{y_start}" x2="{WIDTH - WATER}" y2="{y_start}"/>')
    labels = []
    for row in range(ROWS):
        labels.append(f'<text x="9.5" y="{cell_y(row) + CELL / 2 + 3.5}" text-anchor="middle">{row}</text>')
    add(f'<g class="br-rownums" aria-hidden="true">{"".join(labels)}</g>')
    lane_labels = "".join(
        f'<text x="{cell_x(lane) + CELL / 2}" y="{road_bottom - 3}" text-anchor="middle">{lane}</text>'
        for lane in range(LANES)
    )
    add(f'<g class="br-lanenums" aria-hidden="true">{lane_labels}</g>')
    # start cells
    starts = []
    money_of = {"S1": 600, "S2": 700, "S3": 800, "S4": 900, "S5": 1000}
    for sid, ((lane, row), _amount) in START_CELLS.items():
        x, y = cell_x(lane), cell_y(row)
        starts.append(
            f'<text x="{x + CELL / 2}" y="{y + 16}" text-anchor="middle">{sid}</text>'
            f'<text x="{x + CELL / 2}" y="{y + 29}" text-anchor="middle" class="amt">${money_of[sid]}</text>'
        )
    add(f'<g class="br-starts" aria-hidden="true">{"".join(starts)}</g>')
    # open edges (water) and guardrails
    for side in (-1, 1):
        x = WATER if side < 0 else WIDTH - WATER
        for lo, hi in _open_segments(side):
            y1, y2 = cell_y(hi), cell_y(lo) + CELL
            what = (
                gettext("Open edge: the river (west, rows %(lo)s–%(hi)s)")
                if side < 0
                else gettext("Open edge: the river (east, rows %(lo)s–%(hi)s)")
            )
            add(
                f'<g class="br-open"><title>{_escape(what % {"lo": lo, "hi": hi})}</title>'
                f'<line x1="{x}" y1="{y1}" x2="{x}" y2="{y2}"/></g>'
            )
    for name, kind, side, lo, hi in GUARDRAILS:
        y1, y2 = cell_y(hi) + 2, cell_y(lo) + CELL - 2
        w = 9 if kind == "large" else 6
        x = WATER - w + 1 if side < 0 else WIDTH - WATER - 1
        if kind == "large":
            what = gettext("%(name)s: large guardrail (%(side)s, rows %(lo)s–%(hi)s), cannot be flown over")
        else:
            what = gettext("%(name)s: small guardrail (%(side)s, rows %(lo)s–%(hi)s)")
        what = what % {"name": name, "side": gettext("west") if side < 0 else gettext("east"), "lo": lo, "hi": hi}
        posts = "".join(
            f'<rect x="{x + 1}" y="{cell_y(r) + CELL / 2 - 2}" width="{w - 2}" height="4" class="post"/>'
            for r in range(lo, hi + 1)
        )
        add(
            f'<g class="br-rail {kind}"><title>{_escape(what)}</title>'
            f'<rect x="{x}" y="{y1}" width="{w}" height="{y2 - y1}" rx="2"/>{posts}</g>'
        )
    return "".join(parts)


@register.simple_tag
def bridge_symbols() -> SafeString:
    """The board's symbols on their own, for pages that draw single pieces (How to play)."""
    return mark_safe(  # built from constants only
        f'<svg class="sprite" width="0" height="0" aria-hidden="true" focusable="false"><defs>{_symbols()}</defs></svg>'
    )


@register.simple_tag
def bridge_backdrop(view: dict[str, Any]) -> SafeString:
    board = view.get("board") or {}
    return mark_safe(
        _backdrop(
            str(view.get("mode", "standard")),
            int(view.get("players", 0)),
            board.get("forced_zone"),
            board.get("wall_row"),
            current_language() or "",
        )
    )


# ---- the model the board template draws ---------------------------------------------------------


def _paint(char: str) -> tuple[str, str, str]:
    return CHARACTER_PAINT.get(char, NO_PAINT)


def _options(items: list[dict[str, Any]]) -> SafeString:
    """<option>s for a select of cells (value, label and, for adventure tiles, data-tiles)."""
    return mark_safe(
        "".join(
            f'<option value="{_escape(i["value"])}"'
            + (f' data-tiles="{_escape(i["tiles"])}"' if i.get("tiles") else "")
            + f">{_escape(i['label'])}</option>"
            for i in items
        )
    )


def _cell_options(cells: list[list[int]], selected: list[int] | None = None) -> SafeString:
    """<option>s for every cell of a placement, in board order (the finish at the top), with the
    suggested cell selected (else the browser selects the first)."""
    pick = f"{selected[0]},{selected[1]}" if selected else ""
    labels = _labels()
    out = []
    for lane, row in sorted(((c[0], c[1]) for c in cells), key=lambda c: (-c[1], c[0])):
        value = f"{lane},{row}"
        label = labels.get((lane, row)) or cell_label(lane, row)
        out.append(f'<option value="{value}"{" selected" if value == pick else ""}>{html_escape(label)}</option>')
    return mark_safe("".join(out))


def _first_cell(acts: list[dict[str, Any]], tile: str | None = None) -> list[int] | None:
    """The first cell legal_actions suggests for a placement (a cell near the car)."""
    for a in acts:
        if tile is None or a.get("tile") == tile:
            if "cell" in a:
                return a["cell"]
            if a.get("cells"):
                return a["cells"][0]
    return None


USE_PLACEMENTS = ("B24", "B25", "B29", "B30")


def _with_placements(acts: list[dict[str, Any]], placements: dict[str, Any]) -> list[dict[str, Any]]:
    """The USE_TILE actions with the sampled cells (or moves) of B24, B25, B29 and B30 replaced by
    every one the engine accepts (view["placements"]); the sample's first stays first."""
    out: list[dict[str, Any]] = []
    done: set[str] = set()

    def expand(tile: str, first: dict[str, Any] | None) -> None:
        done.add(tile)
        key = {"B24": "moves", "B25": "cells"}.get(tile, "cell")
        items = list(placements[tile])
        lead = first.get(key) if first else None
        if key != "cell" and lead:
            lead = lead[0]
        if lead in items:
            items.remove(lead)
            items.insert(0, lead)
        for item in items:
            out.append({"type": "USE_TILE", "tile": tile, key: item if key == "cell" else [item]})

    for a in acts:
        tile = a["tile"]
        if tile in USE_PLACEMENTS and tile in placements:
            if tile not in done:
                expand(tile, a)
        else:
            out.append(a)
    for tile in USE_PLACEMENTS:
        if tile in placements and tile not in done:
            expand(tile, None)
    return out


def _dump(payload: dict[str, Any]) -> str:
    return json.dumps(payload, separators=(",", ":"))


def _tile_info(tile: str, colour: str = "") -> dict[str, Any]:
    return {
        "id": tile,
        "name": BONUS_NAMES.get(tile, tile),
        "effect": BONUS_EFFECTS.get(tile, ""),
        "colour": colour,
        "colour_name": TILE_COLOUR_NAMES.get(colour, colour),
        "colour_hint": TILE_COLOUR_HINTS.get(colour, ""),
    }


class _Board:
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


def _object_title(o: dict[str, Any], lane: int, row: int, names: dict[int, str], wall_row: int | None) -> str:
    kind = o["kind"]
    effect: StrOrPromise
    if o.get("fortified"):
        label = gettext("Fortified police (%(n)s officers)") % {"n": o["n"]}
        effect = OBJECT_EFFECTS["fortified"]
    elif kind == "container" and wall_row is not None and row == wall_row and not o.get("tiles"):
        label, effect = str(OBJECT_NAMES["wall"]), OBJECT_EFFECTS["wall"]
    elif kind == "ramp":
        facing = gettext("facing the finish") if o["n"] >= 0 else gettext("facing the start")
        label = gettext("Ramp of %(owner)s, %(facing)s") % {"owner": names.get(o["owner"], "?"), "facing": facing}
        effect = OBJECT_EFFECTS["ramp"]
    elif kind == "mine":
        label = gettext("Mine buried by %(owner)s") % {"owner": names.get(o["owner"], "?")}
        effect = OBJECT_EFFECTS["mine"]
    elif kind in ("oil", "acid"):
        label = gettext("%(what)s placed by %(owner)s") % {
            "what": OBJECT_NAMES[kind],
            "owner": names.get(o["owner"], "?"),
        }
        effect = OBJECT_EFFECTS[kind]
    else:
        label, effect = object_label(kind, o["n"]), OBJECT_EFFECTS.get(kind, "")
    return f"{label} — {effect} ({cell_label(lane, row)})"


def _symbol_for(o: dict[str, Any], row: int, wall_row: int | None) -> str:
    if o.get("fortified"):
        return "fortified"
    if o["kind"] == "container" and wall_row is not None and row == wall_row and not o.get("tiles"):
        return "wall"
    return o["kind"]


def _step_hint(b: _Board, lane: int, row: int, facing: int, dirname: str, steps_left: int, speed: int) -> str:
    """A short warning of what entering the target cell does (R-33, R-34)."""
    if row >= ROWS:
        return gettext("crosses the finish line!")
    if row < 0:
        return gettext("the end of the bridge")
    car = b.car(lane, row)
    if car is not None:
        return gettext("collision with car %(n)s") % {"n": car["seat"] + 1}
    o = b.obj(lane, row)
    hints = []
    if o is not None:
        kind = o["kind"]
        if kind == "container" or o.get("fortified"):
            return gettext("crash into a container: damage %(n)s") % {"n": speed // 10}
        if kind == "roadblock":
            hints.append(gettext("roadblock: damage %(n)s") % {"n": o["n"]})
        elif kind == "caltrops":
            hints.append(gettext("caltrops: −%(n)s mph") % {"n": 10 * o["n"]})
        elif kind == "speed":
            if speed >= 40:
                hints.append(gettext("speed limit: damage %(n)s") % {"n": 1 if speed == 40 else 2})
        elif kind == "police":
            hints.append(gettext("the police dodge"))
        elif kind == "mine":
            hints.append(gettext("mine: damage 2 (unless it is yours)"))
        elif kind in ("oil", "acid"):
            hints.append(gettext("slide!"))
        elif kind == "ramp":
            if dirname == "STRAIGHT" and o["n"] == facing and steps_left > 1:
                hints.append(gettext("JUMP!"))
            elif not (dirname == "STRAIGHT" and o["n"] == facing):
                hints.append(gettext("ramp from the side: damage 1"))
    cash = b.money(lane, row)
    if cash:
        hints.append(gettext("pick up %(amount)s") % {"amount": money(cash)})
    return ", ".join(hints)


def _shot_hint(b: _Board, lane: int, row: int, dl: int, dr: int) -> str:
    what, pos = b.trace(lane, row, dl, dr)
    if pos is None:
        return gettext("nothing in the line of fire")
    if what == "car":
        car = b.car(*pos)
        return gettext("hits car %(n)s at %(cell)s") % {"n": (car or {}).get("seat", 0) + 1, "cell": cell_label(*pos)}
    if what == "roadblock":
        return gettext("hits a roadblock at %(cell)s") % {"cell": cell_label(*pos)}
    if what == "police":
        return gettext("the police at %(cell)s dodge") % {"cell": cell_label(*pos)}
    return gettext("absorbed at %(cell)s") % {"cell": cell_label(*pos)}


def _resolve_model(view: dict[str, Any], me: dict[str, Any], presets: list[dict[str, Any]]) -> dict[str, Any]:
    """What RESOLVE_DICE (R-29) can choose, and the numbers the speed preview needs."""
    t = view["turn"]
    dice = me["dice"]
    rep_units: list[int] = []
    dmg = 0
    for d in dice:
        if d["face"] == "REPAIR":
            rep_units += [d["index"]] * (2 if d["double"] else 1)
        if d["face"] == "DAMAGE":
            dmg += 2 if d["double"] else 1
    pairs = min(len(rep_units), dmg)
    remaining = rep_units[pairs:]
    dur_after = max(0, me["durability"] - (dmg - pairs))
    spin = me["durability"] > 0 and dur_after == 0
    normal = -1 if me["leg"] == "RET" else 1
    reversed_now = (me["facing"] != normal) != spin
    base = 0 if spin else me["speed"]
    repairs = [
        {
            "index": i,
            "units": remaining.count(i),
            "label": gettext("Apply repair die #%(n)s (+%(u)s durability)") % {"n": i + 1, "u": remaining.count(i)},
        }
        for i in dict.fromkeys(remaining)
    ]
    adjusts = []
    for d in dice:
        if d["face"] == "POINTER" and d["state"] == "unused":
            w = 2 if d["double"] else 1
            adjusts.append(
                {
                    "index": d["index"],
                    "weight": w,
                    "label": gettext("Pointer die #%(n)s") % {"n": d["index"] + 1} + (" ×2" if w == 2 else ""),
                }
            )
    for k in range(int(t.get("extra_adjustments") or 0)):
        adjusts.append({"index": 5 + k, "weight": 1, "label": gettext("Tile adjustment %(n)s") % {"n": k + 1}})
    weights = {a["index"]: a["weight"] for a in adjusts}
    quick = []
    for p in presets:
        speed = base + sum(int(d) * weights.get(i, 1) for i, d in p["adjust"])
        nrep = sum(remaining.count(i) for i in p["repair"])
        if nrep:
            label = gettext("%(speed)s mph, repair +%(n)s") % {"speed": speed, "n": nrep}
        else:
            label = gettext("%(speed)s mph") % {"speed": speed}
        quick.append({"payload": p, "label": label, "speed": speed})
    quick.sort(key=lambda q: (q["speed"], -len(q["payload"]["repair"])))
    return {
        "base": base,
        "reversed": reversed_now,
        "spin": spin,
        "damage": dmg - pairs,
        "cancelled": pairs,
        "dur_after": dur_after,
        "max": me["max_durability"],
        "repairs": repairs,
        "adjusts": adjusts,
        "quick": quick,
        "payload": {"type": "RESOLVE_DICE", "repair": [], "adjust": []},
        "tokens": json.dumps(FREE_TOKENS),
    }


def _tile_uses(
    acts: list[dict[str, Any]], me: dict[str, Any], view: dict[str, Any], names: dict[int, str], b: _Board
) -> list[dict[str, Any]]:
    """USE_TILE choices grouped per tile, with the parameters each needs (R-68, R-69)."""
    colours = {t["id"]: t["colour"] for t in me["tiles"]}
    by_tile: dict[str, list[dict[str, Any]]] = {}
    for a in acts:
        by_tile.setdefault(a["tile"], []).append(a)
    dice = {d["index"]: d for d in me["dice"]}
    labels = _labels()
    out = []
    for tile, group in by_tile.items():
        info = _tile_info(tile, colours.get(tile, ""))
        first = group[0]
        entry: dict[str, Any] = {**info, "payload": {"type": "USE_TILE", "tile": tile}, "form_id": f"br-use-{tile}"}
        if "target" in first:
            entry["kind"] = "target"
            entry["options"] = [
                {"value": a["target"], "label": f"{names.get(a['target'], a['target'])} (#{a['target'] + 1})"}
                for a in group
            ]
        elif "face" in first:
            entry["kind"] = "die_face"
            entry["dice"] = [
                {"value": i, "label": f"#{i + 1} {FACE_NAMES.get(dice[i]['face'], dice[i]['face'])}"}
                for i in dict.fromkeys(a["die"] for a in group)
                if i in dice
            ]
            entry["faces"] = [
                {"value": f, "label": FACE_NAMES[f]} for f in ("POINTER", "STEER", "SHOOT", "REPAIR", "DAMAGE")
            ]
        elif "die" in first:
            entry["kind"] = "die"
            entry["options"] = [
                {"value": a["die"], "label": f"#{a['die'] + 1} {FACE_NAMES.get(dice[a['die']]['face'], '')}"}
                for a in group
                if a["die"] in dice
            ]
        elif "dir" in first:
            entry["kind"] = "dir"
            entry["options"] = []
            for a in group:
                d = (a["dir"][0], a["dir"][1])
                hint = _mortar_hint(b, me, d)
                entry["options"].append(
                    {
                        "value": f"{d[0]},{d[1]}",
                        "label": f"{DIRECTION_NAMES.get(d, d)} — {hint}",
                        "ray": f"{me['lane']},{me['row']},{d[0]},{d[1]}",
                    }
                )
        elif "cell" in first:
            entry["kind"] = "cell"
            entry["place"] = "cell"
            entry["cells"] = [
                {
                    "value": f"{a['cell'][0]},{a['cell'][1]}",
                    "lane": a["cell"][0],
                    "row": a["cell"][1],
                    "label": labels.get((a["cell"][0], a["cell"][1])) or cell_label(*a["cell"]),
                }
                for a in group
            ]
            entry["options_html"] = _cell_options([a["cell"] for a in group], first["cell"])
        elif "cells" in first:
            entry["kind"] = "cells"
            entry["place"] = "cells[]"
            entry["cells"] = [
                {
                    "value": f"{a['cells'][0][0]},{a['cells'][0][1]}",
                    "lane": a["cells"][0][0],
                    "row": a["cells"][0][1],
                    "label": cell_label(*a["cells"][0]),
                }
                for a in group
            ]
        elif "moves" in first:
            # Up to 5 pieces, one <select name="moves[]"> each ("lane,row>lane,row"): a stack may send
            # several pieces the same way, so a multiple select would not do.
            entry["kind"] = "moves"
            moves = [a["moves"][0] for a in group]
            options = "".join(
                f'<option value="{src[0]},{src[1]}&gt;{dst[0]},{dst[1]}">'
                + _escape(gettext("%(src)s → %(dst)s") % {"src": cell_label(*src), "dst": cell_label(*dst)})
                + "</option>"
                for src, dst in moves
            )
            pieces = 0
            for src in dict.fromkeys((m[0][0], m[0][1]) for m in moves):
                o = b.obj(*src)
                pieces += int(o["n"]) if o else 1
            entry["slots"] = list(range(1, min(5, pieces) + 1))
            entry["first_html"] = mark_safe(options)
            no_more = _escape(gettext("— no more pieces —"))
            entry["more_html"] = mark_safe(f'<option value="">{no_more}</option>' + options)
        else:
            entry["kind"] = "plain"
        out.append(entry)
    return out


def _mortar_hint(b: _Board, me: dict[str, Any], d: tuple[int, int]) -> str:
    what, pos = b.trace(me["lane"], me["row"], d[0], d[1])
    if what == "car" and pos is not None:
        car = b.car(*pos)
        return gettext("pushes car %(n)s") % {"n": (car or {}).get("seat", 0) + 1}
    return gettext("no car in the line of fire")


def _objects_and_piles(
    board: dict[str, Any], wall_row: int | None, by_seat: dict[int, dict[str, Any]], names: dict[int, str]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], str, str]:
    """The objects and money piles on the bridge, and their SVG layers (the same for every viewer)."""
    objects, piles = [], []
    for c in board.get("cells") or ():
        lane, row = c["lane"], c["row"]
        x, y = cell_x(lane), cell_y(row)
        o = c["object"]
        if o is not None:
            sym = _symbol_for(o, row, wall_row)
            badge = ""
            if o["kind"] in ("caltrops", "roadblock", "police") and not o.get("fortified"):
                badge = f"×{o['n']}"
            owner = o.get("owner", -1)
            owner_paint = None
            if o["kind"] in ("ramp", "mine", "oil", "acid") and owner in by_seat:
                owner_paint = _paint(by_seat[owner]["character"])
            objects.append(
                {
                    "x": x,
                    "y": y,
                    "lane": lane,
                    "row": row,
                    "symbol": sym,
                    "kind": o["kind"],
                    "n": o["n"],
                    "badge": badge,
                    "title": _object_title(o, lane, row, names, wall_row),
                    "flip": o["kind"] == "ramp" and o["n"] < 0,
                    "owner": owner + 1 if owner >= 0 and o["kind"] in ("ramp", "mine", "oil", "acid") else None,
                    "owner_fill": owner_paint[0] if owner_paint else None,
                }
            )
        if c["money"]:
            piles.append(
                {
                    "x": x,
                    "y": y,
                    "amount": c["money"],
                    "text": money(c["money"]),
                    "title": gettext("Money pile: %(amount)s (%(cell)s)")
                    % {"amount": money(c["money"]), "cell": cell_label(lane, row)},
                }
            )
    return objects, piles, mark_safe(_objects_svg(objects)), mark_safe(_piles_svg(piles))


# The objects and money piles of one match state, drawn once for all its viewers (R-89: the board
# is public): match, seed, version, language and the seat names -> (objects, piles, their SVG).
_layers: BoundedCache[tuple[Any, ...], tuple[list[dict[str, Any]], list[dict[str, Any]], str, str]] = BoundedCache(
    256, revision_keyed=True
)


# A state's model as every viewer without legal actions sees it, but for which car is theirs:
# match, seed, version, language and the seat names -> the spectator's model.
_public_models: BoundedCache[tuple[Any, ...], dict[str, Any]] = BoundedCache(256, revision_keyed=True)


# Every control the action panel asks about, None where the seat has no such action: a key missing
# from a dict costs the template engine three exceptions and a dir() of the dict per lookup.
_NO_CONTROLS: dict[str, Any] = dict.fromkeys(
    (
        "adventure",
        "armed",
        "choose",
        "choose_car",
        "end_turn",
        "finalize",
        "handbrake",
        "mine",
        "pay_repair",
        "ramp",
        "reroll",
        "resolve",
        "roll",
        "shots",
        "steps",
        "uses",
    )
)


def bridge_model(
    view: dict[str, Any], seat: Any, legal: Any, names: Any, state_key: tuple[Any, ...] | None = None
) -> dict[str, Any]:
    """Everything the board template draws (``board``, see games.boards.bridge_race), once per render.

    The board is public (R-89): a seat's view differs from a spectator's only by its own options
    (legal actions, placements). So the model is the spectator's, with the viewer's car and
    dashboard marked "yours", and, for the seat to act, its controls added. ``state_key`` names
    the match state the view is of (match, seed, version): the spectator's model is then built
    once per state, language and seat names, for every viewer.
    """
    if state_key is None:
        public = _model(view, names, None)
    else:
        key = _state_words_key(state_key, names)
        found = _public_models.get(key)
        if found is None:
            found = _model(view, names, state_key)
            _public_models.put(key, found)
        public = found
    if not isinstance(seat, int):
        return public
    seen = _seen_by(public, view, seat)
    if not legal:
        return seen
    with speaking(current_language()):
        return _with_controls(seen, view, seat, list(legal), names)


def _state_words_key(state_key: tuple[Any, ...], names: Any) -> tuple[Any, ...]:
    """A match state as drawn in words: the state, the language and the seats' names."""
    return (*state_key, current_language(), tuple(sorted(dict(names or {}).items())))


def _seen_by(public: dict[str, Any], view: dict[str, Any], seat: int) -> dict[str, Any]:
    """The spectator's ``public`` model as ``seat`` sees it: its car, its dashboard and, when no
    car acts, the focus on its car."""
    cars = [{**c, "mine": True} if c["seat"] == seat else c for c in public["cars"]]
    off_cars = [{**c, "mine": True} if c["seat"] == seat else c for c in public["off_cars"]]
    by_seat = {p["seat"]: p for p in view.get("players_info") or []}
    turn = view.get("turn")
    return {
        **public,
        "cars": cars,
        "off_cars": off_cars,
        "svg_cars": mark_safe(
            "".join(_car_svg(c) if c["seat"] == seat else svg for c, svg in zip(cars, public["car_svgs"], strict=True))
            + public["off_svg"]
        ),
        "players": [{**p, "me": True} if p["seat"] == seat else p for p in public["players"]],
        "me": by_seat.get(seat),
        "focus": _focus(by_seat, turn["seat"] if turn else None, public["active"], seat),
    }


def _focus(by_seat: dict[int, dict[str, Any]], turn_seat: Any, active: Any, seat: Any) -> dict[str, int]:
    """The car to centre the scrolled bridge on: the one taking its turn, else the one acting,
    else the viewer's."""
    for s in (turn_seat, active, seat):
        p = by_seat.get(s) if isinstance(s, int) else None
        if p and p["status"] in ("board", "river"):
            lane, row = max(0, min(LANES - 1, p["lane"])), max(0, min(ROWS - 1, p["row"]))
            return {"x": cell_x(lane) + CELL // 2, "y": cell_y(row) + CELL // 2}
    return {"x": cell_x(2) + CELL // 2, "y": cell_y(3)}  # nobody on the bridge yet: the start area


def _model(view: dict[str, Any], names: Any, state_key: tuple[Any, ...] | None) -> dict[str, Any]:
    with speaking(current_language()):
        return _build_model(view, names, state_key)


def _build_model(view: dict[str, Any], names: Any, state_key: tuple[Any, ...] | None) -> dict[str, Any]:
    """The spectator's model: no car is "yours" and there are no controls (R-89: nothing else differs)."""
    names = dict(names or {})
    board = view.get("board") or {}
    wall_row = board.get("wall_row")
    turn = view.get("turn")
    active = view.get("active_seat")
    active = active if isinstance(active, int) and active >= 0 else None
    players_info = view.get("players_info") or []
    by_seat = {p["seat"]: p for p in players_info}
    turn_seat = turn["seat"] if turn else None

    layers_key = None
    if state_key is not None:
        layers_key = _state_words_key(state_key, names)
    layers = _layers.get(layers_key) if layers_key is not None else None
    if layers is None:
        layers = _objects_and_piles(board, wall_row, by_seat, names)
        if layers_key is not None:
            _layers.put(layers_key, layers)
    objects, piles, svg_objects, svg_piles = layers

    # cars on the bridge, in the river, past the ends
    cars, off_cars = [], []
    finish_slot = exit_slot = 0
    for p in players_info:
        if p["status"] == "none":
            continue
        fill, ink, outline = _paint(p["character"])
        name = names.get(p["seat"], str(p["seat"] + 1))
        common = {
            "seat": p["seat"],
            "label": p["seat"] + 1,
            "fill": fill,
            "ink": ink,
            "outline": outline,
            "speed": p["speed"],
            "facing": p["facing"],
            "char": p["character"],
            "active": p["seat"] == active or p["seat"] == turn_seat,
            "mine": False,
        }
        if p["status"] == "board":
            title = gettext("Car %(n)s: %(name)s (%(char)s), %(speed)s mph, %(facing)s, %(cell)s") % {
                "n": p["seat"] + 1,
                "name": name,
                "char": CHARACTER_NAMES.get(p["character"], p["character"]),
                "speed": p["speed"],
                "cell": cell_label(p["lane"], p["row"]),
                "facing": gettext("facing the finish") if p["facing"] > 0 else gettext("facing the start"),
            }
            cars.append(
                {
                    **common,
                    "x": cell_x(p["lane"]),
                    "y": cell_y(p["row"]),
                    "lane": p["lane"],
                    "row": p["row"],
                    "title": title,
                }
            )
        else:
            status = STATUS_NAMES.get(p["status"], p["status"])
            title = gettext("Car %(n)s: %(name)s — %(status)s") % {"n": p["seat"] + 1, "name": name, "status": status}
            if p["status"] == "river":
                west = p["lane"] <= 1 or (p["lane"] == 2 and p["seat"] % 2 == 0)
                x = 1 if west else WIDTH - WATER + 1
                y = cell_y(max(0, min(ROWS - 1, p["row"]))) + 4
            elif p["status"] == "exited":
                x, y = WATER + 4 + 40 * exit_slot, cell_y(0) + CELL + 1
                exit_slot += 1
            else:  # finished or arrested: beyond the far end
                x, y = WATER + 4 + 40 * finish_slot, 2
                finish_slot += 1
            off_cars.append({**common, "x": x, "y": y, "title": title, "status": p["status"]})

    focus = _focus(by_seat, turn_seat, active, None)

    # dashboards
    players = []
    order = list(view.get("turn_order") or [])
    finish_order = list(view.get("finish_order") or [])
    for p in players_info:
        s = p["seat"]
        fill, ink, outline = _paint(p["character"])
        speed = int(p["speed"])
        status_text = str(STATUS_NAMES.get(p["status"], p["status"]))
        if p["status"] == "finished" and p["place"]:
            status_text = gettext("crossed the finish, place %(n)s") % {"n": p["place"]}
        elif p["status"] == "exited" and p["place"]:
            status_text = gettext("left the bridge, place %(n)s") % {"n": p["place"]}
        elif p["status"] == "board":
            status_text = cell_label(p["lane"], p["row"])
        normal = -1 if p["leg"] == "RET" else 1
        players.append(
            {
                "seat": s,
                "number": s + 1,
                "name": names.get(s, str(s + 1)),
                "me": False,
                "active": s in (active, turn_seat),
                "char": p["character"],
                "char_name": CHARACTER_NAMES.get(p["character"], p["character"] or "—"),
                "ability": CHARACTER_ABILITIES.get(p["character"], ""),
                "colour_name": CHARACTER_COLOUR_NAMES.get(p["character"], ""),
                "fill": fill,
                "ink": ink,
                "outline": outline,
                "speed": speed,
                "speed_steps": [{"v": v, "on": v <= speed and v > 0, "cur": v == speed} for v in SPEEDS],
                "free_tokens": p["free_tokens"],
                "pips": [i < p["durability"] for i in range(p["max_durability"])],
                "durability": p["durability"],
                "max_durability": p["max_durability"],
                "balance": p["balance"],
                "balance_text": money(p["balance"]),
                "debt": p["balance"] < 0,
                "tiles": [_tile_info(t["id"], t["colour"]) for t in p["tiles"]],
                "active_tiles": [_tile_info(t, "blue") for t in p["active_tiles"]],
                "ramp": p["ramp"],
                "ramp_text": RAMP_NAMES.get(p["ramp"], p["ramp"]),
                "status": p["status"],
                "status_text": status_text,
                "place": p["place"],
                "reversed": p["status"] == "board" and p["facing"] != normal,
                "leg": LEG_NAMES.get(p["leg"], p["leg"]) if view.get("mode") == "closed_border" else "",
                "resigned": p["resigned"],
                "turn_pos": order.index(s) + 1 if s in order else None,
                "pool": turn["pool"] if turn and turn["seat"] == s and turn["stage"] in ("move", "after") else None,
                "finished_pos": finish_order.index(s) + 1 if s in finish_order else None,
            }
        )

    # turn order strip
    turn_idx = order.index(turn_seat) if turn_seat in order else -1
    order_strip = []
    for i, s in enumerate(order):
        p = by_seat.get(s)
        order_strip.append(
            {
                "seat": s,
                "number": s + 1,
                "name": names.get(s, str(s + 1)),
                "fill": _paint(p["character"])[0] if p else NO_PAINT[0],
                "current": s == turn_seat,
                "done": view.get("phase") == "turn" and 0 <= i < turn_idx,
            }
        )

    # dice tray (public: the active player's dice)
    tray = []
    tp = by_seat.get(turn_seat) if turn_seat is not None else None
    if tp:
        for d in tp["dice"]:
            tray.append(
                {
                    **d,
                    "number": d["index"] + 1,
                    "name": FACE_NAMES.get(d["face"], d["face"]),
                    "hint": FACE_HINTS.get(d["face"], ""),
                    "state_name": DIE_STATE_NAMES.get(d["state"], ""),
                }
            )

    # shop, adventure row, piles
    shop = _shop(view, set(), None)
    face_up_tiles = [
        {
            "id": t["id"],
            "kind": t["kind"],
            "n": t["n"],
            "label": adventure_name(t["id"]),
            "effect": OBJECT_EFFECTS.get(t["kind"], ""),
        }
        for t in view.get("face_up") or ()
    ]
    end_steps = list(view.get("end_steps") or ())
    all_steps = ["police", "crane", "shop", "next"]
    end_strip = []
    if view.get("phase") == "round_end":
        pending = set(end_steps)
        current = end_steps[0] if end_steps else None
        for s in all_steps:
            end_strip.append(
                {"name": END_STEP_NAMES[s], "current": s == current, "done": s not in pending, "skipped": False}
            )

    prompt = view.get("prompt")
    prompt_seat = prompt["seat"] if prompt else None
    car_svgs = [_car_svg(c) for c in cars]
    off_svg = "".join(_off_car_svg(c) for c in off_cars)
    return {
        "svg_objects": svg_objects,
        "svg_cars": mark_safe("".join(car_svgs) + off_svg),
        "car_svgs": car_svgs,  # for _seen_by: each viewer redraws only its own car
        "public_players": players,  # kept by every viewer's model: its own entry is one of them marked
        "off_svg": off_svg,
        "svg_piles": svg_piles,
        "svg_targets": mark_safe(_targets_svg([])),
        "width": WIDTH,
        "height": HEIGHT,
        "cell": CELL,
        "half": CELL // 2,
        "objects": objects,
        "piles": piles,
        "cars": cars,
        "off_cars": off_cars,
        "targets": [],
        "focus": focus,
        "players": players,
        "order": order_strip,
        "tray": tray,
        "act": {**_NO_CONTROLS, "any": False},
        "me": None,
        "my_turn": False,
        "active": active,
        "active_name": names.get(active, "") if active is not None else "",
        "turn_seat": turn_seat,
        "turn_name": names.get(turn_seat, "") if turn_seat is not None else "",
        "turn_char": CHARACTER_NAMES.get(tp["character"], "") if tp else "",
        "stage": STAGE_NAMES.get(turn["stage"], turn["stage"]) if turn else "",
        "shop": shop,
        "face_up": face_up_tiles,
        "end_strip": end_strip,
        "finish": [
            {"number": s + 1, "name": names.get(s, str(s + 1)), "place": i + 1} for i, s in enumerate(finish_order)
        ],
        "arrested": [{"number": s + 1, "name": names.get(s, str(s + 1))} for s in view.get("arrest_order") or ()],
        "end_reason": END_REASON_NAMES.get(view.get("end_reason") or "", view.get("end_reason") or ""),
        "phase": PHASE_NAMES.get(view.get("phase", ""), view.get("phase", "")),
        "mode": MODE_NAMES.get(view.get("mode", ""), view.get("mode", "")),
        "prompt_name": names.get(prompt_seat, "") if prompt_seat is not None else "",
        "prompt_question": PROMPT_NAMES.get(prompt["kind"], "") if prompt else "",
        "adventure_discard": [adventure_name(t) for t in view.get("adventure_discard") or ()],
        "bonus_discard": [BONUS_NAMES.get(t, t) for t in view.get("bonus_discard") or ()],
    }


def _with_controls(
    seen: dict[str, Any], view: dict[str, Any], seat: int, legal: list[dict[str, Any]], names: Any
) -> dict[str, Any]:
    """``seen`` (the spectator's model as ``seat`` sees it) with the seat's controls: its legal
    actions as forms and as clickable cells of the bridge, and the shop slots it may buy."""
    names = dict(names or {})
    board = view.get("board") or {}
    b = _Board(view)
    turn = view.get("turn")
    me = seen["me"]
    tray = seen["tray"]
    placements = view.get("placements") or {}
    groups: dict[str, list[dict[str, Any]]] = {}
    for a in legal:
        groups.setdefault(a["type"], []).append(a)

    act: dict[str, Any] = {**_NO_CONTROLS, "any": True}
    targets: list[dict[str, Any]] = []
    if me is not None:
        act["roll"] = groups.get("ROLL", [None])[0]
        act["finalize"] = groups.get("FINALIZE_DICE", [None])[0]
        rerolls = groups.get("REROLL", [])
        if rerolls and turn:
            free = turn["rerolls"] >= 2 and turn["max_rerolls"] > 2
            act["reroll"] = {
                "payload": {"type": "REROLL", "keep": []},
                "left": turn["max_rerolls"] - turn["rerolls"],
                "dice": [{**d, "locked": d["kept"] and not free} for d in tray],
                "free": free,
            }
        if groups.get("RESOLVE_DICE") and me:
            act["resolve"] = _resolve_model(view, me, groups["RESOLVE_DICE"])
        steps = []
        for a in groups.get("STEP", []):
            dl = {"STRAIGHT": 0, "LANE-": -1, "LANE+": 1}[a["dir"]]
            lane, row = me["lane"] + dl, me["row"] + me["facing"]
            hint = _step_hint(b, lane, row, me["facing"], a["dir"], turn["steps_left"] if turn else 0, me["speed"])
            form_id = f"br-step-{a['dir'].replace('+', 'p').replace('-', 'm')}"
            arrow = STEP_ARROWS[a["dir"]] if me["facing"] > 0 else {"↑": "↓", "↖": "↙", "↗": "↘"}[STEP_ARROWS[a["dir"]]]
            steps.append(
                {
                    "payload": a,
                    "name": STEP_NAMES[a["dir"]],
                    "arrow": arrow,
                    "lane": lane,
                    "row": row,
                    "cell": cell_label(lane, row),
                    "hint": hint,
                    "form_id": form_id,
                    "on_bridge": on_bridge(lane, row),
                    "cost": 2 if dl else 0,
                }
            )
            if on_bridge(lane, row):
                label = f"{STEP_NAMES[a['dir']]}: {cell_label(lane, row)}"
                targets.append(_target(lane, row, form_id, "step", label, arrow=arrow))
        act["steps"] = sorted(steps, key=lambda st: st["lane"])
        shots: dict[int, dict[str, Any]] = {}
        for a in groups.get("SHOOT", []):
            d = (a["dir"][0], a["dir"][1])
            entry = shots.setdefault(
                a["die"],
                {"die": a["die"], "number": a["die"] + 1, "dirs": [], "payload": {"type": "SHOOT", "die": a["die"]}},
            )
            entry["dirs"].append(
                {
                    "value": f"{d[0]},{d[1]}",
                    "name": DIRECTION_NAMES.get(d, str(d)),
                    "hint": _shot_hint(b, me["lane"], me["row"], d[0], d[1]),
                    "ray": f"{me['lane']},{me['row']},{d[0]},{d[1]}",
                    "payload": a,
                }
            )
        act["shots"] = list(shots.values())
        buy_slots = {a["slot"] for a in groups.get("BUY", [])}
        act["buy_slots"] = buy_slots
        act["pay_repair"] = groups.get("PAY_REPAIR", [None])[0]
        act["handbrake"] = groups.get("HANDBRAKE", [None])[0]
        ends = groups.get("END_TURN", [])
        if ends:
            sell = max((a["sell"] for a in ends), key=len)
            act["end_turn"] = {
                "payload": {"type": "END_TURN", "sell": []},
                "dice": [d for d in tray if d["index"] in sell],
                "mochico": me["character"] == "C2",
            }
        # Placements: every cell the engine accepts (view["placements"]), with the cell that
        # legal_actions suggests (near the car) preselected in each form's <select>.
        # (form id, target kind, label format with %(cell)s, its other params, cells)
        places: list[tuple[str, str, str, dict[str, Any], list[list[int]]]] = []
        mine_acts = groups.get("PLACE_MINE", [])
        mine_tiles = [t for t in ("B27", "B28") if t in placements] or [a["tile"] for a in mine_acts]
        if mine_tiles:
            tile = mine_tiles[0]
            cells = placements.get(tile) or [a["cell"] for a in mine_acts if a["tile"] == tile]
            act["mine"] = {
                "payload": {"type": "PLACE_MINE", "tile": tile},
                "tile": _tile_info(tile, "grey"),
                "options_html": _cell_options(cells, _first_cell(mine_acts, tile)),
            }
            places.append(("br-mine", "mine", gettext("Bury the mine at %(cell)s"), {}, cells))
        ramp_acts = groups.get("PLACE_RAMP", [])
        if ramp_acts or "PLACE_RAMP" in placements:
            cells = placements.get("PLACE_RAMP") or [a["cell"] for a in ramp_acts]
            act["ramp"] = {
                "payload": {"type": "PLACE_RAMP", "dir": 1},
                "options_html": _cell_options(cells, _first_cell(ramp_acts)),
                "closed": view.get("mode") == "closed_border",
            }
            places.insert(0, ("br-ramp", "ramp", gettext("Place your ramp at %(cell)s"), {}, cells))
        uses = _tile_uses(_with_placements(groups.get("USE_TILE", []), placements), me, view, names, b)
        for u in uses:
            if u["kind"] in ("cell", "cells"):
                cells = [[c["lane"], c["row"]] for c in u["cells"]]
                places.append((u["form_id"], "tile", gettext("%(tile)s at %(cell)s"), {"tile": str(u["name"])}, cells))
        act["uses"] = uses
        # One clickable target per cell; when several forms take the same cell (a mine and an oil
        # slick), the form last touched ("armed") gets the click. Only the armed form's cells are
        # shown: by default the ramp or the mine, or else the first tile unless the car is driving
        # (then the cells ahead belong to the STEP targets).
        armed = ""
        if places and (places[0][1] in ("ramp", "mine") or not act.get("steps")):
            armed = places[0][0]
        by_cell: dict[tuple[int, int], list[tuple[str, str, str]]] = {}
        labels = _labels()
        for form_id, kind, fmt, params, cells in places:
            for c in cells:
                label = fmt % {**params, "cell": labels.get((c[0], c[1])) or cell_label(c[0], c[1])}
                by_cell.setdefault((c[0], c[1]), []).append((form_id, kind, label))
        for (lane, row), forms in by_cell.items():
            ids = [f[0] for f in forms]
            label = " / ".join(f[2] for f in forms)
            targets.append(
                _target(
                    lane,
                    row,
                    " ".join(ids),
                    forms[0][1],
                    label,
                    value=f"{lane},{row}",
                    place=True,
                    off=armed not in ids,
                )
            )
        act["armed"] = armed
    # choices that do not need the car: adventure placement, car choice, prompts
    labels = _labels()
    adventure = {t: cells for t, cells in placements.items() if t in ADVENTURE}
    if not adventure:
        for a in groups.get("PLACE_ADVENTURE", []):
            adventure.setdefault(a["tile"], []).append(a["cell"])
    if adventure:
        face_up = {t["id"]: t for t in view.get("face_up") or ()}
        cell_tiles: dict[tuple[int, int], list[str]] = {}
        for tile, cells in adventure.items():
            for c in cells:
                cell_tiles.setdefault((c[0], c[1]), []).append(tile)
        first = next(iter(adventure))
        act["adventure"] = {
            "payload": {"type": "PLACE_ADVENTURE"},
            "tiles": [
                {
                    "id": t,
                    "kind": face_up.get(t, {}).get("kind", ADVENTURE.get(t, ("", 0))[0]),
                    "label": adventure_name(t),
                    "count": len(cs),
                    "checked": t == first,
                }
                for t, cs in adventure.items()
            ],
            "cells": [
                {"value": f"{c[0]},{c[1]}", "label": labels.get(c) or cell_label(*c), "tiles": " ".join(ts)}
                for c, ts in sorted(cell_tiles.items(), key=lambda kv: (-kv[0][1], kv[0][0]))
            ],
        }
        act["adventure"]["options_html"] = _options(act["adventure"]["cells"])
        adv_fmt = gettext("Place the chosen tile at %(cell)s")
        for spot, ts in cell_tiles.items():
            label = adv_fmt % {"cell": labels.get(spot) or cell_label(*spot)}
            value = f"{spot[0]},{spot[1]}"
            targets.append(_target(*spot, "br-adv", "adv", label, field="cell", value=value, tiles=" ".join(ts)))
    cars_ = groups.get("CHOOSE_CAR", [])
    if cars_:
        chars = list(dict.fromkeys(a["character"] for a in cars_))
        starts = list(dict.fromkeys(a["start"] for a in cars_))
        start_money = {k: v["money"] for k, v in (board.get("start_cells") or {}).items()}
        act["choose_car"] = {
            "payload": {"type": "CHOOSE_CAR"},
            "chars": [
                {
                    "id": c,
                    "name": CHARACTER_NAMES.get(c, c),
                    "ability": CHARACTER_ABILITIES.get(c, ""),
                    "fill": _paint(c)[0],
                    "outline": _paint(c)[2],
                    "colour_name": CHARACTER_COLOUR_NAMES[c],
                }
                for c in chars
            ],
            "starts": [
                {"id": s, "label": cell_label(*START_CELLS[s][0]), "money": money(start_money.get(s, 0))}
                for s in starts
            ],
        }
        for s in starts:
            lane, row = START_CELLS[s][0]
            label = gettext("Start at %(start)s (%(cell)s)") % {"start": s, "cell": cell_label(lane, row)}
            targets.append(_target(lane, row, "br-car", "start", label, field="start", value=s))
    prompt = view.get("prompt")
    if groups.get("CHOOSE") and prompt:
        choices = placements.get("CHOOSE") or prompt["options"]
        opts = []
        for a in groups["CHOOSE"]:
            i = a["option"]
            lane, row = choices[i]
            form_id = f"br-choose-{i}"
            opts.append(
                {
                    "payload": a,
                    "label": cell_label(lane, row),
                    "form_id": form_id,
                    "hl": f"{lane},{row}" if on_bridge(lane, row) else "",
                }
            )
            if on_bridge(lane, row):
                targets.append(_target(lane, row, form_id, "choose", cell_label(lane, row)))
        act["choose"] = {"question": PROMPT_NAMES.get(prompt["kind"], prompt["kind"]), "options": opts}

    return {
        **seen,
        "act": act,
        "targets": targets,
        "svg_targets": mark_safe(_targets_svg(targets)),
        "my_turn": True,
        "shop": _shop(view, act.get("buy_slots", set()), me),
    }


def _shop(view: dict[str, Any], buy_slots: set[int], me: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The shop's slots, those ``buy_slots`` marked for sale to the seat ``me``."""
    shop = []
    for s in view.get("shop") or ():
        info = _tile_info(s["tile"], s["colour"]) if s["tile"] else None
        slot = {
            "slot": s["slot"],
            "price": s["price"],
            "price_text": money(s["price"]),
            "tile": info,
            "can_buy": s["slot"] in buy_slots,
            "payload": {"type": "BUY", "slot": s["slot"]},
        }
        slot["debt"] = bool(me and slot["can_buy"] and s["price"] > me["balance"])
        shop.append(slot)
    return shop


# ---- SVG fragments (built here: a template loop over ~100 items costs several milliseconds) ------


def _objects_svg(objects: list[dict[str, Any]]) -> str:
    out = []
    for o in objects:
        owner = ""
        if o["owner_fill"]:
            owner = f'<rect x="2" y="2" width="36" height="36" rx="5" class="br-owner" stroke="{o["owner_fill"]}"/>'
        flip = ' transform="rotate(180 20 20)"' if o["flip"] else ""
        badge = ""
        if o["badge"]:
            badge = (
                '<g class="br-badge"><rect x="24" y="0.5" width="15.5" height="12" rx="3"/>'
                f'<text x="31.8" y="9.7" text-anchor="middle">{o["badge"]}</text></g>'
            )
        if o["owner"]:
            badge += (
                '<g class="br-badge owner"><rect x="0.5" y="27.5" width="12" height="12" rx="3"/>'
                f'<text x="6.5" y="36.8" text-anchor="middle">{o["owner"]}</text></g>'
            )
        out.append(
            f'<g class="br-obj br-obj-{o["symbol"]}" transform="translate({o["x"]} {o["y"]})" '
            f'data-cell="{o["lane"]},{o["row"]}"><title>{_escape(o["title"])}</title>{owner}'
            f'<use href="#br-s-{o["symbol"]}" width="40" height="40"{flip}/>{badge}</g>'
        )
    return "".join(out)


def _car_inner(car: dict[str, Any], small: bool = False) -> str:
    up = car["facing"] > 0
    flip = "" if up else ' transform="rotate(180 20 20)"'
    speed = (
        ""
        if small
        else (
            '<g class="br-speed"><rect x="23" y="27" width="17" height="12" rx="3"/>'
            f'<text x="31.5" y="36.3" text-anchor="middle">{int(car["speed"])}</text></g>'
        )
    )
    return (
        f'<g class="br-car-body"{flip}><use href="#br-s-car" width="40" height="40" fill="{car["fill"]}" '
        f'stroke="{car["outline"]}" stroke-width="1.4"/></g><text class="br-car-num" x="20" y="{27 if up else 24}" '
        f'text-anchor="middle" fill="{car["ink"]}">{int(car["label"])}</text>{speed}'
    )


def _car_svg(c: dict[str, Any]) -> str:
    """A car on the bridge: ``is-mine`` for its owner's viewer, so that each viewer's drawing
    redraws only that one of the public model's (``_seen_by``)."""
    css = "br-car-anim" + (" is-active" if c["active"] else "") + (" is-mine" if c["mine"] else "")
    ring = '<rect class="br-active-ring" x="1.5" y="1.5" width="37" height="37" rx="7"/>' if c["active"] else ""
    return (
        f'<g class="{css}" id="br-car-{c["seat"]}" data-seat="{c["seat"]}" data-x="{c["x"]}" data-y="{c["y"]}" '
        f'data-facing="{c["facing"]}" data-fill="{c["fill"]}"><g transform="translate({c["x"]} {c["y"]})">'
        f"<title>{_escape(c['title'])}</title>{ring}{_car_inner(c)}</g></g>"
    )


def _off_car_svg(c: dict[str, Any]) -> str:
    """A car off the bridge (finished, arrested, in the river), drawn small beside it."""
    return (
        f'<g class="br-car-off br-off-{c["status"]}" transform="translate({c["x"]} {c["y"]}) scale(.62)">'
        f"<title>{_escape(c['title'])}</title>{_car_inner(c, small=True)}</g>"
    )


def _piles_svg(piles: list[dict[str, Any]]) -> str:
    return "".join(
        f'<g class="br-pile" transform="translate({m["x"]} {m["y"]})"><title>{_escape(m["title"])}</title>'
        '<rect x="0.5" y="0.5" width="25" height="11.5" rx="3"/>'
        f'<text x="13" y="9.6" text-anchor="middle">{_escape(m["text"])}</text></g>'
        for m in piles
    )


def _target(
    lane: int,
    row: int,
    form: str,
    kind: str,
    label: str,
    *,
    field: str = "",
    value: str = "",
    tiles: str = "",
    **extra: Any,
) -> dict[str, Any]:
    """A cell of the drawing that acts for form ``form`` when clicked (drawn by :func:`_targets_svg`);
    ``field`` and ``value``: what it sets in the form first; ``extra``: ``arrow``, ``place``, ``off``."""
    target = {"x": cell_x(lane), "y": cell_y(row), "lane": lane, "row": row, "form": form, "kind": kind}
    return {**target, "field": field, "value": value, "tiles": tiles, "label": label, **extra}


def _targets_svg(targets: list[dict[str, Any]]) -> str:
    # Many targets (placing a tile: up to 150 cells) stay out of the Tab order: the form's <select>
    # next to them is the keyboard way to pick a cell. Placement targets are counted apart, so
    # that a mine's 150 cells do not take the STEP targets out of the Tab order.
    placing = sum(1 for t in targets if t.get("place"))
    tabs = {True: "0" if placing <= 12 else "-1", False: "0" if len(targets) - placing <= 12 else "-1"}
    out = []
    esc = html_escape  # the stdlib's: this loop may run 150 times per render
    for t in targets:
        label = esc(str(t["label"]))
        attrs = f' data-form="{esc(t["form"])}"'
        if t.get("place"):  # the field is the one the (armed) form names in its data-place
            attrs += f' data-place data-value="{esc(t["value"])}"'
        elif t["field"]:
            attrs += f' data-field="{esc(t["field"])}" data-value="{esc(t["value"])}"'
        if t["tiles"]:
            attrs += f' data-tiles="{esc(t["tiles"])}"'
        arrow = ""
        if t.get("arrow"):
            arrow = f'<text x="9" y="14" text-anchor="middle" class="br-target-arrow">{t["arrow"]}</text>'
        off = " br-off" if t.get("off") else ""
        out.append(
            f'<g class="br-target br-target-{t["kind"]}{off}" tabindex="{tabs[bool(t.get("place"))]}" role="button" '
            f'aria-label="{label}"{attrs} data-cell="{t["lane"]},{t["row"]}" '
            f'transform="translate({t["x"]} {t["y"]})"><title>{label}</title>'
            f'<rect x="3" y="3" width="34" height="34" rx="6"/>{arrow}</g>'
        )
    return "".join(out)


@register.simple_tag
def payload_json(payload: Any) -> str:
    """A payload as compact JSON, for data attributes (autoescaped by the template)."""
    return _dump(payload)


def _lit(on: Any, current: Any = False) -> str:
    """The class of a lit step of a strip ("on", "cur"), as the templates wrote it."""
    return ("on" if on else "") + (" cur" if current else "")


@register.simple_tag
def speed_bar(steps: list[dict[str, Any]]) -> SafeString:
    """A dashboard's speed gauge: a mark per speed above 0, lit up to the car's speed."""
    return mark_safe("".join(f'<i class="{_lit(s["on"], s["cur"])}"></i>' for s in steps if s["v"]))


@register.simple_tag
def pips(lit: list[bool]) -> SafeString:
    """A dashboard's durability: a pip per point, lit for those the car has left."""
    return mark_safe("".join(f'<i class="{_lit(on)}"></i>' for on in lit))


@register.simple_tag
def order_items(order: list[dict[str, Any]]) -> SafeString:
    """The round's turn order: a line per car, the current one and those done marked."""
    return mark_safe(
        "".join(
            f'<li class="{"current" if o["current"] else "done" if o["done"] else ""}">'
            f'<span class="br-dot" style="background:{html_escape(str(o["fill"]))}"></span>'
            f"#{html_escape(str(o['number']))} {html_escape(str(o['name']))}</li>"
            for o in order
        )
    )


@register.simple_tag
def die(d: dict[str, Any]) -> SafeString:
    """One die of a tray, a reroll or a sale: its face, its state and what it does (``d``: a die of
    the board model, with its number, name, hint and state's name).

    Written here, not as an ``{% include %}`` per die: five dice to a tray, rendered for the acting
    seat after most of its moves, cost an include each (about 0.1 ms).
    """
    face = html_escape(str(d.get("face", "")))
    state = d.get("state", "")
    classes = "".join(f" {flag}" for flag in ("kept", "rerolled", "double") if d.get(flag))
    name = html_escape(str(d.get("name", "")))
    note = ""
    if d.get("kept"):
        note = " · " + html_escape(gettext("set aside"))
    elif d.get("rerolled"):
        note = " · " + html_escape(gettext("rerolled"))
    if state != "unused":
        note += " · " + html_escape(str(d.get("state_name", "")))
    return mark_safe(
        f'<span class="br-die face-{face} state-{html_escape(str(state))}{classes}"'
        f' data-index="{html_escape(str(d.get("index", "")))}" data-face="{face}"'
        f' title="{name}: {html_escape(str(d.get("hint", "")))}">\n'
        f'<svg class="br-face" viewBox="0 0 40 40" aria-hidden="true">'
        f'<use href="#br-f-{face}" width="40" height="40"/></svg>\n'
        f'<span class="br-die-name">{name}{" ×2" if d.get("double") else ""}</span>\n'
        f'<span class="br-die-flags">#{html_escape(str(d.get("number", "")))}{note}</span>\n</span>'
    )


register.filter("face_name", named(FACE_NAMES))
register.filter("phase_name", named(PHASE_NAMES))
register.filter("stage_name", named(STAGE_NAMES))
register.filter("status_name", named(STATUS_NAMES))
register.filter("mode_name", named(MODE_NAMES))
