"""More rule checks: R-9, R-10, R-15, R-16, R-36, R-38, R-42, R-47, R-53, R-55, R-57, R-74,
R-92, R-94, R-96."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.engines.base import IllegalAction
from games.engines.bridge_race.sim import Sim

from .helpers import car, do, fx, money_total, parse_picture, prompt_of, reversed_car, scenario, turn_of

S = {"type": "STEP", "dir": "STRAIGHT"}


def test_ascii_picture_helper():
    objects, cars = parse_picture("""
    row 5: . 0 . # .
    row 4: r2 . c3 . 1
    """)
    assert cars == {0: (1, 5), 1: (4, 4)}
    assert objects[(3, 5)].kind == "container" and objects[(0, 4)].n == 2
    assert objects[(2, 4)].kind == "caltrops" and objects[(2, 4)].n == 3


def test_r9_r16_free_and_placeable_cells():
    g = scenario("row 10: . . 0 # .\nrow 5: . 1 2 . .", money={(0, 10): 100})
    sim = Sim(g)
    assert sim.is_free((0, 10))  # money does not count
    assert not sim.is_free((3, 10)) and not sim.is_free((2, 10))
    assert not sim.placeable((0, 2)) and sim.placeable((0, 3))


def test_r10_money_piles_merge():
    g = scenario("row 11: . . r1 . .\nrow 10: . . 0 . .\nrow 1: 1 2 . . .", speeds={0: 10}, money={(2, 11): 200})
    g, _ = do(g, 0, S)
    assert car(g, 0).balance == 1000 + 200 - 100 and g.money[(2, 11)] == 100


def test_r15_r41_closed_start_end_push():
    g = scenario("row 0: . . 1 . .\nrow 1: . . 0 . .\nrow 9: 2 . . . .", speeds={0: 20, 1: 20}, facings={0: -1, 1: -1})
    g, _ = do(g, 0, S)  # reversed car (only possible through setup here) pushes 1 into end
    assert car(g, 1).cell == (2, 0) and car(g, 1).dur == 4


def test_r36_chain_pushes_front_car_over_finish():
    g = scenario("row 32: . . 1 . .\nrow 31: . . 0 . .\nrow 9: 2 . . . .", speeds={0: 20, 1: 10})
    g, _ = do(g, 0, S)
    assert car(g, 1).status == "finished" and g.finish_order == (1,)
    assert car(g, 1).balance == 1000 - 100 + 600


def test_r38_anchor_prevents_displacement():
    g = scenario("row 11: . . 1 . .\nrow 10: . . 0 . .\nrow 1: 2 . . . .", speeds={0: 30}, blue={1: ("B10",)})
    g, _ = do(g, 0, S)
    assert car(g, 1).cell == (2, 11) and car(g, 1).dur == 3


def test_r42_crane_fee_may_cause_debt():
    g = scenario(
        "row 6: . . . . .\nrow 5: . . . . 1\nrow 4: . . . 0 .\nrow 1: 2 . . . .",
        speeds={0: 20, 1: 20},
        balances={1: 200},
    )
    total = money_total(g)
    g, _ = do(g, 0, {"type": "STEP", "dir": "LANE+"})
    assert car(g, 1).balance == 200 - 100 - 500
    assert money_total(g) == total - 500 == g.bank_out


def test_r47_r52_shooter_chooses_dodge_side():
    g = scenario("row 10: . . 0 . .\nrow 13: . . p1 . .\nrow 1: 1 . . . 2", stage="after", dice=("SHOOT",))
    g, ev = do(g, 0, {"type": "SHOOT", "die": 0})
    assert ev[0].type == "PROMPT" and prompt_of(g).seat == 0
    g, _ = do(g, 0, {"type": "CHOOSE", "option": 0})
    assert g.objects[(1, 13)].kind == "police" and turn_of(g).dice[0].state == "used"


def test_r53_shoot_after_handbrake_backwards():
    g = scenario(
        "row 10: . . 0 . .\nrow 7: . . 1 . .\nrow 1: . . . . 2",
        stage="after",
        speeds={0: 10},
        pool_free=3,
        dice=("SHOOT",),
    )
    g, _ = do(g, 0, {"type": "HANDBRAKE"})
    g, _ = do(g, 0, {"type": "SHOOT", "die": 0})
    assert car(g, 1).dur == 5


def test_r55_guardrail_exemption_only_if_stopped():
    pic = "row 17: . . . . 1\nrow 16: . . . 0 .\nrow 1: 2 . . . ."
    g = scenario(pic, speeds={0: 20, 1: 0}, durs={1: 2})
    g, _ = do(g, 0, {"type": "STEP", "dir": "LANE+"})
    # stopped car hit: R-38 (not a push chain). Contact damage 2 -> 0: car-car, spins
    assert car(g, 1).dur == 0 and car(g, 1).facing == -1
    g = scenario(pic, speeds={0: 20, 1: 20}, durs={1: 2})
    g, _ = do(g, 0, {"type": "STEP", "dir": "LANE+"})
    assert car(g, 1).dur == 0 and car(g, 1).facing == -1  # moving: no exemption


def test_r57_uturn_when_tile_adds_tokens_later():
    g = reversed_car(("STEER", "POINTER", "POINTER", "SHOOT", "SHOOT"), tiles={0: ("B13",)})
    g, _ = do(g, 0, {"type": "RESOLVE_DICE"})
    assert car(g, 0).facing == -1
    g, _ = do(g, 0, {"type": "USE_TILE", "tile": "B13"})
    assert car(g, 0).facing == 1


def test_r74_finished_car_can_still_buy_and_sell():
    g = scenario(
        "row 32: . . 0 . .\nrow 1: 1 2 . . .",
        speeds={0: 20},
        dice=("SHOOT", "POINTER", "POINTER", "STEER", "REPAIR"),
        shop=("", "", "", "", "B26"),
    )
    g, _ = do(g, 0, S)
    assert car(g, 0).status == "finished"
    g, _ = do(g, 0, {"type": "BUY", "slot": 4})
    g, _ = do(g, 0, {"type": "USE_TILE", "tile": "B26"})
    with pytest.raises(IllegalAction):
        do(g, 0, {"type": "SHOOT", "die": 0})
    g, _ = do(g, 0, {"type": "END_TURN", "sell": [0, 3]})
    assert car(g, 0).balance == 1000 + 600 - 100 + 500 + 200


def test_r92_injected_dice_and_r94_choice_replays_same_draws():
    g = scenario("row 13: . . 1 . .\nrow 11: . . ^ . .\nrow 10: . . 0 . .\nrow 1: 2 . . . .", speeds={0: 30, 1: 10})
    g, ev = do(g, 0, S, faces=["POINTER"])
    assert prompt_of(g).draws == ("POINTER",)
    g, ev = do(g, 0, {"type": "CHOOSE", "option": 2}, faces=["DAMAGE"])
    assert ev[0].data["draws"] == ["POINTER"]
    assert car(g, 0).cell == (3, 14) and car(g, 0).dur == 6 - 1 - 1


def test_r96_automatic_steps_are_system_only():
    g = scenario("row 10: . . 0 . .\nrow 1: 1 2 . . .")
    g = replace(g, phase="round_end", turn=None, end_steps=("police", "next"))
    with pytest.raises(IllegalAction):
        do(g, 0, {"type": "POLICE_FIRE"})
    with pytest.raises(IllegalAction):
        do(g, -1, {"type": "CRANE"})


def test_r36_pushed_car_slides_on_oil():
    g = scenario(
        "row 13: . . . . .\nrow 12: . . o . .\nrow 11: . . 1 . .\nrow 10: . . 0 . .\nrow 1: 2 . . . .",
        speeds={0: 20, 1: 10},
    )
    g, ev = do(g, 0, S)
    assert car(g, 1).cell == (2, 13)
    assert any(f["t"] == "oil" for f in fx(ev))
