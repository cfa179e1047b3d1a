"""``view``: what one seat (or a spectator) may see, as JSON-safe data (R-64 .. R-68)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..base import Deadline, Outcome
from .constants import LOOT, REVEAL_ORDER, roles_for
from .state import NAMING, NEGOTIATION, OPEN, OVER, PLANNING, State


def _allowed(state: State, seat: int) -> list[str]:
    owned = roles_for(state.players)
    if state.no_repeat and state.previous:
        owned = tuple(r for r in owned if r not in state.previous[seat])
    return list(owned)


_CONTAINERS = (dict, list, tuple)


def _plain_copy(value: Any) -> Any:
    """A copy of JSON-like data (dicts, lists, tuples, scalars), so a viewer cannot change the state;
    copy.deepcopy was a tenth of every board's rendering. Scalars are taken as they are, without a
    call each: they were most of the calls."""
    if isinstance(value, dict):
        return {key: _plain_copy(item) if isinstance(item, _CONTAINERS) else item for key, item in value.items()}
    if isinstance(value, list):
        return [_plain_copy(item) if isinstance(item, _CONTAINERS) else item for item in value]
    if isinstance(value, tuple):
        return tuple(_plain_copy(item) if isinstance(item, _CONTAINERS) else item for item in value)
    return value


def view(
    state: State,
    seat: int | None,
    deadlines: Sequence[Deadline],
    outcome: Outcome | None,
) -> dict[str, Any]:
    n = state.players
    me = seat if seat is not None and 0 <= seat < n else None
    over = state.phase == OVER
    everything = over and me is not None  # players see all once the match is over
    loot = LOOT.get(state.loot)

    hands = []
    for h in state.hands:
        entry: dict[str, Any] = {
            "seat": h.seat,
            "slot": h.slot,
            "status": h.status,
            "stake": h.stake,
            "own": h.own,
            "loan": h.loan,
            "stake_state": h.stake_state,
            "revealed": h.revealed,
            "result": h.result if h.revealed else "",
            "named": h.named and h.revealed,
        }
        if h.revealed or h.seat == me or everything:
            entry["role"] = h.role
        hands.append(entry)

    counts = {r: state.pool.count(r) for r in REVEAL_ORDER if r in state.pool}
    chosen = (
        [bool(c) for c in state.choices] if state.phase == PLANNING else [bool(state.hands_of(s)) for s in range(n)]
    )

    out: dict[str, Any] = {
        "game": "heist",
        "phase": state.phase,
        "players": n,
        "heist": state.heist,
        "max_heists": state.deck_size,
        "deck_count": len(state.deck),
        "target": state.target,
        "variants": {"no_repeat": state.no_repeat, "quick": state.quick},
        "time_limit": state.time_limit,
        "roles_in_play": list(roles_for(n)),
        "hands_per_player": 2 if n == 3 else 1,
        "loot": (
            {"id": loot.id, "total": loot.total, "stake": loot.stake, "bonus": loot.bonus} if loot is not None else None
        ),
        "balances": list(state.balances),
        "threats": list(state.threats),
        "threat_supply": state.supply,
        "boss_seat": state.boss,
        "resigned": list(state.resigned),
        "chosen": chosen,
        "previous_roles": [list(p) for p in state.previous] if state.previous else None,
        "pool": counts,
        "pool_face_up": list(state.pool),
        "pool_size": len(state.hands),
        "hands": hands,
        "fully_withdrawn": [state.fully_withdrawn(s) for s in range(n)],
        # the open offers, with their countdown. A closed offer has left the state; its
        # history (parties, amount, clause, how it ended: R-64) is in the match log.
        "offers": [
            {
                "id": o.id,
                "creator_seat": o.creator,
                "payer_seat": o.payer,
                "payee_seat": o.payee,
                "amount": o.amount,
                "clause_slot": o.clause or None,
                "status": OPEN,
                "created": o.created,
                "expires": o.expires,
            }
            for o in state.offers
        ],
        "threat_uses": [
            {"heist": lk.heist, "seat": lk.seat, "target_seat": lk.target, "slot": lk.slot}
            for lk in state.looks
            if lk.heist == state.heist
        ],
        "boss": {
            "seat": state.boss,
            "roll_call_used": state.roll_call,
            "call_due": state.call_due,
            "prompts": [{"seat": s, "due": d} for s, d in state.prompts],
            "powers_at": (state.negotiation_at + state.time_limit / 2 if state.phase == NEGOTIATION else None),
            "powers_ready": state.powers_ready,
        },
        "planning_at": state.planning_at if state.phase == PLANNING else None,
        "negotiation_at": state.negotiation_at if state.phase == NEGOTIATION else None,
        "naming": None,
        "named_role": state.named_role,
        "report_heist": state.report_heist,
        "report": [_plain_copy(r) for r in state.report],
        "deadlines": [
            {"kind": d.kind, "seats": list(d.seats), "due": d.due, "action": dict(d.action)} for d in deadlines
        ],
        "outcome": (
            {
                "scores": list(outcome.scores),
                "ranks": list(outcome.ranks),
                "winners": list(outcome.winners),
                "reason": outcome.reason,
            }
            if outcome is not None
            else None
        ),
        "me": None,
        "final": None,
        # Balances are public; the series is only drawn at the end, so only sent then.
        "money_history": [list(b) for b in state.money_history] if over else None,
    }
    if state.phase == NAMING and state.informant is not None:
        out["naming"] = {
            "seat": state.informant[0],
            "slot": state.informant[1],
            "nameable": [r for r in REVEAL_ORDER if r != "INFORMANT" and r in state.pool],
            "due": state.naming_due,
        }
    return _with_seat(out, state, me, everything)


def seat_view(public: dict[str, Any], state: State, seat: int | None) -> dict[str, Any]:
    """``view(state, seat, …)`` made from ``public``, the spectator's view of ``state``: what a seat
    sees beyond a spectator is its own hands' roles, its ``me`` and, once the match is over, every
    role (R-65, R-68). The pushes after a move ask for every seat's view of one state: the rest is
    built once for them all. The result shares ``public``'s lists and dicts, which nobody changes."""
    n = state.players
    me = seat if seat is not None and 0 <= seat < n else None
    out = dict(public)
    if me is None:
        return out
    everything = state.phase == OVER  # players see all once the match is over
    out["hands"] = [
        {**entry, "role": h.role} if not h.revealed and (h.seat == me or everything) else entry
        for h, entry in zip(state.hands, public["hands"], strict=True)
    ]
    return _with_seat(out, state, me, everything)


def revealed_view(public: dict[str, Any], state: State) -> dict[str, Any]:
    """The spectator's view ``public`` of ``state`` with every secret shown, at any point: every
    hand's role and the secrets R-68 shows at the end (deck, last roles, looks), for a replay."""
    out = dict(public)
    out["hands"] = [{**entry, "role": h.role} for h, entry in zip(state.hands, public["hands"], strict=True)]
    return _with_seat(out, state, None, True)


def _with_seat(out: dict[str, Any], state: State, me: int | None, everything: bool) -> dict[str, Any]:
    """``out`` with what seat ``me`` alone sees (R-65) and, once the match is over, everything (R-68)."""
    if me is not None:
        out["me"] = {
            "seat": me,
            "roles": list(state.choices[me]) if me < len(state.choices) else [],
            "timed_out": bool(state.timed_out[me]) if me < len(state.timed_out) else False,
            "allowed_roles": _allowed(state, me) if state.phase == PLANNING else [],
            "looks": [
                {"heist": lk.heist, "target_seat": lk.target, "slot": lk.slot, "role": lk.role}
                for lk in state.looks
                if lk.seat == me
            ],
        }
    if everything:
        out["final"] = {
            "deck": list(state.deck),
            "removed": list(state.removed),
            "last_roles": [list(c) for c in state.choices],
            "timed_out": list(state.timed_out),
            "looks": [
                {
                    "heist": lk.heist,
                    "seat": lk.seat,
                    "target_seat": lk.target,
                    "slot": lk.slot,
                    "role": lk.role,
                }
                for lk in state.looks
            ],
        }
    return out
