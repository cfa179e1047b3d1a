"""``view``: what one seat may see (H-1, H-2). Compact JSON; the static map is ``MAP_ROWS``.

Hidden: the placement, and whether it is made (thief only until the round ends, R-37, T-18), the
auto-escape flag (thief only),
the deck order and the seed (nobody until the end, N-1), the young variant's layout (nobody until
the end, V-2). After the end everything is public (R-41, H-6).
"""

from __future__ import annotations

from typing import Any

from .constants import CARD_CODE, TAP_TO_DRIVE_MS, code_str
from .state import ABANDONED, OVER, SUSPENDED, State


def _role(state: State, seat: int | None) -> str:
    if seat is None or not 0 <= seat < state.players:
        return "spectator"
    if state.young:
        return "police" if seat == state.active else "spectator"
    if seat == state.thief:
        return "thief"
    if seat == state.police:
        return "police"
    return "spectator"


def view(state: State, seat: int | None, timer: tuple[int, str] | None, *, revealed: bool = False) -> dict[str, Any]:
    """What ``seat`` sees; ``revealed``: a spectator shown every secret, at any point (a replay)."""
    over = state.phase in (OVER, ABANDONED)
    shown = over or revealed
    out: dict[str, Any] = {
        "variant": state.variant,
        "players": state.players,
        "phase": state.phase,
        "origin": state.origin,
        "t": state.t,
        "role": _role(state, seat),
        "scores": list(state.scores),
        "resigned": [p for p, r in enumerate(state.resigned) if r],
        "away": [p for p, a in enumerate(state.away) if a],
        "car": list(state.car),
        "tat": state.tat,
        "tiles": {c: k for c, k in state.revealed},
        "step_ms": list(state.step_ms),
        "roll_ms": list(state.roll_ms),
        "tap_to_drive": [ms >= TAP_TO_DRIVE_MS for ms in state.step_ms],  # W-10
        "commitment": state.commitment,  # N-1
        "timer": None if timer is None else {"kind": timer[1], "due": timer[0]},
    }
    if state.phase == SUSPENDED:
        out["suspended"] = {
            "phase": state.suspended_phase,
            "since": state.suspended_at,
            "resume_at": state.resume_at,
            "abandon_offered": state.abandon_offered,
        }
    if state.young:
        out.update(active=state.active, turn=state.turn, layout_no=state.layout_no)
        if shown:
            out["layout"] = list(state.layout)
    else:
        code = CARD_CODE[state.stack[state.current]] if state.current >= 0 else None
        out.update(
            round=state.round,
            rounds=state.rounds,
            first=state.first,
            thief=state.thief,
            police=state.police,
            stack=[code_str(c) for c in state.stack],  # D-16: public from the deal
            cracked=state.cracked,
            current=state.current,
            code=None if code is None else list(code),
            filled=list(state.filled),
            dice=list(state.last_dice),
            hand=state.filled.count(False) if state.current >= 0 else 0,
            roll_at=None if state.last_roll is None else state.last_roll + state.roll_ms[state.thief],
            at_choice=state.at_choice,
            found=state.found,
            ready=state.ready,
            go_at=state.go_at,
            pause_until=state.pause_until,
        )
        if state.relay:
            out.update(mode="relay", step=state.step, step_due=state.step_t + state.relay_ms)
            if state.step == "police" and seat != state.police and not shown:
                # M-2 / M-3: the police's drive is shown to nobody else before its play-back.
                out.update(car=[9, 9], tiles={}, found=0, tat=0)
        if state.last_round:
            lr = state.last_round
            out["last_round"] = {
                "round": lr[0],
                "outcome": lr[1],
                "thief_gain": lr[2],
                "police_gain": lr[3],
                "circles": list(lr[4:]),
            }
        if (seat is not None and seat == state.thief) or shown:
            out["placement"] = sorted(state.placement)
            out["placed"] = state.placed
        elif timer is not None and timer[1] in ("placement", "ready"):
            # T-18, H-2: whether the thief has hidden the thieves is the thief's alone; the two
            # set-up clocks (to the random placement, to the automatic start siren) would say it.
            out["timer"] = None
        if (seat is not None and seat == state.thief and not over) or revealed:
            out["auto_escape"] = state.auto_escape  # H-2: never anybody else's
    if over:
        out["seed"] = state.seed  # N-1, H-6
        out["winners"] = list(state.winners)
        out["end_reason"] = state.end_reason
        out["round_history"] = [list(r) for r in state.round_history]  # H-2: public; drawn at the end
    return out
