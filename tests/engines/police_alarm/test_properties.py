"""Property tests: random timed inputs and random legal games to the end (hypothesis).

``HIDDEN_PLAYOUTS``-style scaling: set ``HIDEOUT_PLAYOUTS`` (default 6) to play more random games.
Invariants (issue checks): the limiter never allows more than one cell per step_ms beyond the
tolerance; the car never enters a building; replay equals live; a rejected input changes nothing;
views and events survive JSON; no police or spectator message holds the placement or the flag.
"""

from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines.base import SYSTEM, DecideContext, EngineError, Event, InvalidAction, replay
from games.engines.police_alarm import RULES, PoliceAlarmRules
from games.engines.police_alarm.constants import CIRCLE_IDS, DIR_ORDER, ROAD
from games.engines.police_alarm.state import State
from tests.engines.random_play import decided_as_sent, random_turn

PLAYOUTS = int(os.environ.get("HIDEOUT_PLAYOUTS", "6"))
ORIGIN = 1_700_000_000.0
OPTIONS: dict[str, dict[str, Any]] = {
    "standard": {"variant": "standard"},
    "young": {"variant": "young"},
    "relay": {"variant": "standard", "mode": "relay", "relay_hours": "24"},
}
DTS = (0, 0, 1, 50, 149, 150, 151, 300, 500, 1000, 1999, 2000, 3000, 30_000, 60_000)


def bogus(rng: random.Random, state: State, players: int) -> tuple[int, dict[str, Any]]:
    """A well-formed input that may or may not be legal, from any seat or the server."""
    seat = rng.randrange(players)
    kind = rng.choice(
        [
            *("move", "move", "move", "siren", "roll", "draw", "escape", "place", "place_random", "ready", "auto"),
            *("tick", "tick", "disconnected", "reconnected", "abandon"),
        ]
    )
    if kind == "move":
        x, y = state.car if rng.random() < 0.8 else (rng.randrange(19), rng.randrange(19))
        return seat, {"type": "move", "dir": rng.choice(DIR_ORDER), "from": [x, y]}
    if kind == "siren":
        return seat, {"type": "siren", "circle": rng.choice(CIRCLE_IDS)}
    if kind == "place":
        return seat, {"type": "place", "circles": rng.sample(CIRCLE_IDS, rng.choice((1, 2, 2, 3)))}
    if kind == "auto":
        return seat, {"type": "auto_escape", "on": rng.random() < 0.5}
    if kind == "tick":
        return SYSTEM, {"type": "tick"}
    if kind in ("disconnected", "reconnected"):
        return SYSTEM, {"type": kind, "seat": seat}
    return seat, {"type": kind}


class Checker:
    """Checks every accepted step and keeps the move times of the current driver."""

    def __init__(self, rules: PoliceAlarmRules, state: State) -> None:
        self.rules = rules
        self.state = state
        self.moves: list[int] = []
        self.last_t = 0

    def accept(self, events: list[Event]) -> None:
        for event in events:
            raw = json.loads(json.dumps(event.to_json()))
            assert Event.from_json(raw) == event
            before = self.state
            self.state = self.rules.evolve(self.state, event)
            t = self.state.t
            assert t >= self.last_t  # events never go back in time
            self.last_t = t
            if event.type in ("round_started", "police_ready", "turn_start"):
                self.moves = []
            if event.type == "car_moved":
                assert self.state.car in ROAD  # never into a building
                assert abs(self.state.car[0] - before.car[0]) + abs(self.state.car[1] - before.car[1]) == 1
                self.moves.append(t)
                self.check_limiter()
            for seat in (None, *range(self.state.players)):
                sent = event.for_seat(seat)
                if "secret" in sent:
                    assert seat in event.visible_to
                for line in self.rules.log_lines(sent):
                    assert isinstance(line.message % line.params, str)
        if events:
            self.check_views()

    def check_limiter(self) -> None:
        s = self.state
        driver = s.active if s.young else s.police
        step = s.step_ms[driver]
        j = len(self.moves) - 1
        for i in range(j):
            # T-6/T-7: at most one cell per step beyond the tolerance of 2 x step.
            assert (j - i) * step <= self.moves[j] - self.moves[i] + 2 * step

    def check_views(self) -> None:
        s = self.state
        for seat in (None, *range(s.players)):
            view = self.rules.view(s, seat)
            assert json.loads(json.dumps(view)) == view
            if not s.over:
                assert "seed" not in view and "layout" not in view
                if seat is None or seat != s.thief or s.young:
                    assert "placement" not in view and "auto_escape" not in view


def run_random_inputs(seed: int, players: int, variant: str, steps: int) -> None:
    rng = random.Random(seed)
    rules = PoliceAlarmRules()
    initial = rules.initial(players, {**OPTIONS[variant], "time_limit": 60})
    checker = Checker(rules, initial)
    log: list[Event] = []
    at = 0

    def submit(seat: int, payload: dict[str, Any]) -> None:
        before = checker.state
        snapshot = rules.state_to_json(before)
        try:
            action = rules.parse_action(payload)
            events = rules.decide(before, seat, action, DecideContext(rng, ORIGIN + at / 1000))
        except InvalidAction:
            raise
        except EngineError:
            assert checker.state is before and rules.state_to_json(before) == snapshot  # T-15
            return
        checker.accept(events)
        log.extend(events)

    submit(SYSTEM, {"type": "start"})
    for _i in range(steps):
        if checker.state.over:
            break
        at += rng.choice(DTS)
        state = checker.state
        if rng.random() < 0.5:
            seat = rng.choice([SYSTEM, *range(players)])
            legal = rules.legal_actions(state, seat)
            if legal:
                submit(seat, rng.choice(legal))
                continue
        seat, payload = bogus(rng, state, players)
        submit(seat, payload)
    assert replay(rules, initial, log) == checker.state  # replay equals live
    assert rules.state_from_json(json.loads(json.dumps(rules.state_to_json(checker.state)))) == checker.state


@settings(max_examples=PLAYOUTS * 3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 4),
    variant=st.sampled_from(["standard", "young", "relay"]),
)
def test_T6_T8_T15_T19_random_timed_inputs_keep_the_invariants(seed: int, players: int, variant: str) -> None:
    run_random_inputs(seed, players, variant, steps=400)


def play_to_the_end(seed: int, players: int, options: dict[str, Any]) -> None:
    """Random legal actions (the conformance model) until the game ends, checking every step."""
    rng = random.Random(seed)
    rules = RULES
    initial = rules.initial(players, {**options, "time_limit": 60})
    checker = Checker(rules, initial)
    log: list[Event] = []
    now = ORIGIN
    for step in range(8000):
        actors = rules.actors(checker.state)
        if not actors:
            break
        now += rng.choice((0.0, 0.15, 0.5, 3.0))
        state = checker.state
        # What is due by now has fired before any input at now (the site's timers run on time): a
        # player's legal actions are those of the state it leads to.
        odds = 0.05 if step < 4000 else 0.6
        seat, action, now = random_turn(rules, state, actors, rng, now, timeout_odds=odds, due_first=True)
        events = decided_as_sent(rules, state, seat, action, rng, now)
        checker.accept(events)
        log.extend(events)
    final = checker.state
    outcome = rules.outcome(final)
    assert outcome is not None and final.over and not rules.actors(final)
    assert replay(rules, initial, log) == final


@settings(max_examples=PLAYOUTS, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 4),
    variant=st.sampled_from(["standard", "young", "relay"]),
    step_ms=st.sampled_from(["150", "300"]),
)
def test_random_legal_games_reach_the_end(seed: int, players: int, variant: str, step_ms: str) -> None:
    play_to_the_end(seed, players, {**OPTIONS[variant], "step_ms_0": step_ms, "roll_ms_1": "2000"})


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variant", ["standard", "young", "relay"])
def test_every_player_count_and_variant_plays_to_the_end(players: int, variant: str) -> None:
    play_to_the_end(players * 101, players, OPTIONS[variant])
