"""bridge_race's panels written in Python (games.boards.bridge_race.panels): the status line (whose
turn it is for the viewer and for the others, R-89: every seat sees the same turn; the stage's
counts) and a car's dashboard (R-89: every balance, speed and held tile is public), names escaped,
and the catalogue's translations as the templates had them."""

from __future__ import annotations

from typing import Any

from django.template import Context, Template

from games.push.speaking import speaking


def status(view: dict[str, Any], board: dict[str, Any], seat: int | None) -> str:
    template = Template("{% load bridge_race %}{% status_line %}")
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
    return Template("{% load bridge_race %}{% dashboard p %}").render(Context({"p": entry}))


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


def panel(view: dict[str, Any], board: dict[str, Any], seat: int | None) -> str:
    template = Template("{% load bridge_race %}{% action_panel %}")
    return template.render(Context({"view": view, "board": board, "seat": seat, "action_url": "/m/1/action/"}))


DIE = {"index": 0, "number": 1, "face": "SPEED", "name": "Speed", "hint": "+10", "state": "unused"}


def test_the_acting_seat_gets_a_form_per_step_it_may_take_r93() -> None:
    steps = [
        {
            "payload": {"type": "STEP", "dir": "STRAIGHT"},
            "form_id": "br-step-STRAIGHT",
            "arrow": "↑",
            "name": "Ahead",
            "cell": "lane 2, row 5",
            "lane": 2,
            "row": 5,
            "on_bridge": True,
            "cost": 0,
            "hint": "",
        },
        {
            "payload": {"type": "STEP", "dir": "LANE+"},
            "form_id": "br-step-LANEp",
            "arrow": "↗",
            "name": "Right",
            "cell": "lane 3, row 5",
            "lane": 3,
            "row": 5,
            "on_bridge": True,
            "cost": 2,
            "hint": "<oil>",
        },
    ]
    view = {"turn": {"seat": 0, "steps_left": 2, "pool": 3}}
    html = panel(view, {"my_turn": True, "act": {"steps": steps}}, seat=0)
    assert "Drive: 2 steps left" in html and "3 steering tokens" in html
    assert html.count('method="post" action="/m/1/action/" data-act') == 2
    assert 'class="btn br-step primary" data-hl="2,5"' in html
    assert 'class="btn br-step" data-hl="3,5"' in html
    assert "lane 3, row 5 · 2 tokens" in html and "<em>&lt;oil&gt;</em>" in html
    assert "{&quot;type&quot;:&quot;STEP&quot;,&quot;dir&quot;:&quot;LANE+&quot;}" in html


def test_a_reroll_keeps_the_dice_set_aside_locked_and_counts_the_rerolls_left() -> None:
    reroll = {
        "payload": {"type": "REROLL", "keep": []},
        "left": 1,
        "free": False,
        "dice": [
            {**DIE, "locked": True, "kept": True},
            {**DIE, "index": 1, "number": 2, "locked": False, "kept": True},
        ],
    }
    html = panel(
        {"turn": {"seat": 0}}, {"my_turn": True, "act": {"reroll": reroll, "finalize": {"type": "FINALIZE_DICE"}}}, 0
    )
    assert '<input type="hidden" name="keep[]" value="0"><input type="checkbox" checked disabled' in html
    assert 'aria-label="Die #1 stays set aside"' in html
    assert '<input type="checkbox" name="keep[]" value="1" checked> keep' in html
    assert "Reroll the others (1 reroll left)" in html
    assert 'id="br-finalize"' in html and "These dice are final" in html


def test_the_end_of_a_turn_offers_the_unused_dice_for_sale() -> None:
    act = {
        "handbrake": {"type": "HANDBRAKE"},
        "end_turn": {"payload": {"type": "END_TURN", "sell": []}, "dice": [DIE], "mochico": True},
    }
    html = panel({"turn": {"seat": 0}}, {"my_turn": True, "act": act}, 0)
    assert "Handbrake: spend 3 tokens, turn round and stop" in html
    assert "Sell unused dice for $100 each" in html
    assert '<input type="checkbox" name="sell[]" value="0" checked> sell' in html
    assert "Don Mochico" in html and 'id="br-end"' in html


def test_the_others_see_the_dice_of_the_seat_taking_its_turn_and_no_controls() -> None:
    board = {"my_turn": False, "tray": [DIE], "turn_name": "<Bo>", "act": {"steps": [{"form_id": "x"}]}}
    html = panel({"turn": {"seat": 1}}, board, seat=0)
    assert "&lt;Bo&gt;'s dice" in html and "<Bo>" not in html
    assert "<form" not in html and "br-jump" not in html
    assert "Your dice" in panel({"turn": {"seat": 1}}, {**board, "my_turn": False}, seat=1)


def test_the_rarer_sections_render_from_their_partials_in_the_panels_context() -> None:
    shots = [
        {
            "number": 2,
            "die": 1,
            "payload": {"type": "SHOOT", "die": 1},
            "dirs": [
                {
                    "value": "0,1",
                    "name": "ahead",
                    "hint": "hits car #3",
                    "ray": "2,5,0,1",
                    "payload": {"type": "SHOOT", "die": 1, "dir": [0, 1]},
                }
            ],
        }
    ]
    html = panel({"turn": {"seat": 0}}, {"my_turn": True, "act": {"shots": shots}}, 0)
    assert "Fire die #2 ahead" in html and 'data-ray="2,5,0,1"' in html
    assert 'method="post" action="/m/1/action/" data-act' in html


def test_the_action_panel_speaks_traditional_chinese() -> None:
    with speaking("zh-hant"):
        html = panel({"turn": {"seat": 0}}, {"my_turn": True, "act": {"roll": {"type": "ROLL"}}}, 0)
    assert "Roll the 5 dice" not in html and "Start of your turn" not in html
    assert "擲出 5 顆骰子" in html


def shop(view: dict[str, Any], board: dict[str, Any], seat: int | None) -> str:
    template = Template("{% load bridge_race %}{% shop_panel %}")
    return template.render(Context({"view": view, "board": board, "seat": seat, "action_url": "/m/1/action/"}))


TILE = {"colour": "blue", "name": "<Nitro>", "colour_name": "Blue", "colour_hint": "any time", "effect": "+20 mph"}
SLOTS = [
    {
        "slot": 0,
        "price_text": "$300",
        "tile": TILE,
        "can_buy": True,
        "debt": True,
        "payload": {"type": "BUY", "slot": 0},
    },
    {
        "slot": 1,
        "price_text": "$200",
        "tile": None,
        "can_buy": False,
        "debt": False,
        "payload": {"type": "BUY", "slot": 1},
    },
]


def test_the_shop_offers_what_the_viewer_may_buy_and_shows_the_piles_r89() -> None:
    view = {
        "mode": "standard",
        "turn": {"seat": 0},
        "adventure_pile_size": 7,
        "adventure_discard": ["A1", "A2"],
        "bonus_pile_size": 4,
        "bonus_discard": [],
    }
    board = {"shop": SLOTS, "face_up": [], "adventure_discard": ["Oil", "<Mine>"], "bonus_discard": []}
    html = shop(view, board, seat=0)
    assert '<li class="br-slot blue">' in html and '<li class="br-slot empty">' in html
    assert "&lt;Nitro&gt;" in html and "<Nitro>" not in html
    assert ">Buy (into debt)</button>" in html and html.count("<form") == 1
    assert "one purchase per turn; debt is allowed" in html
    assert "Adventure pile: 7 · discarded: 2" in html and "Bonus pile: 4 · discarded: 0" in html
    assert "Adventure: Oil, &lt;Mine&gt;" in html and "Bonus:" not in html


def test_the_shop_says_when_the_viewer_already_bought_and_is_closed_in_a_first_game() -> None:
    view = {"mode": "standard", "turn": {"seat": 0, "bought": True}, "adventure_pile_size": 1, "bonus_pile_size": 1}
    assert "you already bought a tile this turn" in shop(view, {"shop": SLOTS}, seat=0)
    assert "you already bought a tile this turn" not in shop(view, {"shop": SLOTS}, seat=1)
    first = shop({**view, "mode": "first_game"}, {"shop": SLOTS}, seat=0)
    assert "br-shop" not in first and "Bonus pile" not in first and "Adventure pile: 1" in first
