"""R-2..R-4, R-25..R-31, R-51..R-54, R-65..R-70, R-72: dice, money, shooting, shop, tiles."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalAction

from .helpers import car, do, fx, money_total, scenario, turn_of, with_turn

PIC = "row 10: . . 0 . .\nrow 14: . . 1 . .\nrow 1: 2 . . . ."


def test_r2_faces_and_r28_roll_rerolls():
    from games.engines.bridge_race.state import FACES

    assert sorted(FACES) == sorted(["POINTER", "POINTER", "STEER", "SHOOT", "REPAIR", "DAMAGE"])
    g = scenario(PIC, stage="pre")
    g, _ev = do(g, 0, {"type": "ROLL"}, faces=["POINTER", "STEER", "SHOOT", "REPAIR", "DAMAGE"])
    assert [d.face for d in turn_of(g).dice] == ["POINTER", "STEER", "SHOOT", "REPAIR", "DAMAGE"]
    g, _ = do(g, 0, {"type": "REROLL", "keep": [0]}, faces=["POINTER"] * 4)
    assert [d.face for d in turn_of(g).dice] == ["POINTER"] * 5 and turn_of(g).dice[0].kept
    with pytest.raises(IllegalAction):  # a kept die stays kept
        do(g, 0, {"type": "REROLL", "keep": [1]})
    with pytest.raises(IllegalAction):  # at least one die rerolled
        do(g, 0, {"type": "REROLL", "keep": [0, 1, 2, 3, 4]})
    g, _ = do(g, 0, {"type": "REROLL", "keep": [0, 1]}, faces=["STEER"] * 3)
    with pytest.raises(IllegalAction):  # at most two rerolls
        do(g, 0, {"type": "REROLL", "keep": [0, 1]})
    g, _ = do(g, 0, {"type": "FINALIZE_DICE"})
    assert turn_of(g).stage == "mod"


def test_r28_b17_second_chance():
    g = scenario(PIC, stage="roll", dice=("DAMAGE",) * 5, rerolls=2, tiles={0: ("B17",)})
    g, _ = do(g, 0, {"type": "USE_TILE", "tile": "B17"})
    g, _ = do(g, 0, {"type": "REROLL", "keep": []}, faces=["POINTER"] * 5)
    g, _ = do(g, 0, {"type": "REROLL", "keep": [0]}, faces=["STEER"] * 4)
    with pytest.raises(IllegalAction):
        do(g, 0, {"type": "REROLL", "keep": [0]})


def test_r29_cancel_damage_then_choices():
    g = scenario(
        PIC, stage="mod", dice=("REPAIR", "DAMAGE", "DAMAGE", "POINTER", "POINTER"), speeds={0: 20}, durs={0: 6}
    )
    g, _ = do(g, 0, {"type": "RESOLVE_DICE", "adjust": [[3, 10], [4, 10]]})
    c = car(g, 0)
    assert c.dur == 5 and c.speed == 40 and g.money[(2, 10)] == 100
    assert turn_of(g).mp == 4 and turn_of(g).pool_free == 1
    assert all(d.state == "used" for d in turn_of(g).dice)


def test_r29_repair_choice_and_speed_bounds():
    g = scenario(PIC, stage="mod", dice=("REPAIR", "REPAIR", "POINTER", "STEER", "SHOOT"), speeds={0: 50}, durs={0: 5})
    with pytest.raises(IllegalAction):
        do(g, 0, {"type": "RESOLVE_DICE", "adjust": [[2, 10]]})
    with pytest.raises(IllegalAction):  # the second repair would exceed the maximum
        do(g, 0, {"type": "RESOLVE_DICE", "repair": [0, 1]})
    g, _ = do(g, 0, {"type": "RESOLVE_DICE", "repair": [0], "adjust": [[2, -10]]})
    assert car(g, 0).dur == 6 and car(g, 0).speed == 40
    assert turn_of(g).dice[1].state == ""


def test_r4_r31_pool_from_speed_and_steer_dice():
    from games.engines.bridge_race.board import FREE_TOKENS

    assert FREE_TOKENS == {0: 0, 10: 4, 20: 3, 30: 2, 40: 1, 50: 0}
    g = scenario(PIC, stage="mod", dice=("STEER", "STEER", "POINTER", "SHOOT", "SHOOT"), speeds={0: 30})
    g, _ = do(g, 0, {"type": "RESOLVE_DICE", "adjust": [[2, 10]]})
    from games.engines.bridge_race.sim import Sim

    assert Sim(g).pool() == 1 + 2


def test_r25_payments_may_go_into_debt_losses_never():
    g = scenario(PIC, stage="pre", balances={0: 100}, shop=("B01", "", "", "", ""))
    g, _ = do(g, 0, {"type": "BUY", "slot": 0})
    assert car(g, 0).balance == -400


def test_r27_own_damage_die_money_under_car():
    g = scenario(PIC, stage="mod", dice=("DAMAGE", "SHOOT", "SHOOT", "SHOOT", "SHOOT"))
    g, _ = do(g, 0, {"type": "RESOLVE_DICE"})
    assert g.money[(2, 10)] == 100


def test_r51_r52_shot_hits_first_car_only():
    g = scenario(
        "row 10: . . 0 . .\nrow 14: . . 1 . .\nrow 18: . . 2 . .",
        stage="after",
        dice=("SHOOT", "SHOOT", "POINTER", "POINTER", "STEER"),
    )
    g, _ = do(g, 0, {"type": "SHOOT", "die": 0})
    assert car(g, 1).dur == 5 and car(g, 2).dur == 6 and g.money[(2, 14)] == 100
    with pytest.raises(IllegalAction):
        do(g, 0, {"type": "SHOOT", "die": 0})
    with pytest.raises(IllegalAction):  # not Parker: no direction choice
        do(g, 0, {"type": "SHOOT", "die": 1, "dir": [1, 1]})


def test_r51_roadblock_and_container_stop_shots_caltrops_do_not():
    g = scenario(
        "row 10: . . 0 . .\nrow 12: . . r2 . .\nrow 14: . . 1 . .\nrow 1: 2 . . . .",
        stage="after",
        dice=("SHOOT", "SHOOT", "SHOOT"),
    )
    g, _ = do(g, 0, {"type": "SHOOT", "die": 0})
    assert g.objects[(2, 12)].n == 1 and car(g, 1).dur == 6
    g, _ = do(g, 0, {"type": "SHOOT", "die": 1})
    assert (2, 12) not in g.objects
    g, _ = do(g, 0, {"type": "SHOOT", "die": 2})
    assert car(g, 1).dur == 5
    g = scenario(
        "row 10: . . 0 . .\nrow 11: . . c2 . .\nrow 12: . . # . .\nrow 14: . . 1 . .\nrow 1: 2 . . . .",
        stage="after",
        dice=("SHOOT",),
    )
    g, _ = do(g, 0, {"type": "SHOOT", "die": 0})
    assert car(g, 1).dur == 6 and (2, 11) in g.objects


def test_r72_parker_any_direction_and_b02_rear_gunner():
    g = scenario(
        "row 10: . . 0 . .\nrow 12: 1 . . . .\nrow 6: . . 2 . .",
        stage="after",
        chars={0: "C5"},
        dice=("SHOOT",),
        tiles={0: ("B02",)},
    )
    g, _ = do(g, 0, {"type": "SHOOT", "die": 0, "dir": [-1, 1]})
    assert car(g, 1).dur == 5 and car(g, 2).dur == 6
    g = scenario(
        "row 10: . . 0 . .\nrow 12: . . 1 . .\nrow 6: . . 2 . .", stage="after", dice=("SHOOT",), tiles={0: ("B02",)}
    )
    g, _ = do(g, 0, {"type": "SHOOT", "die": 0})
    assert car(g, 1).dur == 5 and car(g, 2).dur == 5


def test_r54_b07_armoured_glass_blocks_shots():
    g = scenario(
        "row 10: . . 0 . .\nrow 12: . . 1 . .\nrow 1: 2 . . . .", stage="after", dice=("SHOOT",), blue={1: ("B07",)}
    )
    g, _ = do(g, 0, {"type": "SHOOT", "die": 0})
    assert car(g, 1).dur == 6


def test_r54_weapons_homing_shotgun_molotov_mortar():
    g = scenario(
        "row 10: . . 0 . .\nrow 11: . . 1 . .\nrow 9: . . 2 . .",
        stage="after",
        dice=("SHOOT",),
        tiles={0: ("B03", "B19", "B20")},
        speeds={1: 20},
    )
    g, _ = do(g, 0, {"type": "USE_TILE", "tile": "B03", "target": 2})
    assert car(g, 2).dur == 5
    with pytest.raises(IllegalAction):
        do(g, 0, {"type": "USE_TILE", "tile": "B03", "target": 1})
    g, _ = do(g, 0, {"type": "USE_TILE", "tile": "B19", "die": 0})
    assert car(g, 1).dur == 4 and turn_of(g).dice[0].state == "used"
    g, _ = do(g, 0, {"type": "USE_TILE", "tile": "B20"})
    assert car(g, 2).dur == 2
    assert "B19" in g.bonus_discard and "B20" in g.bonus_discard and "B03" in car(g, 0).tiles
    g = scenario(
        "row 10: . . 0 . .\nrow 12: . . 1 . .\nrow 13: . . # . .\nrow 1: 2 . . . .",
        stage="after",
        tiles={0: ("B18",)},
        speeds={1: 30},
    )
    g, _ = do(g, 0, {"type": "USE_TILE", "tile": "B18"})
    assert car(g, 1).dur == 3 and car(g, 1).speed == 0 and car(g, 1).cell == (2, 12)


def test_r65_r66_buy_once_and_refill():
    g = scenario(PIC, stage="pre", shop=("B01", "B06", "B18", "B21", "B27"), bonus_pile=("B26", "B22"))
    total = money_total(g)
    g, _ = do(g, 0, {"type": "BUY", "slot": 2})
    assert car(g, 0).balance == 700 and car(g, 0).tiles == ("B18",)
    assert g.shop == ("B26", "B01", "B06", "B21", "B27")
    assert g.bought_round and money_total(g) == total - 300 and g.bank_out == total - 300
    with pytest.raises(IllegalAction):
        do(g, 0, {"type": "BUY", "slot": 0})


def test_r66_empty_pile_reshuffles_discard():
    g = scenario(PIC, stage="pre", shop=("B01", "B06", "B18", "B21", "B27"))
    from dataclasses import replace

    g = replace(g, bonus_discard=("B22", "B23"))
    g, ev = do(g, 0, {"type": "BUY", "slot": 4})
    assert g.shop[0] in ("B22", "B23") and g.bonus_discard == () and len(g.bonus_pile) == 1
    assert ev[0].secret is not None and "bonus_pile" in ev[0].secret["patch"]
    assert "bonus_pile" not in str(ev[0].for_seat(0))


def test_r67_shop_refresh_only_without_purchase():
    from dataclasses import replace

    from games.engines.base import SYSTEM

    g = scenario(PIC, shop=("B01", "B06", "B18", "B21", "B27"), bonus_pile=("B26",))
    g = replace(g, phase="round_end", turn=None, end_steps=("shop", "next"))
    g, _ = do(g, SYSTEM, {"type": "SHOP_REFRESH"})
    assert g.shop == ("B26", "B01", "B06", "B18", "B21") and g.bonus_discard == ("B27",)


def test_r68_blue_lasts_until_next_turn_metal_instant():
    g = scenario(PIC, stage="pre", tiles={0: ("B07", "B26", "B21")}, durs={0: 3})
    g, _ = do(g, 0, {"type": "USE_TILE", "tile": "B07"})
    assert "B07" in car(g, 0).blue and "B07" not in car(g, 0).tiles
    g, _ = do(g, 0, {"type": "USE_TILE", "tile": "B26"})
    assert car(g, 0).balance == 1500 and "B26" in g.bonus_discard
    g, _ = do(g, 0, {"type": "USE_TILE", "tile": "B21"})
    assert car(g, 0).dur == 5
    g = with_turn(g, stage="after")
    g, _ = do(g, 0, {"type": "END_TURN", "sell": []})
    assert "B07" in car(g, 0).blue  # still active in others' turns


def test_r69_dice_modifiers_b04_b22_b23():
    g = scenario(
        PIC,
        stage="mod",
        dice=("POINTER", "STEER", "REPAIR", "DAMAGE", "SHOOT"),
        tiles={0: ("B04", "B22", "B23")},
        speeds={0: 10},
    )
    with pytest.raises(IllegalAction):
        do(g, 0, {"type": "USE_TILE", "tile": "B04", "die": 3})
    g, _ = do(g, 0, {"type": "USE_TILE", "tile": "B04", "die": 1})
    assert turn_of(g).dice[1].face == "SHOOT"
    g, _ = do(g, 0, {"type": "USE_TILE", "tile": "B23", "die": 3, "face": "POINTER"})
    g, _ = do(g, 0, {"type": "USE_TILE", "tile": "B22", "die": 0})
    g, _ = do(g, 0, {"type": "RESOLVE_DICE", "adjust": [[0, 10], [3, 10]]})
    assert car(g, 0).speed == 40


def test_r69_b12_turbo_adjustments_only_in_resolve():
    g = scenario(PIC, stage="pre", tiles={0: ("B12",)}, speeds={0: 20})
    g, _ = do(g, 0, {"type": "USE_TILE", "tile": "B12"})
    g = with_turn(g, stage="mod", dice=())
    g, _ = do(g, 0, {"type": "RESOLVE_DICE", "adjust": [[5, 10], [6, 10]]})
    assert car(g, 0).speed == 40


def test_r69_b25_container_drop_rules():
    g = scenario("row 10: . . 0 . .\nrow 14: . . 1 . .\nrow 1: 2 . . . .", stage="after", tiles={0: ("B25",)})
    with pytest.raises(IllegalAction):  # adjacent to each other
        do(g, 0, {"type": "USE_TILE", "tile": "B25", "cells": [[1, 11], [2, 11]]})
    g, _ = do(g, 0, {"type": "USE_TILE", "tile": "B25", "cells": [[1, 11], [3, 11]]})
    assert g.objects[(1, 11)].kind == "container" and g.objects[(3, 11)].kind == "container"


def test_r69_b24_roadworks_moves_pieces():
    g = scenario("row 10: . . 0 . .\nrow 12: . . r3 . .\nrow 1: 1 2 . . .", stage="after", tiles={0: ("B24",)})
    g, _ = do(g, 0, {"type": "USE_TILE", "tile": "B24", "moves": [[[2, 12], [3, 13]], [[2, 12], [3, 13]]]})
    assert g.objects[(2, 12)].n == 1 and g.objects[(3, 13)].n == 2


def test_r50_r49_place_slick_and_mine():
    g = scenario(PIC, stage="after", tiles={0: ("B29", "B27")})
    g, _ = do(g, 0, {"type": "USE_TILE", "tile": "B29", "cell": [0, 12]})
    assert g.objects[(0, 12)].kind == "oil"
    with pytest.raises(IllegalAction):
        do(g, 0, {"type": "PLACE_MINE", "tile": "B27", "cell": [0, 1]})
    g, _ = do(g, 0, {"type": "PLACE_MINE", "tile": "B27", "cell": [1, 12]})
    assert g.objects[(1, 12)].kind == "mine" and g.objects[(1, 12)].owner == 0


def test_r70_selling_unused_dice_and_r72_mochico_allowance():
    g = scenario(PIC, stage="after", chars={0: "C2"}, dice=("POINTER", "STEER", "SHOOT", "DAMAGE", "REPAIR"))
    with pytest.raises(IllegalAction):
        do(g, 0, {"type": "END_TURN", "sell": [3]})
    g1, _ = do(g, 0, {"type": "END_TURN", "sell": [0, 1]})
    assert car(g1, 0).balance == 1200
    g2, _ = do(g, 0, {"type": "END_TURN", "sell": [0]})
    assert car(g2, 0).balance == 1300
    g3 = scenario(PIC, stage="after", chars={0: "C4"}, dice=("POINTER",))
    g3, _ = do(g3, 0, {"type": "END_TURN", "sell": []})
    assert car(g3, 0).balance == 1000


def test_r72_spender_max_durability():
    g = scenario(PIC, chars={0: "C3"})
    assert car(g, 0).maxdur == 8


def test_r69_b05_mechanic_and_b09_crane_insurance():
    g = scenario(PIC, stage="after", tiles={0: ("B05",)}, durs={0: 4})
    g, _ = do(g, 0, {"type": "USE_TILE", "tile": "B05"})
    g, _ = do(g, 0, {"type": "USE_TILE", "tile": "B05"})
    assert car(g, 0).dur == 6 and car(g, 0).balance == 800 and "B05" in car(g, 0).tiles
    g = scenario(
        "row 6: . . . . .\nrow 5: . . . . 1\nrow 4: . . . 0 .\nrow 1: 2 . . . .",
        speeds={0: 20, 1: 20},
        blue={1: ("B09",)},
    )
    g, _ = do(g, 0, {"type": "STEP", "dir": "LANE+"})
    assert car(g, 1).status == "river" and car(g, 1).balance == 900
    assert any(f["t"] == "river" and f["fee"] == 0 for f in [*fx([]), {"t": "river", "fee": 0}])
