"""``evolve``: apply one event. Pure and total: no validation, no randomness, no clock.

Unknown event types and missing fields leave the state as it was (a stored log is never refused).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..base import Event
from .constants import DIRS, START, Cell
from .state import (
    ABANDONED,
    COUNTDOWN,
    DRIVING,
    OVER,
    PAUSED,
    RUNNING,
    SETUP,
    SUSPENDED,
    WAIT_READY,
    State,
    with_changes,
)


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    if not 0 <= index < len(values):
        return values
    return (*values[:index], value, *values[index + 1 :])


def _cell(raw: Any, default: Cell) -> Cell:
    try:
        return (int(raw[0]), int(raw[1]))
    except (TypeError, ValueError, IndexError, KeyError):
        return default


def _game_created(s: State, d: Mapping[str, Any], x: Mapping[str, Any]) -> State:
    n = s.players
    return with_changes(
        s,
        origin=float(d.get("origin", s.origin)),
        commitment=str(d.get("commitment", "")),
        first=int(d.get("first", 0)),
        seed=str(x.get("seed", "")),
        deck=tuple(x.get("deck", ())),
        scores=(0,) * n,
        resigned=(False,) * n,
        away=(False,) * n,
    )


# The police car of a drive yet to start: at the start, heading nowhere, nothing revealed or found.
_DRIVE_NOT_STARTED: dict[str, Any] = {"car": START, "heading": "", "revealed": (), "found": 0}


def _round_setup(s: State, d: Mapping[str, Any], x: Mapping[str, Any]) -> State:
    cards = tuple(d.get("cards", ()))
    return with_changes(
        s,
        phase=SETUP,
        round=int(d.get("round", s.round + 1)),
        thief=int(d.get("thief", -1)),
        police=int(d.get("police", -1)),
        stack=cards,
        dealt=s.dealt + len(cards),
        cracked=0,
        current=-1,
        filled=(False, False, False),
        last_dice=(),
        placement=(),
        step="place" if s.relay else "",
        step_t=s.t,
        recording=(),
        rec_index=0,
        placed=False,
        ready=False,
        round_t=s.t,
        placed_t=0,
        go_at=0,
        pause_until=0,
        last_roll=None,
        tat=s.t,
        **_DRIVE_NOT_STARTED,
        auto_escape=False,
    )


def _tiles_placed(s: State, d: Mapping[str, Any], x: Mapping[str, Any]) -> State:
    return with_changes(
        s,
        placed=True,
        placement=tuple(x.get("circles", ())),
        placed_t=s.t,
        pairs_drawn=s.pairs_drawn + (1 if x.get("random") else 0),
        step="police" if s.relay else "",
        step_t=s.t,
    )


def _police_ready(s: State, d: Mapping[str, Any], x: Mapping[str, Any]) -> State:
    if s.young:
        return with_changes(s, phase=DRIVING, tat=s.t)  # V-4: the limiter starts at `ready`
    return with_changes(s, ready=True)


def _countdown(s: State, d: Mapping[str, Any], x: Mapping[str, Any]) -> State:
    return with_changes(s, phase=COUNTDOWN, go_at=int(d.get("go_at", s.t)))


def _round_started(s: State, d: Mapping[str, Any], x: Mapping[str, Any]) -> State:
    return with_changes(s, phase=RUNNING, car=START, heading="", tat=s.t, last_roll=None)  # R-12, T-6


def _card_drawn(s: State, d: Mapping[str, Any], x: Mapping[str, Any]) -> State:
    return with_changes(s, current=int(d.get("pos", 1)) - 1, filled=(False, False, False), last_dice=())


def _dice_rolled(s: State, d: Mapping[str, Any], x: Mapping[str, Any]) -> State:
    values = tuple(d.get("values", ()))
    filled = s.filled
    for slot in d.get("filled", ()):
        filled = _set(filled, int(slot) - 1, True)
    return with_changes(s, last_roll=s.t, dice_k=s.dice_k + len(values), filled=filled, last_dice=values)


def _card_cracked(s: State, d: Mapping[str, Any], x: Mapping[str, Any]) -> State:
    return with_changes(s, cracked=int(d.get("cracked", s.cracked + 1)), current=-1)


def _auto_escape_set(s: State, d: Mapping[str, Any], x: Mapping[str, Any]) -> State:
    return with_changes(s, auto_escape=bool(x.get("on", s.auto_escape)))


def _car_moved(s: State, d: Mapping[str, Any], x: Mapping[str, Any]) -> State:
    driver = s.active if s.young else s.police
    step = s.step_ms[driver] if 0 <= driver < len(s.step_ms) else 150
    to = _cell(d.get("to"), s.car)
    heading = next((k for k, (dx, dy) in DIRS.items() if (s.car[0] + dx, s.car[1] + dy) == to), "")
    changes: dict[str, Any] = {"car": to, "tat": max(s.tat, s.t) + step, "heading": heading}  # T-6
    if s.step == "police":  # M-2: the recording
        changes["recording"] = (*s.recording, (s.t - s.go_at, "move", heading))
    elif s.step == "thief":  # M-3: one recorded input played back
        changes["rec_index"] = s.rec_index + 1
    return with_changes(s, **changes)


def _siren(s: State, d: Mapping[str, Any], x: Mapping[str, Any]) -> State:
    if s.step == "police":
        return with_changes(s, recording=(*s.recording, (s.t - s.go_at, "siren", str(d.get("circle", "")))))
    if s.step == "thief":
        return with_changes(s, rec_index=s.rec_index + 1)
    return s


def _session_ended(s: State, d: Mapping[str, Any], x: Mapping[str, Any]) -> State:
    """M-2 / M-5: the police's step is over; the thief's step waits for the thief."""
    return with_changes(
        s,
        step="thief",
        phase=SETUP,
        step_t=s.t,
        **_DRIVE_NOT_STARTED,
        ready=False,
        go_at=0,
        pause_until=0,
        tat=s.t,
    )


def _thief_ready(s: State, d: Mapping[str, Any], x: Mapping[str, Any]) -> State:
    return with_changes(s, ready=True)


def _tile_revealed(s: State, d: Mapping[str, Any], x: Mapping[str, Any]) -> State:
    circle = str(d.get("circle", ""))
    tile = str(d.get("tile", "green"))
    s = with_changes(s, revealed=(*s.revealed, (circle, tile)), found=int(d.get("found", s.found)))
    if s.young and tile == "green":
        s = with_changes(s, greens=(*s.greens, circle))
    pause = d.get("pause_until")
    if pause is not None:
        s = with_changes(s, phase=PAUSED, pause_until=int(pause))
    return s


def _tile_hidden(s: State, d: Mapping[str, Any], x: Mapping[str, Any]) -> State:
    circle = d.get("circle")
    return with_changes(s, revealed=tuple(r for r in s.revealed if r[0] != circle))


def _alarm_ended(s: State, d: Mapping[str, Any], x: Mapping[str, Any]) -> State:
    return with_changes(s, phase=RUNNING)


def _round_ended(s: State, d: Mapping[str, Any], x: Mapping[str, Any]) -> State:
    scores = tuple(d.get("scores", s.scores))
    return with_changes(
        s,
        scores=scores,
        round_history=(*s.round_history, (int(d.get("round", s.round)), s.cracked, *scores)),
        current=-1,
        last_round=(d.get("round", s.round), d.get("outcome", ""), d.get("thief_gain", 0), d.get("police_gain", 0)),
    )


def _placement_revealed(s: State, d: Mapping[str, Any], x: Mapping[str, Any]) -> State:
    return with_changes(s, last_round=(*s.last_round[:4], *d.get("circles", ())))


def _turn_ended(s: State, scores: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """``round_history`` with the young variant's turn ``s.turn`` closed at ``scores``."""
    if not s.young or s.turn < 1:
        return s.round_history
    before = s.round_history[-1][2:] if s.round_history else (0,) * len(scores)
    return (*s.round_history, (s.turn, sum(scores) - sum(before), *scores))


def _game_ended(s: State, d: Mapping[str, Any], x: Mapping[str, Any]) -> State:
    scores = tuple(d.get("scores", s.scores))
    return with_changes(
        s,
        round_history=_turn_ended(s, scores),
        phase=OVER,
        scores=scores,
        winners=tuple(d.get("winners", ())),
        end_reason=str(d.get("reason", "finished")),
        suspended_phase="",
        resume_at=None,
    )


def _card_awarded(s: State, d: Mapping[str, Any], x: Mapping[str, Any]) -> State:
    return with_changes(s, scores=tuple(d.get("scores", s.scores)), dealt=s.dealt + 1)


def _layout(s: State, d: Mapping[str, Any], x: Mapping[str, Any]) -> State:
    return with_changes(
        s,
        layout=tuple(x.get("circles", ())),
        layout_no=int(d.get("no", s.layout_no + 1)),
        revealed=(),
        greens=(),
        pairs_drawn=s.pairs_drawn + 1,
    )


def _turn_start(s: State, d: Mapping[str, Any], x: Mapping[str, Any]) -> State:
    return with_changes(
        s,
        round_history=_turn_ended(s, s.scores),
        phase=WAIT_READY,
        turn=int(d.get("turn", s.turn + 1)),
        active=int(d.get("seat", 0)),
        car=START,
        heading="",
        tat=s.t,
        revealed=tuple(r for r in s.revealed if r[1] == "thief"),
    )


def _disconnected(s: State, d: Mapping[str, Any], x: Mapping[str, Any]) -> State:
    return with_changes(s, away=_set(s.away, int(d.get("seat", -1)), True))


def _reconnected(s: State, d: Mapping[str, Any], x: Mapping[str, Any]) -> State:
    return with_changes(s, away=_set(s.away, int(d.get("seat", -1)), False))


def _suspended(s: State, d: Mapping[str, Any], x: Mapping[str, Any]) -> State:
    if s.phase == SUSPENDED:  # a loss during the resume countdown: the countdown stops
        return with_changes(s, resume_at=None)
    return with_changes(s, suspended_phase=s.phase, phase=SUSPENDED, suspended_at=s.t, resume_at=None)


def _resume_countdown(s: State, d: Mapping[str, Any], x: Mapping[str, Any]) -> State:
    return with_changes(s, resume_at=int(d.get("resume_at", s.t)), abandon_offered=False)


def _resumed(s: State, d: Mapping[str, Any], x: Mapping[str, Any]) -> State:
    """T-25: every pending deadline, the roll cooldown and TAT move later by the shift."""
    shift = int(d.get("shift", 0))
    return with_changes(
        s,
        phase=s.suspended_phase or s.phase,
        suspended_phase="",
        resume_at=None,
        abandon_offered=False,
        round_t=s.round_t + shift,
        placed_t=s.placed_t + shift,
        go_at=s.go_at + shift,
        pause_until=s.pause_until + shift,
        last_roll=None if s.last_roll is None else s.last_roll + shift,
        tat=s.tat + shift,
    )


def _abandon_offered(s: State, d: Mapping[str, Any], x: Mapping[str, Any]) -> State:
    return with_changes(s, abandon_offered=True)


def _abandoned(s: State, d: Mapping[str, Any], x: Mapping[str, Any]) -> State:
    return with_changes(s, phase=ABANDONED, end_reason="abandoned", winners=(), suspended_phase="", resume_at=None)


def _resigned(s: State, d: Mapping[str, Any], x: Mapping[str, Any]) -> State:
    seat = int(d.get("seat", -1))
    return with_changes(s, resigned=_set(s.resigned, seat, True), away=_set(s.away, seat, False))


def _nothing(s: State, d: Mapping[str, Any], x: Mapping[str, Any]) -> State:
    return s


_HANDLERS: dict[str, Callable[[State, Mapping[str, Any], Mapping[str, Any]], State]] = {
    "game_created": _game_created,
    "round_setup": _round_setup,
    "tiles_placed": _tiles_placed,
    "police_ready": _police_ready,
    "countdown": _countdown,
    "round_started": _round_started,
    "card_drawn": _card_drawn,
    "dice_rolled": _dice_rolled,
    "card_cracked": _card_cracked,
    "auto_escape_set": _auto_escape_set,
    "car_moved": _car_moved,
    "siren": _siren,
    "session_ended": _session_ended,
    "thief_ready": _thief_ready,
    "tile_revealed": _tile_revealed,
    "tile_hidden": _tile_hidden,
    "alarm_ended": _alarm_ended,
    "thief_escaped": _nothing,
    "thief_caught": _nothing,
    "round_ended": _round_ended,
    "placement_revealed": _placement_revealed,
    "game_ended": _game_ended,
    "card_awarded": _card_awarded,
    "layout": _layout,
    "turn_start": _turn_start,
    "disconnected": _disconnected,
    "reconnected": _reconnected,
    "suspended": _suspended,
    "resume_countdown": _resume_countdown,
    "resumed": _resumed,
    "abandon_offered": _abandon_offered,
    "abandoned": _abandoned,
    "resigned": _resigned,
    "clock": _nothing,
}


def evolve(state: State, event: Event) -> State:
    handler = _HANDLERS.get(event.type)
    if handler is None:
        return state
    secret = event.secret or {}
    data = {**secret, **(event.data or {})}  # private events (relay police step) carry all in secret
    t = data.get("t", secret.get("t"))
    if isinstance(t, int) and not isinstance(t, bool) and t > state.t:
        state = with_changes(state, t=t)  # a shallow copy: cheap
    try:
        return handler(state, data, secret)
    except (TypeError, ValueError, KeyError, IndexError):
        return state
