"""Hidden information (H-n), parsing of untrusted input, log lines, options and API shape."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games.engines.base import SYSTEM, DecideContext, Event, InvalidAction
from games.engines.police_alarm import RULES, Scripted
from games.engines.police_alarm.constants import CIRCLE_IDS

from .helpers import Game, deck_with
from .playout import bot_game


def keys_of(value: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(value, dict):
        for k, v in value.items():
            found.add(str(k))
            found |= keys_of(v)
    elif isinstance(value, list):
        for v in value:
            found |= keys_of(v)
    return found


def test_H1_H2_H5_placement_and_flag_never_reach_police_or_spectators_before_the_reveal() -> None:
    """D-8: the auto-escape flag is the thief's alone. D-22, W-1: the standard game keeps each
    seat's secrets from the others, so each active player needs a device of their own."""
    game = Game(scripted=Scripted(first=0, deck=deck_with("112"), dice=(1, 1, 2)))
    game.do(0, {"type": "auto_escape", "on": True}, 0)
    go = game.setup(circles=("C", "K"))
    game.do(1, {"type": "move", "dir": "up", "from": [9, 9]}, go)
    for seat in (None, 1):
        view = game.rules.view(game.state, seat)
        assert "placement" not in view and "auto_escape" not in view and "seed" not in view
        for event in game.log:
            sent = event.for_seat(seat)
            assert "secret" not in sent
            assert "circles" not in keys_of(sent) or event.type == "placement_revealed"
            assert "on" not in keys_of(sent)
    thief_view = game.rules.view(game.state, 0)
    assert thief_view["placement"] == ["C", "K"] and thief_view["auto_escape"] is True
    flag = next(e for e in game.log if e.type == "auto_escape_set")
    assert flag.data == {} and flag.visible_to == (0,)  # not even its time is public
    assert "auto_escape_set" in RULES.private_event_types


def test_H2_D16_H3_H4_stack_codes_and_the_car_are_public() -> None:
    game = Game(scripted=Scripted(first=0))
    go = game.setup()
    game.do(1, {"type": "move", "dir": "up", "from": [9, 9]}, go)
    for seat in (None, 0, 1):
        view = game.rules.view(game.state, seat)
        assert view["stack"] == ["112", "113", "114", "115", "116", "122"]
        assert view["car"] == [9, 8]


def test_H2_H6_every_message_of_a_bot_game_keeps_the_secrets_until_the_end() -> None:
    """Search every event (as pushed to each seat) and every view after every event."""
    for players in (2, 4):
        rules, initial, log = bot_game(players, seed=11)
        state = initial
        seed = next(e for e in log if e.type == "game_created").secret["seed"]  # type: ignore[index]
        for event in log:
            state = rules.evolve(state, event)
            if state.over:
                break
            for seat in (None, *range(players)):
                placement_ok = seat is not None and seat == state.thief
                sent = json.dumps(event.for_seat(seat)) + json.dumps(rules.view(state, seat))
                assert seed not in sent
                if event.type == "auto_escape_set" and seat != event.visible_to[0]:
                    assert event.for_seat(seat)["data"] == {}
                if not placement_ok and event.type == "tiles_placed":
                    assert "secret" not in event.for_seat(seat)
                if not placement_ok:
                    assert "placement" not in rules.view(state, seat)
        final = rules.view(state, None)
        assert final["seed"] == seed  # H-6


def test_N1_commitment_is_public_from_the_start() -> None:
    game = Game()
    assert game.rules.view(game.state, None)["commitment"] == game.log[0].data["commitment"]


@pytest.mark.parametrize(
    "payload",
    [
        # Not an object, a bad type, a bad resign seat: MALFORMED_ENVELOPES in tests/engines/test_hostile_payloads.py.
        "roll",
        {"type": ["roll"]},
        {"type": "place", "circles": "x" * 50},
        {"type": "place", "circles": [1, 2]},
        {"type": "place", "circles": [["A"], "B"]},
        {"type": "place", "circles": list("ABCDEFGHIJKLM")},
        {"type": "place", "circles": {"A": 1}},
        {"type": "auto_escape"},
        {"type": "auto_escape", "on": "maybe"},
        {"type": "auto_escape", "on": 2},
        {"type": "move", "dir": "north", "from": [9, 9]},
        {"type": "move", "dir": "up"},
        {"type": "move", "dir": "up", "from": [9]},
        {"type": "move", "dir": "up", "from": [9, 9, 9]},
        {"type": "move", "dir": "up", "from": [True, 9]},
        {"type": "move", "dir": "up", "from": ["٩", "9"]},
        {"type": "move", "dir": "up", "from": [[9], 9]},
        {"type": "move", "dir": None, "from": [9, 9]},
        {"type": "siren", "circle": "Z"},
        {"type": "siren"},
        {"type": "siren", "circle": ["A"]},
    ],
)
def test_T16_malformed_payloads_are_invalid_actions(payload: Any) -> None:
    with pytest.raises(InvalidAction) as info:
        RULES.parse_action(payload)
    assert isinstance(info.value.message % info.value.params, str)


def test_T16_forms_send_numbers_as_strings_and_unknown_fields_are_ignored() -> None:
    assert RULES.parse_action({"type": "resign", "seat": " 1 "}) == {"type": "resign", "seat": 1}
    assert RULES.parse_action({"type": "move", "dir": "UP", "from": "9,9", "x": 1}) == {
        "type": "move",
        "dir": "up",
        "from": [9, 9],
    }
    assert RULES.parse_action({"type": "move", "dir": "up", "from": ["9", "-3"]})["from"] == [9, -3]
    assert RULES.parse_action({"type": "auto_escape", "on": "on"}) == {"type": "auto_escape", "on": True}
    assert RULES.parse_action({"type": "place", "circles": "a, l"}) == {"type": "place", "circles": ["A", "L"]}
    assert RULES.parse_action({"type": "siren", "circle": "h"}) == {"type": "siren", "circle": "H"}
    assert RULES.parse_action({"type": "roll", "junk": {"deep": [1, {"x": None}]}}) == {"type": "roll"}


def test_log_lines_render_every_event_as_every_seat_sees_it() -> None:
    for players in (2, 3):
        rules, _initial, log = bot_game(players, seed=5)
        _young_rules, _i, young_log = bot_game(players, seed=5, options={"variant": "young"})
        extra = [
            Event("disconnected", {"t": 1, "seat": 0}),
            Event("suspended", {"t": 1}),
            Event("resume_countdown", {"t": 1, "resume_at": 4, "shift": 3}),
            Event("resumed", {"t": 4, "shift": 3}),
            Event("abandon_offered", {"t": 5}),
            Event("abandoned", {"t": 6, "scores": [0, 0], "seed": "x"}),
            Event("resigned", {"t": 6, "seat": 1}),
            Event("reconnected", {"t": 6, "seat": 1}),
            Event("unknown_kind", {}),
            Event("round_ended", {}),
        ]
        for event in [*log, *young_log, *extra]:
            for seat in (None, *range(players)):
                for line in rules.log_lines(event.for_seat(seat)):
                    assert isinstance(line.message % line.params, str)
                    assert "_" not in line.message.split("%(")[0]  # plain words, no ids


def test_options_terms_and_protocol_basics() -> None:
    names = [o.name for o in RULES.options]
    assert names[:2] == ["variant", "first"] and "step_ms_3" in names and "roll_ms_0" in names
    state = RULES.initial(2, {"time_limit": 60})
    assert RULES.actors(state) == frozenset({SYSTEM})
    assert RULES.legal_actions(state, SYSTEM) == [{"type": "start"}]
    assert RULES.outcome(state) is None
    assert RULES.terms["escaped"] and all(isinstance(v, str) for v in RULES.terms.values())
    assert RULES.blind_actions >= {"move", "siren", "roll"}
    events = RULES.decide(state, SYSTEM, {"type": "start"}, DecideContext(random.Random(1), 1000.0))
    assert events[0].type == "game_created"
    with pytest.raises(Exception, match="already started"):
        s2 = state
        for e in events:
            s2 = RULES.evolve(s2, e)
        RULES.decide(s2, SYSTEM, {"type": "start"}, DecideContext(random.Random(1), 1000.0))


def test_evolve_is_total_on_junk_events() -> None:
    game = Game()
    state = game.state
    for event in (
        Event("nope", {}),
        Event("car_moved", {"t": "x", "to": "junk"}),
        Event("dice_rolled", {"filled": [99, "a"]}),
        Event("tile_revealed", {"pause_until": "soon"}),
    ):
        assert RULES.evolve(state, event) is not None


def test_legal_place_lists_every_pair_once() -> None:
    game = Game()
    places = [a for a in game.rules.legal_actions(game.state, 0) if a["type"] == "place"]
    assert len(places) == 66 and all(set(a["circles"]) <= set(CIRCLE_IDS) for a in places)


def test_W5_a_spectator_sees_what_the_police_sees_and_the_thiefs_public_state() -> None:
    """W-5: the spectators' screen is the police's view plus the thief's public state, so their
    view is the police's in everything but the role, for a watching seat and a visitor alike."""
    game = Game(players=3)
    go = game.setup(circles=("C", "K"))
    game.do(game.police, {"type": "move", "dir": "up", "from": [9, 9]}, go)
    game.do(game.thief, {"type": "roll"}, go)
    police = game.rules.view(game.state, game.police)
    watching = [game.rules.view(game.state, seat) for seat in (None, 2)]
    assert police["role"] == "police" and all(view["role"] == "spectator" for view in watching)
    for view in watching:
        assert {**view, "role": "police"} == police
        assert len(view["stack"]) == 6 and view["dice"] and view["car"] == [9, 8]
