"""Bonus tiles in use (R-68, R-69), mines (R-49), slicks (R-50), shooting actions (R-53)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..base import IllegalAction, gettext_noop
from .board import DIRS8, Cell, adjacent, on_bridge
from .movement import auto_uturn, step
from .shooting import fire, hit_cell, trace
from .sim import Sim
from .state import BONUS, FACE_IDS, Obj

BLUE_THIS_TURN = ("B12", "B13", "B14", "B15", "B16", "B17")
AFTER_FINAL = ("mod", "move", "after")


def _die(sim: Sim, action: dict[str, Any]) -> int:
    t = sim.turn
    assert t is not None
    i = action.get("die")
    if not isinstance(i, int) or not 0 <= i < len(t.dice):
        raise IllegalAction(gettext_noop("Choose one of your dice."))
    return i


def direction(sim: Sim, seat: int, action: dict[str, Any]) -> tuple[int, int]:
    c = sim.car(seat)
    u = action.get("dir")
    if u is None:
        return (0, c.facing)
    u = (u[0], u[1])
    if c.char == "C5":
        if u not in DIRS8:
            raise IllegalAction(gettext_noop("Unknown direction."))
        return u
    if u != (0, c.facing):
        raise IllegalAction(gettext_noop("Only Clyde Parker chooses the direction."))
    return u


def shoot(sim: Sim, seat: int, action: dict[str, Any]) -> None:
    """R-53."""
    t = sim.turn
    assert t is not None
    if t.stage not in ("move", "after"):
        raise IllegalAction(gettext_noop("Shots are fired in the action phase."))
    i = _die(sim, action)
    d = t.dice[i]
    if d.face != "SHOOT" or d.state != "":
        raise IllegalAction(gettext_noop("That die is not an unused SHOOT die."))
    if sim.car(seat).status != "board":
        raise IllegalAction(gettext_noop("Your car is not on the bridge."))
    u = direction(sim, seat, action)
    dice = list(t.dice)
    dice[i] = replace(d, state="used")
    sim.set_turn(dice=tuple(dice))
    rear = "B02" in sim.car(seat).tiles
    for _ in range(2 if d.double else 1):
        fire(sim, seat, u)
        if rear:
            fire(sim, seat, (-u[0], -u[1]))
    sim.spins()


def _cell(raw: Any) -> Cell:
    if not isinstance(raw, (list, tuple)) or len(raw) != 2:
        raise IllegalAction(gettext_noop("Choose a cell."))
    return (int(raw[0]), int(raw[1]))


def place_mine(sim: Sim, seat: int, action: dict[str, Any]) -> None:
    t = sim.turn
    assert t is not None
    tile = action.get("tile")
    c = sim.car(seat)
    if tile not in ("B27", "B28") or tile not in c.tiles:
        raise IllegalAction(gettext_noop("You hold no such mine."))
    if t.stage != "after":
        raise IllegalAction(gettext_noop("Mines are buried at the end of your turn."))
    cell = _cell(action.get("cell"))
    if not sim.placeable(cell):
        raise IllegalAction(gettext_noop("That cell is not placeable."))
    sim.set_car(seat, tiles=tuple(x for x in c.tiles if x != tile))
    sim.set_obj(cell, Obj("mine", 0, seat, (tile,)))
    sim.log("mine_placed", seat=seat, lane=cell[0], row=cell[1])


def use_tile(sim: Sim, seat: int, action: dict[str, Any]) -> None:
    t = sim.turn
    assert t is not None
    tile = action.get("tile")
    c = sim.car(seat)
    if not isinstance(tile, str) or tile not in BONUS or tile not in c.tiles:
        raise IllegalAction(gettext_noop("You do not hold that tile."))
    colour = BONUS[tile][1]
    stage = t.stage
    on = c.status == "board"

    def consume() -> None:
        car = sim.car(seat)
        sim.set_car(seat, tiles=tuple(x for x in car.tiles if x != tile))

    def need(ok: bool, msg: str) -> None:
        if not ok:
            raise IllegalAction(msg)

    bad_time = gettext_noop("That tile cannot be used now.")
    sim.log("use_tile", seat=seat, tile=tile)
    if tile in ("B01", "B02", "B27", "B28"):
        raise IllegalAction(gettext_noop("That tile is not used this way."))
    if tile == "B03":
        need(stage in AFTER_FINAL and not t.b03, bad_time)
        target = action.get("target")
        need(
            isinstance(target, int)
            and 0 <= target < sim.players
            and target != seat
            and sim.car(target).status == "board",
            gettext_noop("Choose a car on the bridge."),
        )
        assert isinstance(target, int)
        sim.set_turn(b03=True)
        sim.damage(target, 1, "shot", drop=sim.car(target).cell)
    elif tile == "B04":
        need(stage == "mod" and not t.b04, bad_time)
        i = _die(sim, action)
        need(t.dice[i].face != "DAMAGE", gettext_noop("A DAMAGE die cannot be changed."))
        dice = list(t.dice)
        dice[i] = replace(dice[i], face="SHOOT")
        sim.set_turn(dice=tuple(dice), b04=True)
    elif tile == "B05":
        need(c.dur < c.maxdur, gettext_noop("The car is already at full durability."))
        sim.pay(seat, 100)
        sim.set_car(seat, dur=c.dur + 1)
    elif colour == "blue":
        if tile == "B17":
            need(stage == "roll" and t.rerolls == 2 and not t.b17, bad_time)
            sim.set_turn(b17=True, max_rerolls=4)
        before = stage in ("pre", "roll", "mod")
        if tile == "B12" and before:
            sim.set_turn(adjust=t.adjust + 2)
        if tile in ("B15", "B16") and before:
            sim.set_turn(adjust=t.adjust + 1)
        if tile == "B13":
            sim.set_turn(pool_bonus=t.pool_bonus + 2)
        if tile in ("B14", "B16"):
            assert sim.turn is not None
            sim.set_turn(pool_bonus=sim.turn.pool_bonus + 1)
        if tile in ("B14", "B15"):
            sim.set_car(seat, dur=min(c.maxdur, c.dur + 1))
        consume()
        car = sim.car(seat)
        sim.set_car(seat, blue=(*car.blue, tile))
        auto_uturn(sim)
        return
    elif tile == "B18":
        need(stage in AFTER_FINAL and on, bad_time)
        u = direction(sim, seat, action)
        what, pos = trace(sim, c.cell, u)
        if what == "car" and pos is not None:
            target = sim.car_at(pos)
            assert target is not None
            if "B10" in target.blue or "B07" in target.blue:
                sim.log("protected", seat=target.seat)
            else:
                sim.log("mortar", seat=seat, target_seat=target.seat)
                step(sim, target.seat, u, "mortar")
        sim.spins()
    elif tile == "B19":
        need(stage in ("move", "after") and on, bad_time)
        i = _die(sim, action)
        d = t.dice[i]
        need(d.face == "SHOOT" and d.state == "", gettext_noop("Spend an unused SHOOT die."))
        dice = list(t.dice)
        dice[i] = replace(d, state="used")
        sim.set_turn(dice=tuple(dice))
        for k in (1, 2):
            cell = (c.lane, c.row + k * c.facing)
            if on_bridge(cell):
                hit_cell(sim, cell, 2)
        sim.spins()
    elif tile == "B20":
        need(stage in AFTER_FINAL and on, bad_time)
        cell = (c.lane, c.row - c.facing)
        if on_bridge(cell):
            hit_cell(sim, cell, 3)
        sim.spins()
    elif tile == "B21":
        sim.set_car(seat, dur=min(c.maxdur, c.dur + 2))
    elif tile == "B22":
        need(stage == "mod", bad_time)
        i = _die(sim, action)
        dice = list(t.dice)
        dice[i] = replace(dice[i], double=True)
        sim.set_turn(dice=tuple(dice))
    elif tile == "B23":
        need(stage == "mod", bad_time)
        i = _die(sim, action)
        face = action.get("face", "")
        need(face in FACE_IDS, gettext_noop("Choose a face."))
        dice = list(t.dice)
        dice[i] = replace(dice[i], face=face)
        sim.set_turn(dice=tuple(dice))
    elif tile == "B24":
        need(stage in AFTER_FINAL, bad_time)
        moves = action.get("moves") or []
        need(isinstance(moves, list) and 1 <= len(moves) <= 5, gettext_noop("Move 1 to 5 pieces."))
        for mv in moves:
            src, dst = _cell(mv[0]), _cell(mv[1])
            o = sim.obj(src)
            need(o is not None and o.kind == "roadblock", gettext_noop("No roadblock there."))
            assert o is not None
            od = sim.obj(dst)
            ok = (
                dst in adjacent(src)
                and dst[1] > 2
                and sim.car_at(dst) is None
                and (od is None or od.kind == "roadblock")
                and (od is not None or sim.placeable(dst))
            )
            need(ok, gettext_noop("A piece cannot go there."))
            if o.n == 1:
                sim.set_obj(src, None)
                carried = o.tiles
            else:
                sim.set_obj(src, replace(o, n=o.n - 1))
                carried = ()
            if od is None:
                sim.set_obj(dst, Obj("roadblock", 1, -1, carried))
            else:
                sim.set_obj(dst, replace(od, n=od.n + 1, tiles=od.tiles + carried))
    elif tile == "B25":
        need(stage in AFTER_FINAL and on, bad_time)
        cells = [_cell(x) for x in action.get("cells") or []]
        need(1 <= len(cells) <= 2 and len(set(cells)) == len(cells), gettext_noop("Choose 1 or 2 cells."))
        for cell in cells:
            ok = (
                sim.placeable(cell)
                and cell in adjacent(c.cell)
                and not any(
                    (o := sim.obj(a)) is not None and (o.kind == "container" or o.fortified) for a in adjacent(cell)
                )
                and all(a not in cells for a in adjacent(cell))
            )
            need(ok, gettext_noop("A container cannot go there."))
        for cell in cells:
            sim.set_obj(cell, Obj("container", 1))
        consume()
        sim.discard_tiles((tile,))
        return
    elif tile == "B26":
        sim.gain(seat, 500)
    elif tile in ("B29", "B30"):
        need(stage in AFTER_FINAL, bad_time)
        cell = _cell(action.get("cell"))
        need(sim.placeable(cell), gettext_noop("That cell is not placeable."))
        consume()
        sim.set_obj(cell, Obj("oil" if tile == "B29" else "acid", 0, seat, (tile,)))
        return
    else:
        raise IllegalAction(bad_time)
    if colour == "metal":
        consume()
        sim.discard_tiles((tile,))


def expire_blue(sim: Sim, seat: int, this_turn_only: bool) -> None:
    c = sim.car(seat)
    gone = tuple(x for x in c.blue if not this_turn_only or x in BLUE_THIS_TURN)
    if gone:
        sim.set_car(seat, blue=tuple(x for x in c.blue if x not in gone))
        sim.discard_tiles(gone)
