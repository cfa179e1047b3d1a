"""Young-player variant (V-n)."""

from __future__ import annotations

from games.engines.base import SYSTEM
from games.engines.police_alarm import Scripted
from games.engines.police_alarm.constants import START
from games.engines.police_alarm.state import DRIVING, SUSPENDED, WAIT_READY

from .helpers import Game, replay_inputs

YOUNG = {"variant": "young"}


def young(players: int = 2, pairs: tuple[tuple[str, str], ...] = (("H", "E"), ("A", "F"))) -> Game:
    return Game(players=players, options=YOUNG, scripted=Scripted(first=0, pairs=pairs))


def turn(game: Game, circle: str, at: int) -> int:
    """The active player: ready, drive to ``circle``, siren. Returns the siren time."""
    seat = game.state.active
    game.do(seat, {"type": "ready"}, at)
    arrive = game.drive(circle, at)
    game.do(seat, {"type": "siren", "circle": circle}, arrive)
    return arrive


def test_V1_V9_no_thief_player_and_only_the_active_police_acts() -> None:
    game = young(players=3)
    assert game.state.active == 0 and game.state.phase == WAIT_READY
    for payload in ({"type": "roll"}, {"type": "place_random"}, {"type": "auto_escape", "on": True}):
        game.reject(0, payload, 10, "not_your_role")
    game.reject(1, {"type": "ready"}, 10, "not_your_role")
    assert game.rules.legal_actions(game.state, 1) == []
    assert game.rules.deadlines(game.state) == []  # V-9: no time limit per turn


def test_V2_N7_layout_is_secret_from_everybody() -> None:
    game = Game(players=2, options=YOUNG)  # seed "demo"
    layout = next(e for e in game.log if e.type == "layout")
    assert layout.visible_to == () and set(layout.secret["circles"]) == {"H", "K"}  # type: ignore[index]
    assert "circles" not in layout.data
    for seat in (None, 0, 1):
        view = game.rules.view(game.state, seat)
        assert "layout" not in view and "placement" not in view


def test_V3_first_police_by_lobby_or_drawn_and_turns_pass_clockwise() -> None:
    assert Game(players=3, options=YOUNG, first=2).state.active == 2
    assert Game(players=4, options=YOUNG, first=None).state.active == 3  # N-8: draw("first", 0, 4) = 3
    game = young(players=3)
    at = 0
    order = []
    for _i in range(4):
        order.append(game.state.active)
        at = turn(game, "I", at) + 10  # green every time
    assert order == [0, 1, 2, 0]


def test_V4_ready_starts_driving_at_once_and_the_limiter_from_ready() -> None:
    game = young()
    game.reject(0, {"type": "move", "dir": "up", "from": [9, 9]}, 100, "wrong_phase")
    events = game.do(0, {"type": "ready"}, 5000)
    assert game.types(events) == ["police_ready"] and game.state.phase == DRIVING
    assert game.state.tat == 5000 and game.state.car == START
    game.reject(0, {"type": "ready"}, 5001, "wrong_phase")


def test_V4_D19_the_car_returns_to_start_at_every_turn() -> None:
    game = young()
    turn(game, "I", 0)
    assert game.state.car == START and game.state.active == 1


def test_V5_V6_D20_green_is_shown_then_turned_back_and_the_turn_ends() -> None:
    game = young()
    at = turn(game, "I", 0)
    types = game.types()[-5:]
    assert types == ["car_moved", "siren", "tile_revealed", "tile_hidden", "turn_start"]
    assert game.state.revealed == () and game.log[-1].data == {"t": at, "turn": 2, "seat": 1}


def test_V6_thief_gives_the_top_card_and_stays_face_up() -> None:
    game = young()
    turn(game, "H", 0)
    awarded = next(e for e in game.log if e.type == "card_awarded")
    assert awarded.data["seat"] == 0 and awarded.data["card"] == game.state.deck[0]
    assert game.state.scores == (1, 0) and game.state.revealed == (("H", "thief"),)


def test_V6_second_thief_lays_out_anew() -> None:
    game = young()
    at = turn(game, "H", 0) + 10
    at = turn(game, "E", at) + 10
    layout = [e for e in game.log if e.type == "layout"]
    assert len(layout) == 2 and layout[1].data["no"] == 2
    assert set(layout[1].secret["circles"]) == {"A", "F"}  # type: ignore[index]
    assert game.state.revealed == () and game.state.scores == (1, 1)
    awarded = [e.data["card"] for e in game.log if e.type == "card_awarded"]
    assert awarded == list(game.state.deck[:2])  # the top of the deck, in order


def test_V7_siren_at_face_up_thief_rejected_but_at_earlier_green_allowed() -> None:
    game = young(players=2, pairs=(("H", "K"),))
    at = turn(game, "H", 0) + 10
    game.do(1, {"type": "ready"}, at)
    arrive = game.drive("H", at)
    game.reject(1, {"type": "siren", "circle": "H"}, arrive, "already_revealed")
    arrive = game.drive("I", arrive + 150)
    game.do(1, {"type": "siren", "circle": "I"}, arrive)  # green
    at = turn(game, "I", arrive + 10)  # seat 0 again at the same green circle: allowed
    assert [e.data["circle"] for e in game.log if e.type == "tile_revealed"] == ["H", "I", "I"]


def test_V8_three_cards_win_at_once() -> None:
    game = young(players=2, pairs=(("H", "E"),))
    at = 0
    for circle in ("H", "I", "E", "I", "H", "I", "E", "I", "H"):  # seat 0 finds H, E, H
        at = turn(game, circle, at) + 10
        if game.state.over:
            break
    outcome = game.rules.outcome(game.state)
    assert outcome is not None and outcome.winners == (0,) and outcome.scores == (3, 0)
    assert game.log[-1].type == "game_ended"
    assert game.rules.view(game.state, None)["layout"] == ["H", "E"]  # public after the end (H-6)
    assert replay_inputs(game) == [e.to_json() for e in game.log]


def test_V10_loss_of_the_active_player_suspends_the_turn() -> None:
    game = young(players=3)
    game.do(SYSTEM, {"type": "disconnected", "seat": 2}, 10)
    assert game.state.phase == WAIT_READY
    game.do(SYSTEM, {"type": "disconnected", "seat": 0}, 20)
    assert game.state.phase == SUSPENDED
    game.reject(0, {"type": "ready"}, 30, "suspended")


def test_V4_speed_limit_deadline_lets_time_reach_the_state() -> None:
    game = young()
    game.do(0, {"type": "ready"}, 0)
    for cell, d in (([9, 9], "up"), ([9, 8], "up"), ([9, 7], "up")):
        game.do(0, {"type": "move", "dir": d, "from": cell}, 0)
    assert [m for m in game.rules.legal_actions(game.state, 0) if m["type"] == "move"] == []
    (deadline,) = game.rules.deadlines(game.state)
    assert deadline.kind == "speed_limit" and deadline.seats == (0,)
    assert game.types(game.tick(150)) == ["clock"]
    assert game.rules.legal_actions(game.state, 0)


def test_V11_nothing_is_secret_between_players_so_one_device_can_be_shared() -> None:
    """D-22, W-1: the young variant can be played hot-seat on one device."""
    game = young(players=3)
    turn(game, "I", 0)
    views = [game.rules.view(game.state, seat) for seat in (None, 0, 1, 2)]
    for view in views:
        view.pop("role")
    assert all(v == views[0] for v in views)
