"""R-59..R-64 ramps; R-81..R-88 first game and closed border."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.engines.base import SYSTEM, IllegalAction
from games.engines.bridge_race import RULES

from .helpers import car, do, fx, scenario, turn_of

S = {"type": "STEP", "dir": "STRAIGHT"}


def test_r59_place_ramp_rules():
    g = scenario("row 10: . . 0 . .\nrow 14: . . 1 . .\nrow 1: 2 . . . .", stage="pre")
    with pytest.raises(IllegalAction):
        do(g, 0, {"type": "PLACE_RAMP", "cell": [1, 2]})  # start area
    with pytest.raises(IllegalAction):
        do(g, 0, {"type": "PLACE_RAMP", "cell": [1, 12], "dir": -1})  # standard: finish only
    g2, _ = do(g, 0, {"type": "PLACE_RAMP", "cell": [2, 11]})
    assert g2.objects[(2, 11)].kind == "ramp" and car(g2, 0).ramp == "placed"
    _g3, _ = do(g, 0, {"type": "USE_TILE", "tile": "B26"}) if False else (g, [])
    g4, _ = do(g, 0, {"type": "ROLL"})
    with pytest.raises(IllegalAction):  # only before rolling
        do(g4, 0, {"type": "PLACE_RAMP", "cell": [2, 11]})


@pytest.mark.parametrize("face,row,dmg", [("STEER", 13, 0), ("POINTER", 13, 1), ("DAMAGE", 12, 2)])
def test_r61_r3_jump_landing_die(face, row, dmg):
    g = scenario("row 11: . . ^ . .\nrow 10: . . 0 . .\nrow 1: 1 2 . . .", speeds={0: 30}, money={(2, 12): 300})
    g, ev = do(g, 0, S, faces=[face])
    c = car(g, 0)
    assert c.cell == (2, row) and c.dur == 6 - dmg
    assert turn_of(g).stage == "after"
    assert ev[0].data["draws"] == [face]
    if row == 13:
        assert g.money.get((2, 12)) == 300  # flown over, not picked up
    else:
        assert c.balance == 1000 + 300 - 100 * dmg


def test_r60_ramp_last_step_no_jump_and_side_entry_damage():
    g = scenario("row 11: . . ^ . .\nrow 10: . . 0 . .\nrow 1: 1 2 . . .", speeds={0: 10})
    g, ev = do(g, 0, S)
    assert car(g, 0).cell == (2, 11) and not any(f["t"] == "jump" for f in fx(ev))
    g = scenario("row 11: . . ^ . .\nrow 10: . 0 . . .\nrow 1: 1 2 . . .", speeds={0: 20})
    g, _ = do(g, 0, {"type": "STEP", "dir": "LANE+"})
    assert car(g, 0).cell == (2, 11) and car(g, 0).dur == 5 and g.money[(2, 11)] == 100


def test_r61_jump_over_finish():
    g = scenario("row 30: . . ^ . .\nrow 29: . . 0 . .\nrow 1: 1 2 . . .", speeds={0: 50})
    g, _ = do(g, 0, S, faces=["POINTER"])
    assert car(g, 0).status == "finished" and car(g, 0).dur == 6


def test_r62_r63_bounce_on_car_then_free_choice():
    g = scenario("row 13: . . 1 . .\nrow 11: . . ^ . .\nrow 10: . . 0 . .\nrow 1: 2 . . . .", speeds={0: 30, 1: 10})
    g, ev = do(g, 0, S, faces=["STEER"])
    assert g.prompt is not None and g.prompt.kind == "land"
    assert [list(o) for o in g.prompt.options] == [[1, 14], [2, 14], [3, 14]]
    g, ev = do(g, 0, {"type": "CHOOSE", "option": 0})
    assert car(g, 0).cell == (1, 14)
    assert car(g, 0).dur == 5 and car(g, 1).dur == 5
    assert g.money[(2, 13)] == 200
    assert ev[0].data["draws"] == ["STEER"]


def test_r62_bounce_on_container_money_on_landing_cell():
    g = scenario("row 13: # . . . .\nrow 11: ^ . . . .\nrow 10: 0 . . . .\nrow 1: . 1 2 . .", speeds={0: 30})
    g, _ = do(g, 0, S, faces=["STEER"])
    # candidates (-1,14) river (open west edge at row 14? no: GR3 large at 12-17) excluded,
    # (0,14) and (1,14) free -> prompt
    assert g.prompt is not None
    g, _ = do(g, 0, {"type": "CHOOSE", "option": 0})
    c = car(g, 0)
    assert c.cell == (0, 14) and c.dur == 5 and g.money[(0, 14)] == 100


def test_r63_bounce_forced_into_river():
    g = scenario(
        "row 8: # # . . .\nrow 7: # . . . .\nrow 5: ^ . . . .\nrow 4: 0 . . . .\nrow 1: . 1 2 . .", speeds={0: 30}
    )
    g, _ = do(g, 0, S, faces=["STEER"])
    c = car(g, 0)
    assert c.status == "river" and c.cell == (0, 8) and c.dur == 5


def test_r64_car_on_ramp_is_normal_for_collisions():
    g = scenario("row 11: . . 1 . .\nrow 10: . . 0 . .\nrow 1: 2 . . . .", speeds={0: 20})
    g = replace(
        g,
        objects={
            (2, 11): g.objects.get((2, 11))
            or __import__("games.engines.bridge_race.state", fromlist=["Obj"]).Obj("ramp", 1, 1)
        },
    )
    g, ev = do(g, 0, S)
    assert not any(f["t"] == "jump" for f in fx(ev))


def test_r81_first_game_no_shop_no_ramps():
    s = RULES.initial(3, {"mode": "first_game"})
    s, _ = do(s, SYSTEM, {"type": "start"})
    for seat in range(3):
        s, _ = do(s, seat, RULES.legal_actions(s, seat)[0])
    assert all(c.ramp == "none" for c in s.cars) and s.shop == ("",) * 5
    g = scenario(
        "row 10: . . 0 . .\nrow 14: . . 1 . .\nrow 1: 2 . . . .",
        stage="pre",
        mode="first_game",
        shop=("B01", "", "", "", ""),
    )
    with pytest.raises(IllegalAction):
        do(g, 0, {"type": "BUY", "slot": 0})
    with pytest.raises(IllegalAction):
        do(g, 0, {"type": "PLACE_RAMP", "cell": [2, 12]})


def test_r85_closed_border_wall_setup():
    for n, row in ((3, 32), (4, 26), (5, 20)):
        s = RULES.initial(n, {"mode": "closed_border"})
        s, _ = do(s, SYSTEM, {"type": "start"})
        wall = {c: o for c, o in s.objects.items() if c[1] == row}
        assert len(wall) == 5
        assert all(o.kind == "container" or o.fortified for o in wall.values())
        assert len(s.adv_pile) + len(s.face_up) == 30 - {3: 2, 4: 1, 5: 0}[n]
        assert len(s.face_up) == n


def test_r86_closed_border_uturn_and_exit():
    pic = "row 27: . . 0 . .\nrow 26: . . . . .\nrow 5: . 1 2 . ."
    g = scenario(pic, mode="closed_border", speeds={0: 10}, players=3)
    g, _ = do(g, 0, S)  # enters row 28 in zone 5 with 4 free tokens
    assert car(g, 0).facing == -1 and car(g, 0).leg == "RET" and turn_of(g).stage == "after"
    g = scenario(
        "row 0: . . 0 . .\nrow 5: . 1 2 . .", mode="closed_border", speeds={0: 10}, facings={0: -1}, legs={0: "RET"}
    )
    g, _ = do(g, 0, S)
    assert car(g, 0).status == "exited" and g.finish_order == (0,)
    assert car(g, 0).balance == 1600


def test_r86_outbound_car_hits_closed_start_end():
    g = scenario(
        "row 0: . . 0 . .\nrow 5: . 1 2 . .", mode="closed_border", speeds={0: 10}, facings={0: -1}, legs={0: "OUT"}
    )
    g = replace(g, cars=tuple(replace(c, speed=10) if c.seat == 0 else c for c in g.cars))
    g, _ = do(g, 0, S)
    assert car(g, 0).status == "board" and car(g, 0).dur == 5


def test_r87_closed_border_order_return_first():
    from games.engines.bridge_race.rounds import position_order

    g = scenario(
        "row 20: . . 0 . .\nrow 10: . . 1 . .\nrow 5: . 2 . . .",
        mode="closed_border",
        legs={1: "RET", 2: "RET"},
        facings={1: -1, 2: -1},
    )
    assert position_order(g) == (2, 1, 0)


def test_r88_closed_border_game_ends_when_all_left_and_arrested_cannot_win():
    g = scenario(
        "row 0: . . 0 . .\nrow 5: . 1 2 . .",
        mode="closed_border",
        speeds={0: 10},
        facings={0: -1},
        legs={0: "RET"},
        stage="after",
        status={1: "exited", 2: "arrested"},
        balances={2: 9000},
    )
    g = replace(g, finish_order=(1,), arrest_order=(2,))
    g = replace(g, cars=tuple(replace(c, status="exited") if c.seat == 0 else c for c in g.cars), finish_order=(1, 0))
    g, _ = do(g, 0, {"type": "END_TURN", "sell": []})
    assert g.phase == "over" and g.end_reason == "all_left"
    out = RULES.outcome(g)
    assert out is not None and out.ranks == (2, 1, 3) and 2 not in out.winners


def test_r83_r84_closed_border_placement_forbidden_zone():
    from games.engines.bridge_race.rounds import legal_cells

    g = scenario("row 10: . . 0 . .\nrow 5: . 1 2 . .", mode="closed_border")
    cells = legal_cells(g, "A01")
    assert all(not c[1] >= 27 for c in cells)
    g5 = scenario("row 10: . . 0 . .\nrow 5: . 1 2 3 4", mode="closed_border")
    cells = legal_cells(g5, "A01")
    assert all(c[1] < 15 for c in cells)
