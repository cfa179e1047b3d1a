"""Car collisions: push chains (R-35..R-37), stopped/opposite cars (R-38), container
crashes (R-39, R-40), guardrails (R-41)."""

from __future__ import annotations

import itertools

from .board import LANES, LAST_ROW, guarded, wall_row
from .movement import Vec, ahead, enter, leave
from .sim import Sim


def crash(sim: Sim, seat: int) -> None:
    """R-39 head-on crash into a container or fortified police."""
    c = sim.car(seat)
    s = c.speed
    sim.set_car(seat, speed=0)
    sim.log("crash", seat=seat, speed=s)
    sim.damage(seat, s // 10, "road", drop=c.cell, immovable=True)
    if seat == sim.active_seat():
        sim.move_over = True


def push(sim: Sim, seat: int, v: Vec) -> None:
    """R-36 push chain with initiator ``seat`` along ``v``."""
    me = sim.car(seat)
    chain: list[int] = []
    pos = (me.lane + v[0], me.row + v[1])
    while True:
        other = sim.car_at(pos)
        if other is None:
            break
        chain.append(other.seat)
        pos = (pos[0] + v[0], pos[1] + v[1])
    outcome = ""
    for i, s in enumerate(chain):
        if "B10" in sim.car(s).blue:
            chain = chain[: i + 1]
            outcome = "BLOCKED_ANCHOR"
            break
    last = sim.car(chain[-1])
    e = (last.lane + v[0], last.row + v[1])
    if not outcome:
        if e[1] > LAST_ROW:
            outcome = "MOVES"
        elif e[1] < 0:
            outcome = "MOVES" if sim.closed() and last.leg == "RET" else "BLOCKED_RAIL"
        elif e[0] < 0 or e[0] >= LANES:
            side = -1 if e[0] < 0 else 1
            outcome = "BLOCKED_RAIL" if guarded(side, last.row) else "MOVES"
        elif sim.blocks_car(e):
            outcome = "BLOCKED_CONTAINER"
        else:
            outcome = "MOVES"
    sim.log("push", seat=seat, chain=list(chain), outcome=outcome)
    pipetta = me.char == "C1"
    before = {s: sim.car(s).cell for s in [seat, *chain]}
    owed: dict[int, int] = {}

    def hurt(s: int, n: int, kind: str, immovable: bool = False) -> None:
        owed[s] = owed.get(s, 0) + sim.damage(s, n, kind, drop=None, immovable=immovable)

    if outcome == "BLOCKED_CONTAINER" and v[0] == 0:
        speed = me.speed
        for s in [seat, *chain]:
            if s == seat and pipetta:
                continue
            sim.set_car(s, speed=0)
            hurt(s, speed // 10, "road", immovable=True)
    else:
        cars = [seat, *chain]
        for a, b in itertools.pairwise(cars):
            if not (a == seat and pipetta):
                hurt(a, 1, "contact")
            hurt(b, 1, "contact")
        if outcome in ("BLOCKED_CONTAINER", "BLOCKED_RAIL"):
            hurt(chain[-1], 1, "road", immovable=True)
    if outcome == "MOVES":
        for s in reversed(chain):
            c = sim.car(s)
            if c.status != "board":
                continue
            t = (c.lane + v[0], c.row + v[1])
            how = ""
            if t[1] > LAST_ROW:
                how = "arrest" if sim.closed() else "finish"
            elif t[1] < 0:
                how = "exit"
            elif t[0] < 0 or t[0] >= LANES:
                how = "river"
            elif sim.closed() and t[1] > wall_row(sim.players):
                how = "arrest"
            if how:
                leave(sim, s, how)
            elif sim.car_at(t) is None and not sim.blocks_car(t):
                enter(sim, s, t, "push", v)
    for s, amount in owed.items():
        sim.drop(before[s], amount)


def hit_stopped(sim: Sim, seat: int, other: int, v: Vec) -> None:
    """R-38: the target is stopped or faces the other way."""
    k = sim.car(seat)
    t = sim.car(other)
    sk, st = k.speed, t.speed
    pipetta = k.char == "C1"
    n = (sk + st) // 10
    sim.log("hit", seat=seat, target_seat=other, n=n)
    if not pipetta:
        sim.damage(seat, n, "contact", drop=k.cell)
        sim.set_car(seat, speed=0)
        if seat == sim.active_seat():
            sim.move_over = True
    sim.damage(other, n, "contact", drop=t.cell)
    sim.set_car(other, speed=0)
    if pipetta or st <= sk:
        mover, vec = other, v
        if "B10" in sim.car(other).blue:
            return
    else:
        mover, vec = seat, (-v[0], -v[1])
    found = ahead(sim, mover, vec)
    if found is None:
        return
    dest, how = found
    if how in ("end", "guard"):
        return
    if how:
        leave(sim, mover, how)
        return
    if sim.car_at(dest) is not None or sim.blocks_car(dest):
        return
    enter(sim, mover, dest, "push", vec)
