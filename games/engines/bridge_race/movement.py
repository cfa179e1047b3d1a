"""One step (R-33), entering a cell (R-34), leaving the board (R-42, R-75, R-86, R-87),
hazards (R-44..R-50) and the end of movement (R-32, R-56..R-58)."""

from __future__ import annotations

from .board import LANES, LAST_ROW, PRIZES, Cell, guarded, wall_row
from .sim import Sim

Vec = tuple[int, int]


def cross_finish(sim: Sim, seat: int) -> None:
    """R-75 (and exits in closed border, R-86)."""
    place = len(sim.finish_order) + 1
    prizes = PRIZES[sim.players]
    prize = prizes[place - 1] if place <= len(prizes) else 0
    status = "exited" if sim.closed() else "finished"
    sim.set_car(seat, status=status, place=place, speed=0)
    sim.finish_order = (*sim.finish_order, seat)
    if prize:
        sim.gain(seat, prize)
    sim.log("exit" if sim.closed() else "finish", seat=seat, place=place, prize=prize)
    if seat == sim.active_seat():
        sim.move_over = True


def arrest(sim: Sim, seat: int) -> None:
    """R-86."""
    sim.arrest_order = (*sim.arrest_order, seat)
    sim.set_car(seat, status="arrested", speed=0, place=len(sim.arrest_order))
    sim.log("arrest", seat=seat)
    if seat == sim.active_seat():
        sim.move_over = True


def fall_river(sim: Sim, seat: int, exit_cell: Cell) -> None:
    """R-42."""
    c = sim.car(seat)
    sim.set_car(seat, status="river", speed=0, lane=exit_cell[0], row=exit_cell[1])
    fee = 0 if "B09" in c.blue else 500
    if fee:
        sim.pay(seat, fee)
    sim.log("river", seat=seat, fee=fee, lane=exit_cell[0], row=exit_cell[1])
    if seat == sim.active_seat():
        sim.move_over = True


def rail_hit(sim: Sim, seat: int) -> None:
    """R-41: guarded edge or closed end."""
    c = sim.car(seat)
    sim.log("rail", seat=seat)
    sim.damage(seat, 1, "road", drop=c.cell, immovable=True)


def beyond(sim: Sim, seat: int, t: Cell) -> str:
    """Classify a displacement target: 'finish', 'arrest', 'exit', 'end' (closed end),
    'guard', 'river', 'arrest' or '' (an ordinary bridge cell)."""
    c = sim.car(seat)
    if t[1] > LAST_ROW:
        return "arrest" if sim.closed() else "finish"
    if t[1] < 0:
        return "exit" if sim.closed() and c.leg == "RET" else "end"
    if t[0] < 0 or t[0] >= LANES:
        side = -1 if t[0] < 0 else 1
        return "guard" if guarded(side, c.row) else "river"
    if sim.closed() and t[1] > wall_row(sim.players):
        return "arrest"
    return ""


def leave(sim: Sim, seat: int, how: str) -> None:
    c = sim.car(seat)
    if how in ("finish", "exit"):
        cross_finish(sim, seat)
    elif how == "arrest":
        arrest(sim, seat)
    elif how == "river":
        fall_river(sim, seat, c.cell)


def ahead(sim: Sim, seat: int, v: Vec) -> tuple[Cell, str] | None:
    """The cell one step ``v`` from ``seat``'s car and what :func:`beyond` says of it; ``None`` for
    a car no longer on the board."""
    c = sim.car(seat)
    if c.status != "board":
        return None
    t = (c.lane + v[0], c.row + v[1])
    return t, beyond(sim, seat, t)


def step(sim: Sim, seat: int, v: Vec, mode: str) -> None:
    """R-33. mode: move (own movement step), slide, mortar."""
    from . import collisions

    found = ahead(sim, seat, v)
    if found is None:
        return
    t, how = found
    c = sim.car(seat)
    if how in ("end", "guard"):
        rail_hit(sim, seat)
        return
    if how:
        leave(sim, seat, how)
        return
    other = sim.car_at(t)
    if other is not None:
        if other.speed == 0 or other.facing != c.facing:
            collisions.hit_stopped(sim, seat, other.seat, v)
        else:
            collisions.push(sim, seat, v)
        return
    if sim.blocks_car(t):
        collisions.crash(sim, seat)
        return
    enter(sim, seat, t, mode, v)


def enter(sim: Sim, seat: int, t: Cell, mode: str, v: Vec) -> None:
    """R-34. mode: move, slide, mortar, push, land."""
    from . import ramps, shooting

    sim.set_car(seat, lane=t[0], row=t[1])
    sim.log("move", seat=seat, lane=t[0], row=t[1], how=mode)
    sim.pickup(seat, t)
    o = sim.obj(t)
    if o is None:
        return
    c = sim.car(seat)
    own = (
        sim.turn is not None
        and seat == sim.turn.seat
        and sim.turn.stage == "move"
        and mode in ("move", "slide", "land")
    )
    if o.kind == "roadblock":
        sim.remove_obj(t)
        sim.log("roadblock", seat=seat, n=o.n)
        sim.damage(seat, o.n, "road", drop=t)
    elif o.kind == "caltrops":
        if "B08" in c.blue:
            return
        sim.remove_obj(t)
        sim.log("caltrops", seat=seat, n=o.n)
        if own:
            assert sim.turn is not None
            sim.set_turn(pending_slow=sim.turn.pending_slow + 10 * o.n)
        else:
            sim.set_car(seat, speed=max(0, c.speed - 10 * o.n))
    elif o.kind == "speed":
        if "B06" in c.blue:
            return
        n = 1 if c.speed == 40 else 2 if c.speed == 50 else 0
        if n:
            sim.log("speed_trap", seat=seat)
            sim.damage(seat, n, "road", drop=t)
    elif o.kind == "police" and not o.fortified:
        shooting.dodge(sim, t)
    elif o.kind == "mine":
        if o.owner != seat:
            sim.remove_obj(t)
            sim.log("mine", seat=seat)
            sim.damage(seat, 2, "road", drop=t)
    elif o.kind == "ramp":
        aligned = v == (0, o.n) and c.facing == o.n
        if mode == "land":
            return
        if aligned:
            if mode == "move" and sim.turn is not None and sim.turn.mp >= 1:
                ramps.jump(sim, seat, t)
            return
        sim.log("ramp_hit", seat=seat)
        sim.damage(seat, 1, "road", drop=t)
    elif o.kind in ("oil", "acid"):
        if seat == sim.active_seat():
            sim.empty_pool()
        sim.log(o.kind, seat=seat)
        if o.kind == "acid":
            sim.damage(seat, 1, "road", drop="bank")
        c = sim.car(seat)
        if c.status == "board":
            step(sim, seat, (0, c.facing), "slide")


def end_movement(sim: Sim) -> None:
    """R-32 end of movement: caltrops, then the automatic U-turn (R-56, R-57, R-86)."""
    t = sim.turn
    assert t is not None
    seat = t.seat
    c = sim.car(seat)
    if t.pending_slow and c.status == "board":
        sim.set_car(seat, speed=max(0, c.speed - t.pending_slow))
        sim.log("slowed", seat=seat, amount=t.pending_slow)
    sim.set_turn(mp=0, pending_slow=0, stage="after")
    sim.move_over = False
    auto_uturn(sim)


def must_uturn(sim: Sim) -> bool:
    t = sim.turn
    if t is None or t.stage != "after":
        return False
    seat = t.seat
    c = sim.car(seat)
    if c.status != "board":
        return False
    if t.reversed_start and sim.reversed(seat):
        return True
    if sim.closed() and c.leg == "OUT" and c.facing == 1:
        from .board import FORCED_ZONE, zone_of

        return zone_of(c.row) == FORCED_ZONE[sim.players]
    return False


def auto_uturn(sim: Sim) -> None:
    """R-57: performed by the server as soon as the pool holds 3 tokens."""
    if must_uturn(sim) and sim.pool() >= 3:
        seat = sim.active_seat()
        sim.spend(3)
        c = sim.car(seat)
        sim.set_car(seat, facing=-c.facing)
        sim.set_turn(reversed_start=False)
        sim.log("uturn", seat=seat)
        sim.update_leg(seat)


def after_step(sim: Sim) -> None:
    """Spins, then end the active car's movement when R-32 says so."""
    sim.spins()
    t = sim.turn
    if t is None or t.stage != "move":
        return
    c = sim.car(t.seat)
    if sim.move_over or c.status != "board" or c.speed == 0 or t.mp <= 0:
        end_movement(sim)
