"""Villains (R-85 to R-89), round end (E-1 to E-5, R-90 to R-92), the end (R-95, R-96)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.engines.base import SYSTEM, IllegalAction
from games.engines.dirty_money import RULES
from games.engines.dirty_money.state import State

from .helpers import NOW, act, at_location, of_type, position, types

LAUNDERER_FIRST = ("V1-LAUNDERER", "V2-RAT", "V3-FOX")


def test_R85_launderer_skips_action_cards_draws_then_discards() -> None:
    state = at_location(
        position(villains=LAUNDERER_FIRST, hands={0: ["EUR-1C-1"]}, displays=((), (), ())),
        "LOC-EU",
        deck=("ACT-BRIBE-1", "USD-7D-1", "YEN-1C-1"),
    )
    after, _ = act(state, 0, {"type": "end_location_action"})
    assert after.step == "launder" and RULES.actors(after) == frozenset({0})
    after, events = act(after, 0, {"type": "launder", "use": True})
    assert types(events)[:2] == ["launder_skipped_action", "launder_drew"]
    (drew,) = of_type(events, "launder_drew")
    assert drew.secret == {"card": "USD-7D-1"} and drew.visible_to == (0,)
    assert RULES.view(after, 0)["launder_drawn"] == "USD-7D-1" and "launder_drawn" not in RULES.view(after, 1)
    assert after.discard[-1] == "ACT-BRIBE-1"  # discarded without resolving
    with pytest.raises(IllegalAction):
        act(after, 0, {"type": "launder_discard", "card": "YEN-1C-1"})
    done, events = act(after, 0, {"type": "launder_discard", "card": "EUR-1C-1"})
    assert done.hands[0] == ("USD-7D-1",) and done.discard[-1] == "EUR-1C-1" and done.active == 1


def test_R85_launderer_defaults_decline_then_discard_the_drawn_card() -> None:
    state = replace(position(villains=LAUNDERER_FIRST, hands={0: ["EUR-1C-1"]}), step="launder", location="LOC-EU")
    (deadline,) = RULES.deadlines(state)
    assert deadline.kind == "launder" and deadline.due == NOW + 30
    after, events = act(state, SYSTEM, deadline.action, now=NOW + 30)
    assert "launder_declined" in types(events) and after.active == 1
    state = replace(state, deck=("USD-9D-1",))
    after, _ = act(state, 0, {"type": "launder", "use": True})
    (deadline,) = RULES.deadlines(after)
    assert deadline.kind == "launder_discard" and deadline.due == NOW + 20
    done, _ = act(after, SYSTEM, deadline.action, now=NOW + 20)
    assert done.hands[0] == ("EUR-1C-1",)


def test_R85_at_most_one_reshuffle_per_use() -> None:
    state = replace(
        position(villains=LAUNDERER_FIRST, hands={0: ["EUR-1C-1"]}),
        step="launder",
        location="LOC-EU",
        deck=("ACT-BRIBE-1",),
        discard=("ACT-AUD2-1",),
    )
    after, events = act(state, 0, {"type": "launder", "use": True})
    assert types(events).count("money_deck_shuffled") == 1
    assert "launder_nothing" in types(events) and after.active == 1


def test_R86_rat_one_token_per_payment_overpaying_by_two() -> None:
    displays = (("EU-01", "EU-02"), (), ())
    state = at_location(position(hands={0: ["EUR-6D-1", "EUR-5C-1", "EUR-9D-1"]}, displays=displays), "LOC-EU")
    after, _ = act(state, 0, {"type": "buy", "cards": ["EU-01"], "payment": ["EUR-5C-1"]})
    assert after.token_count(0, "RAT") == 0  # overpay 1
    after, _events = act(after, 0, {"type": "buy", "cards": ["EU-02"], "payment": ["EUR-9D-1"]})
    assert after.token_count(0, "RAT") == 1  # overpay 4: still one token
    assert RULES.view(after, 1)["seats"][0]["overpay"] == 1


def test_R87_fox_crypto_is_worth_five() -> None:
    displays = (("EU-02",), (), ())
    fox = at_location(
        position(villains=("V3-FOX", "V2-RAT", "V1-LAUNDERER"), hands={0: ["CRY-3D-1"]}, displays=displays), "LOC-EU"
    )
    after, _ = act(fox, 0, {"type": "buy", "cards": ["EU-02"], "payment": ["CRY-3D-1"]})
    assert after.tableaux[0] == ("EU-02",)
    rat = replace(fox, villains=("V2-RAT", "V3-FOX", "V1-LAUNDERER"))
    with pytest.raises(IllegalAction):
        act(rat, 0, {"type": "buy", "cards": ["EU-02"], "payment": ["CRY-3D-1"]})


def test_R88_bear_buys_one_stock_card_only_after_the_banana_action() -> None:
    bear = ("V4-BEAR", "V2-RAT", "V3-FOX")
    state = at_location(
        position(villains=bear, hands={0: ["YEN-9D-1", "YEN-5C-1"]}, stock=("JP-16", "EU-16", "US-16")), "LOC-BR"
    )
    with pytest.raises(IllegalAction):
        act(state, 0, {"type": "buy", "cards": ["JP-16"], "payment": ["YEN-5C-1"]})
    after, _ = act(state, 0, {"type": "banana_republic"})
    assert after.step == "location" and after.active == 0
    after, _ = act(after, 0, {"type": "buy", "cards": ["JP-16"], "payment": ["YEN-5C-1"]})
    assert after.stock == ("EU-16", "US-16") and after.tableaux[0] == ("JP-16",) and after.active == 1
    other = replace(state, villains=("V2-RAT", "V4-BEAR", "V3-FOX"))
    after, _events = act(other, 0, {"type": "banana_republic"})
    assert after.active == 1  # not the Bear: nothing to buy there


def test_R89_shark_counts_one_card_as_two_once_per_turn() -> None:
    shark = ("V5-SHARK", "V2-RAT", "V3-FOX")
    displays = (("EU-01", "EU-02"), (), ())
    state = at_location(
        position(
            villains=shark, hands={0: ["USD-9D-1", "EUR-2C-1", "EUR-3C-1", "EUR-2C-2", "YEN-1C-1"]}, displays=displays
        ),
        "LOC-EU",
    )
    after, _events = act(
        state, 0, {"type": "buy", "cards": ["EU-01"], "payment": ["USD-9D-1", "EUR-2C-1"], "shark_card": "USD-9D-1"}
    )
    assert after.tableaux[0] == ("EU-01",) and after.shark_used
    with pytest.raises(IllegalAction):
        act(
            after, 0, {"type": "buy", "cards": ["EU-02"], "payment": ["YEN-1C-1", "EUR-3C-1"], "shark_card": "YEN-1C-1"}
        )
    rat = replace(state, villains=("V2-RAT", "V5-SHARK", "V3-FOX"))
    with pytest.raises(IllegalAction):
        act(rat, 0, {"type": "buy", "cards": ["EU-01"], "payment": ["USD-9D-1", "EUR-2C-1"], "shark_card": "USD-9D-1"})


def test_R89_shark_card_counts_two_in_the_surplus_check() -> None:
    shark = ("V5-SHARK", "V2-RAT", "V3-FOX")
    state = at_location(
        position(villains=shark, hands={0: ["EUR-9D-1", "EUR-3C-1"]}, displays=(("EU-01",), (), ())), "LOC-EU"
    )
    # 9 counted as 2, plus 3 = 5 >= 4, and dropping either card leaves too little: legal
    after, _ = act(
        state, 0, {"type": "buy", "cards": ["EU-01"], "payment": ["EUR-9D-1", "EUR-3C-1"], "shark_card": "EUR-9D-1"}
    )
    assert after.tableaux[0] == ("EU-01",)


def round_end_state() -> State:
    state = position(
        rows={
            "LOC-EU": ["EUR-1C-1"],
            "LOC-US": [],
            "LOC-JP": ["YEN-1C-1", "YEN-2C-1", "YEN-3C-1", "YEN-4C-1"],
            "LOC-BR": ["USD-1C-1", "USD-2C-1"],
        }
    )
    return replace(
        state,
        turn=2,
        step="end",
        location="LOC-EU",
        deck=tuple(f"CRY-3D-{n}" for n in range(1, 9)),
        displays=(("EU-01",), (), ("JP-01", "JP-02")),
    )


def test_E1_E2_E3_R91_row_refills() -> None:
    state = round_end_state()
    state = replace(state, step="location", displays=((), (), ()))
    after, _events = act(state, 2, {"type": "end_location_action"})
    assert after.row("LOC-EU") == ("EUR-1C-1", "CRY-3D-1")  # E-2: one card
    assert after.row("LOC-JP") == ("YEN-1C-1", "YEN-2C-1", "YEN-3C-1", "YEN-4C-1")  # capped at 4
    assert after.row("LOC-BR") == ("USD-1C-1", "USD-2C-1", "CRY-3D-2")
    assert after.row("LOC-US") == ("CRY-3D-3", "CRY-3D-4")  # E-3 after E-2
    assert after.round == 2 and after.active == after.marker


def test_E4_E5_R92_displays_refilled() -> None:
    villains = ("V1-LAUNDERER", "V2-RAT", "V3-FOX", "V4-BEAR", "V5-SHARK")
    state = replace(
        position(players=5, villains=villains),
        turn=4,
        step="location",
        location="LOC-EU",
        displays=(("EU-01",), (), ()),
        auction=("", "US-02", ""),
    )
    tops = [state.pdecks[r][:3] for r in range(3)]
    after, _ = act(state, 4, {"type": "end_location_action"})
    assert after.displays[0] == ("EU-01", tops[0][0])
    assert after.displays[1] == tops[1][:2]
    assert after.auction == (tops[0][1], "US-02", tops[2][2])


def test_R92_empty_placement_deck_leaves_slots_empty() -> None:
    state = replace(
        position(), turn=2, step="location", location="LOC-EU", displays=((), (), ()), pdecks=(("EU-05",), (), ())
    )
    after, _ = act(state, 2, {"type": "end_location_action"})
    assert after.displays == (("EU-05",), (), ())


def test_R95_trigger_at_ten_placements_and_R96_final_round_played_out() -> None:
    ten = tuple(f"JP-{n:02d}" for n in range(1, 10))
    state = at_location(
        position(hands={0: ["EUR-5C-1"]}, displays=(("EU-16",), (), ()), tableaux=(ten, (), ())), "LOC-EU"
    )
    after, events = act(state, 0, {"type": "buy", "cards": ["EU-16"], "payment": ["EUR-5C-1"]})
    assert "final_round" in types(events) and after.final and after.phase == "play"
    assert after.active == 1  # the others still play their turns
    after = replace(after, turn=2, step="location", location="LOC-US")
    done, events = act(after, 2, {"type": "end_location_action"})
    assert done.phase == "over" and "round_ended" not in types(events)  # no refill after the final round
    assert RULES.outcome(done) is not None and RULES.actors(done) == frozenset()


def test_R130_quick_mode_triggers_at_eight() -> None:
    seven = tuple(f"JP-{n:02d}" for n in range(1, 8))
    state = at_location(
        position(hands={0: ["EUR-5C-1"]}, displays=(("EU-16",), (), ()), tableaux=(seven, (), ()), quick=True), "LOC-EU"
    )
    after, _ = act(state, 0, {"type": "buy", "cards": ["EU-16"], "payment": ["EUR-5C-1"]})
    assert after.final
    normal = replace(state, quick=False)
    after, _events = act(normal, 0, {"type": "buy", "cards": ["EU-16"], "payment": ["EUR-5C-1"]})
    assert not after.final


def test_R96_trigger_on_the_last_turn_ends_the_game() -> None:
    ten = tuple(f"JP-{n:02d}" for n in range(1, 10))
    state = at_location(
        position(hands={2: ["EUR-5C-1"]}, displays=(("EU-16",), (), ()), tableaux=((), (), ten)), "LOC-EU", turn=2
    )
    after, _ = act(state, 2, {"type": "buy", "cards": ["EU-16"], "payment": ["EUR-5C-1"]})
    after, _ = act(after, 2, {"type": "end_location_action"}) if after.phase != "over" else (after, [])
    assert after.phase == "over"


def test_stalled_game_ends_after_a_round_without_purchases_or_money() -> None:
    """Not in the spec: a game that can no longer move is scored (see rules.stalled)."""
    rows: dict[str, list[str]] = {"LOC-EU": [], "LOC-US": [], "LOC-JP": [], "LOC-BR": []}
    state = replace(position(rows=rows), turn=2, step="location", location="LOC-EU", deck=(), discard=())
    done, events = act(state, 2, {"type": "end_location_action"})
    assert "game_stalled" in types(events) and done.phase == "over"
    moving = replace(state, round_gains=1)
    after, _ = act(moving, 2, {"type": "end_location_action"})
    assert after.phase == "play" and after.round == 2


def test_T1_to_T6_a_whole_turn_in_order() -> None:
    state = position(
        villains=LAUNDERER_FIRST,
        hands={0: ["EUR-4C-1"]},
        rows={"LOC-EU": ["ACT-BRIBE-1", "EUR-1C-1"]},
        displays=(("EU-01",), (), ()),
        deck=("USD-2C-1",),
    )
    state, events = act(state, 0, {"type": "choose_location", "location": "LOC-EU"})  # T-1, T-2
    assert types(events)[:1] == ["location_chosen"] and state.step == "actions"
    state, _ = act(state, 0, {"type": "resolve_action", "card": "ACT-BRIBE-1"})  # T-3
    assert state.step == "location"
    state, _ = act(state, 0, {"type": "buy", "cards": ["EU-01"], "payment": ["EUR-4C-1"]})  # T-4
    assert state.step == "launder"  # nothing more to buy: T-5
    state, events = act(state, 0, {"type": "launder", "use": False})
    assert types(events)[-1] == "turn_ended" and state.active == 1  # T-6


def test_R1_left_neighbour_is_the_next_seat() -> None:
    from games.engines.dirty_money.rules import left_of, right_of

    state = position(players=4)
    assert [left_of(state, s) for s in range(4)] == [1, 2, 3, 0]
    assert [right_of(state, s) for s in range(4)] == [3, 0, 1, 2]


def test_R3_R4_value_and_dirty_marks() -> None:
    from games.engines.dirty_money.cards import is_dirty, value_to

    assert value_to("EUR-7D-1", "V2-RAT") == 7 and value_to("CRY-3C-1", "V2-RAT") == 3
    assert value_to("CRY-3D-2", "V3-FOX") == 5
    assert is_dirty("CRY-3D-2") and not is_dirty("CRY-3C-2") and not is_dirty("ACT-AUD2-1")


def test_R23_launderer_holds_one_card_too_many_for_a_moment() -> None:
    hand = [f"EUR-3C-{n}" for n in range(1, 6)] + ["EUR-2C-1", "EUR-2C-2"]
    state = replace(
        position(villains=LAUNDERER_FIRST, hands={0: hand}), step="launder", location="LOC-EU", deck=("USD-1C-1",)
    )
    after, events = act(state, 0, {"type": "launder", "use": True})
    assert len(after.hands[0]) == 8 and "checkpoint" not in types(events)
    after, events = act(after, 0, {"type": "launder_discard", "card": "USD-1C-1"})
    assert "checkpoint" not in types(events) and len(after.hands[0]) == 7


def test_R90_R10_next_round_starts_with_the_marker_holder() -> None:
    state = replace(position(), turn=2, step="location", location="LOC-EU", marker=1)
    after, events = act(state, 2, {"type": "end_location_action"})
    assert "round_ended" in types(events) and after.order == (1, 2, 0) and after.round == 2
