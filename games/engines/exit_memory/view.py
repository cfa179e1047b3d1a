"""What one seat may see (section 8): a filtered snapshot, never a covered tile (R-57, R-59)."""

from __future__ import annotations

from typing import Any

from ..base import Deadline
from .state import OVER, SUMMARY, TURN, State
from .tiles import CHARACTER, ROUNDABOUT, START, START_TILE, SYMBOL, TILE_TYPE


def tile_face(tile: str, facing: str | None = None) -> dict[str, Any]:
    """A tile as its face shows it: id, type, marks and (on the pile) its display facing."""
    out: dict[str, Any] = {
        "tile": tile,
        "type": TILE_TYPE[tile],
        "character": CHARACTER.get(tile, ""),
        "symbol": SYMBOL.get(tile, ""),
    }
    if facing is not None:
        out["facing"] = facing
    return out


def top_tile(state: State) -> dict[str, Any]:
    """R-6, section 8: only the top tile of the pile, and a face-down one only as such."""
    if not state.pile:
        return {**tile_face(START_TILE, state.start_facing), "type": START}
    top = state.pile[-1]
    if top.face_down:
        return {"face_down": True}
    return tile_face(top.tile, None if TILE_TYPE[top.tile] == ROUNDABOUT else top.facing)


def view(state: State, seat: int | None, deadlines: list[Deadline]) -> dict[str, Any]:
    from .rules import allowed_facings, may_declare, required_facing  # the rules import this module

    out: dict[str, Any] = {
        "phase": state.phase,
        "round": state.round,
        "players": state.players,
        "danger": state.danger,
        "target": state.target,
        "scores": list(state.scores),
        "holders": list(state.holders),
        "hand_counts": [len(h) for h in state.hands],
        "deck_count": len(state.deck),
        "pile_count": len(state.pile),
        "start_player": state.start_player,
        "turn": state.turn,
        "prompted": state.prompted,
        "chains": [{"number": c.number, "position": c.position, "members": list(c.members)} for c in state.chains],
        "chain_asked": list(state.chain_asked),
        "top": top_tile(state) if state.round else None,
        "floors": list(state.floors),
        "floor_deck_count": len(state.floor_deck),
        "dangers": list(state.dangers),
        "danger_deck_count": len(state.danger_deck),
        "face_down_next": state.face_down_next,
        "skipped": list(state.skipped),
        "jammed": list(state.jammed),
        "notice": {"card": state.notice, "seat": state.notice_seat} if state.notice else None,
        "ready": list(state.ready),
        "resigned": list(state.resigned),
        "deadlines": [{"kind": d.kind, "seats": list(d.seats), "due": d.due} for d in deadlines],
        "winners": list(state.winners),
        "result": state.result if state.phase in (SUMMARY, OVER) else None,
    }
    if state.phase == OVER:
        out["seed"] = state.seed  # published when the game ends
        out["score_history"] = [list(h) for h in state.score_history]  # public; drawn at the end only
    if seat is not None and 0 <= seat < state.players and state.hands:
        hand = sorted(state.hands[seat])
        out["hand"] = [{**tile_face(t), "facings": list(allowed_facings(state, t))} for t in hand]
        out["required_facing"] = required_facing(state) if state.pile or state.round else None
        out["may_declare"] = may_declare(state, seat)
        out["may_pass"] = state.phase == TURN and seat == state.turn and not state.hands[seat]
    return out


def revealed_view(state: State, deadlines: list[Deadline]) -> dict[str, Any]:
    """The spectator's view with what nobody sees while the game runs: every hand and the pile."""
    out = view(state, None, deadlines)
    out["hands"] = [[tile_face(t) for t in sorted(hand)] for hand in state.hands]
    out["pile"] = [tile_face(t.tile, t.facing) for t in state.pile]
    return out
