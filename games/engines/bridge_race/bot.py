"""A simple, sensible bot (never illegal)."""

from __future__ import annotations

import random
from typing import Any

from .legal import actor, legal
from .state import Game

TARGET_SPEED = 30


def _target(g: Game, seat: int) -> int:
    car = g.cars[seat]
    if g.mode == "closed_border" and car.leg == "OUT":
        from .board import FORCED_ZONE, ZONES

        lo, hi = ZONES[FORCED_ZONE[g.players]]
        if car.row >= lo - 3:
            return 10 if car.row < hi else 0
    return TARGET_SPEED


def choose(g: Game, seat: int, rng: random.Random) -> dict[str, Any]:
    acts = legal(g, seat)
    if not acts:
        from ..base import IllegalAction

        raise IllegalAction("No legal action for seat %(seat)s.", seat=seat)
    if actor(g) != seat or g.phase != "turn" or g.prompt is not None or g.turn is None:
        return dict(rng.choice(acts))
    t = g.turn
    car = g.cars[seat]
    by: dict[str, list[dict[str, Any]]] = {}
    for a in acts:
        by.setdefault(a["type"], []).append(a)
    if t.stage == "pre":
        return {"type": "ROLL"}
    target = _target(g, seat)
    rev = car.facing != (-1 if car.leg == "RET" else 1)
    if t.stage == "roll":
        if rev:
            steer = [i for i, d in enumerate(t.dice) if d.face == "STEER"]
            if len(steer) < 3 and t.rerolls < t.max_rerolls:
                keep = sorted(set(steer) | {i for i, d in enumerate(t.dice) if d.kept})
                if len(keep) < 5:
                    return {"type": "REROLL", "keep": keep}
            return {"type": "FINALIZE_DICE"}
        pointers = sum(1 for d in t.dice if d.face == "POINTER")
        need = abs(target - car.speed) // 10
        if pointers < need and "REROLL" in by:
            return by["REROLL"][-1]
        return {"type": "FINALIZE_DICE"}
    if t.stage == "mod":
        opts = by.get("RESOLVE_DICE", [])

        def score(o: dict[str, Any]) -> tuple[int, int]:
            sp = car.speed + sum(d for _i, d in o["adjust"])
            return (abs(sp - target), -len(o["repair"]))

        return min(opts, key=score) if opts else acts[0]
    if t.stage == "move" and "STEP" in by:
        steps = {a["dir"]: a for a in by["STEP"]}
        ahead = (car.lane, car.row + car.facing)
        blocked = ahead in g.objects and g.objects[ahead].kind in (
            "container",
            "roadblock",
            "speed",
            "mine",
            "acid",
            "oil",
        )
        blocked = blocked or any(c.status == "board" and c.cell == ahead for c in g.cars)
        if blocked:
            for d in ("LANE-", "LANE+") if car.lane > 2 else ("LANE+", "LANE-"):
                if d in steps:
                    return steps[d]
        return steps.get("STRAIGHT", by["STEP"][0])
    if "SHOOT" in by and rng.random() < 0.7:
        return by["SHOOT"][0]
    if "BUY" in by and rng.random() < 0.15:
        affordable = [a for a in by["BUY"] if a["slot"] >= 5 - car.balance // 100]
        if affordable:
            return rng.choice(affordable)
    if "PAY_REPAIR" in by and car.dur <= car.maxdur // 2 and car.balance >= 400:
        return by["PAY_REPAIR"][0]
    if "USE_TILE" in by and rng.random() < 0.3:
        return rng.choice(by["USE_TILE"])
    if t.stage == "after":
        return by["END_TURN"][0]
    if "STEP" in by:
        return by["STEP"][0]
    return acts[0]
