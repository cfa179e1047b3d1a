"""R-32..R-50, R-55..R-58: driving, collisions, hazards, spins, U-turns."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalAction

from .helpers import car, do, money_total, reversed_car, scenario, turn_of, with_turn

S = {"type": "STEP", "dir": "STRAIGHT"}
L = {"type": "STEP", "dir": "LANE-"}
R = {"type": "STEP", "dir": "LANE+"}


def test_r32_exact_steps_and_lane_cost():
    g = scenario(
        """
    row 11: . . . . .
    row 10: . . 0 . .
    row 5: 1 . . . 2
    """,
        speeds={0: 20},
    )
    assert turn_of(g).pool_free == 3
    g, _ = do(g, 0, R)
    assert car(g, 0).cell == (3, 11)
    assert turn_of(g).pool_free == 1 and turn_of(g).mp == 1
    with pytest.raises(IllegalAction):
        do(g, 0, L)  # only 1 token left
    g, _ = do(g, 0, S)
    assert car(g, 0).cell == (3, 12)
    assert turn_of(g).stage == "after"
    with pytest.raises(IllegalAction):
        do(g, 0, S)


def test_r32_cannot_steer_off_bridge():
    g = scenario("row 10: 0 . . . .\nrow 5: . 1 2 . .", speeds={0: 20})
    with pytest.raises(IllegalAction):
        do(g, 0, L)


def test_r31_tokens_spent_free_then_bonus_then_steer_dice():
    g = scenario(
        "row 10: . . 0 . .\nrow 5: . 1 2 . .",
        speeds={0: 50},
        dice=("STEER", "STEER", "SHOOT", "POINTER", "DAMAGE"),
        pool_bonus=1,
    )
    assert turn_of(g).pool_free == 0
    g, _ = do(g, 0, R)
    assert turn_of(g).pool_bonus == 0
    assert [d.state for d in turn_of(g).dice][:2] == ["used", ""]


def test_r34_pickup_on_entering_not_under_car():
    g = scenario(
        "row 11: . . . . .\nrow 10: . . 0 . .\nrow 5: . 1 2 . .", speeds={0: 10}, money={(2, 10): 300, (2, 11): 200}
    )
    g, _ = do(g, 0, S)
    assert car(g, 0).balance == 1200
    assert g.money.get((2, 10)) == 300


def test_r44_roadblock_damage_and_removed():
    g = scenario("row 11: . . r2 . .\nrow 10: . . 0 . .\nrow 5: . 1 2 . .", speeds={0: 20})
    g, _ = do(g, 0, S)
    assert car(g, 0).dur == 4 and car(g, 0).cell == (2, 11)
    assert (2, 11) not in g.objects
    assert g.money[(2, 11)] == 200 and car(g, 0).balance == 800
    assert "A08" in g.adv_discard
    g, _ = do(g, 0, S)  # continues
    assert car(g, 0).cell == (2, 12)
    assert g.money[(2, 11)] == 200  # left behind, not picked up


def test_r45_caltrops_pending_until_end_of_movement():
    g = scenario("row 11: . . c2 . .\nrow 10: . . 0 . .\nrow 5: . 1 2 . .", speeds={0: 30})
    g, _ = do(g, 0, S)
    assert car(g, 0).speed == 30 and turn_of(g).pending_slow == 20
    assert (2, 11) not in g.objects
    g, _ = do(g, 0, S)
    g, _ = do(g, 0, S)
    assert car(g, 0).speed == 10 and car(g, 0).cell == (2, 13)


def test_r45_caltrops_on_pushed_car_apply_at_once_and_b08():
    g = scenario("row 12: . . c3 . .\nrow 11: . . 1 . .\nrow 10: . . 0 . .\nrow 5: 2 . . . .", speeds={0: 20, 1: 20})
    g, _ = do(g, 0, S)
    assert car(g, 1).cell == (2, 12) and car(g, 1).speed == 0
    g2 = scenario("row 11: . . c3 . .\nrow 10: . . 0 . .\nrow 5: 1 2 . . .", speeds={0: 20}, blue={0: ("B08",)})
    g2, _ = do(g2, 0, S)
    assert (2, 11) in g2.objects and turn_of(g2).pending_slow == 0


@pytest.mark.parametrize("speed,dmg", [(30, 0), (40, 1), (50, 2)])
def test_r46_speed_limit_damage_by_speed(speed, dmg):
    g = scenario("row 11: . . s . .\nrow 10: . . 0 . .\nrow 5: . 1 2 . .", speeds={0: speed})
    g, _ = do(g, 0, S)
    assert car(g, 0).dur == 6 - dmg
    assert (2, 11) in g.objects


def test_r46_b06_cancels_speed_limit():
    g = scenario("row 11: . . s . .\nrow 10: . . 0 . .\nrow 5: . 1 2 . .", speeds={0: 50}, blue={0: ("B06",)})
    g, _ = do(g, 0, S)
    assert car(g, 0).dur == 6


def test_r47_police_dodge_prompt_and_single_side():
    g = scenario("row 11: . . p2 . .\nrow 10: . . 0 . .\nrow 5: 1 . . . 2", speeds={0: 20})
    g, _ev = do(g, 0, S)
    assert g.prompt is not None and g.prompt.kind == "dodge"
    assert car(g, 0).cell == (2, 10)  # nothing applied yet
    g, _ = do(g, 0, {"type": "CHOOSE", "option": 1})
    assert g.prompt is None
    assert g.objects[(3, 11)].kind == "police" and car(g, 0).cell == (2, 11)
    g = scenario("row 11: # . p2 # .\nrow 10: . . 0 . .\nrow 5: 1 . . . 2", speeds={0: 20})
    g, _ = do(g, 0, S)
    assert g.objects[(1, 11)].kind == "police"
    g = scenario("row 11: . # p2 # .\nrow 10: . . 0 . .\nrow 5: 1 . . . 2", speeds={0: 20})
    g, _ = do(g, 0, S)
    assert (2, 11) not in g.objects and "A15" in g.adv_discard


def test_r48_police_fire_first_car_down_lane():
    g = scenario("row 20: . p3 . . .\nrow 15: . 0 . . .\nrow 10: . 1 . . .\nrow 5: 2 . . . .", stage="after")
    g = g.__class__(**{**g.__dict__, "phase": "round_end", "turn": None, "end_steps": ("police", "crane", "next")})
    g, _ev = do(g, -1, {"type": "POLICE_FIRE"})
    assert car(g, 0).dur == 3 and car(g, 1).dur == 6
    assert g.money[(1, 15)] == 300


def test_r48_b07_blocks_b11_passes_and_containers_stop():
    base = "row 20: . p2 . . .\nrow 15: . 0 . . .\nrow 10: . 1 . . .\nrow 5: 2 . . . ."
    for blue, d0, d1 in ((("B07",), 6, 6), (("B11",), 6, 4)):
        g = scenario(base, blue={0: blue})
        g = g.__class__(**{**g.__dict__, "phase": "round_end", "turn": None, "end_steps": ("police", "next")})
        g, _ = do(g, -1, {"type": "POLICE_FIRE"})
        assert (car(g, 0).dur, car(g, 1).dur) == (d0, d1)
    g = scenario("row 20: . p2 . . .\nrow 18: . # . . .\nrow 15: . 0 . . .\nrow 5: 1 2 . . .")
    g = g.__class__(**{**g.__dict__, "phase": "round_end", "turn": None, "end_steps": ("police", "next")})
    g, _ = do(g, -1, {"type": "POLICE_FIRE"})
    assert car(g, 0).dur == 6


def test_r49_mine_hits_opponents_only():
    g = scenario("row 11: . . m1 . .\nrow 10: . . 0 . .\nrow 5: . 1 2 . .", speeds={0: 10})
    g, _ = do(g, 0, S)
    assert car(g, 0).dur == 4 and (2, 11) not in g.objects
    g = scenario("row 11: . . m0 . .\nrow 10: . . 0 . .\nrow 5: . 1 2 . .", speeds={0: 10})
    g, _ = do(g, 0, S)
    assert car(g, 0).dur == 6 and (2, 11) in g.objects


def test_r50_oil_slides_and_empties_pool():
    g = scenario(
        "row 12: . . . . .\nrow 11: . . o . .\nrow 10: . . 0 . .\nrow 5: . 1 2 . .",
        speeds={0: 20},
        dice=("STEER", "POINTER", "SHOOT", "DAMAGE", "REPAIR"),
    )
    g, _ = do(g, 0, S)
    assert car(g, 0).cell == (2, 12)
    assert turn_of(g).pool_free == 0 and turn_of(g).dice[0].state == "used"
    assert turn_of(g).mp == 1


def test_r50_acid_money_to_bank():
    g = scenario("row 11: . . a . .\nrow 10: . . 0 . .\nrow 5: . 1 2 . .", speeds={0: 20})
    total = money_total(g)
    g, _ = do(g, 0, S)
    assert car(g, 0).cell == (2, 12) and car(g, 0).dur == 5
    assert money_total(g) == total - 100 and g.bank_out == total - 100


def test_r35_r36_rear_push_chain_and_r37_sandwich():
    g = scenario(
        """
    row 13: . . . . .
    row 12: . . 2 . .
    row 11: . . 1 . .
    row 10: . . 0 . .
    """,
        speeds={0: 30, 1: 20, 2: 20},
    )
    g, _ = do(g, 0, S)
    assert car(g, 0).cell == (2, 10)
    assert car(g, 1).cell == (2, 12) and car(g, 2).cell == (2, 13)
    assert (car(g, 0).dur, car(g, 1).dur, car(g, 2).dur) == (5, 4, 5)
    assert g.money == {(2, 10): 100, (2, 11): 200, (2, 12): 100}
    # the pusher still has steps and drives over the victim's money
    g, _ = do(g, 0, S)
    assert car(g, 0).cell == (2, 11) and car(g, 0).balance == 900 + 200


def test_r36_side_push_into_river_and_guardrail():
    g = scenario("row 6: . . . . .\nrow 5: . . . . 1\nrow 4: . . . 0 .\nrow 1: 2 . . . .", speeds={0: 20, 1: 20})
    g, _ = do(g, 0, R)
    assert car(g, 1).status == "river" and car(g, 1).cell == (4, 5)
    assert car(g, 1).balance == 1000 - 100 - 500
    g = scenario("row 17: . . . . 1\nrow 16: . . . 0 .\nrow 1: 2 . . . .", speeds={0: 20, 1: 20})
    g, _ = do(g, 0, R)
    assert car(g, 1).cell == (4, 17) and car(g, 1).dur == 4  # contact + rail
    assert car(g, 0).dur == 5


def test_r36_head_on_chain_into_container():
    g = scenario("row 12: . . # . .\nrow 11: . . 1 . .\nrow 10: . . 0 . .\nrow 1: 2 . . . .", speeds={0: 40, 1: 20})
    g, _ = do(g, 0, S)
    assert car(g, 0).dur == 2 and car(g, 1).dur == 2
    assert car(g, 0).speed == 0 and car(g, 1).speed == 0
    assert turn_of(g).stage == "after"
    assert car(g, 0).facing == 1


def test_r36_anchor_blocks_push():
    g = scenario("row 11: . . 1 . .\nrow 10: . . 0 . .\nrow 1: 2 . . . .", speeds={0: 30, 1: 20}, blue={1: ("B10",)})
    g, _ = do(g, 0, S)
    assert car(g, 1).cell == (2, 11) and car(g, 1).dur == 5 and car(g, 0).dur == 5


def test_r38_stopped_car_hit_damage_and_displacement():
    g = scenario("row 11: . . 1 . .\nrow 10: . . 0 . .\nrow 1: 2 . . . .", speeds={0: 30, 1: 0})
    g, _ = do(g, 0, S)
    assert car(g, 0).dur == 3 and car(g, 1).dur == 3
    assert car(g, 0).speed == 0 and car(g, 1).cell == (2, 12)
    assert turn_of(g).stage == "after"
    assert g.money == {(2, 10): 300, (2, 11): 300}


def test_r38_faster_opposite_car_displaces_the_hitter():
    g = scenario(
        "row 11: . . 1 . .\nrow 10: . . 0 . .\nrow 1: 2 . . . .", speeds={0: 10, 1: 20}, facings={1: -1}, durs={1: 6}
    )
    g, _ = do(g, 0, S)
    assert car(g, 0).cell == (2, 9) and car(g, 1).cell == (2, 11)


def test_r39_head_on_container_crash_damage_by_speed():
    g = scenario("row 11: . . # . .\nrow 10: . . 0 . .\nrow 1: 1 2 . . .", speeds={0: 50})
    g, _ = do(g, 0, S)
    c = car(g, 0)
    assert c.dur == 1 and c.speed == 0 and c.cell == (2, 10) and c.facing == 1
    assert g.money[(2, 10)] == 500


def test_r39_crash_to_zero_no_spin_r55():
    g = scenario("row 11: . . # . .\nrow 10: . . 0 . .\nrow 1: 1 2 . . .", speeds={0: 50}, durs={0: 3})
    g, _ = do(g, 0, S)
    assert car(g, 0).dur == 0 and car(g, 0).facing == 1


def test_r40_side_crash_into_container():
    g = scenario("row 12: . . . # .\nrow 11: . . 1 . .\nrow 10: . 0 . . .\nrow 1: 2 . . . .", speeds={0: 20, 1: 20})
    g, _ = do(g, 0, R)
    assert car(g, 1).cell == (2, 11) and car(g, 1).dur == 4 and car(g, 1).speed == 20
    assert car(g, 0).dur == 5


def test_r41_closed_start_end_mortar():
    g = scenario(
        "row 5: . . 0 . .\nrow 0: . . 1 . .\nrow 9: 2 . . . .",
        speeds={1: 20},
        facings={1: -1},
        tiles={0: ("B18",)},
        stage="after",
    )
    g, _ = do(g, 0, {"type": "USE_TILE", "tile": "B18", "dir": [0, 1]})
    # the mortar shoots forward, nothing there: no effect
    assert car(g, 1).cell == (2, 0)


def test_r42_river_and_r43_crane():
    g = scenario("row 6: . . . . .\nrow 5: . . . . 1\nrow 4: . . . 0 .\nrow 1: 2 . . . .", speeds={0: 20, 1: 20})
    g, _ = do(g, 0, R)
    assert car(g, 1).status == "river"
    g = g.__class__(**{**g.__dict__, "phase": "round_end", "turn": None, "end_steps": ("crane", "next")})
    cars = list(g.cars)
    cars[2] = cars[2].__class__(**{**cars[2].__dict__, "lane": 4, "row": 5})
    g = g.__class__(**{**g.__dict__, "cars": tuple(cars)})
    g, _ = do(g, -1, {"type": "CRANE"})
    assert car(g, 1).status == "board" and car(g, 1).cell == (3, 5)


def test_r43_crane_order():
    from games.engines.bridge_race.board import crane_order

    order = crane_order((4, 10))
    assert order[:5] == [(3, 10), (4, 9), (3, 9), (4, 11), (3, 11)]
    order = crane_order((1, 10))
    assert order[:2] == [(2, 10), (0, 10)]


def test_r55_spin_from_shot_and_exemption_when_stopped_at_rail():
    g = scenario(
        "row 12: . . 1 . .\nrow 10: . . 0 . .\nrow 1: 2 . . . .",
        speeds={1: 20},
        durs={1: 1},
        dice=("SHOOT",),
        stage="after",
    )
    g, _ = do(g, 0, {"type": "SHOOT", "die": 0})
    assert car(g, 1).facing == -1 and car(g, 1).speed == 0


def test_r56_r57_reversed_car_uturn_automatic_when_tokens():
    g = reversed_car(("STEER", "STEER", "STEER", "POINTER", "SHOOT"))
    with pytest.raises(IllegalAction):
        do(g, 0, {"type": "RESOLVE_DICE", "adjust": [[3, 10]]})
    g, _ = do(g, 0, {"type": "RESOLVE_DICE"})
    assert car(g, 0).facing == 1 and turn_of(g).stage == "after"
    g = reversed_car(("STEER", "STEER", "POINTER", "POINTER", "SHOOT"))
    g, _ = do(g, 0, {"type": "RESOLVE_DICE"})
    assert car(g, 0).facing == -1


def test_r58_handbrake():
    g = scenario("row 10: . . 0 . .\nrow 1: 1 2 . . .", speeds={0: 10}, stage="after", pool_free=3)
    g, _ = do(g, 0, {"type": "HANDBRAKE"})
    assert car(g, 0).facing == -1 and car(g, 0).speed == 0
    with pytest.raises(IllegalAction):
        do(g, 0, {"type": "HANDBRAKE"})


def test_r33_finish_line_crossing_prize_r75():
    g = scenario("row 32: . . 0 . .\nrow 1: 1 2 . . .", speeds={0: 20})
    g, _ = do(g, 0, S)
    assert car(g, 0).status == "finished" and g.finish_order == (0,)
    assert car(g, 0).balance == 1600
    assert turn_of(g).stage == "after"


def test_r72_pipetta_rams_without_damage():
    g = scenario("row 11: . . 1 . .\nrow 10: . . 0 . .\nrow 1: 2 . . . .", speeds={0: 30, 1: 0}, chars={0: "C1"})
    g, _ = do(g, 0, S)
    assert car(g, 0).dur == 6 and car(g, 0).speed == 30
    assert car(g, 1).cell == (2, 12) and car(g, 1).dur == 3
    assert turn_of(g).mp == 2


def test_r72_john_duke_road_reduction():
    g = scenario("row 11: . . r2 . .\nrow 10: . . 0 . .\nrow 1: 1 2 . . .", speeds={0: 10}, chars={0: "C4"})
    g, _ = do(g, 0, S)
    assert car(g, 0).dur == 5


def test_r26_broke_player_loses_durability_not_money():
    g = scenario("row 11: . . r2 . .\nrow 10: . . 0 . .\nrow 1: 1 2 . . .", speeds={0: 10}, balances={0: -300})
    g, _ = do(g, 0, S)
    assert car(g, 0).dur == 4 and car(g, 0).balance == -300 and (2, 11) not in g.money


def test_r26_zero_durability_drops_nothing():
    g = scenario("row 11: . . r2 . .\nrow 10: . . 0 . .\nrow 1: 1 2 . . .", speeds={0: 10}, durs={0: 0}, facings={0: 1})
    g, _ = do(g, 0, S)
    assert car(g, 0).dur == 0 and car(g, 0).balance == 1000


def test_r30_stop_repair():
    g = scenario("row 10: . . 0 . .\nrow 1: 1 2 . . .", durs={0: 2}, stage="pre")
    g, _ = do(g, 0, {"type": "PAY_REPAIR"})
    assert car(g, 0).dur == 6 and car(g, 0).balance == 800
    with pytest.raises(IllegalAction):
        do(with_turn(g, repaired=True), 0, {"type": "PAY_REPAIR"})
