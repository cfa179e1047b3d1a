"""R-1, R-11..R-24, R-76..R-80, R-89..R-99: setup, round flow, end of game, platform."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from games.engines.base import SYSTEM, DecideContext, IllegalAction, InvalidAction, Rules
from games.engines.bridge_race import RULES, plan_actions
from games.engines.bridge_race.board import (
    START_CELLS,
    edge_kind,
    guarded,
    zone_of,
)
from games.engines.bridge_race.rounds import legal_cells, position_order
from games.engines.bridge_race.state import ADVENTURE, ADVENTURE_IDS, BONUS, Car

from .helpers import car, do, fx, scenario, turn_of, with_turn


def started(players=3, mode="standard", seed=1):
    s = RULES.initial(players, {"mode": mode, "time_limit": 60})
    s, ev = do(s, SYSTEM, {"type": "start"})
    return s, ev


def chosen(players=3, mode="standard"):
    s, _ = started(players, mode)
    for seat in range(players):
        s, _ = do(s, seat, RULES.legal_actions(s, seat)[0])
    return s


def test_r1_protocol_and_options():
    assert isinstance(RULES, Rules)
    assert RULES.slug == "bridge_race" and RULES.min_players == 3 and RULES.max_players == 5
    opt = RULES.options[0]
    assert opt.name == "mode" and opt.default == "standard"
    assert [c[0] for c in opt.choices] == ["standard", "first_game", "closed_border"]


def test_r7_r8_tile_catalogues():
    kinds = [k for k, _ in ADVENTURE.values()]
    assert len(ADVENTURE) == 30
    assert kinds.count("caltrops") == 7 and kinds.count("roadblock") == 6
    assert kinds.count("police") == 5 and kinds.count("speed") == 6
    assert kinds.count("container") == 6
    assert sum(n for k, n in ADVENTURE.values() if k == "roadblock") == 12
    assert len(BONUS) == 30


def test_r11_r13_r14_geometry():
    assert zone_of(3) == 1 and zone_of(14) == 2 and zone_of(32) == 5 and zone_of(2) == 0
    assert guarded(-1, 0) and guarded(1, 2) and not guarded(-1, 3)
    assert edge_kind(-1, 12) == "large" and edge_kind(1, 20) == "large"
    assert edge_kind(-1, 24) == "small" and edge_kind(1, 28) == "small"
    assert not guarded(1, 14) and not guarded(-1, 18) and not guarded(1, 30)


def test_r12_r18_start_and_choose_car():
    s0 = RULES.initial(4, {"mode": "standard"})
    assert RULES.actors(s0) == frozenset({SYSTEM})
    assert RULES.legal_actions(s0, SYSTEM) == [{"type": "start"}]
    s, _ev = do(s0, SYSTEM, {"type": "start"})
    assert len(s.face_up) == 5 and len(s.adv_pile) == 25
    assert len(s.bonus_pile) == 25 and all(s.shop)
    assert RULES.actors(s) == frozenset({0})
    s, _ = do(s, 0, {"type": "CHOOSE_CAR", "character": "C3", "start": "S5"})
    c = car(s, 0)
    assert (c.lane, c.row) == START_CELLS["S5"][0] and c.balance == 1000
    assert c.dur == 8 and c.maxdur == 8 and c.ramp == "held" and c.speed == 0
    with pytest.raises(IllegalAction):
        do(s, 1, {"type": "CHOOSE_CAR", "character": "C3", "start": "S1"})
    with pytest.raises(IllegalAction):
        do(s, 1, {"type": "CHOOSE_CAR", "character": "C1", "start": "S5"})
    with pytest.raises(IllegalAction):
        do(s, 2, {"type": "CHOOSE_CAR", "character": "C1", "start": "S1"})


def test_r18_shop_sorted_by_colour():
    order = {"gold": 0, "blue": 1, "metal": 2, "grey": 3}
    for seed in range(5):
        s = RULES.initial(3, {"mode": "standard"})
        ev = RULES.decide(s, SYSTEM, {"type": "start"}, DecideContext(random.Random(seed), 0))
        s = RULES.evolve(s, ev[0])
        ranks = [order[BONUS[t][1]] for t in s.shop]
        assert ranks == sorted(ranks)


def test_r19_r81_adventure_counts_by_mode():
    for players, mode, k in (
        (3, "standard", 5),
        (3, "first_game", 3),
        (4, "first_game", 4),
        (5, "first_game", 5),
        (4, "closed_border", 4),
    ):
        s, _ = started(players, mode)
        assert len(s.face_up) == k
    s, _ = started(3, "first_game")
    assert s.shop == ("", "", "", "", "") and s.bonus_pile == ()


def test_r21_position_order():
    g = scenario("row 10: . 1 . 0 .\nrow 12: 2 . . . .\nrow 3: . . 3 . .", speeds={0: 10, 1: 10, 3: 50})
    assert position_order(g) == (2, 1, 0, 3)


def test_r22_placement_order_and_r71_adjacency():
    s = chosen(3)
    assert s.phase == "adventure"
    order = s.order
    assert RULES.actors(s) == frozenset({order[-1]})
    acts = RULES.legal_actions(s, order[-1])
    a = acts[0]
    assert a["cell"][1] >= 3
    s2, _ = do(s, order[-1], a)
    assert RULES.actors(s2) == frozenset({order[-2]})
    kind = ADVENTURE[a["tile"]][0]
    same = [t for t in s2.face_up if ADVENTURE[t][0] == kind]
    for t in same:
        cells = legal_cells(s2, t)
        for cell in cells:
            assert max(abs(cell[0] - a["cell"][0]), abs(cell[1] - a["cell"][1])) > 1
    with pytest.raises(IllegalAction):
        do(s2, order[-2], {"type": "PLACE_ADVENTURE", "tile": s2.face_up[0], "cell": [2, 1]})


def test_r20_r22_all_tiles_placed_then_turns_start_front_first():
    s = chosen(3)
    while s.phase == "adventure":
        seat = next(iter(RULES.actors(s)))
        s, _ = do(s, seat, RULES.legal_actions(s, seat)[0])
    assert s.phase == "turn" and s.turn.seat == s.order[0] and not s.face_up
    assert s.turn.stage == "pre"


def test_r23_turn_step_order_enforced():
    g = scenario("row 10: . . 0 . .\nrow 1: 1 2 . . .", stage="pre")
    for bad in (
        {"type": "FINALIZE_DICE"},
        {"type": "STEP", "dir": "STRAIGHT"},
        {"type": "END_TURN", "sell": []},
        {"type": "RESOLVE_DICE"},
    ):
        with pytest.raises(IllegalAction):
            do(g, 0, bad)
    with pytest.raises(IllegalAction):
        do(g, 1, {"type": "ROLL"})


def test_r23_skip_river_car_and_r73():
    g = scenario("row 10: . . 0 . .\nrow 8: . . 1 . .\nrow 1: 2 . . . .", stage="after", status={1: "river"})
    g = replace(g, order=(0, 1, 2), turn_idx=0)
    g, ev = do(g, 0, {"type": "END_TURN", "sell": []})
    assert turn_of(g).seat == 2
    assert any(f["t"] == "skip" and f["seat"] == 1 for f in fx(ev))


def test_r24_end_of_round_system_steps_one_by_one():
    g = scenario(
        "row 10: . . 0 . .\nrow 8: . . 1 . .\nrow 1: 2 . . . .",
        stage="after",
        shop=("B01", "B02", "B03", "B04", "B05"),
        bonus_pile=("B06",),
    )
    g = with_turn(replace(g, order=(0, 1, 2), turn_idx=2), seat=2)
    g, _ = do(g, 2, {"type": "END_TURN", "sell": []})
    assert g.phase == "round_end" and RULES.actors(g) == frozenset({SYSTEM})
    seen = []
    while g.phase == "round_end":
        a = RULES.legal_actions(g, SYSTEM)[0]
        seen.append(a["type"])
        g, _ = do(g, SYSTEM, a)
    assert seen == ["POLICE_FIRE", "CRANE", "SHOP_REFRESH", "NEXT_ROUND"]
    assert g.round == 2 and g.shop == ("B06", "B01", "B02", "B03", "B04")
    assert "B05" in g.bonus_discard


def test_r76_game_ends_after_round_with_crossing_no_end_of_round():
    g = scenario("row 32: . . 0 . .\nrow 20: p4 . 1 . .\nrow 1: 2 . . . .", speeds={0: 10})
    g = replace(g, order=(0, 1, 2), turn_idx=0)
    g, _ = do(g, 0, {"type": "STEP", "dir": "STRAIGHT"})
    g, _ = do(g, 0, {"type": "END_TURN", "sell": []})
    assert turn_of(g).seat == 1
    g = with_turn(g, stage="after")
    g, _ = do(g, 1, {"type": "END_TURN", "sell": []})
    g = with_turn(g, stage="after")
    g, _ = do(g, 2, {"type": "END_TURN", "sell": []})
    assert g.phase == "over" and RULES.actors(g) == frozenset()
    out = RULES.outcome(g)
    assert out is not None and out.ranks[0] == 1


def test_r77_r79_r80_final_money_ranking_and_last_cannot_win():
    g = scenario(
        "row 20: . . 1 . .\nrow 10: . . 2 . .",
        players=3,
        stage="after",
        balances={0: 500, 1: 900, 2: 5000},
        status={0: "finished"},
        tiles={1: ("B01",)},
    )
    cars = list(g.cars)
    cars[2] = replace(cars[2], ramp="placed")
    g = replace(g, cars=tuple(cars), phase="over", finish_order=(0,), turn=None)
    out = RULES.outcome(g)
    assert out is not None
    assert out.scores == (800, 1600, 5000)
    assert out.ranks == (1, 2, 3)
    assert out.winners == (1,)  # seat 2 is last: cannot win


def test_r80_tie_goes_to_better_rank():
    g = scenario(
        "row 20: . . 1 . .\nrow 10: . . 2 . .", players=3, balances={0: 1000, 1: 1000, 2: 0}, status={0: "finished"}
    )
    g = replace(g, phase="over", finish_order=(0,), turn=None)
    out = RULES.outcome(g)
    assert out is not None and out.winners == (0,)


def test_r78_safety_cap():
    g = scenario("row 10: . . 0 . .\nrow 8: . . 1 . .\nrow 1: 2 . . . .")
    g = replace(g, phase="round_end", turn=None, end_steps=("next",), round=60)
    g, _ = do(g, SYSTEM, {"type": "NEXT_ROUND"})
    assert g.phase == "over" and g.end_reason == "cap"


def test_r90_r91_same_seed_same_game_and_events_record_dice():
    s, _ = started(3)
    for seat in range(3):
        s, _ = do(s, seat, RULES.legal_actions(s, seat)[0])
    while s.phase == "adventure":
        seat = next(iter(RULES.actors(s)))
        s, _ = do(s, seat, RULES.legal_actions(s, seat)[0])
    seat = s.turn.seat
    ev = RULES.decide(s, seat, {"type": "ROLL"}, DecideContext(random.Random(7), 0))
    ev2 = RULES.decide(s, seat, {"type": "ROLL"}, DecideContext(random.Random(7), 0))
    assert ev[0].to_json() == ev2[0].to_json()
    assert len(ev[0].data["draws"]) == 5
    s2 = RULES.evolve(s, ev[0])
    assert [d.face for d in turn_of(s2).dice] == ev[0].data["draws"]


def test_r93_parse_action_forms_and_errors():
    assert RULES.parse_action({"type": "BUY", "slot": "3"}) == {"type": "BUY", "slot": 3}
    assert RULES.parse_action({"type": "STEP", "dir": "LANE\u2212"})["dir"] == "LANE-"
    assert RULES.parse_action({"type": "REROLL", "keep": ["1", "0"]})["keep"] == [0, 1]
    assert RULES.parse_action({"type": "PLACE_ADVENTURE", "tile": "A01", "cell": "2,5"})["cell"] == [2, 5]
    for bad in (
        {},
        {"type": "NOPE"},
        {"type": "BUY", "slot": "x"},
        {"type": "STEP", "dir": "BACK"},
        {"type": "PLACE_ADVENTURE", "tile": "A01"},
        {"type": "CHOOSE_CAR", "character": "C9", "start": "S1"},
    ):
        with pytest.raises(InvalidAction):
            RULES.parse_action(bad)


def test_r95_r99_timeout_defaults_refused_early_and_stale():
    g = scenario("row 10: . . 0 . .\nrow 8: . . 1 . .\nrow 1: 2 . . . .", stage="pre")
    g = replace(g, order=(0, 1, 2), turn_idx=0, since=1000.0, time_limit=60)
    dl = RULES.deadlines(g)
    assert dl[0].seats == (0,) and dl[0].due == 1060.0
    with pytest.raises(IllegalAction):
        do(g, SYSTEM, dl[0].action, now=1059.0)
    g2, ev = do(g, SYSTEM, dl[0].action, now=1060.0)
    assert turn_of(g2).seat == 1
    assert [e.type for e in ev][:3] == ["ROLL", "FINALIZE_DICE", "RESOLVE_DICE"]
    assert ev[-1].type == "END_TURN"
    with pytest.raises(IllegalAction):  # stale: the decision was already taken
        do(g2, SYSTEM, dl[0].action, now=2000.0)


def test_r95_resign_makes_deadlines_due_at_once():
    g = scenario("row 10: . . 0 . .\nrow 8: . . 1 . .\nrow 1: 2 . . . .", stage="pre")
    g, _ = do(g, SYSTEM, {"type": "resign", "seat": 0})
    assert RULES.deadlines(g)[0].due == 0
    with pytest.raises(IllegalAction):
        do(g, 0, {"type": "resign", "seat": 0})


def test_r98_view_is_json_and_has_dashboard():
    s = chosen(4)
    v = RULES.view(s, 0)
    json.dumps(v)
    p = v["players_info"][0]
    for k in ("character", "speed", "free_tokens", "durability", "max_durability", "balance", "dice", "tiles", "ramp"):
        assert k in p
    assert v["board"]["lanes"] == 5 and v["board"]["rows"] == 33
    assert len(v["shop"]) == 5 and v["shop"][0]["price"] == 500
    assert "adv_pile" not in v and isinstance(v["adventure_pile_size"], int)
    seat = next(iter(RULES.actors(s)))
    groups = plan_actions(s, seat)
    assert "PLACE_ADVENTURE" in groups


def test_r98_log_lines():
    g = scenario("row 11: . . r1 . .\nrow 10: . . 0 . .\nrow 1: 1 2 . . .", speeds={0: 10})
    _, ev = do(g, 0, {"type": "STEP", "dir": "STRAIGHT"})
    lines = RULES.log_lines(ev[0].for_seat(None))
    msgs = [ln.message for ln in lines]
    assert "%(seat)s moved to lane %(lane)s row %(row)s" in msgs
    for ln in lines:
        ln.message % ln.params


def test_r5_r6_car_records():
    assert Car(seat=0).dur == 6


def _cells_by_looking_around_each(sim, tile):
    """R-71 read cell by cell: free, on rows 3-32 (closed border: outside the forced zone and
    before the wall), and no object of the tile's type on any of its neighbours."""
    from games.engines.bridge_race.board import FORCED_ZONE, adjacent, wall_row, zone_of
    from games.engines.bridge_race.rounds import _types

    kind = ADVENTURE[tile][0]
    occupied = {c.cell for c in sim.cars if c.status == "board"}
    closed = sim.mode == "closed_border"
    out = []
    for row in range(3, 33):
        if closed and (zone_of(row) == FORCED_ZONE[sim.players] or row > wall_row(sim.players)):
            continue
        for lane in range(5):
            cell = (lane, row)
            if cell in sim.objects or cell in occupied:
                continue
            if any((o := sim.objects.get(a)) is not None and kind in _types(o) for a in adjacent(cell)):
                continue
            out.append(cell)
    return out


@pytest.mark.parametrize("players,mode", [(3, "standard"), (4, "closed_border"), (5, "first_game")])
def test_r71_legal_cells_are_the_cells_with_no_same_type_neighbour(players, mode):
    """legal_cells marks the neighbours of each object once: the same cells as looking around each
    cell, over every adventure placement of bot-played races (objects of every kind on the bridge)."""
    for seed in range(3):
        rng = random.Random(seed)
        s = RULES.initial(players, {"mode": mode, "time_limit": 60})
        checked = 0
        for n in range(400):
            actors = RULES.actors(s)
            if not actors:
                break
            seat = next(iter(actors))
            for tile in set(s.face_up) | set(ADVENTURE_IDS[:8]):
                assert legal_cells(s, tile) == _cells_by_looking_around_each(s, tile)
                checked += 1
            action = RULES.legal_actions(s, seat)[0] if seat == SYSTEM else RULES.bot_action(s, seat, rng)
            for event in RULES.decide(s, seat, RULES.parse_action(action), DecideContext(rng, 1000.0 + n)):
                s = RULES.evolve(s, event)
        assert checked > 100 and s.objects
