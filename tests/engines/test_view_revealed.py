"""What a replay asks of the engines: ``view_revealed`` (every secret shown, at any point: a replay's
"everything revealed") and ``clock_ms`` (a live game's own clock, to play back on). Random games of
each engine, every state looked at."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.engines.registry import engines, get_rules
from tests.engines.random_play import option_sets, play


def states(slug: str, players: int, seed: int) -> list[Any]:
    rules = get_rules(slug)
    initial, _final, log = play(rules, players, option_sets(rules)[0], seed)
    out, state = [], initial
    for event in log:
        state = rules.evolve(state, event)
        out.append(state)
    return out


@pytest.mark.parametrize("slug", sorted(engines()))
def test_the_revealed_view_is_json_and_holds_the_spectators(slug: str) -> None:
    rules = get_rules(slug)
    for state in states(slug, rules.min_players + 1, 3)[::5]:
        revealed = rules.view_revealed(state)
        assert json.loads(json.dumps(revealed)) == revealed
        public = rules.view(state, None)
        assert set(public) <= set(revealed)


def test_heist_shows_every_role() -> None:
    rules = get_rules("heist")
    seen = 0
    for state in states("heist", 4, 5):
        hands = rules.view_revealed(state)["hands"]
        assert [h.get("role") for h in hands] == [h.role for h in state.hands]
        assert rules.view_revealed(state)["final"]["last_roles"] == [list(c) for c in state.choices]
        seen += len(hands)
    assert seen


def test_dirty_money_shows_every_hand() -> None:
    rules = get_rules("dirty_money")
    for state in states("dirty_money", 3, 5):
        assert rules.view_revealed(state).get("hands") == [sorted(h) for h in state.hands]


def test_exit_memory_shows_every_hand_and_the_pile() -> None:
    rules = get_rules("exit_memory")
    for state in states("exit_memory", 3, 5):
        revealed = rules.view_revealed(state)
        assert [[t["tile"] for t in hand] for hand in revealed["hands"]] == [sorted(h) for h in state.hands]
        assert [t["tile"] for t in revealed["pile"]] == [p.tile for p in state.pile]


def test_police_alarm_shows_the_thiefs_placement_to_nobody_but_the_revealed_view() -> None:
    rules = get_rules("police_alarm")
    placed = 0
    for state in states("police_alarm", 2, 5):
        if state.placement and state.phase not in ("over", "abandoned"):
            assert sorted(state.placement) == rules.view_revealed(state)["placement"]
            assert "placement" not in rules.view(state, None)
            placed += 1
    assert placed


def test_only_police_alarm_keeps_a_clock_and_it_never_goes_back() -> None:
    read = [get_rules("police_alarm").clock_ms(state) for state in states("police_alarm", 2, 6)]
    clocks = [at for at in read if at is not None]
    assert len(clocks) == len(read)
    assert clocks == sorted(clocks) and clocks[-1] > 0
    for slug in sorted(set(engines()) - {"police_alarm"}):
        assert get_rules(slug).clock_ms(states(slug, get_rules(slug).min_players, 1)[-1]) is None
