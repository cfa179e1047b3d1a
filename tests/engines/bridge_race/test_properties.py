"""Hypothesis playouts of random legal races (R-90, R-91, R-97 and global invariants)."""

from __future__ import annotations

import json
import os
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines.base import SYSTEM, DecideContext, Event, replay
from games.engines.bridge_race import RULES

from .helpers import money_total

# Races per property test: a quick 20 locally; CI sets HIDEOUT_RACES (80: with the fully random
# ones, 120 races).
RACES = int(os.environ.get("HIDEOUT_RACES", "20"))


def check_invariants(s):
    # money conservation: bank flows == money held by players and cells
    assert money_total(s) == s.bank_out
    cells = set()
    for c in s.cars:
        assert 0 <= c.dur <= c.maxdur
        assert c.speed in (0, 10, 20, 30, 40, 50)
        if c.status == "board":
            assert c.cell not in cells
            cells.add(c.cell)
            assert 0 <= c.lane < 5 and 0 <= c.row < 33
            o = s.objects.get(c.cell)
            assert o is None or (o.kind not in ("container",) and not o.fortified)
    assert all(v > 0 for v in s.money.values())
    actors = RULES.actors(s)
    out = RULES.outcome(s)
    assert (not actors) == (out is not None) == (s.phase == "over")


def playout(players, mode, seed, bot_share=0.8, max_actions=6000, check_every=1):
    rng = random.Random(seed)
    s0 = RULES.initial(players, {"mode": mode, "time_limit": 60})
    assert RULES.actors(s0) == frozenset({SYSTEM})
    s = s0
    log = []
    n = 0
    while RULES.actors(s) and n < max_actions:
        seat = next(iter(RULES.actors(s)))
        legal = RULES.legal_actions(s, seat)
        assert legal
        if seat != SYSTEM and rng.random() < bot_share:
            a = RULES.bot_action(s, seat, rng)
        elif seat == SYSTEM:
            a = legal[0]
        else:
            a = rng.choice(legal)
        events = RULES.decide(s, seat, RULES.parse_action(a), DecideContext(rng, 1000.0 + n))
        for e in events:
            s = RULES.evolve(s, e)
            log.append(Event.from_json(json.loads(json.dumps(e.to_json()))))
        n += 1
        if n % check_every == 0:
            check_invariants(s)
        if n % 97 == 0:
            json.dumps(RULES.view(s, None))
            json.dumps(RULES.view(s, seat if seat != SYSTEM else 0))
            for d in RULES.deadlines(s):
                assert d.seats and d.action["type"] == "timeout"
    return s0, s, log


@settings(max_examples=RACES, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    players=st.integers(3, 5),
    mode=st.sampled_from(["standard", "first_game", "closed_border"]),
    seed=st.integers(0, 10**6),
)
def test_r91_r97_random_races_replay_and_invariants(players, mode, seed):
    s0, s, log = playout(players, mode, seed)
    check_invariants(s)
    assert s.phase == "over"
    assert replay(RULES, s0, log) == s
    assert RULES.state_from_json(json.loads(json.dumps(RULES.state_to_json(s)))) == s
    out = RULES.outcome(s)
    assert out is not None and sorted(out.ranks) == list(range(1, players + 1))
    for e in log:
        for line in RULES.log_lines(e.for_seat(None)):
            assert isinstance(line.message, str)
            line.message % {k: v for k, v in line.params.items()}


@settings(max_examples=max(RACES // 2, 1), deadline=None, suppress_health_check=list(HealthCheck))
@given(
    players=st.integers(3, 5),
    mode=st.sampled_from(["standard", "first_game", "closed_border"]),
    seed=st.integers(0, 10**6),
)
def test_r93_fully_random_legal_actions_keep_invariants(players, mode, seed):
    s0, s, log = playout(players, mode, seed, bot_share=0.0, max_actions=1500)
    check_invariants(s)
    assert replay(RULES, s0, log) == s
    raw = RULES.state_to_json(s)
    assert RULES.state_from_json(json.loads(json.dumps(raw))) == s
    view = RULES.view(s, 0)
    json.dumps(view)


def test_r89_hidden_pile_order_only_in_secret():
    _s0, s, log = playout(4, "standard", 3, max_actions=50)
    start = log[0]
    assert start.secret is not None and start.visible_to == ()
    assert "adv_pile" in start.secret["patch"] and "bonus_pile" in start.secret["patch"]
    public = json.dumps(start.for_seat(0))
    assert "adv_pile" not in public and "bonus_pile" not in public
    v = json.dumps(RULES.view(s, 1))
    assert 'adv_pile"' not in v
    for e in log:
        assert "adv_pile" not in json.dumps(e.data)


def test_performance_budget_decide_evolve_and_replay():
    import statistics
    import time

    rng = random.Random(11)
    s0 = s = RULES.initial(5, {"mode": "standard"})
    log = []
    times = []
    while RULES.actors(s):
        seat = next(iter(RULES.actors(s)))
        a = RULES.legal_actions(s, seat)[0] if seat == SYSTEM else RULES.bot_action(s, seat, rng)
        t0 = time.perf_counter()
        events = RULES.decide(s, seat, a, DecideContext(rng, 0.0))
        for e in events:
            s = RULES.evolve(s, e)
        times.append(time.perf_counter() - t0)
        log.extend(events)
    t0 = time.perf_counter()
    assert replay(RULES, s0, log) == s
    replay_ms = (time.perf_counter() - t0) * 1000
    assert statistics.median(times) < 0.002  # target 1 ms, slack for slow CI
    assert replay_ms < 300  # target 100 ms


def test_timeouts_alone_finish_a_race():
    """R-95: a match where every player resigned still ends under the defaults."""
    rng = random.Random(4)
    s = RULES.initial(4, {"mode": "standard", "time_limit": 60})
    s = RULES.evolve(s, RULES.decide(s, SYSTEM, {"type": "start"}, DecideContext(rng, 0))[0])
    for seat in range(4):
        for e in RULES.decide(s, SYSTEM, {"type": "resign", "seat": seat}, DecideContext(rng, 0)):
            s = RULES.evolve(s, e)
    n = 0
    while RULES.actors(s) and n < 5000:
        n += 1
        if SYSTEM in RULES.actors(s):
            a = RULES.legal_actions(s, SYSTEM)[0]
        else:
            (d,) = RULES.deadlines(s)
            assert d.due == 0
            a = d.action
        for e in RULES.decide(s, SYSTEM, a, DecideContext(rng, 10.0)):
            s = RULES.evolve(s, e)
        check_invariants(s)
    assert s.phase == "over"
