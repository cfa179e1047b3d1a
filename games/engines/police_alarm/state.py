"""Immutable state of a Police Alarm match and its JSON form.

All times are integer milliseconds since the match's time origin (T-1); ``origin`` is the epoch
second of the ``start`` input. ``seed``, ``deck``, ``placement`` and ``layout`` are secret: only
``view`` decides who sees them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..base import fields_from_json, fields_to_json
from .constants import START, Cell

STANDARD = "standard"
YOUNG = "young"

# Phases (section 9). SUSPENDED keeps the interrupted phase in ``suspended_phase`` (T-24).
PRESTART = "prestart"
SETUP = "setup"
COUNTDOWN = "countdown"
RUNNING = "running"
PAUSED = "paused"
WAIT_READY = "wait_ready"
DRIVING = "driving"
SUSPENDED = "suspended"
OVER = "over"
ABANDONED = "abandoned"

ACTIVE_PHASES = frozenset({SETUP, COUNTDOWN, RUNNING, PAUSED, WAIT_READY, DRIVING})


@dataclass(frozen=True)
class State:
    players: int
    variant: str
    first_choice: int  # -1: drawn at start (R-3 / V-3)
    step_ms: tuple[int, ...]  # W-10 per seat
    roll_ms: tuple[int, ...]  # W-10 per seat
    phase: str = PRESTART
    origin: float = 0.0
    t: int = 0  # time of the last event
    commitment: str = ""
    seed: str = ""  # secret until the end (N-1)
    deck: tuple[int, ...] = ()  # secret: card ids, top first (N-4)
    first: int = 0
    dice_k: int = 0  # N-3
    pairs_drawn: int = 0  # N-9 index of the next scripted pair
    scores: tuple[int, ...] = ()
    resigned: tuple[bool, ...] = ()
    away: tuple[bool, ...] = ()  # connection lost (T-23)
    # Standard round
    round: int = 0
    thief: int = -1
    police: int = -1
    stack: tuple[int, ...] = ()  # the six cards of the round, in deck order
    cracked: int = 0
    current: int = -1  # stack index of the current card, -1: none
    filled: tuple[bool, ...] = (False, False, False)  # R-13 slots
    last_dice: tuple[int, ...] = ()
    placement: tuple[str, ...] = ()  # secret: the two thief circles
    placed: bool = False
    ready: bool = False
    round_t: int = 0  # placement timeout base, shifted by suspensions
    placed_t: int = 0  # auto-ready base
    go_at: int = 0  # end of the countdown
    pause_until: int = 0  # end of the alarm pause
    last_roll: int | None = None  # R-14 cooldown base
    tat: int = 0  # T-6 limiter
    car: Cell = START
    heading: str = ""  # direction of the last move ("" after a reset), for the listed moves only
    revealed: tuple[tuple[str, str], ...] = ()  # (circle, "green"/"thief") face-up tiles, in order
    found: int = 0
    auto_escape: bool = False  # secret of the thief
    last_round: tuple[Any, ...] = ()  # (round, outcome, thief_gain, police_gain, circles...)
    # Relay mode (M-n): each round in three steps, the police's drive recorded and played back
    relay: bool = False
    relay_ms: int = 0  # M-1: the lobby's deadline per step
    step: str = ""  # "place", "police" or "thief" in relay mode
    step_t: int = 0  # start of the step's wait (its deadline base)
    recording: tuple[tuple[int, str, str], ...] = ()  # secret: (offset from go, "move"/"siren", dir/circle)
    rec_index: int = 0  # next recorded input to play back
    # Suspension (T-24 .. T-26)
    suspended_phase: str = ""
    suspended_at: int = 0
    resume_at: int | None = None
    abandon_offered: bool = False
    # Young variant
    turn: int = 0
    active: int = -1
    layout: tuple[str, ...] = ()  # secret from everybody until the end (V-2)
    layout_no: int = 0
    greens: tuple[str, ...] = ()  # circles shown green since the last layout (public history)
    dealt: int = 0  # cards taken from the deck
    # End
    end_reason: str = ""
    winners: tuple[int, ...] = ()
    # Derived, not a rule: (round, safes cracked, *scores) at the end of each round (the young
    # variant: (turn, cards won in it, *scores) at the end of each turn), for the end chart.
    # Appended by ``evolve``; all of it public (H-2: scores, the stack and its cracks).
    round_history: tuple[tuple[int, ...], ...] = ()

    @property
    def young(self) -> bool:
        return self.variant == YOUNG

    @property
    def over(self) -> bool:
        return self.phase in (OVER, ABANDONED)

    @property
    def rounds(self) -> int:
        return 2 * self.players

    @property
    def at_choice(self) -> bool:
        """R-20: no current card, at least one crack, cards left."""
        return self.current < 0 and 1 <= self.cracked < len(self.stack)

    @property
    def revealed_ids(self) -> frozenset[str]:
        return frozenset(c for c, _k in self.revealed)


def with_changes(state: State, **changes: Any) -> State:
    """``dataclasses.replace`` without re-running ``__init__`` (states are copied per event).

    Only valid field names may be passed (the engine's own code does).
    """
    new = object.__new__(State)
    new.__dict__.update(state.__dict__)
    new.__dict__.update(changes)
    return new


def _to_json(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_to_json(v) for v in value]
    return value


def _from_json(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_from_json(v) for v in value)
    return value


def state_to_json(state: State) -> dict[str, Any]:
    return fields_to_json(state, lambda _name, value: _to_json(value))


def state_from_json(data: Any) -> State:
    return fields_from_json(State, data, lambda name, value: float(value) if name == "origin" else _from_json(value))
