"""Roll phase (R-28) and dice resolution (R-29..R-31)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..base import IllegalAction, gettext_noop
from .movement import end_movement
from .sim import Sim, free_tokens
from .state import Die


def roll(sim: Sim) -> None:
    t = sim.turn
    assert t is not None
    if t.stage != "pre":
        raise IllegalAction(gettext_noop("You cannot roll now."))
    faces = [_face(sim) for _ in range(5)]
    sim.set_turn(stage="roll", dice=tuple(Die(f) for f in faces), rerolls=0, ramp_ok=False)
    sim.log("roll", seat=t.seat, faces=faces)


def _face(sim: Sim) -> str:
    f = sim.draw_face()
    return f


def reroll(sim: Sim, keep: list[int]) -> None:
    t = sim.turn
    assert t is not None
    if t.stage != "roll" or t.rerolls >= t.max_rerolls:
        raise IllegalAction(gettext_noop("You cannot reroll now."))
    kept = set(keep)
    if any(not 0 <= i < 5 for i in kept):
        raise IllegalAction(gettext_noop("Unknown die."))
    free_choice = t.b17 and t.rerolls >= 2
    if not free_choice:
        for i, d in enumerate(t.dice):
            if d.kept and i not in kept:
                raise IllegalAction(gettext_noop("A die set aside stays set aside."))
    if len(kept) >= 5:
        raise IllegalAction(gettext_noop("Reroll at least one die."))
    dice = list(t.dice)
    faces = []
    for i in range(5):
        if i in kept:
            dice[i] = replace(dice[i], kept=True, rerolled=False)
        else:
            f = _face(sim)
            faces.append(f)
            dice[i] = Die(f, kept=False, rerolled=True)
    sim.set_turn(dice=tuple(dice), rerolls=t.rerolls + 1)
    sim.log("reroll", seat=t.seat, keep=sorted(kept), faces=[d.face for d in dice])


def finalize(sim: Sim) -> None:
    t = sim.turn
    assert t is not None
    if t.stage != "roll":
        raise IllegalAction(gettext_noop("You cannot finalize now."))
    sim.set_turn(stage="mod")
    sim.log("finalize", seat=t.seat, faces=[d.face for d in t.dice])


def resolve(sim: Sim, repair: list[int], adjust: list[tuple[int, int]]) -> None:
    """R-29. ``repair``: indices of remaining REPAIR dice to apply. ``adjust``: (index, ±10)
    with indices 0-4 for POINTER dice and 5.. for tile adjustments."""
    t = sim.turn
    assert t is not None
    if t.stage != "mod":
        raise IllegalAction(gettext_noop("You cannot resolve the dice now."))
    seat = t.seat
    dice = list(t.dice)
    units = {"REPAIR": [], "DAMAGE": []}  # type: dict[str, list[int]]
    for i, d in enumerate(dice):
        if d.face in units:
            units[d.face].extend([i] * (2 if d.double else 1))
    pairs = min(len(units["REPAIR"]), len(units["DAMAGE"]))
    cancelled = units["REPAIR"][:pairs]
    remaining = units["REPAIR"][pairs:]
    for i in set(cancelled):
        dice[i] = replace(dice[i], state="used")
    for i, d in enumerate(dice):
        if d.face == "DAMAGE":
            dice[i] = replace(d, state="used")
    sim.set_turn(dice=tuple(dice))
    if pairs:
        sim.log("cancel", seat=seat, n=pairs)
    c = sim.car(seat)
    for _ in range(len(units["DAMAGE"]) - pairs):
        sim.damage(seat, 1, "die", drop=sim.car(seat).cell)
    sim.spins()
    # repairs
    rep = set(repair)
    for i in rep:
        if i not in remaining:
            raise IllegalAction(gettext_noop("That die is not a remaining repair."))
        for _ in range(remaining.count(i)):
            c = sim.car(seat)
            if c.dur >= c.maxdur:
                raise IllegalAction(gettext_noop("The car is already at full durability."))
            sim.set_car(seat, dur=c.dur + 1)
        dice[i] = replace(dice[i], state="used")
        sim.log("repair", seat=seat, n=remaining.count(i))
    # pointers
    c = sim.car(seat)
    speed = base = c.speed
    seen: set[int] = set()
    for idx, delta in adjust:
        if idx in seen or delta not in (10, -10):
            raise IllegalAction(gettext_noop("Bad speed adjustment."))
        seen.add(idx)
        if 0 <= idx < 5:
            d = dice[idx]
            if d.face != "POINTER" or d.state != "":
                raise IllegalAction(gettext_noop("That die is not an unused pointer."))
            speed += delta * (2 if d.double else 1)
            dice[idx] = replace(d, state="used")
        elif 5 <= idx < 5 + t.adjust:
            speed += delta
        else:
            raise IllegalAction(gettext_noop("Unknown speed adjustment."))
    if not 0 <= speed <= 50:
        raise IllegalAction(gettext_noop("Speed must stay between 0 and 50 mph."))
    if sim.reversed(seat) and speed > 0 and speed > base:
        raise IllegalAction(gettext_noop("A reversed car cannot accelerate."))
    sim.set_car(seat, speed=speed)
    t = sim.turn
    assert t is not None
    mp = speed // 10 if sim.car(seat).status == "board" else 0
    sim.turn = replace(t, dice=tuple(dice), stage="move", mp=mp, pool_free=free_tokens(speed), adjust=0)
    sim.log("resolve", seat=seat, speed=speed)
    if mp == 0:
        end_movement(sim)


def units_of(dice: Any, face: str) -> int:
    return sum(2 if d.double else 1 for d in dice if d.face == face and d.state == "")
