"""A bot that places legal tiles and declares lost when its own picture of the route says so.

Its picture is what a player with a perfect memory has: every tile it saw on top of the pile. It
never sees a face-down tile (DG2), so its picture stops there.
"""

from __future__ import annotations

import random

from ..base import Action
from .state import CHAIN, EXTRA, SUMMARY, TURN, State
from .tiles import LOST
from .walk import walk


def believes_lost(state: State) -> bool:
    seen = []
    for placed in state.pile:
        if placed.face_down:
            break
        seen.append(placed.tile)
    return bool(walk(seen, state.floors)["outcome"] == LOST)


def choose(state: State, seat: int, rng: random.Random) -> Action:
    from .rules import allowed_facings, may_declare  # the rules import this module

    if state.phase == CHAIN:
        return {"type": "chain_reply", "join": believes_lost(state)}
    if state.phase == SUMMARY:
        return {"type": "ready"}
    if state.phase == TURN and may_declare(state, seat) and believes_lost(state):
        return {"type": "declare_lost"}
    if state.phase in (TURN, EXTRA) and state.hands[seat]:
        tile = rng.choice(sorted(state.hands[seat]))
        return {"type": "place", "tile": tile, "facing": rng.choice(allowed_facings(state, tile))}
    return {"type": "pass"}
