"""Action cards (R-30 to R-43), tokens and blacklist points (R-6, R-7), drawing (R-9)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.engines.base import SYSTEM, IllegalAction
from games.engines.dirty_money import RULES

from .helpers import NOW, act, of_type, pending, position, types


def test_R30_order_is_chosen_and_resolution_is_compulsory() -> None:
    state = pending(position(), "ACT-BRIBE-1", "ACT-AUD2-1")
    assert {a["card"] for a in RULES.legal_actions(state, 0)} == {"ACT-BRIBE-1", "ACT-AUD2-1"}
    with pytest.raises(IllegalAction):
        act(state, 0, {"type": "end_location_action"})
    after, _events = act(state, 0, {"type": "resolve_action", "card": "ACT-AUD2-1"})
    assert after.pending == ("ACT-BRIBE-1",) and after.discard[-1] == "ACT-AUD2-1"
    after, _ = act(after, 0, {"type": "resolve_action", "card": "ACT-BRIBE-1"})
    assert after.step == "location" and after.discard[-1] == "ACT-BRIBE-1"


def test_R30_default_is_the_first_pending_card() -> None:
    state = pending(position(), "ACT-BRIBE-1", "ACT-AUD2-1")
    (deadline,) = RULES.deadlines(state)
    assert deadline.kind == "resolve_action" and deadline.due == NOW + 45
    after, _ = act(state, SYSTEM, deadline.action, now=NOW + 45)
    assert after.pending == ("ACT-AUD2-1",)


def test_R33_R35_inspect_takes_dirty_cards_and_returns_clean_ones() -> None:
    state = pending(
        position(hands={0: [], 1: ["EUR-9D-1", "EUR-1C-1"]}, discard=("USD-1C-1", "USD-2C-1")),
        "ACT-INS2-1",
    )
    after, events = act(state, 0, {"type": "resolve_action", "card": "ACT-INS2-1", "target": 1})
    (ins,) = of_type(events, "inspected")
    assert ins.data["picks"] == ["EUR-1C-1", "EUR-9D-1"] and ins.data["taken"] == ["EUR-9D-1"]
    assert after.hands[0] == ("EUR-9D-1",)
    assert after.hands[1] == ("EUR-1C-1",)
    assert after.blacklists[1] == ("USD-2C-1",)  # the token is the discard pile's top card
    assert after.discard == ("USD-1C-1", "ACT-INS2-1")


def test_R33_inspect_picks_are_random_from_the_sorted_hand() -> None:
    hand = ["YEN-1C-1", "YEN-2C-1", "YEN-3C-1", "YEN-4C-1", "YEN-5C-1"]
    state = pending(position(hands={1: hand}), "ACT-INS2-1")
    seen = set()
    for seed in range(30):
        _, events = act(state, 0, {"type": "resolve_action", "card": "ACT-INS2-1", "target": 1}, seed=seed)
        seen.add(tuple(of_type(events, "inspected")[0].data["picks"]))
    assert len(seen) > 3 and all(len(p) == 2 and list(p) == sorted(p) for p in seen)


def test_R35_needs_another_player_and_an_empty_hand_is_allowed() -> None:
    state = pending(position(hands={1: []}), "ACT-INS2-1")
    with pytest.raises(IllegalAction):
        act(state, 0, {"type": "resolve_action", "card": "ACT-INS2-1"})
    with pytest.raises(IllegalAction):
        act(state, 0, {"type": "resolve_action", "card": "ACT-INS2-1", "target": 0})
    _after, events = act(state, 0, {"type": "resolve_action", "card": "ACT-INS2-1", "target": "1"})
    assert of_type(events, "inspected")[0].data["picks"] == []


def test_R35_default_target_most_cards_first_clockwise() -> None:
    state = pending(
        position(players=4, hands={1: ["EUR-1C-1"], 2: ["EUR-1C-2", "EUR-2C-1"], 3: ["EUR-2C-2", "EUR-3C-1"]}),
        "ACT-INS2-1",
    )
    _after, events = act(state, SYSTEM, {"type": "timeout", "seat": 0}, now=NOW + 45)
    assert of_type(events, "inspected")[0].data["target_seat"] == 2


def test_R34_left_and_right_with_three_players() -> None:
    state = pending(position(hands={1: ["EUR-1C-1", "EUR-2C-1"], 2: ["USD-1C-1", "USD-2C-1"]}), "ACT-INSLR-1")
    _after, events = act(state, 0, {"type": "resolve_action", "card": "ACT-INSLR-1"})
    ins = of_type(events, "inspected")
    assert [(e.data["target_seat"], len(e.data["picks"])) for e in ins] == [(1, 1), (2, 1)]


def test_R34_two_players_two_cards_of_the_opponent_in_one_draw() -> None:
    state = pending(position(players=2, hands={1: ["EUR-1C-1", "EUR-2C-1", "EUR-3C-1"]}), "ACT-INSLR-1")
    _after, events = act(state, 0, {"type": "resolve_action", "card": "ACT-INSLR-1"})
    (ins,) = of_type(events, "inspected")
    assert ins.data["target_seat"] == 1 and len(ins.data["picks"]) == 2


def test_R36_everyone_clockwise_from_the_left() -> None:
    hands = {0: [], 1: ["EUR-1C-1"], 2: ["EUR-2C-1"], 3: ["EUR-3C-1"]}
    state = pending(replace(position(players=4, hands=hands), order=(2, 3, 0, 1), turn=0), "ACT-INSALL-1")
    _after, events = act(state, 2, {"type": "resolve_action", "card": "ACT-INSALL-1"})
    assert [e.data["target_seat"] for e in of_type(events, "inspected")] == [3, 0, 1]


def test_R37_law_firm_tokens_whatever_the_result_only_for_the_actor() -> None:
    state = pending(
        position(hands={1: [], 2: []}, tableaux=(("EU-14", "US-14"), ("JP-14",), ()), discard=("EUR-1C-1",)),
        "ACT-INSLR-1",
    )
    after, events = act(state, 0, {"type": "resolve_action", "card": "ACT-INSLR-1"})
    assert [e.data["holder"] for e in of_type(events, "token_placed")] == ["EU-14", "US-14"]  # each copy
    assert after.token_count(0, "EU-14") == 1 and after.token_count(1, "JP-14") == 0
    assert types(events).index("token_placed") < types(events).index("action_done")  # before discarding


def test_R6_token_fallback_deck_then_virtual() -> None:
    state = pending(
        position(hands={1: []}, discard=(), deck=("USD-1C-1",), tableaux=(("EU-14", "US-14"), (), ())), "ACT-BRIBE-1"
    )
    state = replace(state, pending=("ACT-INS2-1",))
    after, events = act(state, 0, {"type": "resolve_action", "card": "ACT-INS2-1", "target": 1})
    tokens = of_type(events, "token_placed")
    assert [e.data["source"] for e in tokens] == ["deck", "virtual"]
    assert "card" not in tokens[0].data  # a card off the deck stays face-down
    assert after.tokens[0] == (("EU-14", "USD-1C-1"), ("US-14", "*"))
    assert after.deck == ()


def test_R38_R39_audit_dirtiest_hits_all_tied_and_reveals_hands() -> None:
    hands = {0: ["EUR-9D-1", "EUR-8D-1"], 1: ["EUR-7D-1", "EUR-1C-1"], 2: ["USD-7D-1", "USD-6D-1"], 3: ["YEN-7D-1"]}
    state = pending(position(players=4, hands=hands), "ACT-AUDTOP-1")
    after, events = act(state, 0, {"type": "resolve_action", "card": "ACT-AUDTOP-1"})
    (audit,) = of_type(events, "audited")
    assert audit.data["hit"] == [2]
    assert [h["seat"] for h in audit.data["hands"]] == [1, 2, 3]  # the actor's hand is not shown
    assert audit.data["hands"][1]["cards"] == ["USD-6D-1", "USD-7D-1"]
    assert [len(b) for b in after.blacklists] == [0, 0, 1, 0]
    assert after.hands == state.hands  # revealed hands go back unchanged


def test_R39_audit_dirtiest_needs_at_least_one_dirty_card() -> None:
    state = pending(position(players=2, hands={1: ["EUR-1C-1"]}), "ACT-AUDTOP-1")
    _, events = act(state, 0, {"type": "resolve_action", "card": "ACT-AUDTOP-1"})
    assert of_type(events, "audited")[0].data["hit"] == []
    state = pending(position(players=3, hands={1: ["EUR-5D-1"], 2: ["EUR-6D-1"]}), "ACT-AUDTOP-1")
    _, events = act(state, 0, {"type": "resolve_action", "card": "ACT-AUDTOP-1"})
    assert of_type(events, "audited")[0].data["hit"] == [1, 2]


@pytest.mark.parametrize(("card", "hit"), [("ACT-AUD2-1", [1, 2]), ("ACT-AUD3-1", [2])])
def test_R40_audit_thresholds_one_point_however_far_exceeded(card: str, hit: list[int]) -> None:
    hands = {1: ["EUR-5D-1", "EUR-6D-1"], 2: ["USD-5D-1", "USD-6D-1", "USD-7D-1", "USD-8D-1"]}
    state = pending(position(hands=hands), card)
    after, events = act(state, 0, {"type": "resolve_action", "card": card})
    assert of_type(events, "audited")[0].data["hit"] == hit
    assert len(after.blacklists[2]) == 1


def test_R41_accounting_firm_tokens_whatever_the_result() -> None:
    state = pending(position(hands={1: [], 2: []}, tableaux=(("JP-10",), (), ())), "ACT-AUD3-1")
    after, _events = act(state, 0, {"type": "resolve_action", "card": "ACT-AUD3-1"})
    assert after.token_count(0, "JP-10") == 1


def test_R42_trade_two_steps_and_secrets() -> None:
    hands = {0: ["EUR-1C-1", "EUR-2C-1"], 1: ["USD-9D-1", "USD-1C-1"], 2: ["YEN-1C-1"]}
    state = pending(position(hands=hands), "ACT-TRADE-1")
    after, events = act(state, 0, {"type": "resolve_action", "card": "ACT-TRADE-1", "target": 1})
    (look,) = of_type(events, "trade_started")
    assert look.secret == {"hand": ["USD-1C-1", "USD-9D-1"]}
    assert "secret" in look.for_seat(0) and "secret" not in look.for_seat(2) and "secret" not in look.for_seat(None)
    assert RULES.view(after, 0)["trade_hand"] == ["USD-1C-1", "USD-9D-1"]
    assert "trade_hand" not in RULES.view(after, 1) and "trade_hand" not in RULES.view(after, 2)
    with pytest.raises(IllegalAction):  # the card just taken cannot be given back: it is not yet in the hand
        act(after, 0, {"type": "trade_swap", "take": "USD-9D-1", "give": "USD-9D-1"})
    done, events = act(after, 0, {"type": "trade_swap", "take": "USD-9D-1", "give": "EUR-1C-1"})
    assert sorted(done.hands[0]) == ["EUR-2C-1", "USD-9D-1"]
    assert sorted(done.hands[1]) == ["EUR-1C-1", "USD-1C-1"]
    (swap,) = of_type(events, "traded")
    assert swap.visible_to == (0, 1) and "secret" not in swap.for_seat(2)
    assert done.discard[-1] == "ACT-TRADE-1"


def test_R42_trade_with_an_empty_hand_ends_after_looking() -> None:
    state = pending(position(hands={0: [], 1: ["USD-1C-1"]}), "ACT-TRADE-1")
    after, events = act(state, 0, {"type": "resolve_action", "card": "ACT-TRADE-1", "target": 1})
    assert of_type(events, "trade_started")[0].data["swap"] is False
    assert after.trade_target == -1 and after.discard[-1] == "ACT-TRADE-1"


def test_R42_trade_defaults_left_neighbour_best_for_worst() -> None:
    hands = {0: ["EUR-1C-1", "EUR-4C-1"], 1: ["USD-9D-1", "USD-1C-1"]}
    state = pending(position(hands=hands), "ACT-TRADE-1")
    after, _ = act(state, SYSTEM, {"type": "timeout", "seat": 0}, now=NOW + 45)
    assert after.trade_target == 1
    (deadline,) = RULES.deadlines(after)
    assert deadline.kind == "trade_swap" and deadline.due == NOW + 45 + 30
    done, _ = act(after, SYSTEM, deadline.action, now=NOW + 75)
    assert sorted(done.hands[0]) == ["EUR-4C-1", "USD-9D-1"]


def test_R43_R7_bribe_removes_the_top_blacklist_card_face_up() -> None:
    state = pending(position(blacklists=(("EUR-1C-1", "EUR-9D-1"), (), ())), "ACT-BRIBE-1")
    after, events = act(state, 0, {"type": "resolve_action", "card": "ACT-BRIBE-1"})
    assert after.blacklists[0] == ("EUR-1C-1",)
    assert after.discard[-2:] == ("EUR-9D-1", "ACT-BRIBE-1")
    assert of_type(events, "blacklist_removed")[0].data["card"] == "EUR-9D-1"  # public


def test_R7_bribe_with_no_points_and_virtual_tokens() -> None:
    state = pending(position(blacklists=((), (), ())), "ACT-BRIBE-1")
    after, _ = act(state, 0, {"type": "resolve_action", "card": "ACT-BRIBE-1"})
    assert after.blacklists[0] == ()
    state = pending(position(blacklists=(("*",), (), ())), "ACT-BRIBE-1")
    after, _ = act(state, 0, {"type": "resolve_action", "card": "ACT-BRIBE-1"})
    assert after.blacklists[0] == () and "*" not in after.discard


def test_R21b_checkpoint_after_each_action_card() -> None:
    hand = [f"EUR-3C-{n}" for n in range(1, 6)] + ["EUR-2C-1", "EUR-2C-2"]
    state = pending(position(hands={0: hand, 1: ["USD-9D-1", "USD-8D-1"]}), "ACT-INS2-1", "ACT-BRIBE-1")
    after, events = act(state, 0, {"type": "resolve_action", "card": "ACT-INS2-1", "target": 1})
    assert of_type(events, "checkpoint")[0].data["point"] == "b"
    assert after.trim == (0,) and RULES.legal_actions(after, 0)[0]["type"] == "blacklist_cards"


def test_R9_reshuffle_discard_when_the_deck_is_empty() -> None:
    state = replace(
        position(hands={0: []}, tableaux=(("EU-06",), (), ())),
        deck=(),
        discard=("YEN-1C-1", "YEN-2C-1", "YEN-3C-1"),
        location="LOC-EU",
        step="location",
        gallery_left=1,
    )
    after, events = act(state, 0, {"type": "gallery_draw", "draw": True}, seed=3)
    assert types(events)[:2] == ["money_deck_shuffled", "gallery_drew"]
    assert after.discard == () and len(after.deck) == 2 and len(after.hands[0]) == 1


def test_R9_nothing_to_draw_ends_the_effect() -> None:
    state = replace(position(), deck=(), discard=(), location="LOC-EU", step="location", gallery_left=2)
    after, events = act(state, 0, {"type": "gallery_draw", "draw": True})
    assert of_type(events, "gallery_drew")[0].data["kind"] == "none"
    assert after.gallery_left == 0
