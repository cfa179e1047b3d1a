"""Setup (R-18), rounds (R-20..R-24), crane (R-43), game end and ranking (R-75..R-80, R-88)."""

from __future__ import annotations

from dataclasses import replace

from ..base import Outcome
from .board import (
    FORCED_ZONE,
    START_CELLS,
    WALL_CONTAINER_LANES,
    WALL_POLICE,
    Cell,
    adjacent,
    crane_order,
    on_bridge,
    wall_row,
    zone_of,
)
from .shop import draw_adventure, refresh, setup_shop
from .sim import Sim
from .state import ADVENTURE, ADVENTURE_IDS, BONUS_IDS, Car, Game, Obj, Turn
from .tiles import expire_blue

SAFETY_CAP = 60


def tiles_per_round(sim: Sim | Game) -> int:
    if sim.mode == "standard":
        return 5
    if sim.mode == "first_game":
        return sim.players
    return sum(1 for c in sim.cars if c.status in ("board", "river", "none"))


def position_key(g: Sim | Game, c: Car) -> tuple[int, ...]:
    if g.mode == "closed_border":
        if c.leg == "RET":
            return (0, c.row, -c.speed, c.lane)
        return (1, -c.row, -c.speed, c.lane)
    return (-c.row, -c.speed, c.lane)


def position_order(g: Sim | Game) -> tuple[int, ...]:
    cars = [c for c in g.cars if c.status in ("board", "river")]
    cars.sort(key=lambda c: position_key(g, c))
    return tuple(c.seat for c in cars)


# ---- setup ---------------------------------------------------------------------------------


def initial(players: int, mode: str, time_limit: int) -> Game:
    return Game(
        players=players,
        mode=mode,
        time_limit=time_limit,
        cars=tuple(Car(seat=i) for i in range(players)),
        objects={},
        money={},
    )


def start(sim: Sim) -> None:
    """R-18 steps 3-6 and 10."""
    adv = list(ADVENTURE_IDS)
    if sim.closed():
        used = [t for _lane, t, _n in WALL_POLICE[sim.players]]
        adv = [t for t in adv if t not in used]
        row = wall_row(sim.players)
        for lane in WALL_CONTAINER_LANES[sim.players]:
            sim.set_obj((lane, row), Obj("container", 1))
        for lane, tile, n in WALL_POLICE[sim.players]:
            sim.set_obj((lane, row), Obj("police", n, -1, (tile,), True))
    sim.adv_pile = sim.shuffle(tuple(adv))
    if sim.mode != "first_game":
        sim.bonus_pile = sim.shuffle(BONUS_IDS)
        setup_shop(sim)
    k = tiles_per_round(sim) if sim.mode != "closed_border" else sim.players
    sim.face_up = tuple(t for t in (draw_adventure(sim) for _ in range(k)) if t)
    sim.phase = "choose_car"
    sim.choose_idx = 0
    sim.log("start", face_up=list(sim.face_up), shop=list(sim.shop))


def choose_car(sim: Sim, seat: int, char: str, start_id: str) -> None:
    cell, money = START_CELLS[start_id]
    maxdur = 8 if char == "C3" else 6
    sim.set_car(
        seat,
        char=char,
        start=start_id,
        lane=cell[0],
        row=cell[1],
        facing=1,
        speed=0,
        dur=maxdur,
        maxdur=maxdur,
        status="board",
        ramp="none" if sim.mode == "first_game" else "held",
    )
    sim.gain(seat, money)
    sim.log("choose_car", seat=seat, character=char, start=start_id, amount=money)
    sim.choose_idx += 1
    if sim.choose_idx >= sim.players:
        sim.round = 1
        begin_round(sim, reveal=False)


# ---- adventure phase -----------------------------------------------------------------------

SAME_TYPE = ("caltrops", "roadblock", "police", "speed", "container")


def _types(o: Obj) -> set[str]:
    if o.fortified:
        return {"police", "container"}
    return {o.kind}


def legal_cells(sim: Sim | Game, tile: str) -> list[Cell]:
    """R-71: the free cells of rows 3-32 (closed border: outside the forced zone and before the
    wall, R-84/R-85) with no object of the tile's own type next to them."""
    kind = ADVENTURE[tile][0]
    objects = sim.objects
    occupied = {c.cell for c in sim.cars if c.status == "board"}
    # Being next to is mutual (adjacent() is a cell's eight neighbours on the bridge): mark the
    # neighbours of each object of that type once, rather than look around each of the 150 cells.
    beside_same = {
        near for cell, o in objects.items() if on_bridge(cell) and kind in _types(o) for near in adjacent(cell)
    }
    cells = []
    closed = sim.mode == "closed_border"
    fz = FORCED_ZONE[sim.players] if closed else 0
    wr = wall_row(sim.players) if closed else 99
    for row in range(3, 33):
        if closed and (zone_of(row) == fz or row > wr):
            continue
        for lane in range(5):
            cell = (lane, row)
            if cell in objects or cell in occupied or cell in beside_same:
                continue
            cells.append(cell)
    return cells


def placers(sim: Sim | Game) -> tuple[int, ...]:
    return tuple(reversed(sim.order))


def current_placer(sim: Sim | Game) -> int:
    p = placers(sim)
    return p[sim.place_idx % len(p)]


def begin_round(sim: Sim, reveal: bool) -> None:
    sim.order = position_order(sim)
    sim.bought_round = False
    if reveal:
        k = tiles_per_round(sim)
        sim.face_up = sim.face_up + tuple(t for t in (draw_adventure(sim) for _ in range(k)) if t)
    sim.log("round", round=sim.round, order=list(sim.order), face_up=list(sim.face_up))
    sim.phase = "adventure"
    sim.place_idx = 0
    check_adventure(sim)


def check_adventure(sim: Sim) -> None:
    """R-22 step 4: end the phase when nothing is left or nothing can be placed."""
    if sim.face_up and sim.order and any(legal_cells(sim, t) for t in sim.face_up):
        return
    if sim.face_up:
        sim.adv_discard = sim.adv_discard + sim.face_up
        sim.log("adventure_discard", tiles=list(sim.face_up))
        sim.face_up = ()
    sim.phase = "turn"
    sim.turn_idx = -1
    next_turn(sim)


def place_adventure(sim: Sim, seat: int, tile: str, cell: Cell) -> None:
    kind, n = ADVENTURE[tile]
    sim.set_obj(cell, Obj(kind, n, -1, (tile,)))
    sim.face_up = tuple(t for t in sim.face_up if t != tile)
    sim.log("place_adventure", seat=seat, tile=tile, kind=kind, n=n, lane=cell[0], row=cell[1])
    sim.place_idx += 1
    check_adventure(sim)


# ---- turns ---------------------------------------------------------------------------------


def game_over(sim: Sim, reason: str) -> None:
    sim.phase = "over"
    sim.turn = None
    sim.end_steps = ()
    sim.end_reason = reason
    sim.log("game_over", reason=reason)


def next_turn(sim: Sim) -> None:
    """Advance to the next seat in turn order that may play (R-23 step 1)."""
    sim.turn = None
    if sim.closed() and not any(c.status in ("board", "river") for c in sim.cars):
        game_over(sim, "all_left")
        return
    while True:
        sim.turn_idx += 1
        if sim.turn_idx >= len(sim.order):
            end_of_turns(sim)
            return
        seat = sim.order[sim.turn_idx]
        if sim.car(seat).status == "board":
            start_turn(sim, seat)
            return
        sim.log("skip", seat=seat)


def start_turn(sim: Sim, seat: int) -> None:
    expire_blue(sim, seat, this_turn_only=False)
    c = sim.car(seat)
    sim.turn = Turn(
        seat=seat,
        reversed_start=sim.reversed(seat),
        ramp_ok=c.ramp == "held",
    )
    sim.log("turn", seat=seat)


def end_turn(sim: Sim, seat: int, sell: list[int]) -> None:
    t = sim.turn
    assert t is not None
    dice = list(t.dice)
    for i in sell:
        dice[i] = replace(dice[i], state="sold")
    if sell:
        sim.gain(seat, 100 * len(sell))
        sim.log("sell", seat=seat, n=len(sell), amount=100 * len(sell))
    c = sim.car(seat)
    if c.char == "C2" and len(sell) < 2:
        sim.gain(seat, 200)
        sim.log("allowance", seat=seat, amount=200)
    sim.set_turn(dice=tuple(dice), sold=len(sell))
    expire_blue(sim, seat, this_turn_only=True)
    next_turn(sim)


def end_of_turns(sim: Sim) -> None:
    if not sim.closed() and sim.finish_order:
        game_over(sim, "finish")
        return
    steps = ["police", "crane"]
    if not sim.bought_round and sim.mode != "first_game":
        steps.append("shop")
    steps.append("next")
    sim.phase = "round_end"
    sim.end_steps = tuple(steps)


def end_step(sim: Sim) -> None:
    from .shooting import police_fire

    step = sim.end_steps[0]
    sim.end_steps = sim.end_steps[1:]
    if step == "police":
        police_fire(sim)
    elif step == "crane":
        crane(sim)
    elif step == "shop":
        refresh(sim)
    elif step == "next":
        if sim.round >= SAFETY_CAP:
            game_over(sim, "cap")
            return
        sim.round += 1
        sim.end_steps = ()
        begin_round(sim, reveal=True)


def crane(sim: Sim) -> None:
    """R-43."""
    seats = list(sim.order) + [c.seat for c in sim.cars if c.seat not in sim.order]
    for seat in seats:
        c = sim.car(seat)
        if c.status != "river":
            continue
        cell = c.cell
        if not sim.is_free(cell):
            cell = next(x for x in crane_order(cell) if sim.is_free(x))
        sim.set_car(seat, status="board", lane=cell[0], row=cell[1], speed=0)
        sim.log("crane", seat=seat, lane=cell[0], row=cell[1])


# ---- outcome -----------------------------------------------------------------------------


def final_money(g: Game, seat: int) -> int:
    c = g.cars[seat]
    ramp = 0
    if c.ramp == "held":
        ramp = 700 if "B01" in c.tiles else 300
    return c.balance + ramp


def ranking(g: Game) -> list[int]:
    if g.mode == "closed_border":
        exited = list(g.finish_order)
        rest = [s for s in position_order(g) if s not in exited]
        arrested = list(reversed(g.arrest_order))
        return exited + rest + arrested
    crossed = list(g.finish_order)
    rest = [s for s in position_order(g) if s not in crossed]
    # river cars count at their exit cell with speed 0 (their stored state already is)
    rest += [c.seat for c in g.cars if c.seat not in crossed and c.seat not in rest]
    return crossed + rest


def outcome(g: Game) -> Outcome | None:
    if g.phase != "over":
        return None
    order = ranking(g)
    money = tuple(final_money(g, s) for s in range(g.players))
    ranks = [0] * g.players
    for i, s in enumerate(order):
        ranks[s] = i + 1
    eligible = [s for s in order[:-1] if g.cars[s].status != "arrested"]
    winners: tuple[int, ...] = ()
    if eligible:
        best = max(money[s] for s in eligible)
        winners = (next(s for s in eligible if money[s] == best),)
    return Outcome(scores=money, ranks=tuple(ranks), winners=winners, reason=g.end_reason)
