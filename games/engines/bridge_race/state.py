"""Immutable game state (frozen dataclasses, tuples, read-only dicts) and JSON codecs."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from .board import Cell, key, unkey

# ---- catalogs (R-6, R-7, R-8) -------------------------------------------------------------

CHARACTERS: dict[str, str] = {
    "C1": "Pipetta",
    "C2": "Don Mochico",
    "C3": "W.B. Spender",
    "C4": "John Duke",
    "C5": "Clyde Parker",
}


def _adventure() -> dict[str, tuple[str, int]]:
    out: dict[str, tuple[str, int]] = {}
    spec = (
        [("caltrops", 2)] * 3
        + [("caltrops", 3)] * 3
        + [("caltrops", 4)]
        + [("roadblock", 1)] * 2
        + [("roadblock", 2)] * 2
        + [("roadblock", 3)] * 2
        + [("police", 1)] * 2
        + [("police", 2), ("police", 3), ("police", 4)]
        + [("speed", 0)] * 6
        + [("container", 1)] * 6
    )
    for i, item in enumerate(spec, start=1):
        out[f"A{i:02d}"] = item
    return out


ADVENTURE: dict[str, tuple[str, int]] = _adventure()
ADVENTURE_IDS: tuple[str, ...] = tuple(ADVENTURE)

BONUS: dict[str, tuple[str, str]] = {
    "B01": ("Ramp Broker", "gold"),
    "B02": ("Rear Gunner", "gold"),
    "B03": ("Homing Bullet", "gold"),
    "B04": ("Gunsmith", "gold"),
    "B05": ("Onboard Mechanic", "gold"),
    "B06": ("Speed-Trap Pass", "blue"),
    "B07": ("Armoured Glass", "blue"),
    "B08": ("Puncture-Proof Tyres", "blue"),
    "B09": ("Crane Insurance", "blue"),
    "B10": ("Anchor", "blue"),
    "B11": ("Police Bribe", "blue"),
    "B12": ("Turbo Tuning", "blue"),
    "B13": ("Power Steering", "blue"),
    "B14": ("Pit Kit", "blue"),
    "B15": ("Tune-Up", "blue"),
    "B16": ("Rally Driver", "blue"),
    "B17": ("Second Chance", "blue"),
    "B18": ("Mortar", "metal"),
    "B19": ("Shotgun", "metal"),
    "B20": ("Molotov Cocktail", "metal"),
    "B21": ("Field Repair", "metal"),
    "B22": ("Lucky Double", "metal"),
    "B23": ("Loaded Die", "metal"),
    "B24": ("Roadworks", "metal"),
    "B25": ("Container Drop", "metal"),
    "B26": ("Payday", "metal"),
    "B27": ("Mine", "grey"),
    "B28": ("Mine", "grey"),
    "B29": ("Oil Slick", "grey"),
    "B30": ("Acid Pool", "grey"),
}
BONUS_IDS: tuple[str, ...] = tuple(BONUS)
COLOUR_RANK = {"gold": 0, "blue": 1, "metal": 2, "grey": 3}
SHOP_PRICES = (500, 400, 300, 200, 100)

FACES = ("POINTER", "POINTER", "STEER", "SHOOT", "REPAIR", "DAMAGE")
FACE_IDS = ("POINTER", "STEER", "SHOOT", "REPAIR", "DAMAGE")

# ---- records -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Obj:
    """One object in a cell. kind: caltrops, roadblock, police, speed, container, ramp, mine,
    oil, acid. n: caltrops/pieces/officers; ramp direction (+1/-1). owner: seat or -1.
    tiles: tile ids carried (discarded when the object leaves). fortified: wall police."""

    kind: str
    n: int = 0
    owner: int = -1
    tiles: tuple[str, ...] = ()
    fortified: bool = False

    def to_json(self) -> list[Any]:
        return [self.kind, self.n, self.owner, list(self.tiles), self.fortified]

    @classmethod
    def from_json(cls, raw: list[Any]) -> Obj:
        return cls(raw[0], raw[1], raw[2], tuple(raw[3]), bool(raw[4]))


@dataclass(frozen=True)
class Die:
    face: str
    kept: bool = False
    # "" unused, "used" (applied, fired, spent, cancelled, damage), "sold"
    state: str = ""
    double: bool = False
    rerolled: bool = False

    def to_json(self) -> list[Any]:
        return [self.face, self.kept, self.state, self.double, self.rerolled]

    @classmethod
    def from_json(cls, raw: list[Any]) -> Die:
        return cls(raw[0], bool(raw[1]), raw[2], bool(raw[3]), bool(raw[4]))


@dataclass(frozen=True)
class Car:
    seat: int
    char: str = ""
    start: str = ""
    lane: int = -1
    row: int = -1
    facing: int = 1
    speed: int = 0
    dur: int = 6
    maxdur: int = 6
    balance: int = 0
    # none (not placed), board, river, finished, exited, arrested
    status: str = "none"
    leg: str = "OUT"
    ramp: str = "none"  # held, placed, none
    tiles: tuple[str, ...] = ()  # held bonus tiles (gold ones stay)
    blue: tuple[str, ...] = ()  # active blue tiles lasting until next turn start
    place: int = 0  # finishing / exit place (1-based), arrest sequence for arrested
    resigned: bool = False

    @property
    def cell(self) -> Cell:
        return (self.lane, self.row)

    @property
    def on_board(self) -> bool:
        return self.status == "board"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            v = getattr(self, f.name)
            out[f.name] = list(v) if isinstance(v, tuple) else v
        return out

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Car:
        kw = dict(raw)
        kw["tiles"] = tuple(kw["tiles"])
        kw["blue"] = tuple(kw["blue"])
        return cls(**kw)


@dataclass(frozen=True)
class Turn:
    seat: int
    # pre (before roll), roll (rolled), mod (final, before resolve), move, after (movement over)
    stage: str = "pre"
    dice: tuple[Die, ...] = ()
    rerolls: int = 0
    max_rerolls: int = 2
    b17: bool = False
    mp: int = 0
    pool_free: int = 0
    pool_bonus: int = 0
    adjust: int = 0  # extra speed adjustments from B12/B15/B16 (resolve only)
    pending_slow: int = 0
    reversed_start: bool = False
    bought: bool = False
    repaired: bool = False
    b03: bool = False
    b04: bool = False
    ramp_ok: bool = True  # ramp may still be placed (first action of the turn)
    sold: int = 0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            v = getattr(self, f.name)
            out[f.name] = [d.to_json() for d in v] if f.name == "dice" else v
        return out

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Turn:
        kw = dict(raw)
        kw["dice"] = tuple(Die.from_json(d) for d in kw["dice"])
        return cls(**kw)


@dataclass(frozen=True)
class Prompt:
    seat: int
    kind: str  # dodge, land, river, bounce
    options: tuple[Cell, ...]
    action: dict[str, Any]
    choices: tuple[int, ...]
    draws: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "options": [list(c) for c in self.options],
            "action": self.action,
            "choices": list(self.choices),
            "draws": list(self.draws),
        }

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Prompt:
        return cls(
            raw["seat"],
            raw["kind"],
            tuple((c[0], c[1]) for c in raw["options"]),
            dict(raw["action"]),
            tuple(raw["choices"]),
            tuple(raw["draws"]),
        )


@dataclass(frozen=True)
class Game:
    players: int
    mode: str = "standard"
    time_limit: int = 60
    # setup (before start), choose_car, adventure, turn, round_end, over
    phase: str = "setup"
    round: int = 0
    seq: int = 0
    since: float = 0.0
    order: tuple[int, ...] = ()
    turn_idx: int = 0
    place_idx: int = 0
    choose_idx: int = 0
    face_up: tuple[str, ...] = ()
    adv_pile: tuple[str, ...] = ()
    adv_discard: tuple[str, ...] = ()
    bonus_pile: tuple[str, ...] = ()
    bonus_discard: tuple[str, ...] = ()
    shop: tuple[str, ...] = ("", "", "", "", "")
    bought_round: bool = False
    end_steps: tuple[str, ...] = ()
    cars: tuple[Car, ...] = ()
    objects: Any = None  # dict[Cell, Obj], never mutated
    money: Any = None  # dict[Cell, int], never mutated
    turn: Turn | None = None
    prompt: Prompt | None = None
    finish_order: tuple[int, ...] = ()
    arrest_order: tuple[int, ...] = ()
    bank_out: int = 0  # net money paid by the bank to players/cells
    end_reason: str = ""
    # Derived, not a rule: (round, place of seat 0, place of seat 1, ...) at the end of each round,
    # places as ``rounds.ranking`` orders the cars, for the end chart. Appended by ``evolve`` (never
    # by a patch); public.
    place_history: tuple[tuple[int, ...], ...] = ()


SECRET_FIELDS = ("adv_pile", "bonus_pile")


def _tuple_str(v: Any) -> tuple[str, ...]:
    return tuple(v)


def field_to_json(name: str, v: Any) -> Any:
    if name == "place_history":
        return [list(p) for p in v]
    if name == "cars":
        return [c.to_json() for c in v]
    if name == "objects":
        return {key(c): o.to_json() for c, o in v.items()}
    if name == "money":
        return {key(c): m for c, m in v.items()}
    if name in ("turn", "prompt"):
        return None if v is None else v.to_json()
    if isinstance(v, tuple):
        return list(v)
    return v


def field_from_json(name: str, v: Any) -> Any:
    if name == "place_history":
        return tuple(tuple(p) for p in v)
    if name == "cars":
        return tuple(Car.from_json(c) for c in v)
    if name == "objects":
        return {unkey(k): Obj.from_json(o) for k, o in v.items()}
    if name == "money":
        return {unkey(k): m for k, m in v.items()}
    if name == "turn":
        return None if v is None else Turn.from_json(v)
    if name == "prompt":
        return None if v is None else Prompt.from_json(v)
    if isinstance(v, list):
        return tuple(v)
    return v


GAME_FIELDS = tuple(f.name for f in fields(Game))


def game_to_json(g: Game) -> dict[str, Any]:
    return {n: field_to_json(n, getattr(g, n)) for n in GAME_FIELDS}


def game_from_json(raw: dict[str, Any]) -> Game:
    return Game(**{n: field_from_json(n, raw[n]) for n in GAME_FIELDS if n in raw})
