"""Property tests: random legal games to the end, every player count, danger mode on and off."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines.base import SYSTEM, DecideContext, Event, replay
from games.engines.exit_memory import RULES
from games.engines.exit_memory.state import CHAIN, EXTRA, TURN, State
from games.engines.exit_memory.tiles import SHUFFLED_TILES
from games.engines.exit_memory.walk import walk

IN_ROUND = (TURN, EXTRA, CHAIN)


def covered_ids(state: State) -> list[str]:
    """Tiles of the pile nobody may see: all but the top, and the top when it lies face down."""
    hidden = [p.tile for p in state.pile[:-1]]
    if state.pile and state.pile[-1].face_down:
        hidden.append(state.pile[-1].tile)
    return hidden


def check_tiles(state: State) -> None:
    """Every direction tile is in exactly one place: the deck, a hand or the pile."""
    places = Counter([*state.deck, *(t for h in state.hands for t in h), *(p.tile for p in state.pile)])
    assert places == Counter(SHUFFLED_TILES)


def check_views(state: State) -> None:
    hidden = covered_ids(state)
    for seat in [None, *range(state.players)]:
        seen = json.dumps(RULES.view(state, seat))
        leaked = [tile for tile in hidden if f'"{tile}"' in seen]
        assert not leaked, f"seat {seat} sees covered tiles {leaked}"  # R-57, section 8
        if seat is None:
            assert '"hand"' not in seen  # a spectator gets the public rows only


def play(seed: int, players: int, danger: bool) -> tuple[State, list[Event], int]:
    rng = random.Random(seed)
    state = RULES.initial(players, {"danger": danger})
    initial, log, now, rounds = state, [], 1000.0, 0
    for _ in range(5000):
        actors = RULES.actors(state)
        if not actors:
            break
        now += 1.0
        if SYSTEM in actors:
            seat, action = SYSTEM, {"type": "start"}
        elif rng.random() < 0.1:
            (deadline,) = RULES.deadlines(state)
            now = max(now, deadline.due)
            seat, action = SYSTEM, deadline.action
        else:
            seat = rng.choice(sorted(actors))
            action = (
                RULES.bot_action(state, seat, rng)
                if rng.random() < 0.5
                else rng.choice(RULES.legal_actions(state, seat))
            )
        scores_before = state.scores
        events = RULES.decide(state, seat, RULES.parse_action(action), DecideContext(rng, now))
        for event in events:
            state = RULES.evolve(state, event)
            if state.phase in IN_ROUND and event.type != "round_started":
                if event.type in ("shuffled", "dealt"):
                    continue  # the deal is still being made
                check_views(state)
            if event.type == "resolved":
                rounds += 1
                # The walk terminates and its transcript replays to the same outcome.
                again = walk([p["tile"] for p in event.data["pile"]], state.floors)
                assert again["steps"] == event.data["steps"] and again["outcome"] == event.data["outcome"]
        if state.phase in IN_ROUND:
            check_tiles(state)  # after the whole action (a DG4 pass is several events)
        if scores_before:
            assert all(0 <= b - a <= 1 for a, b in zip(scores_before, state.scores, strict=True))
        log.extend(events)
    assert RULES.outcome(state) is not None
    assert replay(RULES, initial, [Event.from_json(json.loads(json.dumps(e.to_json()))) for e in log]) == state
    return state, log, rounds


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.integers(2, 5), danger=st.booleans())
def test_random_games_keep_every_invariant(seed: int, players: int, danger: bool) -> None:
    state, log, rounds = play(seed, players, danger)
    assert rounds >= 1 and max(state.scores) >= state.target
    assert all(state.scores[w] >= state.target for w in state.winners)
    # no log line of a round names a direction tile
    for event in log:
        for line in RULES.log_lines(event.for_seat(0)):
            assert not any(str(v).startswith("T") and str(v)[1:].isdigit() for v in line.params.values())


def test_thousands_of_rounds() -> None:
    """A broad sweep beyond hypothesis' examples: over a thousand rounds in total."""
    total = 0
    for seed in range(400):
        _state, _log, rounds = play(seed, 2 + seed % 4, bool(seed % 2))
        total += rounds
    assert total >= 1000
