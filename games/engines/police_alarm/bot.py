"""Bots that act in time: each plan is (action, earliest legal time in ms).

* Police: gives the start signal at once, then drives shortest paths to the nearest face-down
  circle at its own legal speed (one cell per step_ms, no burst) and sounds the siren there. In the
  young variant it first tries circles not yet shown green since the last layout.
* Thief: hides the thieves at two circles far from the start, rolls as soon as the cooldown allows,
  and at each choice point escapes if the police could reach a remaining thief circle before the
  next safe is likely to open (it knows its placement and sees the car, H-3).
"""

from __future__ import annotations

import random
from typing import Any

from .constants import CELL_CIRCLE, CIRCLE_CELL, CIRCLE_IDS, DIST_TO, START, route
from .state import COUNTDOWN, DRIVING, PAUSED, RUNNING, SETUP, WAIT_READY, State

Plan = tuple[dict[str, Any], int]

# Average rolls per card with the automatic set-aside (section 2.1, informative).
ROLLS_PER_CARD = 8.4


def _police(state: State, young: bool) -> Plan | None:
    revealed = state.revealed_ids
    targets = [c for c in CIRCLE_IDS if c not in revealed]
    if young:
        fresh = [c for c in targets if c not in state.greens]
        targets = fresh or targets
    if not targets:
        return None
    here = CELL_CIRCLE.get(state.car)
    if here in targets:
        return {"type": "siren", "circle": here}, state.t
    target = min(targets, key=lambda c: (DIST_TO[c][state.car], c))
    path = route(state.car, target)
    return {"type": "move", "dir": path[0], "from": list(state.car)}, max(state.t, state.tat)


def _placement(rng: random.Random) -> list[str]:
    far = sorted(CIRCLE_IDS, key=lambda c: -DIST_TO[c][START])
    pool = far[:8]
    return sorted(rng.sample(pool, 2))


def _thief_escapes(state: State, seat: int) -> bool:
    remaining = [c for c in state.placement if c not in state.revealed_ids]
    if not remaining:
        return False
    step = state.step_ms[state.police]
    if len(remaining) == 1:
        cells = DIST_TO[remaining[0]][state.car]
    else:  # both still hidden: the police must find both, with an alarm pause after the first
        a, b = remaining
        cells = min(
            DIST_TO[a][state.car] + DIST_TO[b][CIRCLE_CELL[a]],
            DIST_TO[b][state.car] + DIST_TO[a][CIRCLE_CELL[b]],
        )
    crack_ms = ROLLS_PER_CARD * state.roll_ms[seat]
    if len(remaining) == 2:
        # The police does not know where they are: only a police car already on the way to both
        # within half a safe's time is a real threat.
        return cells * step + 2000 < crack_ms / 2
    return cells * step < crack_ms


def _thief_running(state: State, seat: int) -> Plan | None:
    if state.current >= 0:
        at = state.t if state.last_roll is None else max(state.t, state.last_roll + state.roll_ms[seat])
        return {"type": "roll"}, at
    if state.at_choice:
        return ({"type": "escape"} if _thief_escapes(state, seat) else {"type": "draw"}), state.t
    return None


def _relay(state: State, seat: int, rng: random.Random) -> Plan | None:
    """M-1: the same bots, each in its own step; the police stops once every circle is revealed."""
    phase, step = state.phase, state.step
    if seat == state.thief:
        if step == "place" and phase == SETUP:
            return {"type": "place", "circles": _placement(rng)}, state.t
        if step == "thief" and phase == SETUP and not state.ready:
            return {"type": "ready"}, state.t
        if step == "thief" and phase == RUNNING:
            return _thief_running(state, seat)
        return None
    if seat == state.police and step == "police":
        if phase == SETUP and not state.ready:
            return {"type": "ready"}, state.t
        if phase == RUNNING:
            return _police(state, young=False) or ({"type": "stop"}, state.t)
    return None


def plan(state: State, seat: int, rng: random.Random) -> Plan | None:
    if state.over or not 0 <= seat < state.players or state.resigned[seat]:
        return None
    phase = state.phase
    if state.young:
        if seat != state.active:
            return None
        if phase == WAIT_READY:
            return {"type": "ready"}, state.t
        if phase == DRIVING:
            return _police(state, young=True)
        return None
    if state.relay:
        return _relay(state, seat, rng)
    if seat == state.police:
        if phase == SETUP and not state.ready:
            return {"type": "ready"}, state.t
        if phase == RUNNING:
            return _police(state, young=False)
        return None
    if seat == state.thief:
        if phase == SETUP and not state.placed:
            return {"type": "place", "circles": _placement(rng)}, state.t
        if phase == RUNNING:
            if state.current >= 0:
                at = state.t if state.last_roll is None else max(state.t, state.last_roll + state.roll_ms[seat])
                return {"type": "roll"}, at
            if state.at_choice:
                return ({"type": "escape"} if _thief_escapes(state, seat) else {"type": "draw"}), state.t
        if phase in (COUNTDOWN, PAUSED):
            return None
    return None
