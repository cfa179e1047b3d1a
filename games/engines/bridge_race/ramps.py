"""Ramps: placement (R-59), jumps (R-61), bounces (R-62, R-63)."""

from __future__ import annotations

from .board import LANES, LAST_ROW, Cell, edge_kind, wall_row
from .movement import arrest, cross_finish, enter, fall_river
from .sim import Sim

LANDING = {"STEER": "perfect", "REPAIR": "perfect", "POINTER": "good", "SHOOT": "good", "DAMAGE": "failed"}
LANDING_DAMAGE = {"perfect": 0, "good": 1, "failed": 2}


def classify(sim: Sim, seat: int, cell: Cell) -> str:
    """R-63 candidate class."""
    c = sim.car(seat)
    lane, row = cell
    if lane < 0 or lane >= LANES:
        return "EXCLUDED" if edge_kind(-1 if lane < 0 else 1, row) == "large" else "RIVER"
    if row > LAST_ROW:
        return "ARREST" if sim.closed() else "FINISH"
    if row < 0:
        return "FINISH" if sim.closed() and c.leg == "RET" else "EXCLUDED"
    if sim.closed() and row > wall_row(sim.players):
        return "ARREST"
    other = sim.car_at(cell)
    if (other is not None and other.seat != seat) or sim.blocks_car(cell):
        return "SPRING"
    return "FREE"


def jump(sim: Sim, seat: int, ramp_cell: Cell) -> None:
    """R-61."""
    assert sim.turn is not None
    rho = sim.turn.mp
    face = sim.draw_face()
    result = LANDING[face]
    dist = rho - 1 if result == "failed" else rho
    c = sim.car(seat)
    d = c.facing
    target = (ramp_cell[0], ramp_cell[1] + dist * d)
    sim.set_turn(mp=0)
    sim.move_over = True
    sim.log("jump", seat=seat, face=face, result=result, lane=target[0], row=target[1])
    dmg = LANDING_DAMAGE[result]
    cls = classify(sim, seat, target)
    if cls == "FINISH":
        cross_finish(sim, seat)
    elif cls == "ARREST":
        arrest(sim, seat)
    elif cls == "EXCLUDED":
        land(sim, seat, ramp_cell, dmg, 0)
    elif cls == "SPRING":
        bounce(sim, seat, target, dmg)
    else:
        land(sim, seat, target, dmg, 0)


def land(sim: Sim, seat: int, cell: Cell, dmg: int, deferred: int) -> None:
    c = sim.car(seat)
    if c.cell != cell:
        enter(sim, seat, cell, "land", (0, c.facing))
    c = sim.car(seat)
    if c.status != "board":
        sim.bank_out -= deferred
        return
    sim.drop(c.cell, deferred)
    if dmg:
        sim.damage(seat, dmg, "landing", drop=c.cell)


def bounce(sim: Sim, seat: int, spring: Cell, dmg: int) -> None:
    """R-62/R-63 from springboard ``spring``."""
    deferred = 0
    me = sim.car(seat)
    while True:
        other = sim.car_at(spring)
        sim.log("bounce", seat=seat, lane=spring[0], row=spring[1])
        if other is not None and other.seat != seat:
            mine = 0 if me.char == "C1" else sim.damage(seat, 1, "bounce", drop=None)
            theirs = sim.damage(other.seat, 1, "contact", drop=None)
            sim.drop(spring, mine + theirs)
        else:
            deferred += sim.damage(seat, 1, "bounce", drop=None)
        d = sim.car(seat).facing
        cands = [(spring[0] + dl, spring[1] + d) for dl in (-1, 0, 1)]
        classes = {c: classify(sim, seat, c) for c in cands}
        free = [c for c in cands if classes[c] in ("FREE", "FINISH")]
        if free:
            pick = sim.choose(seat, "land", free)
            if classes[pick] == "FINISH":
                sim.bank_out -= deferred
                cross_finish(sim, seat)
            else:
                land(sim, seat, pick, dmg, deferred)
            return
        out = [c for c in cands if classes[c] in ("RIVER", "ARREST")]
        if out:
            pick = sim.choose(seat, "river", out)
            sim.bank_out -= deferred
            if classes[pick] == "ARREST":
                arrest(sim, seat)
            else:
                edge = (0 if pick[0] < 0 else LANES - 1, pick[1])
                fall_river(sim, seat, edge)
            return
        springs = [c for c in cands if classes[c] == "SPRING"]
        if not springs:  # every candidate excluded: stay on the springboard's row behind
            land(sim, seat, sim.car(seat).cell, dmg, deferred)
            return
        boxes = [c for c in springs if sim.blocks_car(c)]
        spring = sim.choose(seat, "bounce", boxes or springs)
