"""Final scoring (section 6, R-110 to R-123)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.engines.dirty_money import RULES
from games.engines.dirty_money.scoring import art_points, blacklist_penalties, components, final_scores

from .helpers import act, of_type, position


@pytest.mark.parametrize(
    ("n", "points"), [(0, 0), (1, 2), (2, 5), (3, 9), (4, 14), (5, 20), (6, 22), (7, 25), (10, 40), (11, 42)]
)
def test_R114_art_sets(n: int, points: int) -> None:
    assert art_points(n) == points


def test_R112_blacklist_penalties() -> None:
    assert blacklist_penalties([0, 0, 0]) == [0, 0, 0]  # all tied: nobody
    assert blacklist_penalties([3, 3]) == [0, 0]
    assert blacklist_penalties([1, 3, 5]) == [0, 3, 7]
    assert blacklist_penalties([1, 1, 5, 5]) == [0, 0, 7, 7]
    assert blacklist_penalties([0, 2]) == [0, 4]


def test_R111_R81_charity_removes_up_to_two_points_each() -> None:
    state = position(tableaux=(("EU-12", "US-12"), ("JP-12",), ()), blacklists=(("*",) * 5, ("*",), ("*",) * 3))
    rows = final_scores(state)["players"]
    assert [r["blacklist_after_charity"] for r in rows] == [1, 0, 3]
    assert [r["penalty"] for r in rows] == [1, 0, 5]


def test_R113_R115_R116_R80_R82_components() -> None:
    tableau = ("JP-11", "JP-16", "JP-17", "JP-18", "EU-13", "US-16")
    state = position(tableaux=(tableau, (), ()))
    c = components(state, 0)
    assert c["base"] == 1 + 2 + 3 + 4 + 1 + 2
    assert c["restaurant"] == 4  # itself and 3 other Japanese placements (the original's example: 1 + 4 = 5)
    assert c["remittance"] == 3  # one complete EU + US + JP set


def test_R117_R79_digital_banks_score_the_hand_once_per_bank() -> None:
    state = position(tableaux=(("EU-15", "US-15"), (), ()), hands={0: ["EUR-1C-1", "EUR-2C-1", "EUR-3C-1"]})
    assert components(state, 0)["bank"] == 6


def test_R118_R77_R78_tokens() -> None:
    tokens = ((("EU-09", "EUR-1C-1"), ("EU-10", "*"), ("EU-14", "EUR-2C-1"), ("RAT", "*")), (), ())
    state = position(tableaux=(("EU-09", "EU-10", "EU-14"), (), ()), tokens=tokens)
    assert components(state, 0)["tokens"] == 1 + 2 + 2 + 1


def test_R119_R120_totals_may_be_negative_and_the_highest_wins() -> None:
    state = position(tableaux=(("EU-20",), (), ()), blacklists=((), ("*",) * 4, ()))
    scores = final_scores(state)
    assert scores["totals"] == [7, -6, 0]
    assert scores["winners"] == [0] and scores["ranks"] == [1, 3, 2]


def test_R121_tie_break_hand_value_fox_crypto_counts_five() -> None:
    state = position(
        villains=("V2-RAT", "V3-FOX", "V1-LAUNDERER"),
        hands={0: ["EUR-4C-1"], 1: ["CRY-3C-1"], 2: []},
        tableaux=(("EU-16",), ("US-16",), ()),
    )
    scores = final_scores(state)
    assert scores["winners"] == [1] and scores["tiebreak"] == "hand_value"


def test_R122_R123_tie_break_latest_in_the_final_rounds_order() -> None:
    state = replace(position(hands={0: [], 1: [], 2: []}), order=(1, 2, 0))
    scores = final_scores(state)
    assert scores["ranks"] == [1, 3, 2] and scores["winners"] == [0] and scores["tiebreak"] == "turn_order"


def test_R110_scoring_event_reveals_hands_and_lists_components() -> None:
    ten = (*tuple(f"JP-{n:02d}" for n in range(1, 10)), "US-01")
    state = replace(
        position(hands={1: ["USD-1C-1"]}, tableaux=(ten, (), ())),
        final=True,
        turn=2,
        step="location",
        location="LOC-EU",
    )
    done, events = act(state, 2, {"type": "end_location_action"})
    (scored,) = of_type(events, "game_scored")
    assert scored.secret is None
    assert scored.data["players"][1]["hand"] == ["USD-1C-1"]
    for key in ("base", "art", "restaurant", "remittance", "bank", "tokens", "penalty", "total", "hand_value"):
        assert key in scored.data["players"][0]
    view = RULES.view(done, None)
    assert view["hands"][1] == ["USD-1C-1"] and view["scores"]["totals"] == scored.data["totals"]
    outcome = RULES.outcome(done)
    assert outcome is not None and list(outcome.scores) == scored.data["totals"]
