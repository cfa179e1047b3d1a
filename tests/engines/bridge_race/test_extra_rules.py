"""Further rule checks: R-17, R-19, R-44, R-48 order, R-64, R-66, R-82, R-85, R-86."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.engines.base import SYSTEM, IllegalAction
from games.engines.bridge_race import RULES

from .helpers import car, do, scenario, with_turn

S = {"type": "STEP", "dir": "STRAIGHT"}


def test_r17_unknown_mode_and_player_count_refused():
    with pytest.raises(ValueError):
        RULES.initial(3, {"mode": "chaos"})
    with pytest.raises(ValueError):
        RULES.initial(2, {"mode": "standard"})


@pytest.mark.parametrize("players,prizes", [(3, [600, 0]), (4, [800, 200, 0]), (5, [1000, 400, 100, 0])])
def test_r19_r75_prizes_by_finishing_place(players, prizes):
    pic = "\n".join(f"row 32: {' '.join(str(s) if k == s else '.' for k in range(5))}" for s in range(0))
    rows = [f"row {32 - s}: " + " ".join(str(s) if lane == s else "." for lane in range(5)) for s in range(players)]
    del pic
    g = scenario("\n".join(rows), speeds={s: 50 for s in range(players)})
    got = []
    for place in range(len(prizes)):
        seat = place
        g = replace(g, cars=tuple(replace(c, row=32) if c.seat == seat else c for c in g.cars))
        g = with_turn(g, seat=seat, stage="move", mp=1)
        before = car(g, seat).balance
        g, _ = do(g, seat, S)
        got.append(car(g, seat).balance - before)
    assert got == prizes


def test_r44_shots_remove_pieces_one_by_one_and_discard_with_last():
    g = scenario("row 10: . . 0 . .\nrow 12: . . r2 . .\nrow 1: 1 2 . . .", stage="after", dice=("SHOOT", "SHOOT"))
    g, _ = do(g, 0, {"type": "SHOOT", "die": 0})
    assert g.objects[(2, 12)].n == 1 and "A08" not in g.adv_discard
    g, _ = do(g, 0, {"type": "SHOOT", "die": 1})
    assert (2, 12) not in g.objects and "A08" in g.adv_discard


def test_r48_police_order_highest_row_first():
    g = scenario(
        "row 20: . p1 . . .\nrow 18: . 0 . . .\nrow 16: . p1 . . .\nrow 12: . 1 . . .\nrow 1: 2 . . . .", durs={0: 1}
    )
    g = replace(g, phase="round_end", turn=None, end_steps=("police", "next"))
    g, ev = do(g, SYSTEM, {"type": "POLICE_FIRE"})
    fires = [f for f in ev[0].data["fx"] if f["t"] == "police_fire"]
    assert [f["row"] for f in fires] == [20, 16]
    assert fires[0]["target_seat"] == 0 and fires[1]["target_seat"] == 1
    assert car(g, 0).dur == 0 and car(g, 0).facing == -1  # police damage spins


def test_r64_ramp_stops_shots_and_r51():
    g = scenario(
        "row 10: . . 0 . .\nrow 12: . . ^ . .\nrow 14: . . 1 . .\nrow 1: 2 . . . .", stage="after", dice=("SHOOT",)
    )
    g, _ = do(g, 0, {"type": "SHOOT", "die": 0})
    assert car(g, 1).dur == 6 and (2, 12) in g.objects


def test_r66_cheaper_slots_stay():
    g = scenario(
        "row 10: . . 0 . .\nrow 1: 1 2 . . .", stage="pre", shop=("B01", "B06", "B18", "B21", "B27"), bonus_pile=()
    )
    g, _ = do(g, 0, {"type": "BUY", "slot": 1})
    assert g.shop == ("", "B01", "B18", "B21", "B27")
    g = with_turn(g, bought=False)
    with pytest.raises(IllegalAction):  # empty slot
        do(g, 0, {"type": "BUY", "slot": 0})


def test_r82_handbrake_in_forced_zone_becomes_return():
    g = scenario(
        "row 28: . . 0 . .\nrow 5: . 1 2 . .", mode="closed_border", speeds={0: 10}, stage="after", pool_free=3
    )
    g, _ = do(g, 0, {"type": "HANDBRAKE"})
    assert car(g, 0).leg == "RET" and car(g, 0).facing == -1 and car(g, 0).speed == 0


def test_r85_fortified_police_absorbs_shots_and_blocks_cars():
    g = scenario(
        "row 32: . P . . .\nrow 31: . 0 . . .\nrow 1: . . 1 2 .", mode="closed_border", speeds={0: 10}, dice=("SHOOT",)
    )
    g2, _ = do(g, 0, S)
    assert car(g2, 0).cell == (1, 31) and car(g2, 0).speed == 0
    g3 = with_turn(g, stage="after")
    g3, _ = do(g3, 0, {"type": "SHOOT", "die": 0})
    assert g3.objects[(1, 32)].fortified


def test_r86_arrest_when_pushed_beyond_the_wall_row():
    # 5 players: wall row 20; a chain pushed diagonally past it is arrested (row 21)
    g = scenario("row 20: . . . . .\nrow 21: . . . . .\nrow 19: 0 . . . .\nrow 1: . 1 2 3 4", mode="closed_border")
    from games.engines.bridge_race.movement import beyond
    from games.engines.bridge_race.sim import Sim

    assert beyond(Sim(g), 0, (0, 21)) == "arrest"
    assert beyond(Sim(g), 0, (0, 33)) == "arrest"
