"""Concrete legal actions (R-93) and the R-95 time-out defaults."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ..base import SYSTEM
from ..kept import KeptByIdentity
from .actions import END_STEP_TYPES
from .board import DIRS8, START_CELLS, Cell, adjacent, on_bridge
from .rounds import current_placer, legal_cells
from .sim import Sim
from .state import CHARACTERS, Game


def actor(g: Game) -> int | None:
    """The one seat (or SYSTEM) whose decision is pending, None when over."""
    if g.phase in ("setup", "round_end"):
        return SYSTEM
    if g.phase == "choose_car":
        return g.choose_idx
    if g.phase == "adventure":
        return current_placer(g)
    if g.phase == "turn" and g.turn is not None:
        return g.prompt.seat if g.prompt is not None else g.turn.seat
    return None


def unused(g: Game) -> list[int]:
    assert g.turn is not None
    return [i for i, d in enumerate(g.turn.dice) if d.state == "" and d.face != "DAMAGE"]


# A move's acting seat is asked for its legal actions and for its placements (its view):
# both walk the bridge's 150 cells for the same state. The cells found are kept for the latest
# states, and each caller gets a list of its own.
_cells_kept: KeptByIdentity[tuple[Cell, ...]] = KeptByIdentity(16)


def _state_cells(g: Game, what: str, build: Callable[[], list[Cell]]) -> list[Cell]:
    return list(_cells_kept.get(g, lambda _g: tuple(build()), what))


def _placeable(g: Game) -> list[tuple[int, int]]:
    """The cells where a ramp, a mine or an oil slick may go (R-93 samples them near the car)."""

    def walk() -> list[Cell]:
        sim = Sim(g)
        return [(lane, row) for row in range(3, 33) for lane in range(5) if sim.placeable((lane, row))]

    return _state_cells(g, "placeable", walk)


def _tile_cells(g: Game, tile: str) -> list[Cell]:
    """``legal_cells`` (R-71) of adventure tile ``tile`` in ``g``."""
    return _state_cells(g, tile, lambda: legal_cells(g, tile))


def resolve_options(g: Game) -> list[dict[str, Any]]:
    """A manageable set of RESOLVE_DICE payloads: repair all useful / none, every reachable
    speed using the fewest adjustments."""
    t = g.turn
    assert t is not None
    car = g.cars[t.seat]
    dice = t.dice
    rep = [i for i, d in enumerate(dice) if d.face == "REPAIR"]
    dmg = sum(2 if d.double else 1 for d in dice if d.face == "DAMAGE")
    units = []
    for i in rep:
        units += [i] * (2 if dice[i].double else 1)
    remaining = units[min(len(units), dmg) :]
    dur_after = max(0, car.dur - max(0, dmg - len(units)))
    spin = car.dur > 0 and dur_after == 0
    reversed_now = (car.facing != (-1 if car.leg == "RET" else 1)) != spin
    repair_sets: list[list[int]] = [[]]
    room = car.maxdur - dur_after
    chosen: list[int] = []
    used = 0
    for i in dict.fromkeys(remaining):
        n = remaining.count(i)
        if used + n <= room:
            chosen.append(i)
            used += n
    if chosen:
        repair_sets.append(chosen)
    adj_units: list[tuple[int, int]] = []
    for i, d in enumerate(dice):
        if d.face == "POINTER" and d.state == "":
            adj_units.append((i, 2 if d.double else 1))
    for k in range(t.adjust):
        adj_units.append((5 + k, 1))
    base = 0 if spin else car.speed
    options = []
    seen = set()
    for sign in (1, -1):
        for n in range(0, len(adj_units) + 1):
            picks = adj_units[:n]
            speed = base + sign * 10 * sum(u for _i, u in picks)
            if not 0 <= speed <= 50 or (reversed_now and speed > 0) or speed in seen:
                continue
            seen.add(speed)
            options.append([[i, sign * 10] for i, _u in picks])
    out = []
    for r in repair_sets:
        for adj in options:
            out.append({"type": "RESOLVE_DICE", "repair": r, "adjust": adj})
    return out


def legal(g: Game, seat: int, limit_cells: bool = True) -> list[dict[str, Any]]:
    a = actor(g)
    if a is None or a != seat:
        return []
    if seat == SYSTEM:
        if g.phase == "setup":
            return [{"type": "start"}]
        return [{"type": END_STEP_TYPES[g.end_steps[0]]}]
    if g.phase == "choose_car":
        chars = [c for c in CHARACTERS if all(x.char != c for x in g.cars)]
        starts = [s for s in START_CELLS if all(x.start != s for x in g.cars)]
        return [{"type": "CHOOSE_CAR", "character": c, "start": s} for c in chars for s in starts]
    if g.phase == "adventure":
        out: list[dict[str, Any]] = []
        for tile in sorted(g.face_up):
            for cell in _tile_cells(g, tile):
                out.append({"type": "PLACE_ADVENTURE", "tile": tile, "cell": list(cell)})
        return out
    if g.prompt is not None:
        return [{"type": "CHOOSE", "option": i} for i in range(len(g.prompt.options))]
    t = g.turn
    assert t is not None
    car = g.cars[seat]
    sim = Sim(g)
    out = []
    on = car.status == "board"
    if t.stage == "pre":
        out.append({"type": "ROLL"})
        if t.ramp_ok and car.ramp == "held":
            cells = _placeable(g)
            if limit_cells:
                cells = [c for c in cells if 0 < c[1] - car.row <= 6]
            for cell in cells:
                out.append({"type": "PLACE_RAMP", "cell": list(cell), "dir": 1})
    elif t.stage == "roll":
        out.append({"type": "FINALIZE_DICE"})
        if t.rerolls < t.max_rerolls:
            free = t.b17 and t.rerolls >= 2
            kept = [i for i, d in enumerate(t.dice) if d.kept and not free]
            keep_good = sorted(set(kept) | {i for i, d in enumerate(t.dice) if d.face in ("POINTER", "REPAIR")})
            for keep in (kept, keep_good):
                if len(keep) < 5:
                    out.append({"type": "REROLL", "keep": keep})
    elif t.stage == "mod":
        out.extend(resolve_options(g))
    elif t.stage == "move" and on:
        pool = sim.pool()
        for name, dl in (("STRAIGHT", 0), ("LANE-", -1), ("LANE+", 1)):
            if 0 <= car.lane + dl < 5 and (dl == 0 or pool >= 2):
                out.append({"type": "STEP", "dir": name})
    if t.stage == "after":
        sell = unused(g)
        out.append({"type": "END_TURN", "sell": sell})
        if sell:
            out.append({"type": "END_TURN", "sell": []})
        if on and car.facing == sim.normal_facing(seat) and sim.pool() >= 3:
            out.append({"type": "HANDBRAKE"})
        for tile in car.tiles:
            if tile in ("B27", "B28"):
                for cell in _near_cells(g, car.cell, limit_cells):
                    out.append({"type": "PLACE_MINE", "tile": tile, "cell": list(cell)})
                break
    if t.stage in ("move", "after") and on:
        dirs = list(DIRS8) if car.char == "C5" else [(0, car.facing)]
        for i, d in enumerate(t.dice):
            if d.face == "SHOOT" and d.state == "":
                for u in dirs:
                    out.append({"type": "SHOOT", "die": i, "dir": list(u)})
    if not t.bought and g.mode != "first_game":
        for slot, tile in enumerate(g.shop):
            if tile:
                out.append({"type": "BUY", "slot": slot})
    if on and car.speed == 0 and not t.repaired and car.dur < car.maxdur:
        out.append({"type": "PAY_REPAIR"})
    out.extend(tile_actions(g, seat, limit_cells))
    return out


def roadworks_moves(g: Game, sim: Sim) -> list[tuple[Cell, Cell]]:
    """Every single Roadworks (B24) move: a roadblock piece to an adjacent cell past the start
    area with no car, either placeable or holding roadblocks (R-69)."""
    out = []
    for src, o in g.objects.items():
        if o.kind != "roadblock":
            continue
        for dst in adjacent(src):
            od = g.objects.get(dst)
            if (
                dst[1] > 2
                and sim.car_at(dst) is None
                and ((od is None and sim.placeable(dst)) or (od is not None and od.kind == "roadblock"))
            ):
                out.append((src, dst))
    return out


def container_cells(g: Game, sim: Sim, at: Cell) -> list[Cell]:
    """The cells a Container Drop (B25) may fill next to a car at ``at`` (R-69); two chosen
    cells must also not touch each other."""
    return [
        cell
        for cell in adjacent(at)
        if sim.placeable(cell)
        and not any(
            (o := g.objects.get(a)) is not None and (o.kind == "container" or o.fortified) for a in adjacent(cell)
        )
    ]


PLACEMENT_TILES = ("B24", "B25", "B27", "B28", "B29", "B30")


def placements(g: Game, seat: int | None) -> dict[str, list[Any]]:
    """For the seat whose decision it is: every cell ``decide`` accepts for each placement open
    to it now, where ``legal`` lists only a sample near the car (R-93). Keys: ``PLACE_RAMP``;
    the held tile ids ``B27``/``B28`` (PLACE_MINE), ``B29``/``B30`` (USE_TILE ``cell``) and
    ``B25`` (USE_TILE ``cells``: any one of these, or two that do not touch); ``B24`` lists every
    single move ``[from, to]``; in the adventure phase each face-up tile id; ``CHOOSE`` lists the
    prompt's cells by option number. Placements without any cell are left out."""
    if seat is None or seat == SYSTEM or actor(g) != seat:
        return {}
    out: dict[str, list[Any]] = {}
    if g.phase == "adventure":
        for tile in sorted(g.face_up):
            tile_cells = _tile_cells(g, tile)
            if tile_cells:
                out[tile] = [list(c) for c in tile_cells]
        return out
    t = g.turn
    if g.phase != "turn" or t is None:
        return out
    if g.prompt is not None:
        return {"CHOOSE": [list(c) for c in g.prompt.options]}
    car = g.cars[seat]
    held = set(car.tiles) & set(PLACEMENT_TILES)
    after_final = t.stage in ("mod", "move", "after")
    ramp = t.stage == "pre" and t.ramp_ok and car.ramp == "held"
    mines = t.stage == "after" and bool(held & {"B27", "B28"})
    slicks = after_final and bool(held & {"B29", "B30"})
    if not (ramp or mines or slicks or (after_final and held & {"B24", "B25"})):
        return out
    sim = Sim(g)
    cells = [list(c) for c in _placeable(g)] if ramp or mines or slicks else []
    if ramp and cells:
        out["PLACE_RAMP"] = cells
    for tile in sorted(held):
        if (tile in ("B27", "B28") and mines) or (tile in ("B29", "B30") and slicks):
            if cells:
                out[tile] = [list(c) for c in cells]
        elif tile == "B25" and after_final and car.status == "board":
            drop = container_cells(g, sim, car.cell)
            if drop:
                out[tile] = [list(c) for c in drop]
        elif tile == "B24" and after_final:
            moves = roadworks_moves(g, sim)
            if moves:
                out[tile] = [[list(a), list(b)] for a, b in moves]
    return out


def _near_cells(g: Game, cell: tuple[int, int], limit: bool) -> list[tuple[int, int]]:
    cells = _placeable(g)
    if limit:
        cells = [c for c in cells if abs(c[1] - cell[1]) <= 3][:8]
    return cells


def tile_actions(g: Game, seat: int, limit: bool) -> list[dict[str, Any]]:
    t = g.turn
    assert t is not None
    car = g.cars[seat]
    on = car.status == "board"
    st = t.stage
    after_final = st in ("mod", "move", "after")
    out: list[dict[str, Any]] = []
    for tile in dict.fromkeys(car.tiles):
        u: dict[str, Any] = {"type": "USE_TILE", "tile": tile}
        if tile == "B03" and after_final and not t.b03:
            for c in g.cars:
                if c.seat != seat and c.status == "board":
                    out.append({**u, "target": c.seat})
        elif tile == "B04" and st == "mod" and not t.b04:
            for i, d in enumerate(t.dice):
                if d.face not in ("DAMAGE", "SHOOT"):
                    out.append({**u, "die": i})
        elif tile == "B05" and car.dur < car.maxdur:
            out.append(u)
        elif tile == "B17":
            if st == "roll" and t.rerolls == 2 and not t.b17:
                out.append(u)
        elif tile in ("B06", "B07", "B08", "B09", "B10", "B11", "B12", "B13", "B14", "B15", "B16", "B21", "B26"):
            out.append(u)
        elif tile == "B18" and after_final and on:
            dirs = list(DIRS8) if car.char == "C5" else [(0, car.facing)]
            for vec in dirs:
                out.append({**u, "dir": list(vec)})
        elif tile == "B19" and st in ("move", "after") and on:
            for i, d in enumerate(t.dice):
                if d.face == "SHOOT" and d.state == "":
                    out.append({**u, "die": i})
                    break
        elif tile == "B20" and after_final and on:
            out.append(u)
        elif tile in ("B22", "B23") and st == "mod":
            for i, d in enumerate(t.dice):
                if tile == "B22":
                    out.append({**u, "die": i})
                else:
                    for f in ("POINTER", "STEER", "SHOOT", "REPAIR"):
                        if d.face != f:
                            out.append({**u, "die": i, "face": f})
        elif tile == "B24" and after_final:
            sources: set[Cell] = set()
            for src, dst in roadworks_moves(g, Sim(g)):
                if limit and src in sources:
                    continue  # the sample: one move per roadblock
                sources.add(src)
                out.append({**u, "moves": [[list(src), list(dst)]]})
        elif tile == "B25" and after_final and on:
            for cell in container_cells(g, Sim(g), car.cell):
                out.append({**u, "cells": [list(cell)]})
        elif tile in ("B29", "B30") and after_final:
            for cell in _near_cells(g, car.cell, limit):
                if on_bridge(cell):
                    out.append({**u, "cell": list(cell)})
    return out


def default_action(g: Game, rng: random.Random) -> dict[str, Any]:
    """R-95 default for the pending decision."""
    if g.phase == "choose_car":
        char = next(c for c in CHARACTERS if all(x.char != c for x in g.cars))
        start = next(s for s in START_CELLS if all(x.start != s for x in g.cars))
        return {"type": "CHOOSE_CAR", "character": char, "start": start}
    if g.phase == "adventure":
        for tile in sorted(g.face_up):
            cells = _tile_cells(g, tile)
            if cells:
                return {"type": "PLACE_ADVENTURE", "tile": tile, "cell": list(rng.choice(cells))}
    if g.prompt is not None:
        prompt_cells = g.prompt.options
        best = min(range(len(prompt_cells)), key=lambda i: (prompt_cells[i][0], i))
        return {"type": "CHOOSE", "option": best}
    t = g.turn
    assert t is not None
    if t.stage == "pre":
        return {"type": "ROLL"}
    if t.stage == "roll":
        return {"type": "FINALIZE_DICE"}
    if t.stage == "mod":
        opts = resolve_options(g)
        with_repair = [o for o in opts if o["repair"] and not o["adjust"]]
        return with_repair[0] if with_repair else {"type": "RESOLVE_DICE", "repair": [], "adjust": []}
    if t.stage == "move":
        return {"type": "STEP", "dir": "STRAIGHT"}
    return {"type": "END_TURN", "sell": unused(g)}
