"""Resolution (5.6–5.8): lay the pile out from the start tile, walk it, check the floor cards and
score the chains. Pure: the input is the pile in placement order, the chains and the face-up floor
cards; the output is the R-71 transcript as JSON-safe data."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .tiles import (
    CHARACTER,
    DEAD_END,
    ESCAPED,
    HEAD_ON,
    LOOP,
    LOST,
    PATH1_TURN,
    ROUNDABOUT,
    START,
    START_TILE,
    STRAIGHT_TURN,
    SYMBOL,
    TILE_TYPE,
    N,
    back,
    path2_sides,
    step,
    turn_between,
    turned,
)

Cell = tuple[int, int]
REVEAL, SECOND_PATH, ROUNDABOUT_AGAIN = "REVEAL", "SECOND_PATH", "ROUNDABOUT_AGAIN"
PREMATURE, SCORING, TOO_LATE = "premature", "scoring", "too late"


@dataclass(frozen=True)
class ChainRecord:
    """A declaration chain (R-13, R-17): its number (C1, C2, … in opening order), its position
    (direction tiles placed before it) and its members (declarer first)."""

    number: int
    position: int
    members: tuple[int, ...]


@dataclass
class _Laid:
    """R-27: an occupied cell's tile, resolution facing, path-2 use and flow set F(c)."""

    tile: str
    facing: str
    flows: set[str]
    path2_used: bool = False


@dataclass
class _Walk:
    tiles: Sequence[str]
    floors: frozenset[str]
    cells: dict[Cell, _Laid] = field(default_factory=dict)
    edges: set[tuple[Cell, Cell]] = field(default_factory=set)
    steps: list[dict[str, Any]] = field(default_factory=list)
    streak: int = 0
    net: int = 0
    characters: set[str] = field(default_factory=set)
    hazards: int = 0

    def traverse(self, kind: str, tile: str, p: Cell, q: Cell, h: str, exit_: str, k: int) -> list[str]:
        """Record one successful traversal (M3/M4/M5) and return the floor reasons that now hold (R-37)."""
        self.edges.add((p, q))
        self.cells[q].flows.update((h, exit_))
        turn = turn_between(h, exit_)
        self.streak = self.streak + 1 if turn == STRAIGHT_TURN else 0
        self.net += 1 if turn == "left" else -1 if turn == "right" else 0
        revealed = kind == REVEAL
        if revealed:
            if tile in CHARACTER:
                self.characters.add(CHARACTER[tile])
            if tile in SYMBOL:
                self.hazards += 1
        self.steps.append(
            {
                "step": len(self.steps) + 1,
                "kind": kind,
                "tile": tile,
                "type": TILE_TYPE[tile],
                "cell": [q[0], q[1]],
                "facing": self.cells[q].facing,
                "entry": h,
                "exit": exit_,
                "turn": turn,
                "k": k,
            }
        )
        return self._floor_reasons(q if revealed else None)

    def _floor_reasons(self, revealed_into: Cell | None) -> list[str]:
        """R-37: FL1…FL6 in order, only the face-up ones; the cell conditions only on a reveal."""
        holds = {
            "FL1": len(self.characters) >= 5,
            "FL2": revealed_into is not None and (abs(revealed_into[0]) >= 5 or abs(revealed_into[1]) >= 5),
            "FL3": revealed_into is not None and revealed_into[1] < 0,
            "FL4": self.streak >= 3,
            "FL5": self.hazards >= 4,
            "FL6": abs(self.net) >= 4,
        }
        return [card for card, hit in holds.items() if hit and card in self.floors]


def classify_blocked(laid: _Laid, h: str) -> str:
    """R-33: why the walker, heading ``h``, cannot enter a cell holding ``laid``."""
    if back(h) in laid.flows:
        return HEAD_ON
    if h in laid.flows:
        return LOOP
    return DEAD_END


def walk(tiles: Sequence[str], floors: Sequence[str]) -> dict[str, Any]:
    """R-25..R-37: walk the pile ``tiles`` (d1 … dn in placement order) with the face-up ``floors``.

    Returns ``{"steps", "outcome", "lost_at", "reasons", "blocked"}``; ``blocked`` is the cell and
    side for an edge (M2) or blocked (M6) stop, else ``None``.
    """
    w = _Walk(tiles, frozenset(floors))
    origin: Cell = (0, 0)
    w.cells[origin] = _Laid(START_TILE, N, {N})  # F(start) = {N}
    p, h, k = origin, N, 0
    last_turn = PATH1_TURN[START]  # the start tile is the most recently revealed tile

    def lost(reasons: list[str], blocked: Cell | None = None, side: str = "") -> dict[str, Any]:
        where = {"cell": [blocked[0], blocked[1]], "side": side} if blocked is not None else None
        return {"steps": w.steps, "outcome": LOST, "lost_at": k, "reasons": reasons, "blocked": where}

    while True:
        q = step(p, h)  # M1
        if (p, q) in w.edges:  # M2, R-34
            return lost([LOOP], q, back(h))
        if (q, p) in w.edges:
            return lost([HEAD_ON], q, back(h))
        laid = w.cells.get(q)
        if laid is None:  # M3
            if k == len(tiles):
                return {"steps": w.steps, "outcome": ESCAPED, "lost_at": None, "reasons": [], "blocked": None}
            k += 1
            tile = tiles[k - 1]
            kind = TILE_TYPE[tile]
            turn = last_turn if kind == ROUNDABOUT else PATH1_TURN[kind]
            exit_ = turned(h, turn)
            last_turn = turn
            w.cells[q] = _Laid(tile, h, set())
            reasons = w.traverse(REVEAL, tile, p, q, h, exit_, k)
        elif TILE_TYPE[laid.tile] == ROUNDABOUT:  # M4, R-31: copy the latest revealed tile's turn now
            exit_ = turned(h, last_turn)
            reasons = w.traverse(ROUNDABOUT_AGAIN, laid.tile, p, q, h, exit_, k)
        else:
            sides = path2_sides(TILE_TYPE[laid.tile], laid.facing)
            if sides is None or laid.path2_used or back(h) not in sides:  # M6, R-33
                return lost([classify_blocked(laid, h)], q, back(h))
            exit_ = sides[1] if sides[0] == back(h) else sides[0]  # M5, R-30
            laid.path2_used = True
            reasons = w.traverse(SECOND_PATH, laid.tile, p, q, h, exit_, k)
        if reasons:  # floor checks run before the next move
            return lost(reasons)
        p, h = q, exit_


def score_chains(result: dict[str, Any], chains: Sequence[ChainRecord], holders: Sequence[int]) -> dict[str, Any]:
    """R-38..R-41: chain statuses and who scores.

    ``holders`` are the players still holding their lost tile at the end of the round.
    """
    markers = []
    scorers: tuple[int, ...] = ()
    scoring_number = None
    if result["outcome"] == ESCAPED:
        scorers = tuple(sorted(holders))
    else:
        late = [c for c in chains if c.position >= result["lost_at"]]
        if late:  # otherwise nobody scores
            first = min(late, key=lambda c: c.number)
            scoring_number, scorers = first.number, tuple(sorted(first.members))
    for chain in sorted(chains, key=lambda c: c.number):
        if result["outcome"] == ESCAPED or chain.position < result["lost_at"]:
            status = PREMATURE
        elif chain.number == scoring_number:
            status = SCORING
        else:
            status = TOO_LATE
        markers.append(
            {"chain": chain.number, "position": chain.position, "members": list(chain.members), "status": status}
        )
    return {"chains": markers, "scorers": list(scorers)}
