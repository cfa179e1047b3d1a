"""Parsing untrusted input, views (section 8), log lines, options and terms."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.engines.base import SYSTEM, IllegalAction, InvalidAction, LogLine
from games.engines.dirty_money import RULES

from .helpers import act, position, started
from .playout import playout


@pytest.mark.parametrize(
    "payload",
    [
        # Not an object, a bad type, a bad resign seat: MALFORMED_ENVELOPES in tests/engines/test_hostile_payloads.py.
        "buy",
        {"type": "choose_location"},
        {"type": "choose_location", "location": "LOC-XX"},
        {"type": "choose_location", "location": ["LOC-EU"]},
        {"type": "choose_bear_stock", "EU": 1, "US": 1},
        {"type": "choose_bear_stock", "EU": False, "US": 1, "JP": 2},
        {"type": "blacklist_cards", "cards": "NOPE"},
        {"type": "blacklist_cards", "cards": [{"x": 1}]},
        {"type": "blacklist_cards", "cards": ["EUR-1C-1"] * 50},
        {"type": "resolve_action", "card": None},
        {"type": "resolve_action", "card": "ACT-INS2-1", "target": "x"},
        {"type": "trade_swap", "take": "EUR-1C-1"},
        {"type": "buy"},
        {"type": "buy", "cards": []},
        {"type": "buy", "cards": ["EU-01", "EU-02", "EU-03"], "payment": []},
        {"type": "buy", "cards": ["EU-01"], "payment": [[["x"]]]},
        {"type": "buy", "cards": ["EU-01"], "payment": [], "mode": "both"},
        {"type": "buy", "cards": ["EU-99"], "payment": []},
        {"type": "buy", "cards": ["EU-01"], "payment": [], "shark_card": 5},
        {"type": "gallery_draw"},
        {"type": "gallery_draw", "draw": 1},
        {"type": "gallery_draw", "draw": "maybe"},
        {"type": "launder", "use": None},
        {"type": "launder_discard", "card": 12},
    ],
)
def test_10_1_parse_rejects_junk_with_invalid_action(payload: Any) -> None:
    with pytest.raises(InvalidAction) as info:
        RULES.parse_action(payload)
    assert info.value.message and "%(" not in str(info.value)


def test_10_1_parse_accepts_form_strings() -> None:
    assert RULES.parse_action({"type": "resign", "seat": " 2 "}) == {"type": "resign", "seat": 2}
    assert RULES.parse_action({"type": "choose_bear_stock", "EU": "0", "US": "1", "JP": "2"}) == {
        "type": "choose_bear_stock",
        "EU": 0,
        "US": 1,
        "JP": 2,
    }
    assert RULES.parse_action({"type": "gallery_draw", "draw": "false"}) == {"type": "gallery_draw", "draw": False}
    assert RULES.parse_action({"type": "buy", "cards": "EU-01", "payment": "EUR-1C-1,EUR-3C-1"})["payment"] == [
        "EUR-1C-1",
        "EUR-3C-1",
    ]
    assert RULES.parse_action({"type": "resolve_action", "card": "ACT-INS2-1", "target": ""})["target"] is None


def test_decide_refuses_without_change() -> None:
    state = position()
    cases: list[tuple[int, dict[str, Any]]] = [
        (1, {"type": "choose_location", "location": "LOC-EU"}),
        (SYSTEM, {"type": "choose_location", "location": "LOC-EU"}),
        (0, {"type": "start"}),
        (0, {"type": "launder", "use": True}),
        (SYSTEM, {"type": "timeout", "seat": 0}),  # too early
        (SYSTEM, {"type": "timeout", "seat": 2}),  # nothing waits for seat 2
        (SYSTEM, {"type": "resign", "seat": 7}),
    ]
    for seat, payload in cases:
        with pytest.raises(IllegalAction):
            act(state, seat, payload)


def test_8_2_views_carry_other_hands_only_as_sizes() -> None:
    state = started(4, seed=5)
    for seat in [None, 0, 1, 2, 3]:
        view = RULES.view(state, seat)
        text = json.dumps(view)
        for other in range(4):
            if other == seat:
                assert view["hand"] == sorted(state.hands[other])
                continue
            for card in state.hands[other]:
                if all(card not in row for row in state.rows):
                    assert card not in text
        assert [s["hand_size"] for s in view["seats"]] == [len(h) for h in state.hands]
        assert "deck" not in view and str(state.deck[:3]) not in text
        assert view["deck_size"] == len(state.deck)


def test_8_2_blacklists_and_tokens_are_counts_only() -> None:
    rows: dict[str, list[str]] = {"LOC-EU": [], "LOC-US": [], "LOC-JP": [], "LOC-BR": []}
    state = position(
        hands={0: [], 1: [], 2: []},
        rows=rows,
        discard=(),
        blacklists=(("EUR-9D-1",), (), ()),
        tokens=((("RAT", "USD-9D-1"),), (), ()),
    )
    for seat in [None, 0, 1]:
        text = json.dumps(RULES.view(state, seat))
        assert "EUR-9D-1" not in text and "USD-9D-1" not in text
    assert RULES.view(state, 1)["seats"][0]["blacklist"] == 1


def test_view_gives_a_payment_picker_its_data() -> None:
    state = position(hands={0: ["EUR-5C-1", "USD-1C-1"]}, displays=(("EU-16", "EU-01"), (), ()))
    state = state.__class__(**{**state.__dict__, "location": "LOC-EU", "step": "location"})
    view = RULES.view(state, 0)
    options = view["purchase"]["options"]
    assert {"cards": ["EU-16"], "due": 5, "currency": "EUR", "eligible": ["EUR-5C-1"]} in options
    assert any(o["cards"] == ["EU-16", "EU-01"] for o in options)
    assert view["hand_values"] == {"EUR-5C-1": 5, "USD-1C-1": 1}
    assert "purchase" not in RULES.view(state, 1)


def test_log_lines_render_redacted_events_of_a_whole_game() -> None:
    _initial, _state, log = playout(5, {"quick": True}, seed=3)
    for event in log:
        for seat in (None, 0, 1):
            lines = RULES.log_lines(event.for_seat(seat))
            assert all(isinstance(line, LogLine) for line in lines)
            for line in lines:
                line.message % {k: "x" for k in line.params}  # every %(name)s has its param
    assert RULES.log_lines({"type": "bought", "data": "junk"}) == []


def test_options_and_terms() -> None:
    assert {o.name for o in RULES.options} == {"quick", "choice", "pace"}
    for card in ("EU-01", "ACT-INSLR-1", "EUR-5D-1", "V4-BEAR", "LOC-AH"):
        assert card in RULES.terms


def test_10_1_every_listed_action_is_canonical_and_accepted() -> None:
    import random

    from games.engines.base import DecideContext

    rng = random.Random(4)
    state = RULES.initial(4, {"choice": True})
    for _step in range(400):
        actors = RULES.actors(state)
        if not actors:
            break
        seat = SYSTEM if SYSTEM in actors else min(actors)
        legal = RULES.legal_actions(state, seat)
        for action in legal[:50]:
            assert RULES.parse_action(json.loads(json.dumps(action))) == action
            RULES.decide(state, seat, action, DecideContext(random.Random(1), 1e6))  # accepted
        events = RULES.decide(state, seat, rng.choice(legal), DecideContext(rng, 1e6))
        for event in events:
            state = RULES.evolve(state, event)
