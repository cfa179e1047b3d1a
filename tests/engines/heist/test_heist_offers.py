"""Offers in the state (R-24 .. R-28, R-64, R-75): only open offers are kept.

An offer leaves the state the moment it closes: accepted (R-24 settles it at once), declined,
cancelled, failed (R-25) or expired (R-26, R-28). Offer ids come from a counter that is never
reset, so they never repeat. The history of every offer is in the event log (R-64), and the log
lines read it from the events alone.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from games.engines.base import SYSTEM, Event, IllegalAction, replay
from games.engines.heist import RULES
from games.engines.heist.state import NEGOTIATION, OPEN, WITHDRAWN, Offer, State

from .helpers import NOW, T, act, commit_all, negotiation_state, roundtrip, types

IN, TH, DR, GO, MM = "INFORMANT", "THUG", "DRIVER", "GOON", "MASTERMIND"

TEMPLATE_FIELDS = {"id", "payer_seat", "payee_seat", "amount", "clause_slot", "status", "expires"}
"""What templates/games/heist/board.html reads from each of ``view.offers``."""


def offer(state: State, seat: int, to: int, amount: int = 1, **kw: Any) -> tuple[State, int]:
    payload = {"type": "offer", "to_seat": to, "amount": amount, "direction": "pay", **kw}
    state, events = act(state, seat, payload)
    assert types(events) == ["offer_created"]
    return state, int(events[0].data["offer"])


def gone(state: State, oid: int) -> None:
    """The closed offer is nowhere in the state, its view, its deadlines or its legal actions."""
    assert state.offer(oid) is None
    assert oid not in [o.id for o in state.offers]
    for seat in [None, *range(state.players)]:
        assert oid not in [o["id"] for o in RULES.view(state, seat)["offers"]]
    assert not [d for d in RULES.deadlines(state) if d.action.get("offer") == oid]
    for seat in range(state.players):
        assert not [a for a in RULES.legal_actions(state, seat) if a.get("offer") == oid]
        for kind in ("accept", "decline", "cancel"):
            with pytest.raises(IllegalAction):
                act(state, seat, {"type": kind, "offer": oid})
    with pytest.raises(IllegalAction):
        act(state, SYSTEM, {"type": "expire_offer", "offer": oid}, now=NOW + 100 * T)


# --- acceptance settles at once, the offer leaves -------------------------------------


def test_r24_accepted_offer_settles_at_once_and_leaves_the_state() -> None:
    state = negotiation_state([TH, DR, GO, DR])
    state, oid = offer(state, 1, 3, amount=2, clause_slot=1)
    state, events = act(state, 3, {"type": "accept", "offer": oid})
    assert types(events)[:2] == ["offer_accepted", "hand_withdrawn"]
    assert state.balances[1] == 2 and state.balances[3] == 4 + 2 + 1  # paid, clause stake returned
    assert state.hand(3, 1).status == WITHDRAWN  # type: ignore[union-attr]
    gone(state, oid)
    assert state.offers == () and state.next_offer == oid + 1


def test_r24_money_moves_once_even_if_a_closing_event_is_replayed_twice() -> None:
    state = negotiation_state([TH, DR, GO, DR])
    state, oid = offer(state, 0, 1, amount=2)
    _, events = act(state, 1, {"type": "accept", "offer": oid})
    once = RULES.evolve(state, events[0])
    assert RULES.evolve(once, events[0]) == once  # the offer is gone: nothing is paid again


# --- every other way an offer closes ------------------------------------


def test_r75_declined_and_cancelled_offers_leave_the_state() -> None:
    state = negotiation_state([TH, DR, GO, DR])
    state, oid = offer(state, 0, 1)
    declined, events = act(state, 1, {"type": "decline", "offer": oid})
    assert types(events) == ["offer_declined"]
    gone(declined, oid)
    cancelled, events = act(state, 0, {"type": "cancel", "offer": oid})
    assert types(events) == ["offer_cancelled"]
    gone(cancelled, oid)
    assert declined.balances == cancelled.balances == state.balances


@pytest.mark.parametrize("reason", ["funds", "clause", "withdrawn"])
def test_r25_failed_offer_leaves_the_state(reason: str) -> None:
    state = negotiation_state([[TH, DR], [GO, IN], [MM, TH]])
    state, oid = offer(state, 0, 1, amount=2, clause_slot=1)
    if reason == "funds":
        state = replace(state, balances=(1, *state.balances[1:]))
    elif reason == "clause":  # the clause hand decided first (as a raw event: no R-26 expiry)
        state = RULES.evolve(state, Event("hands_committed", {"seat": 1, "slots": [1], "reason": "player"}))
    else:
        for slot in (1, 2):
            state = RULES.evolve(
                state,
                Event("hand_withdrawn", {"seat": 0, "slot": slot, "own": 1, "loan": 0, "reason": "player"}),
            )
    before = state.balances
    state, events = act(state, 1, {"type": "accept", "offer": oid})
    assert [(e.type, e.data["reason"]) for e in events] == [("offer_failed", reason)]
    assert state.balances == before
    gone(state, oid)


def test_r26_expired_offers_leave_the_state() -> None:
    state = negotiation_state([TH, DR, GO, DR, MM])
    state, clause_id = offer(state, 0, 1, clause_slot=1)
    state, party_id = offer(state, 2, 3)
    state, life_id = offer(state, 0, 2)
    state, resign_id = offer(state, 2, 4)
    state, end_id = offer(state, 2, 0)
    state, _ = act(state, 1, {"type": "commit"})  # clause hand decided
    gone(state, clause_id)
    state, _ = act(state, 3, {"type": "withdraw", "slot": 1})  # party fully withdrawn
    gone(state, party_id)
    state, events = act(state, SYSTEM, {"type": "expire_offer", "offer": life_id}, now=NOW + T)  # lifetime
    assert [(e.type, e.data["reason"]) for e in events] == [("offer_expired", "lifetime")]
    gone(state, life_id)
    state, _ = act(state, SYSTEM, {"type": "resign", "seat": 4})  # party resigned
    gone(state, resign_id)
    assert [o.id for o in state.offers] == [end_id]
    state, events = act(state, SYSTEM, {"type": "negotiation_timeout"}, now=NOW + 3 * T)
    assert ("offer_expired", end_id, "ended") in [(e.type, e.data.get("offer"), e.data.get("reason")) for e in events]
    assert state.offers == ()


def test_r26_accepting_one_offer_expires_the_others_on_the_same_clause_hand() -> None:
    state = negotiation_state([TH, DR, GO, DR])
    state, first = offer(state, 0, 1, clause_slot=1)
    state, second = offer(state, 2, 1, clause_slot=1)
    state, plain = offer(state, 2, 3)
    state, events = act(state, 1, {"type": "accept", "offer": first})
    assert ("offer_expired", second) in [(e.type, e.data.get("offer")) for e in events]
    gone(state, first)
    gone(state, second)
    assert [o.id for o in state.offers] == [plain]  # an unrelated open offer stays open


# --- Ids never repeat ------------------------------------------------------------------------


def test_r24_offer_ids_stay_unique_when_offers_close() -> None:
    state = negotiation_state([TH, DR, GO, DR])
    ids: list[int] = []
    for i in range(30):
        state, oid = offer(state, i % 2, 2 + i % 2)
        ids.append(oid)
        closing = [
            (i % 2, {"type": "cancel", "offer": oid}),
            (2 + i % 2, {"type": "decline", "offer": oid}),
        ][i % 2]
        state, _ = act(state, *closing)
        assert state.offers == ()
    assert ids == list(range(1, 31)) and state.next_offer == 31
    # the counter survives a snapshot (JSON) and a new heist: the next id is still fresh
    state = RULES.state_from_json(roundtrip(RULES.state_to_json(state)))
    state, _ = commit_all(state)
    assert state.phase != NEGOTIATION and state.next_offer == 31
    later = negotiation_state([TH, DR, GO, DR], next_offer=state.next_offer)
    _, oid = offer(later, 0, 1)
    assert oid == 31


# --- The state does not grow with the log ----------------------------------------------------


def test_r75_state_size_does_not_grow_with_closed_offers() -> None:
    state = negotiation_state([TH, DR, GO, DR])
    log: list[Event] = []
    sizes = []
    for _ in range(500):
        state, ev1 = act(state, 0, {"type": "offer", "to_seat": 1, "amount": 1, "direction": "pay"})
        state, ev2 = act(state, 0, {"type": "cancel", "offer": ev1[0].data["offer"]})
        log += ev1 + ev2
        sizes.append(len(json.dumps(RULES.state_to_json(state))))
    assert state.offers == ()
    assert sizes[-1] - sizes[0] <= 3  # only the digits of next_offer
    # the state still equals the replay of its log
    start = negotiation_state([TH, DR, GO, DR])
    assert replay(RULES, start, log) == state


# --- The board view and the log (R-64) ------------------------------------------------


def test_r75_view_lists_the_open_offers_with_the_fields_the_board_reads() -> None:
    state = negotiation_state([TH, DR, GO, DR])
    state, accepted = offer(state, 0, 1, amount=2)
    state, cancelled = offer(state, 2, 3)
    state, open_id = offer(state, 3, 1, amount=1, clause_slot=1)
    state, _ = act(state, 1, {"type": "accept", "offer": accepted})
    state, _ = act(state, 2, {"type": "cancel", "offer": cancelled})
    for seat in [None, 0, 1, 2, 3]:
        view = RULES.view(state, seat)
        (o,) = view["offers"]
        assert set(o) >= TEMPLATE_FIELDS
        assert o["id"] == open_id and o["payer_seat"] == 3 and o["payee_seat"] == 1
        assert o["amount"] == 1 and o["clause_slot"] == 1
        assert o["status"] == OPEN and o["expires"] == NOW + T
        assert json.loads(json.dumps(view)) == view
    assert {"type": "accept", "offer": open_id} in RULES.legal_actions(state, 1)
    assert {"type": "cancel", "offer": open_id} in RULES.legal_actions(state, 3)


def test_r64_offer_history_is_in_the_log_lines_not_the_state() -> None:
    state = negotiation_state([TH, DR, GO, DR])
    log: list[Event] = []
    state, ev = act(state, 0, {"type": "offer", "to_seat": 1, "amount": 2, "direction": "pay"})
    log += ev
    state, ev = act(state, 1, {"type": "accept", "offer": ev[0].data["offer"]})
    log += ev
    state, ev = act(state, 2, {"type": "offer", "to_seat": 3, "amount": 1, "direction": "ask", "clause_slot": 1})
    log += ev
    state, ev = act(state, 3, {"type": "decline", "offer": ev[0].data["offer"]})
    log += ev
    assert state.offers == ()
    lines = [ln.message % ln.params for e in log for ln in RULES.log_lines(e.for_seat(None))]
    assert lines == [
        "Offer #1: 0 pays 1 2M.",
        "Offer #1 accepted: 0 paid 1 2M.",
        "Offer #2: 3 pays 2 1M and 2 withdraws (hand 1).",
        "3 declined offer #2.",
    ]


# --- Snapshots -------------------------------------------------------------------------------


def test_r69_old_snapshots_with_closed_offers_load_without_them() -> None:
    """Snapshots written before this change kept closed offers (with status and reason)."""
    state = negotiation_state([TH, DR, GO, DR])
    state, oid = offer(state, 0, 1)
    data = roundtrip(RULES.state_to_json(state))
    assert "status" not in data["offers"][0]
    old = dict(data)
    base = {k: data["offers"][0][k] for k in data["offers"][0]}
    old["offers"] = [
        {**base, "id": 1, "status": "cancelled", "reason": ""},
        {**base, "id": 2, "status": "accepted", "reason": ""},
        {**base, "id": 3, "status": "expired", "reason": "lifetime"},
        {**base, "id": 4, "status": "open", "reason": ""},
    ]
    old["next_offer"] = 5
    loaded = RULES.state_from_json(old)
    assert loaded.offers == (replace(state.offers[0], id=4),)
    assert isinstance(loaded.offers[0], Offer) and loaded.next_offer == 5
    assert RULES.state_from_json(roundtrip(RULES.state_to_json(loaded))) == loaded
    assert oid == 1
