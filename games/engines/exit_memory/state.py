"""Immutable state of an exit_memory game and its JSON form."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..base import fields_from_json, fields_to_json
from .tiles import N, target_score

# Phases. RESOLUTION is transient: the walk runs inside one ``decide``.
PRESTART = "prestart"
TURN = "turn"
EXTRA = "extra"  # DG6: the player on turn places one more tile
CHAIN = "chain"
SUMMARY = "summary"
OVER = "over"


@dataclass(frozen=True)
class Placed:
    """A direction tile on the route pile: its display facing and whether it lies face down (DG2)."""

    tile: str
    facing: str
    face_down: bool = False


@dataclass(frozen=True)
class Chain:
    """A declaration chain (R-13..R-17): members in the order they played their lost tile."""

    number: int
    position: int
    members: tuple[int, ...]


@dataclass(frozen=True)
class State:
    players: int
    danger: bool = False
    turn_seconds: int = 60
    chain_seconds: int = 20
    phase: str = PRESTART
    seed: str = ""  # server-only until the game ends
    round: int = 0
    start_player: int = 0
    turn: int = -1  # the player on turn (TURN, EXTRA) or whose declaration is being answered (CHAIN)
    prompted: int = -1  # CHAIN: the player being asked to join or keep
    floor_deck: tuple[str, ...] = ()  # face down, top first
    floors: tuple[str, ...] = ()  # face up, in reveal order
    danger_deck: tuple[str, ...] = ()
    dangers: tuple[str, ...] = ()
    deck: tuple[str, ...] = ()  # the direction deck, top first (server-only)
    hands: tuple[tuple[str, ...], ...] = ()
    start_facing: str = N  # display facing of T00 (DG1/DG3 turn it with the pile)
    pile: tuple[Placed, ...] = ()  # direction tiles in placement order, without T00
    holders: tuple[bool, ...] = ()
    chains: tuple[Chain, ...] = ()
    chain_asked: tuple[int, ...] = ()  # CHAIN: who has answered the open chain's prompts so far
    face_down_next: bool = False  # DG2
    skipped: tuple[bool, ...] = ()  # DG5 flags
    jammed: tuple[bool, ...] = ()  # DG7 flags
    notice: str = ""  # the danger card the latest placement triggered (a transient notice, R-58)
    notice_seat: int = -1
    scores: tuple[int, ...] = ()
    ready: tuple[bool, ...] = ()
    resigned: tuple[bool, ...] = ()
    since: float = 0.0  # when the awaited decision began
    result: dict[str, Any] | None = None  # the last round's transcript (public once the round ended)
    winners: tuple[int, ...] = ()
    # Derived, not a rule: every seat's score after each round, for the end chart (appended by
    # ``evolve`` at ``scored``; scores are public, section 8).
    score_history: tuple[tuple[int, ...], ...] = ()

    @property
    def target(self) -> int:
        return target_score(self.players)

    def holder_seats(self) -> tuple[int, ...]:
        return tuple(s for s in range(self.players) if self.holders[s])

    def open_chain(self) -> Chain | None:
        return self.chains[-1] if self.phase == CHAIN and self.chains else None


def _field_to_json(name: str, value: Any) -> Any:
    if name == "pile":
        return [[p.tile, p.facing, p.face_down] for p in value]
    if name == "chains":
        return [[c.number, c.position, list(c.members)] for c in value]
    if name in ("hands", "score_history"):
        return [list(h) for h in value]
    return list(value) if isinstance(value, tuple) else value


def _field_from_json(name: str, value: Any) -> Any:
    if name == "pile":
        return tuple(Placed(t, fa, bool(fd)) for t, fa, fd in value)
    if name == "chains":
        return tuple(Chain(n, p, tuple(m)) for n, p, m in value)
    if name in ("hands", "score_history"):
        return tuple(tuple(h) for h in value)
    return tuple(value) if isinstance(value, list) else value


def state_to_json(state: State) -> dict[str, Any]:
    return fields_to_json(state, _field_to_json)


def state_from_json(data: dict[str, Any]) -> State:
    return fields_from_json(State, data, _field_from_json)
