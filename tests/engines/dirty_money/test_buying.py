"""Location actions and buying (R-50 to R-68), placement effects (R-70 to R-79)."""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines.base import SYSTEM, IllegalAction
from games.engines.dirty_money import RULES
from games.engines.dirty_money.cards import CURRENCY_CARDS
from games.engines.dirty_money.payment import payment_error, payments
from games.engines.dirty_money.state import State

from .helpers import NOW, act, at_location, of_type, position, types

DISPLAYS = (("EU-16", "EU-01"), ("US-16", "US-07"), ("JP-16", "JP-20"))


def eu(hand: list[str], **fields: Any) -> State:
    return at_location(position(hands={0: hand}, displays=DISPLAYS, **fields), "LOC-EU")


def buy(cards: list[str], payment: list[str], **extra: Any) -> dict[str, Any]:
    return {"type": "buy", "cards": cards, "payment": payment, **extra}


def assert_refused(state: State, cards: list[str], payment: list[str], seat: int = 0) -> None:
    """``seat``'s buy of ``cards`` paid with ``payment`` is illegal in ``state``."""
    with pytest.raises(IllegalAction):
        act(state, seat, buy(cards, payment))


def test_R50_declining_ends_the_visit() -> None:
    state = eu(["EUR-5C-1"])
    after, events = act(state, 0, {"type": "end_location_action"})
    assert "location_ended" in types(events) and after.active == 1 and after.tableaux[0] == ()


def test_R50_location_default_buys_nothing() -> None:
    state = eu(["EUR-5C-1"])
    (deadline,) = RULES.deadlines(state)
    assert deadline.kind == "location_action" and deadline.due == NOW + 90
    after, _ = act(state, SYSTEM, deadline.action, now=NOW + 90)
    assert after.tableaux[0] == () and after.active == 1


def test_R51_R56_R65_R8_buy_one_then_a_second_separately() -> None:
    state = eu(["EUR-5C-1", "EUR-4C-1", "EUR-3C-1", "EUR-1C-1"])
    after, _events = act(state, 0, buy(["EU-16"], ["EUR-4C-1", "EUR-1C-1"]))
    assert after.tableaux[0] == ("EU-16",) and after.discard[-2:] == ("EUR-4C-1", "EUR-1C-1")  # listed order
    assert after.displays[0] == ("EU-01",)  # the slot stays empty
    after, _ = act(after, 0, buy(["EU-01"], ["EUR-5C-1"]))
    assert after.tableaux[0] == ("EU-16", "EU-01") and after.active == 1  # two bought: the visit ends


def test_R51_only_this_locations_display() -> None:
    assert_refused(eu(["USD-5C-1"]), ["US-16"], ["USD-5C-1"])


def test_R61_eligible_currency_or_crypto() -> None:
    state = eu(["USD-5C-1", "CRY-3C-1", "EUR-1C-1"])
    assert_refused(state, ["EU-01"], ["USD-5C-1"])
    after, _ = act(state, 0, buy(["EU-01"], ["CRY-3C-1", "EUR-1C-1"]))
    assert "EU-01" in after.tableaux[0]


def test_R62_enough_money() -> None:
    assert_refused(eu(["EUR-3C-1"]), ["EU-01"], ["EUR-3C-1"])


def test_R63_no_surplus_card() -> None:
    assert_refused(eu(["EUR-4C-1", "EUR-1C-1", "EUR-9D-1"]), ["EU-01"], ["EUR-4C-1", "EUR-1C-1"])  # the 1 is not needed
    assert payment_error(("EUR-9D-1", "EUR-1C-1"), "V2-RAT", "EU", 4, ["EUR-9D-1", "EUR-1C-1"], None)
    assert payment_error(("EUR-9D-1",), "V2-RAT", "EU", 4, ["EUR-9D-1"], None) is None


def test_R63_zero_due_means_an_empty_payment() -> None:
    assert payment_error(("EUR-1C-1",), "V2-RAT", "EU", 0, ["EUR-1C-1"], None)
    assert payment_error((), "V2-RAT", "EU", 0, [], None) is None
    assert payments(("EUR-1C-1",), "V2-RAT", "EU", 0, False) == [((), None)]


def test_R64_overpayment_is_lost() -> None:
    state = eu(["EUR-9D-1"], villains=("V3-FOX", "V2-RAT", "V4-BEAR"))
    after, events = act(state, 0, buy(["EU-01"], ["EUR-9D-1"]))
    assert of_type(events, "bought")[0].data["overpay"] == 5
    assert after.hands[0] == () and after.tokens[0] == ()


def test_R66_combined_payment_second_card_discounted_by_the_first_exchange() -> None:
    displays = (("EU-07", "EU-16"), (), ())
    state = at_location(position(hands={0: ["EUR-8D-1", "EUR-1C-1"]}, displays=displays), "LOC-EU")
    # EU-07 costs 4, then EU-16 costs 5 - 1 = 4: 8 in all
    after, events = act(state, 0, buy(["EU-07", "EU-16"], ["EUR-8D-1"], mode="combined"))
    assert of_type(events, "bought")[0].data["due"] == 8
    assert after.tableaux[0] == ("EU-07", "EU-16")
    with pytest.raises(IllegalAction):  # the other order: 4 + 5 = 9
        act(state, 0, buy(["EU-16", "EU-07"], ["EUR-8D-1"], mode="combined"))


def test_R66_separate_mode_with_two_cards_pays_for_the_first_only() -> None:
    state = eu(["EUR-5C-1", "EUR-4C-1"])
    after, _ = act(state, 0, buy(["EU-16", "EU-01"], ["EUR-5C-1"], mode="separate"))
    assert after.tableaux[0] == ("EU-16",) and after.step == "location"


def test_R60_R75_discount_by_the_cards_region_wherever_bought() -> None:
    displays = (("EU-16",), ("US-16",), ())
    state = replace(
        at_location(position(players=4, hands={0: ["USD-3C-1", "EUR-4C-1"]}, displays=displays), "LOC-BM"),
        tableaux=(("US-07", "US-08"), (), (), ()),
    )
    with pytest.raises(IllegalAction):  # no discount on Europe
        act(state, 0, buy(["EU-16"], ["EUR-4C-1"]))
    _after, events = act(state, 0, buy(["US-16"], ["USD-3C-1"]))  # 5 - 2
    assert of_type(events, "bought")[0].data["due"] == 3


def test_R53_black_market_one_card_from_any_display_even_with_an_empty_row() -> None:
    state = at_location(
        position(players=4, hands={0: ["YEN-5C-1", "YEN-9D-1"]}, displays=DISPLAYS, rows={"LOC-JP": []}), "LOC-BM"
    )
    bought = {tuple(a["cards"]) for a in RULES.legal_actions(state, 0) if a["type"] == "buy"}
    assert ("JP-16",) in bought and all(len(c) == 1 for c in bought)
    after, _ = act(state, 0, buy(["JP-16"], ["YEN-5C-1"]))
    assert after.tableaux[0] == ("JP-16",) and after.active == 1  # one card only: the visit ends


def test_R53_R88_black_market_never_buys_auction_or_stock() -> None:
    state = at_location(
        position(
            players=5, hands={0: ["YEN-9D-1"]}, displays=DISPLAYS, auction=("EU-02", "US-02", "JP-02"), stock=("JP-03",)
        ),
        "LOC-BM",
    )
    for card in ("JP-02", "JP-03"):
        with pytest.raises(IllegalAction):
            act(state, 0, buy([card], ["YEN-9D-1"]))


def test_R54_auction_house_one_of_three_in_its_currency() -> None:
    state = at_location(
        position(players=5, hands={0: ["USD-5C-1"]}, displays=DISPLAYS, auction=("EU-02", "US-02", "JP-02")), "LOC-AH"
    )
    after, _ = act(state, 0, buy(["US-02"], ["USD-5C-1"]))
    assert after.auction == ("EU-02", "", "JP-02") and after.tableaux[0] == ("US-02",)


def test_R52_R12_banana_republic_removes_a_point_and_takes_the_marker() -> None:
    state = at_location(
        position(blacklists=((), (), ("EUR-1C-1",)), villains=("V1-LAUNDERER", "V2-RAT", "V3-FOX")), "LOC-BR"
    )
    state = replace(state, order=(2, 0, 1), marker=2, turn=0)
    after, events = act(state, 2, {"type": "banana_republic"})
    assert after.blacklists[2] == () and after.marker == 2
    state = replace(state, order=(1, 2, 0), marker=1, turn=1)
    after, events = act(state, 2, {"type": "banana_republic"})
    assert after.marker == 2 and after.order == (1, 2, 0)  # the new holder starts the next round
    assert "location_ended" in types(events)  # no Bear: nothing more to do there


def test_R52_banana_republic_default_carries_out_the_action() -> None:
    state = at_location(position(blacklists=(("EUR-1C-1",), (), ())), "LOC-BR")
    after, _ = act(state, SYSTEM, {"type": "timeout", "seat": 0}, now=NOW + 90)
    assert after.blacklists[0] == () and after.marker == 0 and after.active == 1


def test_R67_R76_R71_casino_tokens_for_later_same_region_gains() -> None:
    displays = (("EU-09", "EU-16"), (), ())
    state = at_location(
        position(
            hands={0: ["EUR-9D-1", "EUR-5C-1"]},
            displays=displays,
            discard=("USD-1C-1",),
            villains=("V3-FOX", "V2-RAT", "V1-LAUNDERER"),
        ),
        "LOC-EU",
    )
    after, _ = act(state, 0, buy(["EU-09"], ["EUR-9D-1"]))
    assert after.tokens[0] == ()  # not for its own purchase
    after, _events = act(after, 0, buy(["EU-16"], ["EUR-5C-1"]))
    assert after.tokens[0] == (("EU-09", "EUR-5C-1"),)  # the top of the discard pile: the payment just made


def test_R74_gallery_draws_are_optional_and_secret() -> None:
    displays = (("EU-01",), (), ())
    state = replace(
        at_location(position(hands={0: ["EUR-4C-1"]}, displays=displays), "LOC-EU"),
        tableaux=(("EU-06", "US-06"), (), ()),
        deck=("YEN-5D-1", "ACT-AUD2-1", "USD-1C-1"),
    )
    after, _ = act(state, 0, buy(["EU-01"], ["EUR-4C-1"]))
    assert after.gallery_left == 2
    assert RULES.legal_actions(after, 0) == [
        {"type": "gallery_draw", "draw": True},
        {"type": "gallery_draw", "draw": False},
    ]
    after, events = act(after, 0, {"type": "gallery_draw", "draw": True})
    (drew,) = of_type(events, "gallery_drew")
    assert drew.secret == {"card": "YEN-5D-1"} and drew.visible_to == (0,) and "card" not in drew.data
    assert "YEN-5D-1" in after.hands[0]
    after, events = act(after, 0, {"type": "gallery_draw", "draw": True})
    assert of_type(events, "gallery_drew")[0].data["card"] == "ACT-AUD2-1"  # an action card is shown
    assert after.pending == ("ACT-AUD2-1",)
    after, _ = act(after, 0, {"type": "resolve_action", "card": "ACT-AUD2-1"})
    assert after.pending == () and after.discard[-1] == "ACT-AUD2-1"
    assert after.tableaux[0][-1] == "EU-01" and after.active == 1  # nothing left to buy: the visit ended


def test_R74_gallery_default_is_to_draw_and_not_for_non_art() -> None:
    state = replace(
        at_location(position(hands={0: ["EUR-5C-1", "EUR-4C-1"]}, displays=(("EU-16", "EU-01"), (), ())), "LOC-EU"),
        tableaux=(("EU-06",), (), ()),
    )
    after, _ = act(state, 0, buy(["EU-16"], ["EUR-5C-1"]))
    assert after.gallery_left == 0
    after, _ = act(after, 0, buy(["EU-01"], ["EUR-4C-1"]))
    (deadline,) = RULES.deadlines(after)
    assert deadline.kind == "gallery_draw" and deadline.due == NOW + 20
    hand = len(after.hands[0])
    after, _ = act(after, SYSTEM, deadline.action, now=NOW + 20)
    assert len(after.hands[0]) == hand + 1 or after.pending


def test_R68_illegal_purchase_changes_nothing() -> None:
    state = eu(["EUR-4C-1"])
    with pytest.raises(IllegalAction):
        RULES.decide(
            state, 0, RULES.parse_action(buy(["EU-16"], ["EUR-4C-1"])), __import__("helpers", globals(), level=1).ctx()
        )
    assert state == eu(["EUR-4C-1"])


def test_R55_nobody_else_buys() -> None:
    assert_refused(eu(["EUR-4C-1"]), ["EU-01"], ["EUR-4C-1"], seat=1)


def test_R70_two_law_firms_two_tokens() -> None:
    state = replace(
        position(hands={1: []}, tableaux=(("EU-14", "JP-14"), (), ())),
        location="LOC-EU",
        step="actions",
        pending=("ACT-INS2-1",),
    )
    after, _ = act(state, 0, {"type": "resolve_action", "card": "ACT-INS2-1", "target": 1})
    assert len(after.tokens[0]) == 2


@settings(max_examples=60, deadline=None)
@given(
    hand=st.lists(st.sampled_from(CURRENCY_CARDS), min_size=0, max_size=9, unique=True),
    due=st.integers(0, 16),
    villain=st.sampled_from(["V2-RAT", "V3-FOX", "V5-SHARK"]),
)
def test_R61_R63_R89_listed_payments_are_exactly_the_legal_ones(hand: list[str], due: int, villain: str) -> None:
    shark = villain == "V5-SHARK"
    listed = set(payments(tuple(hand), villain, "EU", due, shark))
    brute = set()
    for size in range(len(hand) + 1):
        for combo in combinations(sorted(hand), size):
            for special in [None, *combo] if shark else [None]:
                if payment_error(tuple(hand), villain, "EU", due, list(combo), special) is None:
                    brute.add((combo, special))
    assert listed == brute


def test_R2_region_currency_only() -> None:
    state = at_location(
        position(hands={0: ["YEN-5C-1", "USD-5C-1"]}, displays=(("EU-16",), ("US-16",), ("JP-16",))), "LOC-US"
    )
    assert {tuple(a["payment"]) for a in RULES.legal_actions(state, 0) if a["type"] == "buy"} == {("USD-5C-1",)}


def test_R72_R83_art_and_real_estate_have_no_effect_in_play() -> None:
    state = replace(
        at_location(position(hands={0: ["EUR-4C-1", "EUR-5C-1"]}, displays=(("EU-01", "EU-16"), (), ())), "LOC-EU"),
        tableaux=(("EU-02", "EU-17"), (), ()),
        villains=("V3-FOX", "V2-RAT", "V1-LAUNDERER"),
    )
    after, events = act(state, 0, buy(["EU-01"], ["EUR-4C-1"]))
    after, more = act(after, 0, buy(["EU-16"], ["EUR-5C-1"]))
    assert not [e for e in events + more if e.type in ("token_placed", "gallery_drew")]
    assert after.gallery_left == 0 and after.tokens[0] == ()


def test_R31_gallery_drawn_action_is_resolved_by_the_galleries_owner() -> None:
    state = replace(
        at_location(position(hands={0: ["EUR-4C-1"], 1: ["USD-9D-1"]}, displays=(("EU-01",), (), ())), "LOC-EU"),
        tableaux=(("EU-06",), (), ()),
        deck=("ACT-INS2-1",),
    )
    after, _ = act(state, 0, buy(["EU-01"], ["EUR-4C-1"]))
    after, _ = act(after, 0, {"type": "gallery_draw", "draw": True})
    assert RULES.actors(after) == frozenset({0})
    with pytest.raises(IllegalAction):
        act(after, 1, {"type": "resolve_action", "card": "ACT-INS2-1", "target": 0})
    after, events = act(after, 0, {"type": "resolve_action", "card": "ACT-INS2-1", "target": 1})
    assert of_type(events, "inspected")[0].data["seat"] == 0
