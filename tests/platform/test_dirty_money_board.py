"""dirty_money's board module (``games.boards.dirty_money.context``) from constructed positions: the payment
picker's choices against the engine's rules (R-61 to R-63, R-89), the Trade view's audience (R-42,
section 8.3), the prompts and the end-of-game table (section 6)."""

from __future__ import annotations

from typing import Any

from games.boards.contract import BoardInputs
from games.boards.dirty_money.chart import chart
from games.boards.dirty_money.context import board_context
from games.engines.dirty_money import RULES
from games.engines.dirty_money.payment import payment_error
from games.engines.dirty_money.state import State
from tests.engines.dirty_money.helpers import act, at_location, pending, position

NAMES = {0: "ana", 1: "ben", 2: "cho"}
DISPLAYS = (("EU-16", "EU-01"), ("US-16", "US-07"), ("JP-16", "JP-20"))


def board_for(state: State, seat: int | None) -> dict[str, Any]:
    legal = RULES.legal_actions(state, seat) if seat is not None else []
    return board_context(BoardInputs(view=RULES.view(state, seat), seat=seat, legal=legal, names=NAMES, finished=False))


def picked(option: dict[str, Any]) -> dict[str, Any]:
    """The buy action a player sends by submitting the picker's form as it is first shown."""
    return {
        **option["action"],
        "payment": [c["id"] for c in option["payable"] if c["checked"]],
        "shark_card": option["shark_card"],
    }


def test_R61_R63_the_picker_starts_on_the_cheapest_legal_payment() -> None:
    hand = ["EUR-1C-1", "EUR-3C-1", "EUR-5C-3", "CRY-3C-1", "USD-9D-1"]
    state = at_location(position(hands={0: hand}, displays=DISPLAYS), "LOC-EU")
    board = board_for(state, 0)
    legal = [a for a in RULES.legal_actions(state, 0) if a["type"] == "buy"]
    singles = board["purchase"]["singles"]
    assert [[c["id"] for c in o["cards"]] for o in singles] == [["EU-16"], ["EU-01"]]
    for option in singles:
        assert option["affordable"]
        action = picked(option)
        assert action in legal, action
    # only euros and crypto are offered to pay a Europe card; the dollar is not
    offered = {c["id"] for c in singles[0]["payable"]}
    assert offered == {"EUR-1C-1", "EUR-3C-1", "EUR-5C-3", "CRY-3C-1"}


def test_R62_an_option_nobody_can_pay_is_shown_but_has_no_form() -> None:
    state = at_location(position(hands={0: ["EUR-1C-1"]}, displays=DISPLAYS), "LOC-EU")
    board = board_for(state, 0)
    assert board["purchase"]["singles"] and not any(o["affordable"] for o in board["purchase"]["singles"])
    assert board["prompt"]["end"] == {"type": "end_location_action"}


def test_R89_the_loan_shark_may_pay_with_any_currency_counted_as_2() -> None:
    villains = ("V5-SHARK", "V2-RAT", "V3-FOX")
    state = at_location(position(villains=villains, hands={0: ["EUR-3C-1", "USD-1C-1"]}, displays=DISPLAYS), "LOC-EU")
    board = board_for(state, 0)
    assert board["purchase"]["shark"]
    option = next(o for o in board["purchase"]["singles"] if o["cards"][0]["id"] == "EU-01")  # costs 4
    dollar = next(c for c in option["payable"] if c["id"] == "USD-1C-1")
    assert not dollar["eligible"], "a dollar may pay for a Europe card only as the Shark's card"
    action = picked(option)
    assert action["shark_card"] == "USD-1C-1" and sorted(action["payment"]) == ["EUR-3C-1", "USD-1C-1"]
    assert payment_error(tuple(state.hands[0]), "V5-SHARK", "EU", 4, action["payment"], "USD-1C-1") is None


def test_R42_only_the_trades_actor_sees_the_targets_hand() -> None:
    hands = {0: ["EUR-1C-1"], 1: ["USD-1C-1", "USD-9D-1"], 2: ["YEN-2C-1"]}
    state = pending(position(hands=hands), "ACT-TRADE-1")
    state, _ = act(state, 0, {"type": "resolve_action", "card": "ACT-TRADE-1", "target": 1})
    actor = board_for(state, 0)
    assert [c["id"] for c in actor["prompt"]["take"]] == ["USD-1C-1", "USD-9D-1"]
    assert [c["id"] for c in actor["prompt"]["give"]] == ["EUR-1C-1"]
    assert actor["prompt"]["target"] == "ben"
    for seat in (1, 2, None):
        board = board_for(state, seat)
        assert board["trade_hand"] == [] and board["prompt"] is None
        assert board["next_line"] == "ana is trading."


def test_the_next_line_says_what_to_do_or_whom_we_wait_for() -> None:
    state = position(hands={0: ["EUR-1C-1"]})
    assert board_for(state, 0)["next_line"].startswith("Choose a location")
    assert board_for(state, 1)["next_line"] == "ana chooses a location."
    assert board_for(state, None)["next_line"] == "ana chooses a location."
    choices = board_for(state, 0)["locations"]
    assert all(loc["choose"] == {"type": "choose_location", "location": loc["id"]} for loc in choices if loc["row"])


def test_section_6_the_end_table_lists_every_component_and_the_chart_every_seat() -> None:
    drawn = chart({"money_history": [[10, 4, 0], [12, 8, 3], [0, 9, 6]]}, NAMES)
    assert drawn is not None
    assert [line["name"] for line in drawn["lines"]] == ["ana", "ben", "cho"]
    assert [t["label"] for t in drawn["x_ticks"]] == ["1", "2", "End"]
    assert [r["label"] for r in drawn["rows"]] == ["Start of round 1", "Start of round 2", "End of the game"]
    assert [r["cells"] for r in drawn["rows"]] == [[10, 4, 0], [12, 8, 3], [0, 9, 6]]
    first = [tuple(map(float, p.split(","))) for p in drawn["lines"][0]["points"].split()]
    plot = drawn["plot"]
    assert len(first) == 3 and first[2][1] == plot["bottom"]  # 0 on the axis
    tick_y = {int(t["label"]): t["y"] for t in drawn["y_ticks"]}
    assert tick_y[10] > first[1][1] > tick_y[15]  # 12 drawn between the ticks 10 and 15
    assert chart({"money_history": [[1, 2, 3]]}, NAMES) is None
