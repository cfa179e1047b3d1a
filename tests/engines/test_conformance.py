"""One random-playout test over every registered game (the engine protocol, not any one game).

For seeded random games played to the end: every listed legal action is accepted; replaying the
log rebuilds the live state; states, events and views survive JSON; the game is over exactly
when nobody may act and an outcome exists; and no view carries a secret of another seat.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.engines.base import SYSTEM, Event, replay
from games.engines.registry import engines, get_rules
from tests.engines.random_play import option_sets, play

GAMES = engines()


def secret_tokens(event: Event) -> set[str]:
    tokens: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list | tuple):
            for v in value:
                walk(v)
        elif isinstance(value, str) and len(value) > 2:
            tokens.add(value)

    walk(event.secret)
    return tokens


@pytest.mark.parametrize("slug", GAMES)
def test_random_playouts_reach_the_end_with_invariants(slug: str) -> None:
    rules = get_rules(slug)
    runs = 0
    for options in option_sets(rules):
        for players in range(rules.min_players, rules.max_players + 1):
            seed = runs * 7919 + players
            runs += 1
            initial, state, log = play(rules, players, options, seed)
            outcome = rules.outcome(state)
            assert outcome is not None, f"{slug} {players}p {options} did not finish"
            assert not rules.actors(state)
            assert len(outcome.scores) == len(outcome.ranks) == players
            assert set(outcome.winners) <= set(range(players)) and outcome.winners
            # Replay is a fold of evolve over the (JSON round-tripped) log.
            stored = [Event.from_json(json.loads(json.dumps(e.to_json()))) for e in log]
            assert replay(rules, initial, stored) == state
            assert rules.state_from_json(json.loads(json.dumps(rules.state_to_json(state)))) == state
            for seat in [None, *range(players)]:
                json.dumps(rules.view(state, seat))


@pytest.mark.parametrize("slug", GAMES)
def test_running_views_hold_no_secret_of_another_seat(slug: str) -> None:
    rules = get_rules(slug)
    for players in (rules.min_players, rules.max_players):
        initial, _final, log = play(rules, players, {o.name: o.default for o in rules.options}, 1234 + players)
        public_log = json.dumps([e.data for e in log])
        hidden: dict[int, set[str]] = {seat: set() for seat in range(players)}  # secrets kept from each seat
        state = initial
        for step, event in enumerate(log):
            state = rules.evolve(state, event)
            if not rules.actors(state):
                break  # after the end, players may see everything (e.g. heist R-68)
            for seat in range(players):
                assert "secret" not in event.for_seat(seat) or seat in event.visible_to
                if seat in event.visible_to:
                    # A secret later shared with this seat (a card dealt to it in a new round,
                    # a hand passed to it) is no longer kept from it.
                    hidden[seat] -= secret_tokens(event)
                else:
                    hidden[seat] |= secret_tokens(event)
            if event.secret is None and step % 10:
                continue  # views are checked after every secret and every tenth step
            public = json.dumps(rules.view(state, None)) + public_log
            for seat in range(players):
                seen = json.dumps(rules.view(state, seat))
                for token in hidden[seat]:
                    if token not in public:
                        assert token not in seen, f"{slug}: seat {seat} sees {token!r}"


@pytest.mark.parametrize("slug", GAMES)
def test_actors_terminal_and_outcome_agree_from_the_start(slug: str) -> None:
    rules = get_rules(slug)
    state = rules.initial(rules.min_players, {"time_limit": 60})
    assert rules.actors(state) == frozenset({SYSTEM})
    assert rules.outcome(state) is None
    assert rules.legal_actions(state, SYSTEM)[0] == {"type": "start"}
