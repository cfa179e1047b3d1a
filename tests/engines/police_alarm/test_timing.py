"""Real-time model (T-n): scripted server times -> the exact event log; timers, limiter, suspension."""

from __future__ import annotations

import pytest

from games.engines.base import SYSTEM, IllegalAction
from games.engines.police_alarm import Scripted
from games.engines.police_alarm.state import ABANDONED, PAUSED, RUNNING, SETUP, SUSPENDED

from .helpers import ORIGIN, Game, deck_with, replay_inputs


def scripted_game(players: int = 2, dice: tuple[int, ...] = (1, 1, 2)) -> Game:
    return Game(
        players=players,
        scripted=Scripted(first=0, deck=deck_with("112", "113"), dice=dice, pairs=(("H", "I"),)),
    )


def public(game: Game) -> list[dict[str, object]]:
    return [{"type": e.type, "data": e.data} for e in game.log]


def test_T1_T3_T18_scripted_round_gives_the_exact_event_log() -> None:
    game = scripted_game()
    game.do(0, {"type": "place", "circles": ["B", "L"]}, 100)
    game.do(1, {"type": "ready"}, 250)
    game.do(1, {"type": "move", "dir": "up", "from": [9, 9]}, 3300)
    game.do(0, {"type": "roll"}, 3300)
    game.do(0, {"type": "escape"}, 3400)
    assert public(game) == [
        {
            "type": "game_created",
            "data": {
                "t": 0,
                "origin": ORIGIN,
                "players": 2,
                "variant": "standard",
                "first": 0,
                "commitment": "2a97516c354b68848cdbd8f54a226a0a55b21ed138e207ad6c5cbb9c00aa5aea",
                "step_ms": [150, 150],
                "roll_ms": [1000, 1000],
            },
        },
        {
            "type": "round_setup",
            "data": {
                "t": 0,
                "round": 1,
                "thief": 0,
                "police": 1,
                "cards": [1, 2, 3, 4, 5, 6],
                "codes": ["112", "113", "114", "115", "116", "122"],
            },
        },
        {"type": "tiles_placed", "data": {}},  # T-18: the thief's alone, even its time (issue 54, item 4)
        {"type": "police_ready", "data": {"t": 250, "auto": False}},
        {"type": "countdown", "data": {"t": 250, "go_at": 3250}},
        {"type": "round_started", "data": {"t": 3250}},
        {"type": "card_drawn", "data": {"t": 3250, "pos": 1, "card": 1, "code": "112"}},
        {"type": "car_moved", "data": {"t": 3300, "to": [9, 8]}},
        {"type": "dice_rolled", "data": {"t": 3300, "values": [1, 1, 2], "filled": [1, 2, 3], "open": 0}},
        {"type": "card_cracked", "data": {"t": 3300, "card": 1, "code": "112", "cracked": 1}},
        {"type": "thief_escaped", "data": {"t": 3400, "auto": False}},
        {
            "type": "round_ended",
            "data": {
                "t": 3400,
                "round": 1,
                "outcome": "escaped",
                "thief_seat": 0,
                "police_seat": 1,
                "thief_gain": 1,
                "police_gain": 5,
                "scores": [1, 5],
            },
        },
        {"type": "placement_revealed", "data": {"t": 3400, "circles": ["B", "L"]}},
        {
            "type": "round_setup",
            "data": {
                "t": 3400,
                "round": 2,
                "thief": 1,
                "police": 0,
                "cards": [7, 8, 9, 10, 11, 12],
                "codes": ["123", "124", "125", "126", "133", "134"],
            },
        },
    ]
    assert game.log[2].secret == {"t": 100, "circles": ["B", "L"], "random": False} and game.log[2].visible_to == (0,)
    assert replay_inputs(game) == [e.to_json() for e in game.log]  # T-19


def test_T1_a_clock_that_steps_back_counts_as_no_time_passed() -> None:
    game = scripted_game()
    game.do(0, {"type": "place", "circles": ["B", "L"]}, 5000)
    events = game.do(1, {"type": "ready"}, 4000)
    assert events[0].data["t"] == 5000


def test_T2_T20_D13_same_millisecond_siren_and_escape_first_received_wins() -> None:
    game = scripted_game()
    go = game.setup(circles=("H", "E"))
    game.do(0, {"type": "roll"}, go)  # 112 cracked: the thief is at the choice point
    at = game.drive("H", go)
    game.do(1, {"type": "siren", "circle": "H"}, at)  # first thief: pause
    arrive = game.drive("E", at + 2000)
    game.do(1, {"type": "siren", "circle": "E"}, arrive)  # received first: caught
    game.reject(0, {"type": "escape"}, arrive, "not_your_role")
    assert game.state.last_round[1] == "caught"


def test_T3_timers_fire_before_an_input_at_their_due_time_and_in_order() -> None:
    game = scripted_game()
    game.do(0, {"type": "place_random"}, 0)  # auto-ready due at 30 000
    events = game.do(0, {"type": "roll"}, 40_000)  # auto-ready 30 000, go 33 000, then the roll
    assert [(e.type, e.data["t"]) for e in events] == [
        ("police_ready", 30_000),
        ("countdown", 30_000),
        ("round_started", 33_000),
        ("card_drawn", 33_000),
        ("dice_rolled", 40_000),
        ("card_cracked", 40_000),
    ]


def test_T3_deadlines_expose_the_next_timer_and_tick_refuses_early() -> None:
    game = scripted_game()
    (deadline,) = game.rules.deadlines(game.state)
    # Named by nobody (issue 54, item 4): the game waits on its actors through the set-up, so that
    # who it waits on does not change with the thief's secret placement.
    assert (deadline.kind, deadline.seats, deadline.action) == ("placement", (), {"type": "tick"})
    assert game.rules.actors(game.state) == {0, 1}
    assert deadline.due == ORIGIN + 60
    with pytest.raises(IllegalAction):
        game.tick(59_999)
    assert game.types(game.tick(60_000))[0] == "tiles_placed"


def test_T4_pause_is_half_open() -> None:
    game = scripted_game(dice=(1, 4, 4))
    go = game.setup(circles=("B", "L"))
    at = game.drive("H", go)
    game.do(1, {"type": "siren", "circle": "H"}, at)
    game.reject(0, {"type": "roll"}, at + 1999, "paused")
    assert game.types(game.do(0, {"type": "roll"}, at + 2000))[0] == "alarm_ended"


def test_T6_T7_limiter_allows_a_300_ms_burst_then_one_cell_per_150_ms() -> None:
    game = scripted_game()
    go = game.setup()
    path = ["up", "up", "up", "up", "left"]
    cells = [[9, 9], [9, 8], [9, 7], [9, 6], [9, 5]]
    for i in range(3):  # three cells at once after standing still
        game.do(1, {"type": "move", "dir": path[i], "from": cells[i]}, go)
    assert game.state.tat == go + 450
    game.reject(1, {"type": "move", "dir": "up", "from": cells[3]}, go + 149, "too_fast")
    assert game.state.tat == go + 450  # a rejected move never changes TAT
    game.do(1, {"type": "move", "dir": "up", "from": cells[3]}, go + 150)
    assert game.state.tat == go + 600


def test_T7_one_move_every_150_ms_is_never_rejected() -> None:
    game = scripted_game()
    go = game.setup()
    game.tick(go)
    at = go
    for _i in range(40):
        car = game.state.car
        options = [m for m in game.rules.legal_actions(game.state, 1) if m["type"] == "move"]
        game.do(1, options[0], at)
        assert game.state.car != car
        at += 150


def test_W10_T6_step_ms_handicap_changes_speed_and_tolerance() -> None:
    """D-27: a handicap is an option of the game, set in the lobby."""
    game = Game(options={"step_ms_1": "300"}, scripted=Scripted(first=0))
    go = game.setup()
    for cell in ([9, 9], [9, 8], [9, 7]):  # tolerance 600 ms: three cells at once
        game.do(1, {"type": "move", "dir": "up", "from": cell}, go)
    assert game.state.tat == go + 900
    game.reject(1, {"type": "move", "dir": "up", "from": [9, 6]}, go + 299, "too_fast")
    game.do(1, {"type": "move", "dir": "up", "from": [9, 6]}, go + 300)
    view = game.rules.view(game.state, None)
    assert view["tap_to_drive"] == [False, True] and view["step_ms"] == [150, 300]


def test_W10_R14_roll_ms_handicap() -> None:
    game = Game(options={"roll_ms_0": "2000"}, scripted=Scripted(first=0, dice=(6, 6, 6)))
    go = game.setup()
    game.do(0, {"type": "roll"}, go)
    game.reject(0, {"type": "roll"}, go + 1999, "cooldown")
    game.do(0, {"type": "roll"}, go + 2000)


def test_T8_after_a_bad_move_later_moves_from_the_old_cell_fail_too() -> None:
    game = scripted_game()
    go = game.setup()
    game.do(1, {"type": "move", "dir": "up", "from": [9, 9]}, go)
    bad = game.reject(1, {"type": "move", "dir": "right", "from": [9, 8]}, go + 150, "bad_move")  # a building
    assert bad.params["car"] == [9, 8]
    game.reject(1, {"type": "move", "dir": "up", "from": [10, 8]}, go + 300, "bad_move")
    game.do(1, {"type": "move", "dir": "up", "from": bad.params["car"]}, go + 300)


def test_T11_a_roll_accepted_before_a_siren_keeps_its_crack() -> None:
    game = scripted_game()
    go = game.setup(circles=("H", "E"))
    at = game.drive("H", go)
    events = game.do(0, {"type": "roll"}, at)
    assert "card_cracked" in game.types(events)
    game.do(1, {"type": "siren", "circle": "H"}, at)
    assert game.state.cracked == 1 and game.state.phase == PAUSED


def test_T11_a_siren_processed_before_a_roll_makes_it_paused() -> None:
    game = scripted_game()
    go = game.setup(circles=("H", "E"))
    at = game.drive("H", go)
    game.do(1, {"type": "siren", "circle": "H"}, at)
    game.reject(0, {"type": "roll"}, at, "paused")


def test_T14_checks_run_in_order() -> None:
    game = scripted_game(players=3)
    go = game.setup(circles=("B", "L"))
    at = game.drive("H", go)
    game.do(1, {"type": "siren", "circle": "H"}, at)
    game.reject(2, {"type": "roll"}, at + 10, "not_your_role")  # 3 before 4
    game.reject(0, {"type": "roll"}, at + 10, "paused")  # 4
    game.reject(0, {"type": "place", "circles": ["A"]}, at + 10, "wrong_phase")  # 5 before 6
    game.tick(at + 2000)
    game.reject(1, {"type": "move", "dir": "right", "from": [0, 0]}, at + 2000, "bad_move")  # 6: bad_move first
    game.do(SYSTEM, {"type": "disconnected", "seat": 0}, at + 2100)
    game.reject(2, {"type": "roll"}, at + 2200, "suspended")  # 2 before 3


def test_T14_game_over_comes_first() -> None:
    game = scripted_game()
    game.do(SYSTEM, {"type": "resign", "seat": 1}, 10)
    game.reject(0, {"type": "place_random"}, 20, "game_over")
    game.reject(1, {"type": "ready"}, 20, "game_over")


def test_T23_T24_loss_of_an_active_player_suspends_and_freezes_timers() -> None:
    game = scripted_game()
    game.do(0, {"type": "place", "circles": ["B", "L"]}, 0)
    events = game.do(SYSTEM, {"type": "disconnected", "seat": 1}, 10_000)
    assert game.types(events) == ["disconnected", "suspended"]
    assert game.state.phase == SUSPENDED and game.state.suspended_phase == SETUP
    game.reject(0, {"type": "auto_escape", "on": True}, 40_000, "suspended")  # auto-ready not fired
    assert [d.kind for d in game.rules.deadlines(game.state)] == ["abandon_offer"]


def test_T24_T27_loss_of_a_spectator_changes_nothing() -> None:
    game = scripted_game(players=3)
    events = game.do(SYSTEM, {"type": "disconnected", "seat": 2}, 100)
    assert game.types(events) == ["disconnected"] and game.state.phase == SETUP
    assert game.types(game.do(SYSTEM, {"type": "reconnected", "seat": 2}, 200)) == ["reconnected"]  # T-27


def test_T25_resume_countdown_and_every_deadline_shifted() -> None:
    game = scripted_game(dice=(1, 4, 4))
    go = game.setup(circles=("B", "L"))
    game.do(0, {"type": "roll"}, go)  # cooldown until go + 1000
    at = game.drive("H", go)  # TAT go + 600
    game.do(1, {"type": "siren", "circle": "H"}, at)  # pause until at + 2000
    game.do(SYSTEM, {"type": "disconnected", "seat": 0}, at + 500)  # t_s
    events = game.do(SYSTEM, {"type": "reconnected", "seat": 0}, at + 10_500)  # t_c
    assert game.types(events) == ["reconnected", "resume_countdown"]
    t_r = at + 13_500
    shift = t_r - (at + 500)
    assert events[1].data == {"t": at + 10_500, "resume_at": t_r, "shift": shift}
    game.reject(0, {"type": "auto_escape", "on": True}, t_r - 1, "suspended")
    events = game.tick(t_r)
    assert game.types(events) == ["resumed"] and events[0].data == {"t": t_r, "shift": shift}
    s = game.state
    assert s.phase == PAUSED and s.pause_until == at + 2000 + shift
    assert s.tat == go + 600 + shift and s.last_roll == go + shift
    game.reject(0, {"type": "roll"}, at + 2000 + shift - 1, "paused")
    assert game.types(game.do(0, {"type": "roll"}, at + 2000 + shift))[0] == "alarm_ended"


def test_T25_placement_timeout_moves_with_the_suspension() -> None:
    """D-21: deadlines move with the suspension."""
    game = scripted_game()
    game.do(SYSTEM, {"type": "disconnected", "seat": 0}, 10_000)
    game.do(SYSTEM, {"type": "reconnected", "seat": 0}, 50_000)
    game.tick(53_000)
    assert game.state.phase == SETUP
    (deadline,) = game.rules.deadlines(game.state)
    assert deadline.kind == "placement" and deadline.due == ORIGIN + 103
    game.reject(1, {"type": "move", "dir": "up", "from": [9, 9]}, 102_999, "wrong_phase")
    assert game.types(game.tick(103_000))[0] == "tiles_placed"


def test_T25_a_new_loss_during_the_resume_countdown_stops_it() -> None:
    game = scripted_game()
    game.do(SYSTEM, {"type": "disconnected", "seat": 0}, 1000)
    game.do(SYSTEM, {"type": "reconnected", "seat": 0}, 2000)
    game.do(SYSTEM, {"type": "disconnected", "seat": 1}, 3000)
    assert game.state.resume_at is None and game.state.phase == SUSPENDED
    game.do(SYSTEM, {"type": "reconnected", "seat": 1}, 4000)
    events = game.tick(7000)
    assert events[0].data["shift"] == 6000  # from the first loss at 1000 to 7000


def test_T26_R42_abandonment_after_120000_ms_of_suspension() -> None:
    """D-21: abandonment after 2 minutes of suspension."""
    game = scripted_game()
    game.do(SYSTEM, {"type": "disconnected", "seat": 1}, 1000)
    game.reject(0, {"type": "abandon"}, 120_999, "wrong_phase")
    assert game.rules.legal_actions(game.state, 0) == []
    events = game.tick(121_000)
    assert game.types(events) == ["abandon_offered"]
    assert game.rules.legal_actions(game.state, 0) == [{"type": "abandon"}]
    assert game.rules.actors(game.state) == frozenset({0, 1})
    game.reject(1, {"type": "abandon"}, 121_500, "not_your_role")  # not connected
    events = game.do(0, {"type": "abandon"}, 122_000)
    assert game.types(events) == ["abandoned"] and events[0].data["seed"] == "demo"
    outcome = game.rules.outcome(game.state)
    assert game.state.phase == ABANDONED and outcome is not None and outcome.winners == ()
    assert game.rules.actors(game.state) == frozenset()


def test_resign_two_players_ends_the_game_for_the_other() -> None:
    game = scripted_game()
    events = game.do(SYSTEM, {"type": "resign", "seat": 0}, 500)
    assert game.types(events) == ["resigned", "game_ended"]
    outcome = game.rules.outcome(game.state)
    assert outcome is not None and outcome.winners == (1,)


def test_resign_of_a_thief_forfeits_the_round_and_of_a_police_makes_it_ready() -> None:
    game = scripted_game(players=3)
    events = game.do(SYSTEM, {"type": "resign", "seat": 0}, 500)
    assert [e.data.get("outcome") for e in events if e.type == "round_ended"] == ["forfeited"]
    assert game.state.round == 2 and (game.state.thief, game.state.police) == (1, 2)
    assert game.state.scores == (0, 6, 0)
    game.do(SYSTEM, {"type": "resign", "seat": 2}, 600)
    assert game.state.phase == "over"


def test_resign_of_the_police_in_a_four_player_game() -> None:
    game = scripted_game(players=4)
    events = game.do(SYSTEM, {"type": "resign", "seat": 1}, 500)
    assert game.types(events) == ["resigned", "police_ready"]
    assert events[1].data["auto"] is True
    game.do(0, {"type": "place_random"}, 600)
    assert game.state.phase == "countdown"


def test_resign_during_a_suspension_resumes_the_game() -> None:
    game = scripted_game(players=3)
    game.do(SYSTEM, {"type": "disconnected", "seat": 0}, 500)
    events = game.do(SYSTEM, {"type": "resign", "seat": 0}, 5000)
    assert game.types(events)[:3] == ["resumed", "resigned", "round_ended"]
    assert game.state.phase == SETUP and game.state.round == 2


def test_T16_connection_inputs_are_validated() -> None:
    game = scripted_game()
    with pytest.raises(IllegalAction):
        game.do(SYSTEM, {"type": "reconnected", "seat": 0}, 10)
    game.do(SYSTEM, {"type": "disconnected", "seat": 0}, 10)
    with pytest.raises(IllegalAction):
        game.do(SYSTEM, {"type": "disconnected", "seat": 0}, 20)
    with pytest.raises(IllegalAction):
        game.do(SYSTEM, {"type": "disconnected", "seat": 7}, 20)
    assert game.state.phase == SUSPENDED and RUNNING != SUSPENDED
