"""The turn: choosing, collecting, the hand limit (R-13 to R-24), prompts (10.2)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.engines.base import SYSTEM, IllegalAction
from games.engines.dirty_money import RULES

from .helpers import NOW, act, at_location, of_type, position, types

EMPTY_ROWS: dict[str, list[str]] = {"LOC-EU": [], "LOC-US": [], "LOC-JP": [], "LOC-BR": []}


def test_R13_empty_row_cannot_be_chosen_but_an_action_only_row_can() -> None:
    state = position(rows={**EMPTY_ROWS, "LOC-US": ["ACT-BRIBE-1"], "LOC-JP": ["EUR-1C-1"]})
    legal = [a["location"] for a in RULES.legal_actions(state, 0)]
    assert legal == ["LOC-US", "LOC-JP"]
    with pytest.raises(IllegalAction):
        act(state, 0, {"type": "choose_location", "location": "LOC-EU"})
    with pytest.raises(IllegalAction):
        act(state, 0, {"type": "choose_location", "location": "LOC-BM"})  # not in play with 3 players
    after, _ = act(state, 0, {"type": "choose_location", "location": "LOC-US"})
    assert after.pending == ("ACT-BRIBE-1",)


def test_R14_nothing_anywhere_any_location_collects_nothing() -> None:
    state = position(rows=EMPTY_ROWS, deck=(), discard=())
    legal = [a["location"] for a in RULES.legal_actions(state, 0)]
    assert legal == ["LOC-EU", "LOC-US", "LOC-JP", "LOC-BR"]
    after, events = act(state, 0, {"type": "choose_location", "location": "LOC-JP"})
    assert of_type(events, "location_chosen")[0].data["cards"] == []
    assert after.hands[0] == state.hands[0]
    assert after.location == "LOC-JP"


def test_R15_collect_everything_money_to_hand_actions_pending_in_row_order() -> None:
    row = ["ACT-TRADE-1", "EUR-2C-1", "ACT-BRIBE-2", "USD-6D-1"]
    state = position(hands={0: []}, rows={"LOC-EU": row})
    after, _ = act(state, 0, {"type": "choose_location", "location": "LOC-EU"})
    assert after.row("LOC-EU") == ()
    assert after.hands[0] == ("EUR-2C-1", "USD-6D-1")
    assert after.pending == ("ACT-TRADE-1", "ACT-BRIBE-2")


def test_R16_a_visited_location_stays_empty_for_the_round() -> None:
    state = position(hands={0: []}, rows={"LOC-EU": ["EUR-2C-1"]})
    after, _ = act(state, 0, {"type": "choose_location", "location": "LOC-EU"})
    after, _ = act(after, 0, {"type": "end_location_action"})
    assert after.active == 1
    assert "LOC-EU" not in [a["location"] for a in RULES.legal_actions(after, 1)]


def test_R20_R79_hand_limit_is_seven_plus_digital_banks() -> None:
    state = position(tableaux=(("EU-15", "US-15"), (), ()))
    assert state.limit(0) == 9 and state.limit(1) == 7


def test_R21a_R22_R24_overflow_after_collecting_before_spending() -> None:
    hand = ["EUR-1C-1", "EUR-1C-2", "EUR-2C-1", "EUR-2C-2", "EUR-3C-1", "EUR-3C-2"]
    row = ["EUR-9D-1", "EUR-8D-1", "EUR-7D-1"]
    state = position(hands={0: hand}, rows={"LOC-EU": row})
    after, events = act(state, 0, {"type": "choose_location", "location": "LOC-EU"})
    assert of_type(events, "checkpoint")[0].data == {"point": "a", "seats": [0], "excess": [2], "at": NOW}
    assert after.trim == (0,)
    assert RULES.legal_actions(after, 0)[0]["type"] == "blacklist_cards"
    with pytest.raises(IllegalAction):  # no spending before the excess is blacklisted
        act(after, 0, {"type": "end_location_action"})
    with pytest.raises(IllegalAction):  # exactly the excess count
        act(after, 0, {"type": "blacklist_cards", "cards": ["EUR-9D-1"]})
    with pytest.raises(IllegalAction):  # from one's own hand
        act(after, 0, {"type": "blacklist_cards", "cards": ["EUR-9D-1", "USD-9D-1"]})
    done, events = act(after, 0, {"type": "blacklist_cards", "cards": ["EUR-9D-1", "EUR-1C-1"]})
    assert done.blacklists[0] == ("EUR-9D-1", "EUR-1C-1")  # the last chosen on top
    assert len(done.hands[0]) == 7 and done.trim == ()
    (event,) = of_type(events, "cards_blacklisted")
    assert event.secret == {"cards": ["EUR-9D-1", "EUR-1C-1"]} and event.visible_to == (0,)
    assert "secret" not in event.for_seat(1)  # overflow cards are face-down for everyone else


def test_R22_overflow_default_is_the_lowest_value_cards_by_id() -> None:
    hand = ["CRY-3D-1", "EUR-1C-2", "EUR-1C-1", "EUR-2C-1", "EUR-3C-1", "EUR-3C-2", "EUR-4C-1", "EUR-9D-1"]
    state = replace(position(hands={0: hand}), trim=(0,), step="location", location="LOC-EU")
    (deadline,) = RULES.deadlines(state)
    assert deadline.kind == "blacklist_cards" and deadline.due == NOW + 45
    after, _ = act(state, SYSTEM, deadline.action, now=NOW + 45)
    assert after.blacklists[0] == ("EUR-1C-1",)


def test_10_2_prompt_to_a_non_active_player_the_active_player_waits() -> None:
    """No rule makes a non-active hand grow, but the engine supports the prompt generically."""
    big = [f"YEN-3C-{n}" for n in range(1, 6)] + ["YEN-2C-1", "YEN-2C-2", "YEN-2C-3"]
    state = position(hands={1: big, 0: []}, rows={"LOC-EU": ["EUR-2C-1"]})
    after, _events = act(state, 0, {"type": "choose_location", "location": "LOC-EU"})
    assert after.trim == (1,)
    assert RULES.actors(after) == frozenset({1})
    assert RULES.legal_actions(after, 0) == []
    with pytest.raises(IllegalAction):
        act(after, 0, {"type": "end_location_action"})
    (deadline,) = RULES.deadlines(after)
    assert deadline.seats == (1,)
    after, _ = act(after, 1, {"type": "blacklist_cards", "cards": ["YEN-2C-1"]})
    assert RULES.actors(after) == frozenset({0})


def test_R21e_checkpoint_at_the_end_of_the_turn() -> None:
    big = [f"YEN-3C-{n}" for n in range(1, 6)] + ["YEN-2C-1", "YEN-2C-2", "YEN-2C-3"]
    state = at_location(position(hands={0: big}), "LOC-EU", displays=((), (), ()))
    after, events = act(state, 0, {"type": "end_location_action"})
    assert of_type(events, "checkpoint")[0].data["point"] == "e"
    assert after.trim == (0,) and after.active == 0
    after, events = act(after, 0, {"type": "blacklist_cards", "cards": ["YEN-2C-1"]})
    assert "turn_ended" in types(events) and after.active == 1


def test_R10_turn_order_and_deadline_default_location() -> None:
    state = position(rows={"LOC-EU": [], "LOC-US": ["USD-1C-1"]})
    (deadline,) = RULES.deadlines(state)
    assert deadline.kind == "choose_location" and deadline.due == NOW + 90
    _after, events = act(state, SYSTEM, deadline.action, now=NOW + 90)
    assert of_type(events, "location_chosen")[0].data["location"] == "LOC-US"  # first choosable


def test_10_3_correspondence_scale() -> None:
    state = replace(position(), pace="correspondence")
    assert RULES.deadlines(state)[0].due == NOW + 24 * 3600
    assert RULES.deadlines(replace(state, trim=(1,)))[0].due == NOW + 12 * 3600


def test_10_3_resigned_player_is_due_at_once() -> None:
    state = position()
    after, _ = act(state, SYSTEM, {"type": "resign", "seat": 0})
    assert RULES.deadlines(after)[0].due == 0
    assert SYSTEM in RULES.actors(after)
    assert RULES.legal_actions(after, SYSTEM) == [{"type": "timeout", "seat": 0}]


def test_resigning_everyone_ends_the_game() -> None:
    state = position()
    for seat in range(3):
        assert state.phase == "play"
        state, _ = act(state, SYSTEM, {"type": "resign", "seat": seat})
    assert state.phase == "over" and RULES.outcome(state) is not None and RULES.actors(state) == frozenset()
