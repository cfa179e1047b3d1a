"""Shooting (R-51..R-54), police dodging (R-47) and police fire (R-48)."""

from __future__ import annotations

from .board import Cell, on_bridge
from .sim import Sim

Vec = tuple[int, int]


def dodge(sim: Sim, cell: Cell) -> None:
    """R-47: the officers move one lane sideways, or leave the board."""
    o = sim.obj(cell)
    if o is None or o.kind != "police" or o.fortified:
        return
    options = [c for c in ((cell[0] - 1, cell[1]), (cell[0] + 1, cell[1])) if sim.is_free(c)]
    if not options:
        sim.remove_obj(cell)
        sim.log("police_removed", lane=cell[0], row=cell[1])
        return
    to = sim.choose(sim.active_seat(), "dodge", options)
    sim.set_obj(cell, None)
    sim.set_obj(to, o)
    sim.log("dodge", lane=to[0], row=to[1])


def trace(sim: Sim, start: Cell, u: Vec) -> tuple[str, Cell | None]:
    """R-51: first stopping thing along ``u`` from ``start`` (excluded)."""
    pos = (start[0] + u[0], start[1] + u[1])
    while on_bridge(pos):
        if sim.car_at(pos) is not None:
            return "car", pos
        o = sim.obj(pos)
        if o is not None:
            if o.kind == "container" or o.fortified or o.kind == "ramp":
                return "block", pos
            if o.kind == "roadblock":
                return "roadblock", pos
            if o.kind == "police":
                return "police", pos
        pos = (pos[0] + u[0], pos[1] + u[1])
    return "none", None


def hit_cell(sim: Sim, cell: Cell, power: int) -> None:
    """Shotgun / molotov effect on one cell (R-54)."""
    car = sim.car_at(cell)
    if car is not None:
        sim.damage(car.seat, power, "shot", drop=cell)
        return
    o = sim.obj(cell)
    if o is None:
        return
    if o.kind == "roadblock":
        remove_pieces(sim, cell, power)
    elif o.kind == "police" and not o.fortified:
        dodge(sim, cell)


def remove_pieces(sim: Sim, cell: Cell, n: int) -> None:
    from dataclasses import replace

    o = sim.obj(cell)
    assert o is not None
    if o.n <= n:
        sim.remove_obj(cell)
    else:
        sim.set_obj(cell, replace(o, n=o.n - n))
    sim.log("roadblock_shot", lane=cell[0], row=cell[1], n=min(n, o.n))


def fire(sim: Sim, seat: int, u: Vec) -> None:
    """One player shot along ``u`` (R-51, R-52)."""
    c = sim.car(seat)
    what, pos = trace(sim, c.cell, u)
    sim.log("shot", seat=seat, dl=u[0], dr=u[1], hit=what)
    if pos is None:
        return
    if what == "car":
        target = sim.car_at(pos)
        assert target is not None
        sim.damage(target.seat, 1, "shot", drop=pos)
    elif what == "roadblock":
        remove_pieces(sim, pos, 1)
    elif what == "police":
        dodge(sim, pos)


def police_fire(sim: Sim) -> None:
    """R-48, end of round step 1."""
    tiles = sorted(
        ((c, o) for c, o in sim.objects.items() if o.kind == "police"),
        key=lambda item: (-item[0][1], item[0][0]),
    )
    for cell, o in tiles:
        pos = (cell[0], cell[1] - 1)
        target = None
        while on_bridge(pos):
            car = sim.car_at(pos)
            if car is not None:
                if "B11" not in car.blue:
                    target = car
                    break
            else:
                ob = sim.obj(pos)
                if ob is not None and (ob.kind in ("container", "ramp") or ob.fortified):
                    break
            pos = (pos[0], pos[1] - 1)
        sim.log("police_fire", lane=cell[0], row=cell[1], n=o.n, target_seat=None if target is None else target.seat)
        if target is None:
            continue
        for _ in range(o.n):
            sim.damage(target.seat, 1, "shot", drop=target.cell)
    sim.spins()
