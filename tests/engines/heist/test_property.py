"""Property test: random legal games (3..8 players, all variants) played to the end."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines.base import Event, replay
from games.engines.heist import RULES
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
