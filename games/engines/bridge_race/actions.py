"""Parsing (untrusted JSON -> canonical action) and dispatching of actions (R-93)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import SYSTEM, IllegalAction, InvalidAction, gettext_noop
from .board import START_CELLS
from .dice import finalize, reroll, resolve, roll
from .movement import after_step, step
from .rounds import choose_car, current_placer, end_step, end_turn, legal_cells, place_adventure
from .rounds import start as start_game
from .shop import buy
from .sim import Sim
from .state import ADVENTURE, CHARACTERS, Obj
from .tiles import place_mine, shoot, use_tile

END_STEP_TYPES = {"police": "POLICE_FIRE", "crane": "CRANE", "shop": "SHOP_REFRESH", "next": "NEXT_ROUND"}
SYSTEM_TYPES = ("start", "resign", "timeout", *END_STEP_TYPES.values())
STEP_DIRS = {"STRAIGHT": 0, "LANE-": -1, "LANE\u2212": -1, "LANE+": 1}


# No field of any action (a seat, a die, a slot, a cell, a speed change, a sequence number)
# comes near this; a form never sends more digits.
INT_LIMIT = 1_000_000


def _int(v: Any, name: str) -> int:
    """An integer, or its decimal string as an HTML form sends it ("3", "-1", "+10"); never huge."""
    if isinstance(v, bool):
        raise InvalidAction(gettext_noop("Field %(name)s must be an integer."), name=name)
    value: int | None = None
    if isinstance(v, int):
        value = v
    elif isinstance(v, str):
        s = v.strip()
        digits = s[1:] if s[:1] in ("+", "-") else s
        if digits.isascii() and digits.isdigit() and len(digits) <= 7:
            value = int(s)
    if value is None:
        raise InvalidAction(gettext_noop("Field %(name)s must be an integer."), name=name)
    if not -INT_LIMIT <= value <= INT_LIMIT:
        raise InvalidAction(gettext_noop("Field %(field)s is out of range."), field=name)
    return value


def _cell(v: Any, name: str = "cell") -> list[int]:
    """A cell as JSON ``[lane, row]`` or as a form string ``"lane,row"``."""
    if isinstance(v, str):
        v = v.split(",")
    if not isinstance(v, (list, tuple)) or len(v) != 2:
        raise InvalidAction(gettext_noop("Field %(name)s must be a cell [lane, row]."), name=name)
    try:
        return [_int(v[0], name), _int(v[1], name)]
    except InvalidAction:
        raise InvalidAction(gettext_noop("Field %(name)s must be a cell [lane, row]."), name=name) from None


def _ints(v: Any, name: str) -> list[int]:
    if v is None or v == "":
        return []
    if isinstance(v, str):
        v = v.split(",")
    if not isinstance(v, (list, tuple)):
        raise InvalidAction(gettext_noop("Field %(name)s must be a list."), name=name)
    return sorted({_int(x, name) for x in v if not (isinstance(x, str) and not x.strip())})


def _items(v: Any, name: str, seps: str = ";") -> list[Any]:
    """A list field: a JSON list, a form's ``name[]`` list of strings, or one string whose items
    are separated by one of ``seps``. Blank strings (an empty form choice) are dropped."""
    if v is None:
        return []
    if isinstance(v, str):
        for sep in seps[1:]:
            v = v.replace(sep, seps[0])
        v = v.split(seps[0])
    if not isinstance(v, (list, tuple)):
        raise InvalidAction(gettext_noop("Field %(name)s must be a list."), name=name)
    return [x for x in v if not (isinstance(x, str) and not x.strip())]


def _str(v: Any, name: str) -> str:
    if not isinstance(v, str) or not v:
        raise InvalidAction(gettext_noop("Field %(name)s must be a string."), name=name)
    return v


UNUSED_DELTAS = ("0", "+0", "-0", "unused")
BAD_ADJUSTMENT = gettext_noop('Each speed adjustment is "index:+10", "index:-10" or "unused".')
BAD_MOVE = gettext_noop('Each move is "lane,row>lane,row": from the piece\'s cell to its new cell.')


def _adjustment(item: Any) -> list[int] | None:
    """One RESOLVE_DICE adjustment: JSON ``[index, delta]`` or a form string ``"index:+10"`` /
    ``"index:-10"``; ``"index:0"`` and ``"unused"`` leave that pointer unused (None)."""
    if isinstance(item, str):
        text = item.strip().lower()
        if text == "unused":
            return None
        index, sep, delta = text.partition(":")
        try:
            if not sep:
                raise InvalidAction(BAD_ADJUSTMENT)
            i = _int(index, "adjust")
            d = 0 if delta.strip() in UNUSED_DELTAS else _int(delta, "adjust")
        except InvalidAction:
            raise InvalidAction(BAD_ADJUSTMENT) from None
        return None if d == 0 else [i, d]
    if not isinstance(item, (list, tuple)) or len(item) != 2:
        raise InvalidAction(gettext_noop("Each adjustment is [index, delta]."))
    d = _int(item[1], "adjust")
    i = _int(item[0], "adjust")
    return None if d == 0 else [i, d]


def _move(item: Any) -> list[list[int]]:
    """One Roadworks (B24) move: JSON ``[from, to]`` or a form string ``"lane,row>lane,row"``."""
    if isinstance(item, str):
        src, sep, dst = item.partition(">")
        try:
            if not sep:
                raise InvalidAction(BAD_MOVE)
            return [_cell(src, "moves"), _cell(dst, "moves")]
        except InvalidAction:
            raise InvalidAction(BAD_MOVE) from None
    if not isinstance(item, (list, tuple)) or len(item) != 2:
        raise InvalidAction(gettext_noop("Each move is [from, to]."))
    return [_cell(item[0], "moves"), _cell(item[1], "moves")]


def parse(payload: Mapping[str, Any]) -> dict[str, Any]:
    if not isinstance(payload, Mapping):
        raise InvalidAction(gettext_noop("An action must be an object."))
    t = payload.get("type")
    if not isinstance(t, str):
        raise InvalidAction(gettext_noop("Missing action type."))
    out: dict[str, Any] = {"type": t}
    p = payload
    if t in (
        "start",
        "ROLL",
        "FINALIZE_DICE",
        "PAY_REPAIR",
        "HANDBRAKE",
        "POLICE_FIRE",
        "CRANE",
        "SHOP_REFRESH",
        "NEXT_ROUND",
    ):
        return out
    if t == "resign":
        out["seat"] = _int(p.get("seat"), "seat")
    elif t == "timeout":
        out["seq"] = _int(p.get("seq"), "seq")
    elif t == "CHOOSE_CAR":
        out["character"] = _str(p.get("character"), "character")
        out["start"] = _str(p.get("start"), "start")
        if out["character"] not in CHARACTERS or out["start"] not in START_CELLS:
            raise InvalidAction(gettext_noop("Unknown character or start cell."))
    elif t == "PLACE_ADVENTURE":
        out["tile"] = _str(p.get("tile"), "tile")
        out["cell"] = _cell(p.get("cell"))
    elif t == "PLACE_RAMP":
        out["cell"] = _cell(p.get("cell"))
        out["dir"] = _int(p.get("dir", 1), "dir")
        if out["dir"] not in (1, -1):
            raise InvalidAction(gettext_noop("A ramp faces +1 or -1."))
    elif t == "REROLL":
        out["keep"] = _ints(p.get("keep"), "keep")
    elif t == "RESOLVE_DICE":
        out["repair"] = _ints(p.get("repair"), "repair")
        adj = p.get("adjust")
        if isinstance(adj, Mapping):
            adj = [[k, v] for k, v in adj.items()]
        pairs = [a for a in map(_adjustment, _items(adj, "adjust", ";,")) if a is not None]
        out["adjust"] = sorted(pairs)
    elif t == "STEP":
        d = _str(p.get("dir"), "dir")
        if d not in STEP_DIRS:
            raise InvalidAction(gettext_noop("Unknown step direction."))
        out["dir"] = "LANE-" if d == "LANE\u2212" else d
    elif t == "SHOOT":
        out["die"] = _int(p.get("die"), "die")
        if p.get("dir") not in (None, ""):
            out["dir"] = _cell(p.get("dir"), "dir")
    elif t == "BUY":
        out["slot"] = _int(p.get("slot"), "slot")
    elif t == "USE_TILE":
        out["tile"] = _str(p.get("tile"), "tile")
        for k in ("target", "die"):
            if p.get(k) not in (None, ""):
                out[k] = _int(p.get(k), k)
        if p.get("face") not in (None, ""):
            out["face"] = _str(p.get("face"), "face")
        if p.get("dir") not in (None, ""):
            out["dir"] = _cell(p.get("dir"), "dir")
        if p.get("cell") not in (None, ""):
            out["cell"] = _cell(p.get("cell"))
        if p.get("cells") not in (None, ""):
            out["cells"] = [_cell(c, "cells") for c in _items(p.get("cells"), "cells")]
        if p.get("moves") not in (None, ""):
            out["moves"] = [_move(m) for m in _items(p.get("moves"), "moves")]
    elif t == "PLACE_MINE":
        out["tile"] = _str(p.get("tile"), "tile")
        out["cell"] = _cell(p.get("cell"))
    elif t == "END_TURN":
        out["sell"] = _ints(p.get("sell"), "sell")
    elif t == "CHOOSE":
        out["option"] = _int(p.get("option"), "option")
    else:
        raise InvalidAction(gettext_noop("Unknown action type %(type)s."), type=t)
    return out


def perform(sim: Sim, seat: int, a: dict[str, Any]) -> None:
    """Apply one (non-CHOOSE, non-timeout) action to the working state, validating it."""
    t = a["type"]
    if t == "start":
        if seat != SYSTEM or sim.phase != "setup":
            raise IllegalAction(gettext_noop("The match has already started."))
        start_game(sim)
        return
    if t in END_STEP_TYPES.values():
        if seat != SYSTEM or sim.phase != "round_end" or END_STEP_TYPES[sim.end_steps[0]] != t:
            raise IllegalAction(gettext_noop("That step is not pending."))
        end_step(sim)
        return
    if sim.phase == "choose_car":
        if t != "CHOOSE_CAR" or seat != sim.choose_idx:
            raise IllegalAction(gettext_noop("It is not your turn to choose a car."))
        if any(c.char == a["character"] for c in sim.cars):
            raise IllegalAction(gettext_noop("That character is taken."))
        if any(c.start == a["start"] for c in sim.cars):
            raise IllegalAction(gettext_noop("That start cell is taken."))
        choose_car(sim, seat, a["character"], a["start"])
        return
    if sim.phase == "adventure":
        if t != "PLACE_ADVENTURE" or seat != current_placer(sim):
            raise IllegalAction(gettext_noop("It is not your turn to place a tile."))
        tile = a["tile"]
        cell = (a["cell"][0], a["cell"][1])
        if tile not in sim.face_up or tile not in ADVENTURE:
            raise IllegalAction(gettext_noop("That tile is not face up."))
        if cell not in legal_cells(sim, tile):
            raise IllegalAction(gettext_noop("That tile cannot be placed there."))
        place_adventure(sim, seat, tile, cell)
        return
    turn = sim.turn
    if sim.phase != "turn" or turn is None or seat != turn.seat:
        raise IllegalAction(gettext_noop("It is not your turn."))
    if t != "PLACE_RAMP" and turn.ramp_ok:
        sim.set_turn(ramp_ok=False)
    car = sim.car(seat)
    if t == "PLACE_RAMP":
        cell = (a["cell"][0], a["cell"][1])
        if not turn.ramp_ok or turn.stage != "pre" or car.ramp != "held":
            raise IllegalAction(gettext_noop("You cannot place your ramp now."))
        if a["dir"] != 1 and not sim.closed():
            raise IllegalAction(gettext_noop("The ramp faces the finish."))
        if not sim.placeable(cell):
            raise IllegalAction(gettext_noop("That cell is not placeable."))
        sim.set_obj(cell, Obj("ramp", a["dir"], seat))
        sim.set_car(seat, ramp="placed")
        sim.set_turn(ramp_ok=False)
        sim.log("ramp", seat=seat, lane=cell[0], row=cell[1], dir=a["dir"])
    elif t == "ROLL":
        roll(sim)
    elif t == "REROLL":
        reroll(sim, a["keep"])
    elif t == "FINALIZE_DICE":
        finalize(sim)
    elif t == "RESOLVE_DICE":
        resolve(sim, a["repair"], [(i, d) for i, d in a["adjust"]])
    elif t == "STEP":
        if turn.stage != "move" or turn.mp <= 0 or car.status != "board":
            raise IllegalAction(gettext_noop("You have no movement step left."))
        dl = STEP_DIRS[a["dir"]]
        if not 0 <= car.lane + dl < 5:
            raise IllegalAction(gettext_noop("A car never steers off the bridge."))
        if dl:
            if sim.pool() < 2:
                raise IllegalAction(gettext_noop("A lane change needs 2 steering tokens."))
            sim.spend(2)
        sim.set_turn(mp=turn.mp - 1)
        step(sim, seat, (dl, car.facing), "move")
        after_step(sim)
    elif t == "SHOOT":
        shoot(sim, seat, a)
    elif t == "BUY":
        buy(sim, seat, a["slot"])
    elif t == "USE_TILE":
        use_tile(sim, seat, a)
    elif t == "PAY_REPAIR":
        if car.speed != 0 or turn.repaired or car.status != "board":
            raise IllegalAction(gettext_noop("Stop-repair needs a stopped car, once per turn."))
        sim.pay(seat, 200)
        sim.set_car(seat, dur=car.maxdur)
        sim.set_turn(repaired=True)
        sim.log("stop_repair", seat=seat)
    elif t == "HANDBRAKE":
        if turn.stage != "after" or car.status != "board" or car.facing != sim.normal_facing(seat) or sim.pool() < 3:
            raise IllegalAction(gettext_noop("You cannot use the handbrake now."))
        sim.spend(3)
        sim.set_car(seat, facing=-car.facing, speed=0)
        sim.log("handbrake", seat=seat)
        sim.update_leg(seat)
    elif t == "PLACE_MINE":
        place_mine(sim, seat, a)
    elif t == "END_TURN":
        if turn.stage != "after":
            raise IllegalAction(gettext_noop("Your movement is not over."))
        for i in a["sell"]:
            if not 0 <= i < len(turn.dice):
                raise IllegalAction(gettext_noop("Unknown die."))
            d = turn.dice[i]
            if d.state != "" or d.face == "DAMAGE":
                raise IllegalAction(gettext_noop("Only unused dice can be sold."))
        end_turn(sim, seat, a["sell"])
    else:
        raise IllegalAction(gettext_noop("That action is not possible now."))
