"""One test (at least) per rule R-n of rules/heist.md."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

from games.engines.base import SYSTEM, Event, IllegalAction, InvalidAction, replay
from games.engines.heist import RULES
from games.engines.heist.constants import LOOT_IDS, roles_for
from games.engines.heist.rules import ranks_of
from games.engines.heist.state import (
    COMMITTED,
    ELIMINATED,
    NAMING,
    NEGOTIATION,
    OVER,
    PLANNING,
    SURVIVED,
    UNDECIDED,
    WITHDRAWN,
    State,
)

from .helpers import (
    NOW,
    T,
    act,
    commit_all,
    event,
    heist,
    negotiation_state,
    planning_state,
    started,
    types,
)

IN, TH, DR, GO, MM = "INFORMANT", "THUG", "DRIVER", "GOON", "MASTERMIND"


def triples(events: Sequence[Event]) -> list[tuple[str, Any, Any]]:
    return [(e.type, e.data.get("offer"), e.data.get("reason")) for e in events]


def reveal_events(events: Sequence[Event]) -> list[Event]:
    return [e for e in events if e.type == "revealed"]


def choose_all(state: State, picks: Sequence[Sequence[str]], now: float = NOW) -> tuple[State, list[Event]]:
    events: list[Event] = []
    for seat, roles in enumerate(picks):
        state, evs = act(state, seat, {"type": "choose", "roles": list(roles)}, now)
        events.extend(evs)
    return state, events


# --- 5.1 Terms and money -------------------------------------------------------------------


def test_r1_one_hand_per_player_two_with_three_players() -> None:
    s4, _ = choose_all(planning_state(4), [[TH], [DR], [GO], [TH]])
    assert [(h.seat, h.slot) for h in s4.hands] == [(0, 1), (1, 1), (2, 1), (3, 1)]
    s3, _ = choose_all(planning_state(3), [[TH, DR], [GO, IN], [MM, TH]])
    assert [(h.seat, h.slot) for h in s3.hands] == [(0, 1), (0, 2), (1, 1), (1, 2), (2, 1), (2, 2)]
    assert s3.hand(2, 2).role == TH  # type: ignore[union-attr]


def test_r2_balance_never_negative_informant_penalty_capped() -> None:
    state, events = heist([IN, TH, TH, DR, DR], balances=[2, 5, 5, 5, 5])
    assert state.phase == NAMING
    state, events = act(state, 0, {"type": "name", "role": TH})
    alone = event(events, "informant_alone")
    assert alone.data["paid"] == 2  # 2M held, 3M owed: capped
    assert state.balances[0] == 0


def test_r3_remainder_stays_in_bank() -> None:
    # 8M between 3 hands: 2M each, 2M stays in the bank.
    _state, events = heist([TH, DR, GO, DR], withdraw=[(3, 1)], loot="L02")
    shared = event(events, "loot_shared")
    assert (shared.data["share"], shared.data["remainder"]) == (2, 2)
    assert sum(p["amount"] for p in shared.data["payments"]) == 6


def test_r4_hand_statuses_and_results() -> None:
    state = negotiation_state([TH, DR, DR, GO])
    assert {h.status for h in state.hands} == {UNDECIDED}
    state, _ = act(state, 1, {"type": "withdraw", "slot": 1})
    state, _ = act(state, 0, {"type": "commit"})
    assert state.hand(1, 1).status == WITHDRAWN  # type: ignore[union-attr]
    assert state.hand(0, 1).status == COMMITTED  # type: ignore[union-attr]
    state, events = commit_all(state)
    report = {(h["seat"]): e.data["result"] for e in reveal_events(events) for h in e.data["hands"]}
    assert report == {0: SURVIVED, 2: SURVIVED, 3: SURVIVED}


def test_r5_fully_withdrawn_only_when_all_hands_withdrawn() -> None:
    state = negotiation_state([[TH, DR], [GO, IN], [MM, TH]])
    state, _ = act(state, 0, {"type": "withdraw", "slot": 1})
    assert not state.fully_withdrawn(0)
    state, _ = act(state, 0, {"type": "withdraw", "slot": 2})
    assert state.fully_withdrawn(0)


def test_r6_boss_passes_clockwise_and_wraps() -> None:
    state, events = heist([TH, DR, GO, DR], withdraw=[(3, 1)], boss=3)
    assert event(events, "heist_ended").data["boss_seat"] == 0
    assert state.boss == 0


# --- 5.2 Setup -----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7, 8])
def test_r7_start_balance_and_role_sets(players: int) -> None:
    state, _ = started(players)
    assert state.balances == (5,) * players
    expected = {
        3: {IN, TH, DR, GO, MM},
        4: {TH, DR, GO},
        5: {IN, TH, DR, GO},
        6: {IN, TH, DR, GO},
        7: {IN, TH, DR, GO, MM},
        8: {IN, TH, DR, GO, MM},
    }[players]
    assert set(roles_for(players)) == expected
    legal = RULES.legal_actions(state, 0)
    assert {r for a in legal for r in a["roles"]} == expected


def test_r8_engine_never_shuffles_seats() -> None:
    # The platform seats players at random; the engine keeps seat numbers as given.
    a, ev_a = started(5, seed=1)
    b, ev_b = started(5, seed=2)
    assert a.balances == b.balances and a.boss == b.boss == 0
    assert "seats" not in ev_a[0].data and "seats" not in ev_b[0].data


@pytest.mark.parametrize(("quick", "size"), [(False, 8), (True, 6)])
def test_r9_loot_deck_is_a_permutation(quick: bool, size: int) -> None:
    _, events = started(4, seed=7, quick=quick)
    start = event(events, "game_started")
    deck, removed = start.secret["deck"], start.secret["removed"]  # type: ignore[index]
    assert len(deck) == size and sorted(deck + removed) == sorted(LOOT_IDS)
    assert start.visible_to == ()
    assert event(events, "heist_started").data["loot"] == deck[0]


def test_r10_threat_supply_starts_with_eight() -> None:
    state, _ = started(4)
    assert state.supply == 8 and state.threats == (0, 0, 0, 0)


def test_r11_boss_starts_at_seat_one() -> None:
    state, events = started(6)
    assert state.boss == 0 and event(events, "heist_started").data["boss_seat"] == 0


def test_r12_heist_counter_starts_at_zero() -> None:
    assert RULES.initial(4, {"time_limit": T}).heist == 0
    state, _ = started(4)
    assert state.heist == 1


# --- 5.3 Planning --------------------------------------------------------------------------


def test_r13_loot_reveal_is_public() -> None:
    state, events = started(4, seed=3)
    reveal = event(events, "heist_started")
    assert reveal.data["loot"] == state.loot and reveal.data["deck_count"] == 7
    view = RULES.view(state, None)
    assert view["loot"]["id"] == state.loot and view["deck_count"] == 7 and view["heist"] == 1


def test_r14_secret_choice_only_says_who_chose() -> None:
    state, _ = started(4)
    state, events = act(state, 0, {"type": "choose", "roles": [DR]})
    (ev,) = events
    assert ev.type == "role_chosen" and ev.data == {"seat": 0}
    assert ev.for_seat(1).get("secret") is None and ev.for_seat(0)["secret"] == {"roles": [DR]}
    assert RULES.view(state, 1)["chosen"] == [True, False, False, False]
    assert RULES.view(state, 1)["me"]["roles"] == [] and RULES.view(state, 0)["me"]["roles"] == [DR]
    assert RULES.view(state, None)["hands"] == []
    with pytest.raises(IllegalAction):  # final
        act(state, 0, {"type": "choose", "roles": [TH]})


def test_r15_stakes_with_bank_loans() -> None:
    state = planning_state(4, loot="L06", balances=[1, 5, 0, 5])  # stake 2M
    state, events = choose_all(state, [[TH], [DR], [GO], [TH]])
    stakes = {(s["seat"], s["slot"]): (s["own"], s["loan"]) for s in event(events, "pool_laid_out").data["stakes"]}
    assert stakes == {(0, 1): (1, 1), (1, 1): (2, 0), (2, 1): (0, 2), (3, 1): (2, 0)}
    assert state.balances == (0, 3, 0, 3)
    # three players: slot 1 is paid first
    s3 = planning_state(3, loot="L06", balances=[3, 5, 5])
    s3, events = choose_all(s3, [[TH, DR], [GO, IN], [MM, TH]])
    stakes = {(s["seat"], s["slot"]): (s["own"], s["loan"]) for s in event(events, "pool_laid_out").data["stakes"]}
    assert stakes[(0, 1)] == (2, 0) and stakes[(0, 2)] == (1, 1)


def test_r16_loan_goes_back_to_bank_on_return_and_forfeit() -> None:
    state = negotiation_state([TH, DR, DR, GO], loot="L06", balances=[1, 1, 5, 5])
    assert state.balances == (0, 0, 3, 3)
    state, _ = act(state, 0, {"type": "withdraw", "slot": 1})
    assert state.balances[0] == 1  # own part 1M back, the 1M loan goes to the bank
    state, _events = commit_all(state)  # two drivers: forfeited
    assert state.balances[1] == 0 and state.balances[2] == 3


def test_r17_pool_one_card_per_hand_one_set_aside() -> None:
    state, _ = started(6, seed=11)
    state, events = choose_all(state, [[TH], [DR], [GO], [IN], [TH], [DR]])
    pool = event(events, "pool_laid_out")
    assert len(pool.data["face_up"]) == 5 and pool.visible_to == ()
    order = pool.secret["order"]  # type: ignore[index]
    assert sorted(order) == sorted([TH, DR, GO, IN, TH, DR]) and pool.secret["set_aside"] == order[0]  # type: ignore[index]
    assert sorted(pool.data["face_up"]) == sorted(order[1:])
    s3, _ = started(3, seed=1)
    s3, events = choose_all(s3, [[TH, DR], [GO, IN], [MM, TH]])
    assert len(event(events, "pool_laid_out").data["face_up"]) == 5


def test_r18_negotiation_begins_when_pool_is_laid_out() -> None:
    state, _ = started(4)
    state, _ = choose_all(state, [[TH], [DR], [GO], [TH]], now=NOW + 5)
    assert state.phase == NEGOTIATION and state.negotiation_at == NOW + 5


# --- 5.4 Negotiation -----------------------------------------------------------------------


def test_r19_only_game_actions_have_effects() -> None:
    with pytest.raises(InvalidAction):
        RULES.parse_action({"type": "say", "text": "I am the Driver"})
    assert RULES.chat_allowed(negotiation_state([TH, DR, GO, DR]), 0)


def test_r20_withdraw_returns_stake_and_is_final() -> None:
    state = negotiation_state([TH, DR, GO, DR])
    state, events = act(state, 1, {"type": "withdraw", "slot": 1})
    assert events[0].data == {"seat": 1, "slot": 1, "own": 1, "loan": 0, "reason": "player"}
    assert state.balances[1] == 5
    with pytest.raises(IllegalAction):
        act(state, 1, {"type": "withdraw", "slot": 1})
    with pytest.raises(IllegalAction):
        act(state, 1, {"type": "commit"})


def test_r21_commit_is_final() -> None:
    state = negotiation_state([TH, DR, GO, DR])
    state, _ = act(state, 1, {"type": "commit"})
    with pytest.raises(IllegalAction):
        act(state, 1, {"type": "withdraw", "slot": 1})
    # nor through an offer clause
    with pytest.raises(IllegalAction):
        act(state, 0, {"type": "offer", "to_seat": 1, "amount": 1, "direction": "pay", "clause_slot": 1})


def test_r22_fully_withdrawn_player_is_silenced() -> None:
    state = negotiation_state([TH, DR, GO, DR], threats=(1, 0, 0, 0))
    state, _ = act(state, 0, {"type": "withdraw", "slot": 1})
    assert not RULES.chat_allowed(state, 0) and RULES.chat_allowed(state, 1)
    for payload in (
        {"type": "offer", "to_seat": 1, "amount": 1, "direction": "pay"},
        {"type": "look", "target_seat": 1, "slot": 1},
    ):
        with pytest.raises(IllegalAction):
            act(state, 0, payload)
    with pytest.raises(IllegalAction):  # nor be a counterparty
        act(state, 1, {"type": "offer", "to_seat": 0, "amount": 1, "direction": "pay"})
    state, _ = commit_all(state)
    assert RULES.chat_allowed(state, 0)  # talks again once the heist is over


def test_r23_boss_powers_only_for_the_boss() -> None:
    state = negotiation_state([TH, DR, GO, DR], boss=2)
    with pytest.raises(IllegalAction):
        act(state, 0, {"type": "roll_call"})
    state, events = act(state, 2, {"type": "roll_call"})
    assert events[0].data["order"] == [3, 0, 1, 2]


def test_r24_accepted_offer_pays_then_withdraws_clause_hand() -> None:
    state = negotiation_state([TH, DR, GO, DR])
    state, events = act(state, 1, {"type": "offer", "to_seat": 3, "amount": 2, "direction": "pay", "clause_slot": 1})
    offer_id = events[0].data["offer"]
    state, events = act(state, 3, {"type": "accept", "offer": offer_id})
    assert types(events)[:2] == ["offer_accepted", "hand_withdrawn"]
    assert events[1].data["reason"] == "offer"
    assert state.balances[1] == 2 and state.balances[3] == 4 + 2 + 1
    assert state.hand(3, 1).status == WITHDRAWN  # type: ignore[union-attr]
    # "pay me" offers: created by the payee
    state = negotiation_state([TH, DR, GO, DR])
    state, events = act(state, 0, {"type": "offer", "to_seat": 2, "amount": 3, "direction": "ask"})
    assert events[0].data["payer_seat"] == 2 and events[0].data["payee_seat"] == 0
    with pytest.raises(IllegalAction):
        act(state, 0, {"type": "accept", "offer": events[0].data["offer"]})  # creator cannot accept
    state, _ = act(state, 2, {"type": "accept", "offer": events[0].data["offer"]})
    assert state.balances[0] == 7 and state.balances[2] == 1


def test_r25_acceptance_fails_when_payer_cannot_pay() -> None:
    state = negotiation_state([TH, DR, GO, DR])
    with pytest.raises(IllegalAction):  # a payer cannot offer more than they hold
        act(state, 0, {"type": "offer", "to_seat": 1, "amount": 5, "direction": "pay"})
    state, events = act(state, 0, {"type": "offer", "to_seat": 1, "amount": 4, "direction": "ask"})
    oid = events[0].data["offer"]
    state = replace(state, balances=(4, 3, 4, 4))
    state, events = act(state, 1, {"type": "accept", "offer": oid})
    assert types(events) == ["offer_failed"] and events[0].data["reason"] == "funds"
    assert state.balances == (4, 3, 4, 4) and state.offer(oid) is None  # failed: closed, out of the state
    with pytest.raises(IllegalAction):
        act(state, 0, {"type": "offer", "to_seat": 1, "amount": 0, "direction": "pay"})


def test_r26_offer_expiry_rules() -> None:
    state = negotiation_state([TH, DR, GO, DR])
    state, ev = act(state, 0, {"type": "offer", "to_seat": 1, "amount": 1, "direction": "pay", "clause_slot": 1})
    clause_id = ev[0].data["offer"]
    state, ev = act(state, 2, {"type": "offer", "to_seat": 3, "amount": 1, "direction": "pay"})
    party_id = ev[0].data["offer"]
    state, ev = act(state, 0, {"type": "offer", "to_seat": 2, "amount": 1, "direction": "pay"}, now=NOW + 10)
    life_id = ev[0].data["offer"]
    # the clause hand decides: expires
    state, events = act(state, 1, {"type": "commit"})
    assert ("offer_expired", clause_id, "clause") in triples(events)
    # a party becomes fully withdrawn: expires
    state, events = act(state, 3, {"type": "withdraw", "slot": 1})
    assert ("offer_expired", party_id, "withdrawn") in triples(events)
    # lifetime T
    with pytest.raises(IllegalAction):
        act(state, SYSTEM, {"type": "expire_offer", "offer": life_id}, now=NOW + 10 + T - 1)
    state, events = act(state, SYSTEM, {"type": "expire_offer", "offer": life_id}, now=NOW + 10 + T)
    assert state.offer(life_id) is None and state.offers == ()  # every expired offer left the state
    with pytest.raises(IllegalAction):  # once expired, too late to accept
        act(state, 2, {"type": "accept", "offer": life_id}, now=NOW + 10 + T)
    assert {"type": "accept", "offer": life_id} not in RULES.legal_actions(state, 2)


def test_r26_offer_expires_when_negotiation_ends() -> None:
    state = negotiation_state([TH, DR, GO, DR])
    state, _ev = act(state, 0, {"type": "offer", "to_seat": 1, "amount": 1, "direction": "pay"})
    state, events = act(state, SYSTEM, {"type": "negotiation_timeout"}, now=NOW + 3 * T)
    assert ("offer_expired", "ended") in [(e.type, e.data.get("reason")) for e in events]


def test_r27_stakes_cannot_pay_offers() -> None:
    state = negotiation_state([TH, DR, GO, DR], loot="L06", balances=[2, 5, 5, 5])
    assert state.balances[0] == 0
    with pytest.raises(IllegalAction):
        act(state, 0, {"type": "offer", "to_seat": 1, "amount": 1, "direction": "pay"})
    assert not [a for a in RULES.legal_actions(state, 0) if a["type"] == "offer" and a["direction"] == "pay"]


def test_r28_end_of_negotiation() -> None:
    # (a) nobody undecided
    state = negotiation_state([TH, DR, GO, DR])
    state, events = commit_all(state)
    assert event(events, "negotiation_ended").data["reason"] == "decided"
    # (b) the deadline commits undecided hands
    state = negotiation_state([TH, DR, GO, DR])
    state, _ = act(state, 1, {"type": "withdraw", "slot": 1})
    with pytest.raises(IllegalAction):
        act(state, SYSTEM, {"type": "negotiation_timeout"}, now=NOW + 3 * T - 1)
    state, events = act(state, SYSTEM, {"type": "negotiation_timeout"}, now=NOW + 3 * T)
    committed = [e.data["seat"] for e in events if e.type == "hands_committed"]
    assert committed == [0, 2, 3] and event(events, "negotiation_ended").data["reason"] == "deadline"
    with pytest.raises(IllegalAction):  # no negotiation action once it has ended
        act(state, 0, {"type": "withdraw", "slot": 1}, now=NOW + 3 * T)
    # (c) the boss's call
    state = negotiation_state([TH, DR, GO, DR])
    state, _ = act(state, SYSTEM, {"type": "powers_ready"}, now=NOW + T / 2)
    state, _ = act(state, 0, {"type": "call"}, now=NOW + T / 2)
    state, events = act(state, SYSTEM, {"type": "call_timeout"}, now=NOW + T / 2 + T / 4)
    assert event(events, "negotiation_ended").data["reason"] == "call"


# --- 5.5 The heist -------------------------------------------------------------------------


def test_r29_nobody_staying_means_no_heist() -> None:
    state, events = heist([TH, DR, GO, DR], withdraw=[(0, 1), (1, 1), (2, 1), (3, 1)])
    assert "heist_empty" in types(events) and "loot_shared" not in types(events)
    assert state.balances == (5, 5, 5, 5) and state.heist == 2


def test_r30_reveal_order() -> None:
    _state, events = heist([IN, MM, GO, DR, TH, GO, DR, IN])
    steps = [e.data["step"] for e in reveal_events(events)]
    assert steps == [IN, TH, DR, GO, MM]
    for e in reveal_events(events):
        assert all(h["role"] == e.data["step"] for h in e.data["hands"])


def test_r31a_several_informants_eliminated_and_forfeit() -> None:
    state, events = heist([IN, IN, TH, DR, GO])
    first = reveal_events(events)[0]
    assert first.data["step"] == IN and first.data["result"] == ELIMINATED
    assert {h["seat"] for h in first.data["hands"]} == {0, 1} and first.data["returned"] == []
    assert state.phase != NAMING and "role_named" not in types(events)


def test_r31b_lone_informant_names_a_role() -> None:
    state, events = heist([IN, TH, DR, GO, DR])  # DRIVER of seat 4 set aside
    assert state.phase == NAMING and state.balances[0] == 5  # stake returned
    assert RULES.actors(state) == frozenset({0})
    assert {a["role"] for a in RULES.legal_actions(state, 0)} == {TH, DR, GO}
    with pytest.raises(IllegalAction):
        act(state, 0, {"type": "name", "role": IN})  # never its own role
    with pytest.raises(IllegalAction):
        act(state, 1, {"type": "name", "role": DR})  # only the informant's owner
    state, events = act(state, 0, {"type": "name", "role": DR})
    named = event(events, "role_named")
    assert named.data["hands"] == [{"seat": 2, "slot": 1}, {"seat": 4, "slot": 1}]
    last = reveal_events(events)[-1]
    assert last.data["step"] == "NAMED" and last.data["result"] == ELIMINATED
    assert [e.data["step"] for e in reveal_events(events)] == [TH, GO, "NAMED"]


def test_r31b_naming_a_role_only_withdrawn_players_hold_has_no_effect() -> None:
    state, _ = heist([IN, TH, DR, GO, TH], withdraw=[(2, 1)])
    state, events = act(state, 0, {"type": "name", "role": DR})
    assert event(events, "role_named").data["hands"] == []
    assert "NAMED" not in [e.data["step"] for e in reveal_events(events)]


def test_r31b_only_face_up_roles_are_nameable() -> None:
    state, _ = heist([IN, TH, DR, GO, DR], set_aside=3)  # the GOON card is set aside
    with pytest.raises(IllegalAction):
        act(state, 0, {"type": "name", "role": GO})


def test_r31c_no_informant_nothing_happens() -> None:
    _state, events = heist([TH, DR, GO, IN], withdraw=[(3, 1)])
    assert reveal_events(events)[0].data["step"] == TH


def test_r32_lone_thug_gets_threat_card_two_thugs_get_none() -> None:
    state, events = heist([TH, DR, GO, DR])
    step = reveal_events(events)[0]
    assert step.data["threat_seat"] == 0 and state.threats[0] == 1 and state.supply == 7
    state, events = heist([TH, DR, GO, TH], loot="L06")
    step = reveal_events(events)[0]
    assert step.data["result"] == ELIMINATED and step.data["threat_seat"] is None
    assert len(step.data["returned"]) == 2 and state.threats == (0, 0, 0, 0)
    assert state.balances[0] >= 5 and state.balances[3] >= 5  # stakes returned
    state, events = heist([TH, DR, GO, DR], supply=0)
    assert reveal_events(events)[0].data["threat_seat"] is None and state.threats[0] == 0


def test_r33_two_drivers_eliminated_and_forfeit() -> None:
    state, events = heist([TH, DR, GO, DR])
    step = next(e for e in reveal_events(events) if e.data["step"] == DR)
    assert step.data["result"] == ELIMINATED and len(step.data["forfeited"]) == 2
    assert state.balances[1] == 4 and state.balances[3] == 4


def test_r34_two_goons_eliminated_and_forfeit() -> None:
    state, events = heist([TH, GO, DR, GO])
    step = next(e for e in reveal_events(events) if e.data["step"] == GO)
    assert step.data["result"] == ELIMINATED and state.balances[1] == state.balances[3] == 4


def test_r35_masterminds_as_drivers() -> None:
    _, events = heist([MM, MM, TH, DR, GO, DR, GO])
    step = next(e for e in reveal_events(events) if e.data["step"] == MM)
    assert step.data["result"] == ELIMINATED and len(step.data["forfeited"]) == 2
    _state, events = heist([MM, TH, TH, DR, DR, GO, GO])
    step = next(e for e in reveal_events(events) if e.data["step"] == MM)
    assert step.data["result"] == SURVIVED


def test_r36_named_hands_eliminated_thug_keeps_stake_without_threat() -> None:
    state, _ = heist([IN, TH, DR, GO, DR], loot="L06")
    state, events = act(state, 0, {"type": "name", "role": TH})
    last = reveal_events(events)[-1]
    assert last.data["step"] == "NAMED" and [h["seat"] for h in last.data["hands"]] == [1]
    assert last.data["returned"][0]["seat"] == 1 and last.data["threat_seat"] is None
    assert state.threats[1] == 0
    state, _ = heist([IN, TH, DR, GO, DR], loot="L06", set_aside=1)
    state, events = act(state, 0, {"type": "name", "role": GO})
    last = reveal_events(events)[-1]
    assert last.data["forfeited"][0]["seat"] == 3


def test_r37_lone_informant_left_alone_pays_three() -> None:
    state, _ = heist([IN, TH, TH, DR, DR])
    state, events = act(state, 0, {"type": "name", "role": TH})
    alone = event(events, "informant_alone")
    assert alone.data == {"seat": 0, "slot": 1, "paid": 3}
    assert "loot_shared" not in types(events)
    assert state.balances[0] == 2  # 5, stake returned at step 1, minus 3


# --- 5.6 Loot split ------------------------------------------------------------------------


def test_r38_no_survivor_no_split() -> None:
    state, events = heist([TH, TH, DR, DR])
    assert "loot_shared" not in types(events)
    assert state.balances == (5, 5, 4, 4)


def test_r39_mastermind_adds_two() -> None:
    state, events = heist([MM, TH, GO, DR, TH, GO, DR], loot="L02")
    shared = event(events, "loot_shared")
    assert shared.data["value"] == 10 and shared.data["payments"] == [{"seat": 0, "amount": 10}]
    assert state.balances[0] == 15


def test_r40_shares_are_floored_per_hand() -> None:
    _state, events = heist([TH, DR, GO, DR], withdraw=[(3, 1)], loot="L06")  # 10M, 3 hands
    shared = event(events, "loot_shared")
    assert shared.data["share"] == 3 and shared.data["remainder"] == 1


def test_r41_driver_collects_one_from_each_other_survivor() -> None:
    _state, events = heist([TH, DR, GO, DR], withdraw=[(3, 1)])
    fee = event(events, "driver_fee")
    payments = [{"seat": 0, "slot": 1, "amount": 1}, {"seat": 2, "slot": 1, "amount": 1}]
    assert fee.data == {"seat": 1, "payments": payments}


def test_r42_goon_theft_capped() -> None:
    state, events = heist(
        [TH, GO, DR, MM, DR, GO, TH],
        withdraw=[(4, 1), (5, 1), (6, 1)],
        loot="L02",
        balances=[0, 5, 5, 5, 5, 5, 5],
    )
    theft = event(events, "goon_theft")
    assert theft.data == {"seat": 1, "thug_seat": 0, "amount": 1}
    assert state.balances == (0, 7, 10, 6, 5, 5, 5)


def test_r43_bonus_role_paid() -> None:
    _state, events = heist([TH, DR, GO, DR], withdraw=[(3, 1)], loot="L07")  # GOON bonus
    assert event(events, "bonus_paid").data == {"seat": 2, "role": GO, "amount": 1}
    _, events = heist([TH, DR, GO, DR], withdraw=[(3, 1)], loot="L09")  # MASTERMIND: unused at 4
    assert "bonus_paid" not in types(events)


def test_r44_split_order_scenario() -> None:
    # 4 players, L07 (11M, stake 2, Goon bonus); the second Driver withdraws.
    state, events = heist([TH, DR, GO, DR], withdraw=[(3, 1)], loot="L07")
    order = [t for t in types(events) if t in ("loot_shared", "driver_fee", "goon_theft", "bonus_paid")]
    assert order == ["loot_shared", "driver_fee", "goon_theft", "bonus_paid"]
    # shares 3 each (rem 2); Driver +2; Goon takes 2 from the Thug; Goon bonus 1
    assert state.balances == (5, 10, 10, 5)
    assert state.threats == (1, 0, 0, 0)


# --- 5.7 End of heist ----------------------------------------------------------------------


def test_r45_end_of_heist_clears_the_table() -> None:
    state, events = heist([TH, DR, GO, DR])
    assert event(events, "heist_ended").data["boss_seat"] == 1
    assert state.hands == () and state.pool == () and state.set_aside == ""


def test_r46_next_heist_starts_after_the_check() -> None:
    state, events = heist([TH, DR, GO, DR])
    assert types(events)[-2:] == ["heist_ended", "heist_started"]
    assert state.phase == PLANNING and state.heist == 2 and state.loot == "L02"


# --- 5.8 Threat cards ----------------------------------------------------------------------


def test_r47_threat_cards_are_kept_between_heists() -> None:
    state, _ = heist([TH, DR, GO, DR])
    state, _ = choose_all(state, [[DR], [TH], [GO], [GO]])
    assert state.threats == (1, 0, 0, 0) and RULES.view(state, None)["threats"] == [1, 0, 0, 0]


def test_r48_look_shows_role_only_to_user() -> None:
    state = negotiation_state([TH, DR, GO, DR], threats=(1, 0, 0, 0), supply=7)
    state, events = act(state, 0, {"type": "look", "target_seat": 3, "slot": 1})
    (ev,) = events
    assert ev.data == {"seat": 0, "target_seat": 3, "slot": 1} and ev.visible_to == (0,)
    assert ev.for_seat(0)["secret"] == {"role": DR} and "secret" not in ev.for_seat(3)
    assert state.threats == (0, 0, 0, 0) and state.supply == 8
    assert RULES.view(state, 0)["me"]["looks"] == [{"heist": 1, "target_seat": 3, "slot": 1, "role": DR}]
    assert RULES.view(state, 1)["me"]["looks"] == []


def test_r49_several_looks_in_one_negotiation() -> None:
    state = negotiation_state([TH, DR, GO, DR], threats=(2, 0, 0, 0))
    state, _ = act(state, 0, {"type": "look", "target_seat": 3, "slot": 1})
    state, _ = act(state, 0, {"type": "look", "target_seat": 3, "slot": 1})
    assert state.threats[0] == 0 and len(state.looks) == 2


def test_r50_illegal_looks_spend_nothing() -> None:
    state = negotiation_state([TH, DR, GO, DR], threats=(1, 0, 0, 0))
    state, _ = act(state, 1, {"type": "withdraw", "slot": 1})
    for payload in ({"type": "look", "target_seat": 0, "slot": 1}, {"type": "look", "target_seat": 1, "slot": 1}):
        with pytest.raises(IllegalAction):
            act(state, 0, payload)
    with pytest.raises(IllegalAction):
        act(state, 2, {"type": "look", "target_seat": 3, "slot": 1})  # no card
    planning = planning_state(4, threats=(1, 0, 0, 0))
    with pytest.raises(IllegalAction):
        act(planning, 0, {"type": "look", "target_seat": 3, "slot": 1})
    assert state.threats[0] == 1


def test_r51_look_results_stay_visible() -> None:
    state = negotiation_state([TH, DR, GO, DR], threats=(1, 0, 0, 0))
    state, _ = act(state, 0, {"type": "look", "target_seat": 2, "slot": 1})
    state, _ = commit_all(state)
    assert state.heist == 2
    assert RULES.view(state, 0)["me"]["looks"][0]["role"] == GO


# --- 5.9 Three players ---------------------------------------------------------------------


def test_r52_three_players_choose_two_different_roles() -> None:
    state = planning_state(3)
    for roles in ([TH], [TH, TH], [TH, DR, GO]):
        with pytest.raises((IllegalAction, InvalidAction)):
            act(state, 0, {"type": "choose", "roles": roles})
    state, _ = act(state, 0, {"type": "choose", "roles": [GO, TH]})
    assert state.choices[0] == (GO, TH)
    assert len(RULES.legal_actions(planning_state(3), 0)) == 20


def test_r53_three_players_withdraw_one_slot_and_keep_dealing() -> None:
    state = negotiation_state([[TH, DR], [GO, IN], [MM, TH]])
    state, _ = act(state, 0, {"type": "withdraw", "slot": 2})
    assert state.hand(0, 1).status == UNDECIDED  # type: ignore[union-attr]
    state, events = act(state, 0, {"type": "offer", "to_seat": 1, "amount": 1, "direction": "pay"})
    assert events[0].type == "offer_created"
    state, events = act(state, 0, {"type": "commit"})
    assert events[0].data["slots"] == [1]


def test_r54_three_players_alone_counts_hands() -> None:
    # Seat 2's informant is lone; its own Driver also survives: not alone, the split happens.
    state, _ = heist([[TH, GO], [GO, TH], [IN, DR]], set_aside=0)
    state, events = act(state, 2, {"type": "name", "role": GO})
    assert "informant_alone" not in types(events)
    shared = event(events, "loot_shared")
    assert shared.data["payments"] == [{"seat": 2, "amount": 8}]


def test_r55_three_players_driver_fee_from_own_hand_changes_nothing() -> None:
    state, events = heist([[MM, DR], [TH, GO], [DR, IN]], withdraw=[(2, 1)], loot="L09")
    state, events = act(state, 2, {"type": "name", "role": GO})
    fee = event(events, "driver_fee")
    assert fee.data["payments"] == [{"seat": 1, "slot": 1, "amount": 1}, {"seat": 2, "slot": 2, "amount": 1}]
    # scenario, hand-computed: 14M / 4 = 3 each, Driver +2, Mastermind bonus +1
    assert state.balances == (14, 5, 7)


def test_r56_three_players_look_at_one_slot() -> None:
    state = negotiation_state([[TH, DR], [GO, IN], [MM, TH]], threats=(1, 0, 0))
    state, events = act(state, 0, {"type": "look", "target_seat": 1, "slot": 2})
    assert events[0].secret == {"role": IN} and events[0].data["slot"] == 2


def test_r57_three_players_no_repeat_forbids_both_previous_roles() -> None:
    state = planning_state(3, no_repeat=True, previous=((TH, DR), (GO, IN), (MM, TH)))
    legal = RULES.legal_actions(state, 0)
    assert {r for a in legal for r in a["roles"]} == {IN, GO, MM} and len(legal) == 6
    with pytest.raises(IllegalAction):
        act(state, 0, {"type": "choose", "roles": [GO, DR]})


# --- 6. Scoring ----------------------------------------------------------------------------


def test_r58a_target_reached_ends_the_game() -> None:
    state, events = heist([TH, DR, GO, DR], withdraw=[(3, 1)], balances=[5, 5, 17, 5])
    assert state.phase == OVER and types(events)[-1] == "game_over"
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.reason == "target" and outcome.winners == (2,)
    assert RULES.actors(state) == frozenset()


def test_r58b_empty_deck_ends_the_game_with_shared_victory() -> None:
    state, _events = heist([TH, DR, GO, DR], withdraw=[(0, 1), (1, 1), (2, 1), (3, 1)], deck=(), balances=[7, 7, 3, 5])
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.reason == "deck" and outcome.winners == (0, 1)
    assert outcome.ranks == (1, 1, 4, 3)


def test_r58_money_from_offers_counts() -> None:
    state = negotiation_state([TH, DR, GO, DR], balances=[5, 5, 16, 5])
    state, ev = act(state, 0, {"type": "offer", "to_seat": 2, "amount": 4, "direction": "pay"})
    state, _ = act(state, 2, {"type": "accept", "offer": ev[0].data["offer"]})
    state, _ = heist_all_withdraw(state)
    assert state.phase == OVER and RULES.outcome(state).winners == (2,)  # type: ignore[union-attr]


def heist_all_withdraw(state: State) -> tuple[State, list[Event]]:
    events: list[Event] = []
    for h in state.hands:
        if state.phase == NEGOTIATION and h.status == UNDECIDED:
            state, evs = act(state, h.seat, {"type": "withdraw", "slot": h.slot})
            events.extend(evs)
    return state, events


def test_r59_target_during_negotiation_does_not_end_the_game() -> None:
    state = negotiation_state([TH, DR, GO, DR], balances=[5, 5, 17, 5])
    state, ev = act(state, 0, {"type": "offer", "to_seat": 2, "amount": 4, "direction": "pay"})
    state, _ = act(state, 2, {"type": "accept", "offer": ev[0].data["offer"]})
    assert state.balances[2] >= 20 and state.phase == NEGOTIATION and RULES.outcome(state) is None


def test_r60_final_standings_share_ranks() -> None:
    assert ranks_of((5, 7, 7, 3)) == (3, 1, 1, 4)
    everyone = [(0, 1), (1, 1), (2, 1), (3, 1)]
    state, _ = heist([TH, DR, GO, DR], withdraw=everyone, deck=(), balances=[9, 2, 9, 9], threats=(3, 0, 0, 0))
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.winners == (0, 2, 3) and outcome.ranks == (1, 4, 1, 1)


# --- 7. Variants ---------------------------------------------------------------------------


def test_r61_no_repeat_publishes_and_forbids_previous_roles() -> None:
    state, _ = started(4, no_repeat=True)
    state, _ = choose_all(state, [[TH], [DR], [GO], [DR]])
    state, events = act(state, 3, {"type": "withdraw", "slot": 1})
    state, events = commit_all(state)
    start = event(events, "heist_started")
    assert start.data["previous_roles"] == [[TH], [DR], [GO], [DR]]  # withdrawn roles too
    assert RULES.view(state, None)["previous_roles"] == [[TH], [DR], [GO], [DR]]
    with pytest.raises(IllegalAction):
        act(state, 0, {"type": "choose", "roles": [TH]})
    assert {a["roles"][0] for a in RULES.legal_actions(state, 0)} == {DR, GO}
    # without the variant nothing is published
    plain, _ = started(4)
    plain, _ = choose_all(plain, [[TH], [DR], [GO], [DR]])
    plain, events = commit_all(plain)
    assert event(events, "heist_started").data["previous_roles"] is None
    act(plain, 0, {"type": "choose", "roles": [TH]})


def test_r62_quick_game() -> None:
    state, _ = started(5, quick=True)
    assert state.target == 16 and len(state.deck) == 5
    state, _ = heist([TH, DR, GO, DR], withdraw=[(3, 1)], balances=[5, 5, 13, 5])
    assert state.phase == PLANNING  # 17M is not enough without the variant
    state, _events = heist([TH, DR, GO, DR], withdraw=[(3, 1)], balances=[5, 5, 13, 5], quick=True)
    assert state.phase == OVER


def test_r63_variants_are_options_and_public() -> None:
    assert [o.name for o in RULES.options] == ["no_repeat", "quick"]
    assert all(o.kind == "bool" and o.default is False for o in RULES.options)
    state, _ = started(4, no_repeat=True, quick=True)
    assert RULES.view(state, None)["variants"] == {"no_repeat": True, "quick": True}
    assert RULES.view(state, None)["time_limit"] == T


# --- 8. Hidden information -----------------------------------------------------------------


def test_r64_public_information_in_spectator_view() -> None:
    state = negotiation_state([TH, DR, GO, DR], loot="L06", balances=[1, 5, 5, 5], threats=(1, 0, 0, 0))
    state, _ = act(state, 2, {"type": "offer", "to_seat": 3, "amount": 2, "direction": "pay", "clause_slot": 1})
    state, _ = act(state, 1, {"type": "withdraw", "slot": 1})
    state, _ = act(state, 0, {"type": "look", "target_seat": 3, "slot": 1})
    view = RULES.view(state, None)
    assert view["balances"] == list(state.balances) and view["threats"] == [0, 0, 0, 0]
    assert view["hands"][0]["loan"] == 1 and view["hands"][1]["status"] == WITHDRAWN
    assert view["pool"] == {TH: 1, DR: 1, GO: 1}
    assert view["offers"][0]["clause_slot"] == 1 and view["offers"][0]["expires"] == NOW + T
    assert view["threat_uses"] == [{"heist": 1, "seat": 0, "target_seat": 3, "slot": 1}]
    assert view["me"] is None and all("role" not in h for h in view["hands"])


def test_r65_own_roles_are_private() -> None:
    state = negotiation_state([TH, DR, GO, DR])
    mine = RULES.view(state, 2)
    assert mine["me"]["roles"] == [GO]
    assert [h.get("role") for h in mine["hands"]] == [None, None, GO, None]


def test_r66_set_aside_and_deck_never_shown() -> None:
    state, _ = started(5, seed=4)
    state, events = choose_all(state, [[TH], [DR], [GO], [IN], [DR]])
    pool = event(events, "pool_laid_out")
    for seat in [None, 0, 1, 2, 3, 4]:
        view = json.dumps(RULES.view(state, seat))
        assert "set_aside" not in view and "order" not in json.dumps(pool.for_seat(seat))
        for card in state.deck:
            assert card not in view


def test_r67_moment_by_moment_reveals() -> None:
    state = negotiation_state([TH, DR, GO, DR])
    state, _events = commit_all(state)
    # once revealed by the heist, roles are public to everyone
    report = RULES.view(state, None)["report"]
    revealed = [(h["seat"], h["role"]) for r in report if r["type"] == "revealed" for h in r["data"]["hands"]]
    assert revealed == [(0, TH), (1, DR), (3, DR), (2, GO)]


def test_r68_after_the_match_players_see_everything_spectators_do_not() -> None:
    state, _ = heist([TH, DR, GO, DR], withdraw=[(3, 1)], balances=[5, 5, 17, 5])
    assert state.phase == OVER
    assert RULES.view(state, 0)["final"]["last_roles"] == [[TH], [DR], [GO], [DR]]
    assert RULES.view(state, None)["final"] is None


# --- 9. Randomness -------------------------------------------------------------------------


def test_r69_replay_reads_outcomes_from_events() -> None:
    initial = RULES.initial(4, {"time_limit": T})
    state, log = act(initial, SYSTEM, {"type": "start"}, seed="x")
    state, more = act(state, SYSTEM, {"type": "planning_timeout"}, now=NOW + T, seed="y")
    log += more
    assert replay(RULES, initial, log) == state
    assert replay(RULES, initial, log) == replay(RULES, initial, log)


def test_r70_chance_is_drawn_from_ctx_rng_and_recorded() -> None:
    a = started(6, seed=5)[1]
    b = started(6, seed=5)[1]
    c = started(6, seed=6)[1]
    assert [e.to_json() for e in a] == [e.to_json() for e in b]
    assert a[0].secret != c[0].secret or a[1].data != c[1].data
    state, _ = started(4, seed=1)
    _s1, e1 = choose_all(state, [[TH], [DR], [GO], [DR]])
    pool = event(e1, "pool_laid_out")
    assert pool.secret["order"][0] == pool.secret["set_aside"]  # type: ignore[index]


def test_r71_events_carry_their_audience() -> None:
    state, events = started(4)
    assert event(events, "game_started").visible_to == ()
    state, events = act(state, SYSTEM, {"type": "planning_timeout"}, now=NOW + T)
    picks = [e for e in events if e.type == "choice_timed_out"]
    assert [e.visible_to for e in picks] == [(0,), (1,), (2,), (3,)]
    assert all("secret" not in e.for_seat(None) for e in events)


def test_r72_tests_can_build_states_directly() -> None:
    state = negotiation_state([TH, DR, GO, DR])
    assert RULES.state_from_json(json.loads(json.dumps(RULES.state_to_json(state)))) == state
    assert set(RULES.actors(state)) == {0, 1, 2, 3}


# --- 10. Web adaptation --------------------------------------------------------------------


def test_r73_deadlines_derive_from_t() -> None:
    state, _ = started(4)
    (d,) = RULES.deadlines(state)
    assert d.due == NOW + T and d.action == {"type": "planning_timeout"} and d.kind == "choice"
    state = negotiation_state([TH, DR, GO, DR])
    state, _ = act(state, 0, {"type": "offer", "to_seat": 1, "amount": 1, "direction": "pay"}, now=NOW + 1)
    assert {d.kind: d.due for d in RULES.deadlines(state)}["boss_powers"] == NOW + T / 2
    state, _ = act(state, SYSTEM, {"type": "powers_ready"}, now=NOW + T / 2)
    state, _ = act(state, 0, {"type": "prompt", "target_seat": 1}, now=NOW + T / 2)
    state, _ = act(state, 0, {"type": "call"}, now=NOW + T / 2)
    dues = {d.kind: d.due for d in RULES.deadlines(state)}
    assert dues == {
        "negotiation": NOW + 3 * T,
        "call": NOW + T / 2 + T / 4,
        "prompt": NOW + T / 2 + T / 4,
        "offer": NOW + 1 + T,
    }
    naming, _ = heist([IN, TH, DR, GO, DR])
    (d,) = RULES.deadlines(naming)
    assert d.kind == "naming" and d.due == NOW + T


def test_r74_chat_allowed() -> None:
    state = negotiation_state([[TH, DR], [GO, IN], [MM, TH]])
    state, _ = act(state, 0, {"type": "withdraw", "slot": 1})
    assert RULES.chat_allowed(state, 0)
    state, _ = act(state, 0, {"type": "withdraw", "slot": 2})
    assert not RULES.chat_allowed(state, 0)


def test_r75_offer_buttons_for_the_right_player() -> None:
    state = negotiation_state([TH, DR, GO, DR])
    state, ev = act(state, 0, {"type": "offer", "to_seat": 1, "amount": 2, "direction": "pay"})
    oid = ev[0].data["offer"]
    assert {"type": "cancel", "offer": oid} in RULES.legal_actions(state, 0)
    assert {"type": "accept", "offer": oid} in RULES.legal_actions(state, 1)
    assert {"type": "decline", "offer": oid} in RULES.legal_actions(state, 1)
    assert not [a for a in RULES.legal_actions(state, 2) if a.get("offer") == oid]
    with pytest.raises(IllegalAction):
        act(state, 1, {"type": "cancel", "offer": oid})
    declined, _ = act(state, 1, {"type": "decline", "offer": oid})
    cancelled, _ = act(state, 0, {"type": "cancel", "offer": oid})
    assert declined.offer(oid) is None and cancelled.offer(oid) is None  # closed offers leave the state
    # any valid amount is accepted, not only the listed ones
    state, ev = act(state, 2, {"type": "offer", "to_seat": 1, "amount": "17", "direction": "ask"})
    assert ev[0].data["amount"] == 17


def test_r76_boss_powers() -> None:
    state = negotiation_state([TH, DR, GO, DR], boss=0)
    state, _ = act(state, 0, {"type": "withdraw", "slot": 1})  # the boss keeps its powers
    state, _ = act(state, 0, {"type": "roll_call"})
    with pytest.raises(IllegalAction):
        act(state, 0, {"type": "roll_call"})
    with pytest.raises(IllegalAction):
        act(state, 0, {"type": "prompt", "target_seat": 1}, now=NOW + T / 2 - 1)
    with pytest.raises(IllegalAction):
        act(state, 0, {"type": "call"}, now=NOW + T / 2 - 1)
    state, _ = act(state, SYSTEM, {"type": "powers_ready"}, now=NOW + T / 2)
    with pytest.raises(IllegalAction):
        act(state, 1, {"type": "call"}, now=NOW + T)
    state, _ = act(state, 0, {"type": "prompt", "target_seat": 1}, now=NOW + T / 2)
    with pytest.raises(IllegalAction):
        act(state, 0, {"type": "prompt", "target_seat": 1}, now=NOW + T / 2)
    with pytest.raises(IllegalAction):
        act(state, SYSTEM, {"type": "prompt_timeout", "seat": 1}, now=NOW + T / 2 + T / 4 - 1)
    state, events = act(state, SYSTEM, {"type": "prompt_timeout", "seat": 1}, now=NOW + T / 2 + T / 4)
    assert events[0].data == {"seat": 1, "slots": [1], "reason": "prompt"}
    with pytest.raises(IllegalAction):  # the prompted player's countdown has been applied
        act(state, 1, {"type": "withdraw", "slot": 1}, now=NOW + T / 2 + T / 4)
    state, _ = act(state, 0, {"type": "call"}, now=NOW + T)
    with pytest.raises(IllegalAction):
        act(state, 0, {"type": "call"}, now=NOW + T)
    state, events = act(state, SYSTEM, {"type": "call_timeout"}, now=NOW + T + T / 4)
    assert "negotiation_ended" in types(events)


def _boss_powers(state: State) -> list[dict[str, Any]]:
    return [a for a in RULES.legal_actions(state, state.boss) if a["type"] in ("prompt", "call")]


def test_r76_boss_powers_become_available_through_an_event_not_the_clock() -> None:
    state = negotiation_state([TH, DR, GO, DR], boss=0)
    ready = {"type": "powers_ready"}
    (deadline,) = [d for d in RULES.deadlines(state) if d.kind == "boss_powers"]
    assert (deadline.seats, deadline.due, deadline.action) == ((), NOW + T / 2, ready)  # nobody is waited on
    assert _boss_powers(state) == []
    view = RULES.view(state, None)["boss"]
    assert view["powers_at"] == NOW + T / 2 and view["powers_ready"] is False
    # The clock alone unlocks nothing: until the SYSTEM action has run, prompt and call are refused.
    for payload in ({"type": "prompt", "target_seat": 1}, {"type": "call"}):
        with pytest.raises(IllegalAction):
            act(state, 0, payload, now=NOW + 2 * T)
    with pytest.raises(IllegalAction):  # the time-out itself still waits for its due time
        act(state, SYSTEM, ready, now=NOW + T / 2 - 1)
    with pytest.raises(IllegalAction):  # and is the server's
        act(state, 0, ready, now=NOW + T)
    state, events = act(state, SYSTEM, ready, now=NOW + T / 2)
    assert types(events) == ["boss_powers_ready"] and events[0].visible_to == ()
    (line,) = RULES.log_lines(events[0].for_seat(None))
    assert line.message == "The boss may now prompt players and call the heist."
    assert state.powers_ready and RULES.view(state, 2)["boss"]["powers_ready"] is True
    assert RULES.view(state, 2)["boss"]["powers_at"] == NOW + T / 2  # still there for the countdown
    assert "boss_powers" not in [d.kind for d in RULES.deadlines(state)]
    with pytest.raises(IllegalAction):  # once only
        act(state, SYSTEM, ready, now=NOW + T)
    assert _boss_powers(state) == [{"type": "prompt", "target_seat": s} for s in range(4)] + [{"type": "call"}]
    assert [a["type"] for a in RULES.legal_actions(state, 1)].count("call") == 0  # only the boss
    # decide reads the flag, not the clock: even a (skewed) earlier clock is fine now.
    prompted, _ = act(state, 0, {"type": "prompt", "target_seat": 1}, now=NOW)
    called, _ = act(state, 0, {"type": "call"}, now=NOW)
    assert prompted.prompts == ((1, NOW + T / 4),) and called.call_due == NOW + T / 4
    # The flag is per negotiation: the next heist starts without it.
    state, _ = commit_all(state)
    assert state.phase == PLANNING and not state.powers_ready
    assert replay(RULES, negotiation_state([TH, DR, GO, DR], boss=0), events) == replace(
        negotiation_state([TH, DR, GO, DR], boss=0), powers_ready=True
    )
    assert RULES.parse_action({"type": "powers_ready", "junk": 1}) == ready


def test_r77_planning_timeout_picks_allowed_roles_then_withdraws() -> None:
    state, _ = started(4, no_repeat=True)
    state, _ = act(state, 0, {"type": "choose", "roles": [TH]})
    with pytest.raises(IllegalAction):
        act(state, SYSTEM, {"type": "planning_timeout"}, now=NOW + T - 1)
    state, events = act(state, SYSTEM, {"type": "planning_timeout"}, now=NOW + T)
    with pytest.raises(IllegalAction):  # the time-out has been applied: too late to choose
        act(state, 1, {"type": "choose", "roles": [TH]}, now=NOW + T)
    picks = [e for e in events if e.type == "choice_timed_out"]
    assert [e.data["seat"] for e in picks] == [1, 2, 3]
    withdrawn = [e.data for e in events if e.type == "hand_withdrawn"]
    assert [(w["seat"], w["reason"]) for w in withdrawn] == [(1, "timeout"), (2, "timeout"), (3, "timeout")]
    stake = state.hand(0, 1).stake  # type: ignore[union-attr]
    assert state.phase == NEGOTIATION and state.balances == (5 - stake, 5, 5, 5)
    view = RULES.view(state, 1)
    assert view["me"]["timed_out"] and view["me"]["roles"] == picks[0].secret["roles"]  # type: ignore[index]


def test_r77_naming_timeout_default_order() -> None:
    state, _ = heist([IN, GO, DR, TH, TH], set_aside=3)  # face up: IN, TH, DR, GO
    state, events = act(state, SYSTEM, {"type": "naming_timeout"}, now=NOW + T)
    assert event(events, "role_named").data["role"] == TH and event(events, "role_named").data["timeout"]
    state, _ = heist([IN, GO, DR, TH, GO], set_aside=3)  # face up: IN, DR, GO, GO
    with pytest.raises(IllegalAction):
        act(state, SYSTEM, {"type": "naming_timeout"}, now=NOW + T - 1)
    state, events = act(state, SYSTEM, {"type": "naming_timeout"}, now=NOW + T)
    assert event(events, "role_named").data["role"] == DR


def test_r77_no_nameable_role_means_no_pause() -> None:
    state, events = heist([IN, IN, IN, IN, TH], set_aside=4, withdraw=[(1, 1), (2, 1), (3, 1)])
    assert event(events, "role_named").data["role"] is None and state.phase == PLANNING


def test_r78_deadlines_run_without_anybody() -> None:
    state, _ = started(4)
    state, events = act(state, SYSTEM, {"type": "planning_timeout"}, now=NOW + T)
    assert "heist_empty" in types(events) and state.heist == 2 and state.balances == (5, 5, 5, 5)


def test_r79_resign_takes_defaults_at_once() -> None:
    state, _ = started(4)
    state, events = act(state, SYSTEM, {"type": "resign", "seat": 2})
    assert types(events) == ["resigned", "choice_timed_out"]
    state, events = choose_all_except(state, [[TH], [DR], None, [GO]])
    assert ("hand_withdrawn", 2) in [(e.type, e.data.get("seat")) for e in events]
    with pytest.raises(IllegalAction):
        act(state, 2, {"type": "commit"})
    with pytest.raises(IllegalAction):
        act(state, 1, {"type": "resign", "seat": 2})
    assert 2 not in RULES.actors(state)
    state, _ = commit_all(state)
    # next heist: the resigned player is picked for and stays in the standings
    assert state.choices[2] != () and state.balances[2] == 5 and len(state.balances) == 4
    # resigning in negotiation withdraws undecided hands
    neg = negotiation_state([TH, DR, GO, DR])
    neg, events = act(neg, SYSTEM, {"type": "resign", "seat": 1})
    assert types(events)[:2] == ["resigned", "hand_withdrawn"]


def choose_all_except(state: State, picks: Sequence[list[str] | None]) -> tuple[State, list[Event]]:
    events: list[Event] = []
    for seat, roles in enumerate(picks):
        if roles is not None:
            state, evs = act(state, seat, {"type": "choose", "roles": roles})
            events.extend(evs)
    return state, events


def test_r80_first_action_wins() -> None:
    state = negotiation_state([TH, DR, GO, DR])
    state, ev = act(state, 0, {"type": "offer", "to_seat": 1, "amount": 2, "direction": "pay", "clause_slot": 1})
    oid = ev[0].data["offer"]
    before = state
    state, _ = act(state, 1, {"type": "commit"})
    with pytest.raises(IllegalAction):
        act(state, 1, {"type": "accept", "offer": oid})
    assert state.balances == before.balances


# R-80 and the engine protocol: whatever legal_actions lists is accepted, at any clock time.
# Time passing reaches the state only through SYSTEM time-out actions (which still wait for
# their due time); until one has been applied, the decision it would end is still open.


def test_r80_late_choice_accepted_until_the_planning_timeout_is_applied() -> None:
    state, _ = started(4)
    late = NOW + T + 30
    assert {"type": "choose", "roles": [TH]} in RULES.legal_actions(state, 1)
    state, events = act(state, 1, {"type": "choose", "roles": [TH]}, now=late)
    assert types(events) == ["role_chosen"]
    state, events = act(state, SYSTEM, {"type": "planning_timeout"}, now=late)
    assert [e.data["seat"] for e in events if e.type == "choice_timed_out"] == [0, 2, 3]
    assert state.hand(1, 1).status == UNDECIDED  # type: ignore[union-attr]  # not withdrawn


def test_r80_late_negotiation_actions_accepted_until_the_deadline_is_applied() -> None:
    state = negotiation_state([TH, DR, GO, DR])
    late = NOW + 3 * T + 30
    state, ev = act(state, 0, {"type": "offer", "to_seat": 1, "amount": 1, "direction": "pay"}, now=late)
    assert ev[0].data["expires"] == late + T
    state, _ = act(state, 1, {"type": "accept", "offer": ev[0].data["offer"]}, now=late)
    state, _ = act(state, 2, {"type": "withdraw", "slot": 1}, now=late)
    assert state.phase == NEGOTIATION
    state, events = act(state, SYSTEM, {"type": "negotiation_timeout"}, now=late)
    assert event(events, "negotiation_ended").data["reason"] == "deadline"
    with pytest.raises(IllegalAction):
        act(state, 3, {"type": "withdraw", "slot": 1}, now=late)


def test_r80_late_actions_accepted_until_the_call_countdown_is_applied() -> None:
    state = negotiation_state([TH, DR, GO, DR])
    state, _ = act(state, SYSTEM, {"type": "powers_ready"}, now=NOW + T / 2)
    state, _ = act(state, 0, {"type": "call"}, now=NOW + T / 2)
    late = NOW + T / 2 + T / 4 + 10
    state, events = act(state, 3, {"type": "withdraw", "slot": 1}, now=late)
    assert types(events) == ["hand_withdrawn"]
    state, events = act(state, SYSTEM, {"type": "call_timeout"}, now=late)
    assert event(events, "negotiation_ended").data["reason"] == "call"


def test_r80_withdraw_after_the_prompt_countdown_wins_if_it_comes_first() -> None:
    state = negotiation_state([TH, DR, GO, DR])
    state, _ = act(state, SYSTEM, {"type": "powers_ready"}, now=NOW + T / 2)
    state, _ = act(state, 0, {"type": "prompt", "target_seat": 1}, now=NOW + T / 2)
    late = NOW + T / 2 + T / 4 + 5
    assert {"type": "withdraw", "slot": 1} in RULES.legal_actions(state, 1)
    state, events = act(state, 1, {"type": "withdraw", "slot": 1}, now=late)
    assert types(events) == ["hand_withdrawn"] and events[0].data["reason"] == "player"
    assert "prompt" not in [d.kind for d in RULES.deadlines(state)]
    with pytest.raises(IllegalAction):  # the time-out lost the race: nothing waits for it any more
        act(state, SYSTEM, {"type": "prompt_timeout", "seat": 1}, now=late)


def test_r80_accept_after_expiry_time_wins_if_it_comes_before_expire_offer() -> None:
    state = negotiation_state([TH, DR, GO, DR])
    state, ev = act(state, 0, {"type": "offer", "to_seat": 2, "amount": 2, "direction": "pay"})
    oid = ev[0].data["offer"]
    late = NOW + T + 5
    assert {"type": "accept", "offer": oid} in RULES.legal_actions(state, 2)
    state, events = act(state, 2, {"type": "accept", "offer": oid}, now=late)
    assert types(events) == ["offer_accepted"] and state.balances[2] == 4 + 2
    with pytest.raises(IllegalAction):
        act(state, SYSTEM, {"type": "expire_offer", "offer": oid}, now=late)
    # the other way round: the expiry comes first, then the acceptance is refused
    state = negotiation_state([TH, DR, GO, DR])
    state, ev = act(state, 0, {"type": "offer", "to_seat": 2, "amount": 2, "direction": "pay"})
    state, _ = act(state, SYSTEM, {"type": "expire_offer", "offer": oid}, now=late)
    with pytest.raises(IllegalAction):
        act(state, 2, {"type": "accept", "offer": oid}, now=late)
    # decline and cancel are just as late-proof
    state = negotiation_state([TH, DR, GO, DR])
    state, _ = act(state, 0, {"type": "offer", "to_seat": 2, "amount": 2, "direction": "pay"})
    act(state, 2, {"type": "decline", "offer": oid}, now=late)
    act(state, 0, {"type": "cancel", "offer": oid}, now=late)


def test_r80_late_name_accepted_until_the_naming_timeout_is_applied() -> None:
    state, _ = heist([IN, TH, DR, GO, DR])
    assert state.phase == NAMING
    state, events = act(state, 0, {"type": "name", "role": GO}, now=NOW + 5 * T)
    named = event(events, "role_named")
    assert named.data["role"] == GO and not named.data["timeout"]
    with pytest.raises(IllegalAction):
        act(state, SYSTEM, {"type": "naming_timeout"}, now=NOW + 5 * T)


@pytest.mark.parametrize(
    ("kind", "payload"),
    [
        ("negotiation", {"type": "negotiation_timeout"}),
        ("call", {"type": "call_timeout"}),
        ("prompt", {"type": "prompt_timeout", "seat": 1}),
        ("offer", {"type": "expire_offer", "offer": 1}),
        ("boss_powers", {"type": "powers_ready"}),
    ],
)
def test_r80_timeouts_still_wait_for_their_due_time(kind: str, payload: dict[str, object]) -> None:
    state = negotiation_state([TH, DR, GO, DR])
    state, _ = act(state, 0, {"type": "offer", "to_seat": 2, "amount": 1, "direction": "pay"})
    if kind in ("call", "prompt"):
        state, _ = act(state, SYSTEM, {"type": "powers_ready"}, now=NOW + T / 2)
        state, _ = act(state, 0, {"type": "call"} if kind == "call" else {"type": "prompt", "target_seat": 1})
    (deadline,) = [d for d in RULES.deadlines(state) if d.kind == kind]
    assert deadline.action == payload
    with pytest.raises(IllegalAction):
        act(state, SYSTEM, payload, now=deadline.due - 0.001)
    act(state, SYSTEM, payload, now=deadline.due)


def test_r81_steps_one_event_each_and_only_naming_pauses() -> None:
    _state, events = heist([TH, DR, GO, DR], withdraw=[(3, 1)], loot="L02")
    resolution = types(events)[types(events).index("negotiation_ended") :]
    assert resolution == [
        "negotiation_ended",
        "revealed",
        "revealed",
        "revealed",
        "loot_shared",
        "driver_fee",
        "goon_theft",
        "heist_ended",
        "heist_started",
    ]
    lines = [line.message % line.params for e in events for line in RULES.log_lines(e.for_seat(None))]
    assert "0 revealed Thug" in lines and "3 withdrew and took back 1M" in lines


def test_legal_actions_asked_again_of_the_same_state_are_the_same_and_a_callers_change_stays_its_own() -> None:
    """legal_actions remembers the last state's answers (actors() and every board ask): each call
    gets its own copy, and another state gets its own answer."""
    state = negotiation_state([TH, DR, GO, MM])
    first = RULES.legal_actions(state, 0)
    assert first and any(a["type"] == "offer" for a in first)
    first[0]["type"] = "changed by a caller"
    first.append({"type": "added by a caller"})
    again = RULES.legal_actions(state, 0)
    assert again == RULES._legal_actions(state, 0)  # as computed afresh
    assert {"type": "added by a caller"} not in again and again[0]["type"] != "changed by a caller"
    other = replace(state, balances=(0, 0, 0, 0))
    assert RULES.legal_actions(other, 0) == RULES._legal_actions(other, 0) != again
