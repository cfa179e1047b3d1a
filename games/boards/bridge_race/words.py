"""bridge_race's words for players (the engine only knows ids): the names and hints of characters,
tiles, objects, dice faces, phases and directions, amounts of money and cell labels, each table
translated once per language; and the colours each character's car is painted in."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.utils.translation import gettext_lazy as _

from games.boards.bridge_race.geometry import LANES, ROWS, on_bridge
from games.engines.bridge_race.state import ADVENTURE
from games.push.speaking import current_language, gettext, ngettext

# A board model is built in one language, looked up once for the whole build (asking Django's
# translation machinery for each of a model's words and cell labels was about a third of building
# it, docs/decisions/0018-speaking-context-var.md): inside games.push.speaking.speaking, current_language() is a
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
        language = current_language() or ""  # _language(), without its call: a build looks up hundreds
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


def cell_labels() -> dict[tuple[int, int], str]:
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


def paint(char: str) -> tuple[str, str, str]:
    return CHARACTER_PAINT.get(char, NO_PAINT)


def tile_info(tile: str, colour: str = "") -> dict[str, Any]:
    return {
        "id": tile,
        "name": BONUS_NAMES.get(tile, tile),
        "effect": BONUS_EFFECTS.get(tile, ""),
        "colour": colour,
        "colour_name": TILE_COLOUR_NAMES.get(colour, colour),
        "colour_hint": TILE_COLOUR_HINTS.get(colour, ""),
    }
