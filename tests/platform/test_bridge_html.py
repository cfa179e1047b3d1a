"""bridge_race's panels written in Python (games.templatetags.bridge_html): the status line (whose
turn it is for the viewer and for the others, R-89: every seat sees the same turn; the stage's
counts) and a car's dashboard (R-89: every balance, speed and held tile is public), names escaped,
and the catalogue's translations as the templates had them."""

from __future__ import annotations

from typing import Any

from django.template import Context, Template

from games.speaking import speaking


def status(view: dict[str, Any], board: dict[str, Any], seat: int | None) -> str:
    template = Template("{% load bridge_html %}{% status_line %}")
    return template.render(Context({"view": view, "board": board, "seat": seat}))


TURN_VIEW = {"round": 2, "phase": "turn", "turn": {"seat": 1, "stage": "move", "steps_left": 3, "pool": 1}}
TURN_BOARD = {"phase": "Turns", "mode": "Classic", "turn_name": "<Ann & co>", "turn_char": "Mochico", "stage": "Move"}


def test_the_seat_taking_its_turn_is_told_so_and_the_others_see_its_name_escaped() -> None:
    mine = status(TURN_VIEW, TURN_BOARD, seat=1)
    theirs = status(TURN_VIEW, TURN_BOARD, seat=0)
    spectator = status(TURN_VIEW, TURN_BOARD, seat=None)
    assert '<strong class="br-you">Your turn</strong>' in mine
    assert "&lt;Ann &amp; co&gt;" not in mine
    for html in (theirs, spectator):
        assert "<strong>&lt;Ann &amp; co&gt;</strong>'s turn (Mochico)" in html
        assert "Your turn" not in html
        assert "<Ann" not in html


def test_the_turn_counts_follow_the_stage_with_their_plurals() -> None:
    html = status(TURN_VIEW, TURN_BOARD, seat=0)
    assert "<strong>Round 2</strong> · Turns" in html
    assert "— Move: 3 steps left" in html
    assert "1 steering token\n" in html
    rolling = {**TURN_VIEW, "turn": {"seat": 1, "stage": "roll", "rerolls": 1, "max_rerolls": 2}}
    html = status(rolling, TURN_BOARD, seat=0)
    assert "rerolls 1/2" in html
    assert "steps left" not in html and "steering" not in html


def test_the_end_of_the_race_lists_the_finish_order_and_the_arrested() -> None:
    view = {"round": 7, "phase": "over"}
    board = {
        "phase": "Over",
        "mode": "Classic",
        "end_reason": "Everyone crossed.",
        "finish": [{"place": 1, "name": "Bo"}],
        "arrested": [{"name": "<Cy>"}],
    }
    html = status(view, board, seat=None)
    assert "<strong>The race is over.</strong> Everyone crossed." in html
    assert '<span class="br-chip gold">1. Bo</span>' in html
    assert '<span class="br-chip">&lt;Cy&gt;</span>' in html


def test_it_speaks_traditional_chinese_from_the_same_catalogue_entries() -> None:
    with speaking("zh-hant"):
        mine = status(TURN_VIEW, TURN_BOARD, seat=1)
        theirs = status(TURN_VIEW, TURN_BOARD, seat=0)
    assert "輪到你了" in mine
    assert "輪到 <strong>&lt;Ann &amp; co&gt;</strong>（Mochico）" in theirs
    assert "剩餘 3 移動點" in theirs
    assert "Your turn" not in mine and "steps left" not in theirs


def dashboard(entry: dict[str, Any]) -> str:
    return Template("{% load bridge_html %}{% dashboard p %}").render(Context({"p": entry}))


CAR = {
    "seat": 2,
    "number": 3,
    "name": "<Dee>",
    "fill": "#c33",
    "outline": "#111",
    "ink": "#fff",
    "char_name": "Mochico",
    "ability": "Sells dice",
    "status": "board",
    "balance_text": "$12",
    "speed": 20,
    "speed_steps": [
        {"v": 0, "on": True, "cur": False},
        {"v": 10, "on": True, "cur": False},
        {"v": 20, "on": True, "cur": True},
        {"v": 30, "on": False, "cur": False},
    ],
    "free_tokens": 1,
    "pool": None,
    "pips": [True, True, False],
    "durability": 2,
    "max_durability": 3,
    "status_text": "On the bridge",
    "ramp_text": "Ramp in hand",
    "tiles": [{"colour": "red", "effect": "Boom", "colour_name": "Red", "colour_hint": "use now", "name": "Bomb"}],
    "active_tiles": [],
}


def test_a_dashboard_shows_the_cars_public_figures_with_its_name_escaped() -> None:
    html = dashboard(CAR)
    assert html.startswith('<article id="br-dash-2" class="br-dash" style="--car:#c33"')
    assert 'aria-label="Dashboard of &lt;Dee&gt;"' in html and "<Dee>" not in html
    assert "<strong>20</strong> mph" in html
    assert html.count('<i class="on') == 2 + 2  # speeds 10 and 20 lit (0 has no mark), two pips
    assert "<strong>2/3</strong>" in html
    assert '<span class="br-chip red" title="Boom (Red: use now)">Bomb</span>' in html
    assert "Pool" not in html  # no pool outside its turn


def test_a_dashboard_marks_the_acting_car_its_pool_a_debt_and_a_car_off_the_bridge() -> None:
    html = dashboard({**CAR, "active": True, "pool": 2, "debt": True, "status": "finished", "turn_pos": 1})
    assert 'class="br-dash active off"' in html
    assert '<span class="br-turnmark">acting</span>' in html
    assert '<span class="br-label">Pool</span> <strong>2</strong>' in html
    assert 'class="br-balance debt"' in html and "<small>debt</small>" in html
    assert "turn order 1" in html


def test_a_dashboard_speaks_traditional_chinese() -> None:
    with speaking("zh-hant"):
        html = dashboard(CAR)
    assert "Dashboard of" not in html and "Durability" not in html
    assert "&lt;Dee&gt;" in html
