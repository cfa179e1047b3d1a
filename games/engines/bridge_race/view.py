"""JSON-safe views for the SVG board UI (R-89, R-98)."""

from __future__ import annotations

from typing import Any

from .board import FORCED_ZONE, GUARDRAILS, LANES, ROWS, START_CELLS, ZONES, wall_row
from .legal import actor, legal, placements
from .sim import Sim, free_tokens
from .state import ADVENTURE, BONUS, CHARACTERS, SHOP_PRICES, Game


def _dice(g: Game, seat: int) -> list[dict[str, Any]]:
    t = g.turn
    if t is None or t.seat != seat:
        return []
    return [
        {
            "index": i,
            "face": d.face,
            "kept": d.kept,
            "rerolled": d.rerolled,
            "state": d.state or "unused",
            "double": d.double,
        }
        for i, d in enumerate(t.dice)
    ]


def view(g: Game, seat: int | None) -> dict[str, Any]:
    """What ``seat`` sees (``None``: a spectator): everything public (R-89), and for the seat to act
    its options."""
    out = public_view(g)
    if seat is not None and out["active_seat"] == seat:
        out.update(seat_options(g, seat, legal(g, seat)))
    return out


def seat_options(g: Game, seat: int, legal_actions: list[dict[str, Any]]) -> dict[str, Any]:
    """What the acting ``seat``'s view adds to a spectator's: its ``legal_actions`` and every cell
    each of its placements accepts (legal_actions samples the cells near the car)."""
    return {"legal_actions": legal_actions, "placements": placements(g, seat)}


def public_view(g: Game) -> dict[str, Any]:
    """The view of a spectator; a seat's differs only by its options when it acts (R-89)."""
    sim = Sim(g)
    cells = []
    keys = set(g.objects) | set(g.money) | {c.cell for c in g.cars if c.status == "board"}
    for cell in sorted(keys, key=lambda c: (c[1], c[0])):
        o = g.objects.get(cell)
        car = sim.car_at(cell)
        cells.append(
            {
                "lane": cell[0],
                "row": cell[1],
                "object": None
                if o is None
                else {
                    "kind": o.kind,
                    "n": o.n,
                    "owner": o.owner,
                    "tiles": list(o.tiles),
                    "fortified": o.fortified,
                },
                "money": g.money.get(cell, 0),
                "car": None
                if car is None
                else {
                    "seat": car.seat,
                    "facing": car.facing,
                    "speed": car.speed,
                    "character": car.char,
                },
            }
        )
    players = []
    for c in g.cars:
        players.append(
            {
                "seat": c.seat,
                "character": c.char,
                "character_name": CHARACTERS.get(c.char, ""),
                "start": c.start,
                "lane": c.lane,
                "row": c.row,
                "facing": c.facing,
                "speed": c.speed,
                "free_tokens": free_tokens(c.speed),
                "durability": c.dur,
                "max_durability": c.maxdur,
                "balance": c.balance,
                "status": c.status,
                "leg": c.leg,
                "ramp": c.ramp,
                "tiles": [{"id": t, "name": BONUS[t][0], "colour": BONUS[t][1]} for t in c.tiles],
                "active_tiles": list(c.blue),
                "place": c.place,
                "resigned": c.resigned,
                "dice": _dice(g, c.seat),
            }
        )
    t = g.turn
    a = actor(g)
    out: dict[str, Any] = {
        "mode": g.mode,
        "players": g.players,
        "phase": g.phase,
        "round": g.round,
        "seq": g.seq,
        "board": {
            "lanes": LANES,
            "rows": ROWS,
            "start_cells": {k: {"lane": v[0][0], "row": v[0][1], "money": v[1]} for k, v in START_CELLS.items()},
            "guardrails": [
                {"id": n, "kind": k, "side": "west" if s < 0 else "east", "from_row": lo, "to_row": hi}
                for n, k, s, lo, hi in GUARDRAILS
            ],
            "zones": {str(z): list(r) for z, r in ZONES.items()},
            "forced_zone": FORCED_ZONE[g.players] if g.mode == "closed_border" else None,
            "wall_row": wall_row(g.players) if g.mode == "closed_border" else None,
            "cells": cells,
        },
        "players_info": players,
        "shop": [
            {
                "slot": i,
                "price": SHOP_PRICES[i],
                "tile": tile or None,
                "name": BONUS[tile][0] if tile else None,
                "colour": BONUS[tile][1] if tile else None,
            }
            for i, tile in enumerate(g.shop)
        ],
        "face_up": [{"id": x, "kind": ADVENTURE[x][0], "n": ADVENTURE[x][1]} for x in g.face_up],
        "adventure_pile_size": len(g.adv_pile),
        "bonus_pile_size": len(g.bonus_pile),
        "adventure_discard": list(g.adv_discard),
        "bonus_discard": list(g.bonus_discard),
        "turn_order": list(g.order),
        "active_seat": a,
        "finish_order": list(g.finish_order),
        "arrest_order": list(g.arrest_order),
        "end_steps": list(g.end_steps),
        "turn": None
        if t is None
        else {
            "seat": t.seat,
            "stage": t.stage,
            "rerolls": t.rerolls,
            "max_rerolls": t.max_rerolls,
            "steps_left": t.mp,
            "pool": sim.pool(),
            "pool_free": t.pool_free,
            "pool_bonus": t.pool_bonus,
            "extra_adjustments": t.adjust,
            "pending_slowdown": t.pending_slow,
            "bought": t.bought,
            "repaired": t.repaired,
        },
        "prompt": None
        if g.prompt is None
        else {
            "seat": g.prompt.seat,
            "kind": g.prompt.kind,
            "options": [list(o) for o in g.prompt.options],
        },
        "end_reason": g.end_reason,
        # public; drawn only by the end screen, so sent only then
        "place_history": [list(p) for p in g.place_history] if g.phase == "over" else None,
    }
    return out


def plan_actions(g: Game, seat: int) -> dict[str, list[dict[str, Any]]]:
    """The active player's legal actions grouped for a 'plan your move' UI."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for a in legal(g, seat, limit_cells=False):
        groups.setdefault(a["type"], []).append(a)
    return groups
