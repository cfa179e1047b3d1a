"""Random legal games to the end (every player count, both variants and their combination).

Invariants (issue checks): every card in exactly one zone (R-5); blacklist points never negative;
final scores recomputed from the final state equal the engine's; replay of the log equals the live
state; no view built for a seat holds a card id that seat may not see, at every step.

``HIDEOUT_PLAYOUTS`` (default 1) scales the number of games per case for CI.
"""

from __future__ import annotations

import json
import os
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines.base import Event, replay
from games.engines.dirty_money import RULES
from games.engines.dirty_money.cards import MONEY_CARDS, PLACEMENTS
from games.engines.dirty_money.scoring import final_scores
from games.engines.dirty_money.state import State, all_cards

from .playout import playout

PLAYOUTS = int(os.environ.get("HIDEOUT_PLAYOUTS", "1") or 1)
VARIANTS = [{}, {"quick": True}, {"choice": True}, {"quick": True, "choice": True}]
ALL_CARDS = sorted(set(MONEY_CARDS) | set(PLACEMENTS))


def invariants(state: State, event: Event) -> None:
    cards = all_cards(state)
    assert len(cards) == len(set(cards)), "a card is in two zones"
    if state.round >= 1:  # once set up (the action cards are set aside during S-7)
        assert len(cards) == 180, "a card went missing"
    assert all(state.blacklist_points(s) >= 0 for s in range(state.players))


def check_views(state: State, event: Event) -> None:
    """No view built for a seat holds a card id that seat may not see (8.2)."""
    if state.phase in ("setup", "over") or not state.villains:
        return
    visible_everywhere = set(state.discard[-1:]) | {c for row in state.rows for c in row}
    visible_everywhere |= {c for d in state.displays for c in d} | set(state.auction) | set(state.stock)
    visible_everywhere |= set(state.pending) | {c for t in state.tableaux for c in t} | {state.resolving}
    for seat in [None, *range(state.players)]:
        text = json.dumps(RULES.view(state, seat))
        allowed = set(visible_everywhere)
        if seat is not None:
            allowed |= set(state.hands[seat])
            if seat == state.active and state.trade_target >= 0:
                allowed |= set(state.hands[state.trade_target])
        for card in ALL_CARDS:
            if card not in allowed and card in text:
                raise AssertionError(f"seat {seat} sees {card}")


def finish_checks(initial: State, state: State, log: list[Event]) -> None:
    assert state.phase == "over" and RULES.outcome(state) is not None
    stored = [Event.from_json(json.loads(json.dumps(e.to_json()))) for e in log]
    assert replay(RULES, initial, stored) == state
    assert RULES.state_from_json(json.loads(json.dumps(RULES.state_to_json(state)))) == state
    (scored,) = [e for e in log if e.type == "game_scored"]
    assert final_scores(state) == {k: v for k, v in scored.data.items() if k != "at"}
    outcome = RULES.outcome(state)
    assert outcome is not None and list(outcome.scores) == scored.data["totals"]
    cards = all_cards(state)
    assert len(cards) == len(set(cards)) == 180


@pytest.mark.parametrize("variant", VARIANTS, ids=["plain", "quick", "choice", "quick+choice"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_R5_R132_random_games_keep_the_invariants(players: int, variant: dict[str, Any]) -> None:
    for n in range(PLAYOUTS):
        initial, state, log = playout(players, variant, seed=1000 * n + players, check=invariants)
        finish_checks(initial, state, log)


@pytest.mark.parametrize("players", [2, 5])
def test_bots_finish_games(players: int) -> None:
    for n in range(PLAYOUTS):
        initial, state, log = playout(players, {}, seed=77 + n, bots=True, check=invariants)
        finish_checks(initial, state, log)
        assert sum(1 for e in log if e.type == "gained") >= 10  # bots do buy


@settings(max_examples=4 * PLAYOUTS, deadline=None, suppress_health_check=list(HealthCheck))
@given(players=st.integers(2, 5), variant=st.sampled_from(VARIANTS), seed=st.integers(0, 10**6))
def test_hypothesis_views_never_leak(players: int, variant: dict[str, Any], seed: int) -> None:
    initial, state, log = playout(players, variant, seed, check=check_views)
    finish_checks(initial, state, log)


def test_performance_decide_and_replay() -> None:
    initial, _state, log = playout(5, {}, seed=5, bots=True)
    started = time.perf_counter()
    replay(RULES, initial, log)
    assert time.perf_counter() - started < 0.5  # target 100 ms on a quiet machine
