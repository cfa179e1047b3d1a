"""Property test: random legal games (3..8 players, all variants) played to the end."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines.base import SYSTEM, DecideContext, Event, replay
from games.engines.heist import RULES
from games.engines.heist import view as view_mod
from games.engines.heist.state import OVER, State

from .playout import playout


def _check_step(state: State, events: list[Event]) -> None:
    n = state.players
    assert all(b >= 0 for b in state.balances)
    assert RULES.state_from_json(json.loads(json.dumps(RULES.state_to_json(state)))) == state
    for e in events:
        raw = json.loads(json.dumps(e.to_json()))
        assert Event.from_json(raw) == e
        for seat in [None, *range(n)]:
            red = e.for_seat(seat)
            if seat is None or seat not in e.visible_to:
                assert "secret" not in red
            for line in RULES.log_lines(red):
                assert isinstance(line.message % line.params, str)
    over = state.phase == OVER
    for seat in [None, *range(n)]:
        view = RULES.view(state, seat)
        # R-64..R-68: a seat's view made from the spectator's (built once per state) is the one
        # built whole for that seat.
        assert view == view_mod.view(state, seat, RULES.deadlines(state), RULES.outcome(state))
        assert json.dumps(view) == json.dumps(view_mod.view(state, seat, RULES.deadlines(state), RULES.outcome(state)))
        text = json.dumps(view)
        assert json.loads(text) == view
        if not over or seat is None:
            for card in state.deck + state.removed:
                assert card not in text  # deck order and removed cards stay hidden
            assert view["final"] is None
            for h in view["hands"]:
                if h["seat"] != seat and not h["revealed"]:
                    assert "role" not in h
            if seat is None:
                assert view["me"] is None
            else:
                mine = [lk for lk in state.looks if lk.seat == seat]
                assert len(view["me"]["looks"]) == len(mine)  # only one's own looks
                assert view["me"]["roles"] == list(state.choices[seat])
    actors = RULES.actors(state)
    outcome = RULES.outcome(state)
    assert (not actors) == over == (outcome is not None)
    if outcome is not None:
        assert outcome.scores == state.balances


@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    players=st.integers(3, 8),
    no_repeat=st.booleans(),
    quick=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
    bots=st.booleans(),
)
def test_random_games_replay_and_invariants(players: int, no_repeat: bool, quick: bool, seed: int, bots: bool) -> None:
    final, log, initial = playout(
        players,
        {"no_repeat": no_repeat, "quick": quick},
        seed,
        bots=bots,
        check=_check_step,
    )
    assert final.phase == OVER
    assert replay(RULES, initial, log) == final
    stored = [Event.from_json(json.loads(json.dumps(e.to_json()))) for e in log]
    assert replay(RULES, initial, stored) == final
    outcome = RULES.outcome(final)
    assert outcome is not None
    assert final.heist <= (6 if quick else 8)
    best = max(final.balances)
    assert set(outcome.winners) == {i for i, b in enumerate(final.balances) if b == best}
    if outcome.reason == "deck":
        assert best < final.target
    else:
        assert best >= final.target


CLOCKS = (0.0, 1_000_000.0, 1e12)
"""Clock times far before, around and far after every deadline of a playout."""


def _accepted_at_any_clock(state: State, seat: int, action: dict[str, object]) -> None:
    parsed = RULES.parse_action(json.loads(json.dumps(action)))
    for now in CLOCKS:
        RULES.decide(state, seat, parsed, DecideContext(random.Random(0), now))  # raises if refused


def _check_listed_actions_accepted(rng: random.Random, seen: Counter[str]) -> Callable[[State, list[Event]], None]:
    def check(state: State, events: list[Event]) -> None:
        if state.phase == OVER:
            return
        for seat in [SYSTEM, *range(state.players)]:
            legal = RULES.legal_actions(state, seat)
            boss = [a for a in legal if a["type"] in ("prompt", "call")]
            for action in rng.sample(legal, min(3, len(legal))) + boss[:1]:
                _accepted_at_any_clock(state, seat, action)
                seen[str(action["type"])] += 1
        # The platform asks the bot only for a seat it waits on that is an actor.
        waited = {s for d in RULES.deadlines(state) for s in d.seats} & RULES.actors(state)
        for seat in sorted(waited):
            action = RULES.bot_action(state, seat, random.Random(rng.random()))
            assert action in RULES.legal_actions(state, seat)
            _accepted_at_any_clock(state, seat, action)
            seen["bot"] += 1

    return check


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7, 8])
def test_r80_every_listed_action_and_bot_action_is_accepted_at_any_clock_time(players: int) -> None:
    """The protocol: legality is a function of the state; the clock only gates SYSTEM time-outs."""
    rng = random.Random(players)
    seen: Counter[str] = Counter()
    for seed in range(4):
        final, log, initial = playout(
            players,
            {"no_repeat": seed % 2 == 1, "quick": seed < 2},
            players * 31 + seed,
            bots=seed % 2 == 0,
            check=_check_listed_actions_accepted(rng, seen),
        )
        assert final.phase == OVER and replay(RULES, initial, log) == final
    for kind in ("choose", "withdraw", "commit", "offer", "prompt", "call", "bot"):
        assert seen[kind] > 0, (kind, seen)
