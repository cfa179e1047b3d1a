"""Bots (issue part 6): both roles play legal moves in time and finish games in every setting."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from games.engines.base import Event, replay
from games.engines.police_alarm import RULES, Scripted
from games.engines.police_alarm.constants import CIRCLE_CELL, DIST_TO, START

from .helpers import Game
from .playout import bot_game


@pytest.mark.parametrize("variant", ["standard", "young"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_bots_finish_games_with_replay_equal_to_live(players: int, variant: str) -> None:
    rules, initial, log = bot_game(players, seed=players, options={"variant": variant})
    final = replay(rules, initial, log)
    assert final.over and rules.outcome(final) is not None
    stored = [Event.from_json(json.loads(json.dumps(e.to_json()))) for e in log]
    assert replay(rules, initial, stored) == final
    if variant == "standard":
        outcomes = Counter(e.data["outcome"] for e in log if e.type == "round_ended")
        assert sum(outcomes.values()) == 2 * players


def test_bots_police_catches_and_thief_scores_over_many_rounds() -> None:
    outcomes: Counter[str] = Counter()
    for seed in range(4):
        _rules, _initial, log = bot_game(4, seed=seed)
        outcomes.update(e.data["outcome"] for e in log if e.type == "round_ended")
    assert outcomes["caught"] > 0 and outcomes["escaped"] + outcomes["all_cracked"] > 0


def test_police_bot_drives_shortest_paths_at_legal_speed_and_sounds_the_siren() -> None:
    game = Game(scripted=Scripted(first=0, pairs=(("H", "I"),)))
    go = game.setup(circles=("B", "L"))
    game.tick(go)
    plan = RULES.bot_plan(game.state, 1, random.Random(0))
    assert plan is not None and plan[0] == {"type": "move", "dir": "down", "from": [9, 9]}
    at = go
    for _i in range(DIST_TO["H"][START]):
        plan = RULES.bot_plan(game.state, 1, random.Random(0))
        assert plan is not None
        action, due = plan
        at_ms = round((due - game.state.origin) * 1000)
        assert at_ms == at  # one cell per STEP_MS, no burst
        game.do(1, action, at_ms)
        at += 150
    assert game.state.car == CIRCLE_CELL["H"]
    plan = RULES.bot_plan(game.state, 1, random.Random(0))
    assert plan is not None and plan[0] == {"type": "siren", "circle": "H"}
    assert RULES.bot_action(game.state, 1, random.Random(0)) == {"type": "siren", "circle": "H"}


def test_thief_bot_places_rolls_on_cooldown_and_escapes_when_the_police_is_close() -> None:
    game = Game(scripted=Scripted(first=0, dice=(1, 1, 2)))
    plan = RULES.bot_plan(game.state, 0, random.Random(3))
    assert plan is not None and plan[0]["type"] == "place"
    game.do(0, {"type": "place", "circles": ["H", "E"]}, 0)
    game.do(1, {"type": "ready"}, 0)
    game.tick(3000)
    plan = RULES.bot_plan(game.state, 0, random.Random(3))
    assert plan is not None and plan[0] == {"type": "roll"}
    game.do(0, {"type": "roll"}, 3000)
    plan = RULES.bot_plan(game.state, 0, random.Random(3))
    assert plan is not None and plan[0] == {"type": "escape"}  # H is 4 cells from the car


def test_thief_bot_draws_when_the_police_is_far() -> None:
    game = Game(scripted=Scripted(first=0, dice=(1, 1, 2)))
    game.do(0, {"type": "place", "circles": ["B", "C"]}, 0)
    game.do(1, {"type": "ready"}, 0)
    game.tick(3000)
    game.do(0, {"type": "roll"}, 3000)
    plan = RULES.bot_plan(game.state, 0, random.Random(3))
    assert plan is not None and plan[0] == {"type": "draw"}


def test_bot_action_never_toggles_the_flag_while_waiting() -> None:
    game = Game(scripted=Scripted(first=0))
    game.setup()
    assert game.state.phase == "countdown"
    assert RULES.bot_plan(game.state, 0, random.Random(0)) is None
    action = RULES.bot_action(game.state, 0, random.Random(0))
    assert action == {"type": "auto_escape", "on": False}
    game.do(0, action, 10)
    assert not game.state.auto_escape
    with pytest.raises(Exception, match="No legal action"):
        RULES.bot_action(game.state, 1, random.Random(0))
