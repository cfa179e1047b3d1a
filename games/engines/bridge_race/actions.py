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

END_STEP_TYPES = {"police": "POLICE_FIRE", "crane": "CRANE", "shop": "SHOP_REFRESH",
                  "next": "NEXT_ROUND"}
SYSTEM_TYPES = ("start", "resign", "timeout", *END_STEP_TYPES.values())
STEP_DIRS = {"STRAIGHT": 0, "LANE-": -1, "LANE\u2212": -1, "LANE+": 1}


def _int(v: Any, name: str) -> int:
    if isinstance(v, bool):
        raise InvalidAction(gettext_noop("Field %(name)s must be an integer."), name=name)
    if isinstance(v, int):
        return v
    if isinstance(v, str) and v.strip().lstrip("-").isdigit():
        return int(v.strip())
    raise InvalidAction(gettext_noop("Field %(name)s must be an integer."), name=name)


def _cell(v: Any, name: str = "cell") -> list[int]:
    if isinstance(v, str) and "," in v:
        v = v.split(",")
    if not isinstance(v, (list, tuple)) or len(v) != 2:
        raise InvalidAction(gettext_noop("Field %(name)s must be a cell [lane, row]."), name=name)
    return [_int(v[0], name), _int(v[1], name)]


def _ints(v: Any, name: str) -> list[int]:
    if v is None or v == "":
        return []
    if isinstance(v, str):
        v = [x for x in v.split(",") if x.strip()]
    if not isinstance(v, (list, tuple)):
        raise InvalidAction(gettext_noop("Field %(name)s must be a list."), name=name)
    return sorted({_int(x, name) for x in v})


def _str(v: Any, name: str) -> str:
    if not isinstance(v, str) or not v:
        raise InvalidAction(gettext_noop("Field %(name)s must be a string."), name=name)
    return v


def parse(payload: Mapping[str, Any]) -> dict[str, Any]:
    if not isinstance(payload, Mapping):
        raise InvalidAction(gettext_noop("An action must be an object."))
    t = payload.get("type")
    if not isinstance(t, str):
        raise InvalidAction(gettext_noop("Missing action type."))
    out: dict[str, Any] = {"type": t}
    p = payload
    if t in ("start", "ROLL", "FINALIZE_DICE", "PAY_REPAIR", "HANDBRAKE", "POLICE_FIRE",
             "CRANE", "SHOP_REFRESH", "NEXT_ROUND"):
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
        adj = p.get("adjust") or []
        if isinstance(adj, Mapping):
            adj = [[k, v] for k, v in adj.items()]
        if not isinstance(adj, (list, tuple)):
            raise InvalidAction(gettext_noop("Field adjust must be a list."))
        pairs = []
        for item in adj:
            if not isinstance(item, (list, tuple)) or len(item) != 2:
                raise InvalidAction(gettext_noop("Each adjustment is [index, delta]."))
            d = _int(item[1], "adjust")
            if d == 0:
                continue
            pairs.append([_int(item[0], "adjust"), d])
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
            cells = p.get("cells")
            if not isinstance(cells, (list, tuple)):
                raise InvalidAction(gettext_noop("Field cells must be a list."))
            out["cells"] = [_cell(c, "cells") for c in cells]
        if p.get("moves") not in (None, ""):
            moves = p.get("moves")
            if not isinstance(moves, (list, tuple)):
                raise InvalidAction(gettext_noop("Field moves must be a list."))
            out["moves"] = []
            for m in moves:
                if not isinstance(m, (list, tuple)) or len(m) != 2:
                    raise InvalidAction(gettext_noop("Each move is [from, to]."))
                out["moves"].append([_cell(m[0], "moves"), _cell(m[1], "moves")])
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
        if (turn.stage != "after" or car.status != "board"
                or car.facing != sim.normal_facing(seat) or sim.pool() < 3):
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
