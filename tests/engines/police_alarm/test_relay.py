"""Optional relay mode (M-n): place, drive (recorded), crack against the play-back."""

from __future__ import annotations

import json

from games.engines.base import SYSTEM, Event
from games.engines.police_alarm import RULES, Scripted
from games.engines.police_alarm.constants import CIRCLE_CELL, START
from games.engines.police_alarm.state import COUNTDOWN, PAUSED, RUNNING, SETUP

from .helpers import ORIGIN, Game, deck_with, replay_inputs
from .playout import bot_game

RELAY = {"mode": "relay", "relay_hours": "24"}
DAY = 24 * 3_600_000


def relay_game(players: int = 2) -> Game:
    return Game(
        players=players,
        options=RELAY,
        scripted=Scripted(first=0, deck=deck_with("112"), dice=(1, 1, 2), pairs=(("H", "I"),)),
    )


def police_drive(game: Game) -> int:
    """Place at H, E; the police drives H (thief, pause), then E (found): returns the session end."""
    game.do(0, {"type": "place", "circles": ["H", "E"]}, 0)
    game.do(1, {"type": "ready"}, 1000)
    assert game.state.go_at == 4000
    at = game.drive("H", 4000)
    game.do(1, {"type": "siren", "circle": "H"}, at)
    at = game.drive("E", at + 2000)
    game.do(1, {"type": "siren", "circle": "E"}, at)
    return at


def test_M1_three_steps_each_for_one_player_with_the_lobby_deadline() -> None:
    """D-23: relay is an option of the game (its mode), not how it is played by default."""
    game = relay_game(players=3)
    assert game.state.step == "place"
    game.reject(1, {"type": "ready"}, 0, "wrong_phase")  # not the police's step yet
    game.reject(2, {"type": "place_random"}, 0, "not_your_role")
    (deadline,) = game.rules.deadlines(game.state)
    assert (deadline.kind, deadline.seats, deadline.due) == ("relay_place", (0,), ORIGIN + DAY / 1000)
    game.do(0, {"type": "place_random"}, 10)
    assert game.state.step == "police"
    game.reject(0, {"type": "ready"}, 20, "not_your_role")
    assert game.rules.deadlines(game.state)[0].kind == "relay_police"


def test_M2_the_police_session_is_recorded_and_private() -> None:
    game = relay_game()
    end = police_drive(game)
    session = [e for e in game.log if e.type in ("car_moved", "siren", "tile_revealed", "alarm_ended")]
    assert session and all(e.data == {} and e.visible_to == (1,) for e in session)
    assert all(RULES.is_private(e) for e in session)
    for seat in (None, 0):
        for e in session:
            assert "secret" not in e.for_seat(seat) and RULES.log_lines(e.for_seat(seat)) == []
    ended = game.log[-1]
    assert ended.type == "session_ended" and ended.data == {"t": end, "reason": "found"}
    rec = game.state.recording
    assert rec[0] == (0, "move", "down") and rec[4] == (450, "siren", "H") and rec[-1] == (end - 4000, "siren", "E")
    assert game.state.step == "thief" and game.state.phase == SETUP and game.state.car == START


def test_M2_reveals_pause_the_police_and_the_thief_sees_nothing_of_the_drive() -> None:
    """M-6: the thief's step comes after the whole drive, so the police cannot react to the thief's
    progress; the thief learns nothing of the drive."""
    game = relay_game()
    game.do(0, {"type": "place", "circles": ["H", "E"]}, 0)
    game.do(1, {"type": "ready"}, 0)
    at = game.drive("H", 3000)
    game.do(1, {"type": "siren", "circle": "H"}, at)
    assert game.state.phase == PAUSED
    game.reject(1, {"type": "move", "dir": "left", "from": list(CIRCLE_CELL["H"])}, at + 1999, "paused")
    police_view, thief_view = game.rules.view(game.state, 1), game.rules.view(game.state, 0)
    assert police_view["tiles"] == {"H": "thief"} and police_view["car"] == list(CIRCLE_CELL["H"])
    assert thief_view["tiles"] == {} and thief_view["car"] == [9, 9]
    game.reject(0, {"type": "roll"}, at + 10, "wrong_phase")  # the thief's step comes later


def test_M2_the_police_may_stop_and_the_session_ends_after_300000_ms() -> None:
    game = relay_game()
    game.do(0, {"type": "place", "circles": ["H", "E"]}, 0)
    game.do(1, {"type": "ready"}, 0)
    events = game.tick(3000 + 300_000)
    assert game.types(events)[-1] == "session_ended" and events[-1].data == {"t": 303_000, "reason": "time"}
    other = relay_game()
    other.do(0, {"type": "place", "circles": ["H", "E"]}, 0)
    other.do(1, {"type": "ready"}, 0)
    other.do(1, {"type": "move", "dir": "up", "from": [9, 9]}, 3000)
    events = other.do(1, {"type": "stop"}, 3100)
    assert events[-1].data == {"t": 3100, "reason": "stopped"} and other.state.recording == ((0, "move", "up"),)


def test_M3_recorded_inputs_play_back_at_their_offsets_before_later_thief_actions() -> None:
    game = relay_game()
    end = police_drive(game)
    game.reject(1, {"type": "ready"}, end + 10, "not_your_role")
    game.do(0, {"type": "ready"}, 10_000)
    assert game.state.phase == COUNTDOWN and game.state.go_at == 13_000
    events = game.do(0, {"type": "roll"}, 13_000)
    assert game.types(events) == ["round_started", "card_drawn", "car_moved", "dice_rolled", "card_cracked"]
    assert events[2].data == {"t": 13_000, "to": [9, 10]}  # public now
    view = game.rules.view(game.state, 0)
    assert view["car"] == [9, 10]  # no look-ahead: only what has happened
    events = game.do(0, {"type": "escape"}, 13_100)  # before the next recorded move (13 150)
    ended = next(e for e in events if e.type == "round_ended")
    assert ended.data["outcome"] == "escaped" and (ended.data["thief_gain"], ended.data["police_gain"]) == (1, 5)


def test_M3_M4_the_recorded_second_reveal_catches_the_thief() -> None:
    game = relay_game()
    end = police_drive(game)
    game.do(0, {"type": "ready"}, 10_000)
    game.tick(13_000)
    assert game.state.phase == RUNNING
    events = game.tick(13_450)
    assert game.types(events)[-2:] == ["siren", "tile_revealed"] and game.state.phase == PAUSED
    game.reject(0, {"type": "roll"}, 14_000, "paused")  # the played-back pause freezes the thief too
    events = game.tick(13_000 + end - 4000)
    assert "thief_caught" in game.types(events)
    assert next(e for e in events if e.type == "round_ended").data["outcome"] == "caught"
    assert replay_inputs(game) == [e.to_json() for e in game.log]  # T-19 holds in relay mode too


def test_M4_a_recording_without_a_catch_threatens_nobody_any_more() -> None:
    game = relay_game()
    game.do(0, {"type": "place", "circles": ["B", "C"]}, 0)
    game.do(1, {"type": "ready"}, 0)
    game.do(1, {"type": "move", "dir": "up", "from": [9, 9]}, 3000)
    game.do(1, {"type": "stop"}, 3100)
    game.do(0, {"type": "ready"}, 4000)
    game.do(0, {"type": "roll"}, 7000)
    assert game.state.rec_index == 1
    assert [d.kind for d in game.rules.deadlines(game.state)] == []


def test_M5_missed_steps_random_placement_empty_recording_and_caught() -> None:
    game = relay_game()
    events = game.tick(DAY)
    assert game.types(events) == ["tiles_placed"] and game.state.step == "police"
    events = game.tick(2 * DAY)
    assert events[0].data == {"t": 2 * DAY, "reason": "missed"} and game.state.recording == ()
    events = game.tick(3 * DAY)
    assert game.types(events)[:2] == ["thief_caught", "round_ended"]
    assert events[1].data["outcome"] == "caught" and game.state.scores == (0, 6)


def test_M1_T24_only_a_live_session_is_suspended() -> None:
    game = relay_game()
    assert game.types(game.do(SYSTEM, {"type": "disconnected", "seat": 0}, 10)) == ["disconnected"]
    game.do(SYSTEM, {"type": "reconnected", "seat": 0}, 20)
    game.do(0, {"type": "place_random"}, 30)
    game.do(1, {"type": "ready"}, 40)
    events = game.do(SYSTEM, {"type": "disconnected", "seat": 1}, 50)
    assert game.types(events) == ["disconnected", "suspended"]


def test_M_relay_bots_finish_and_views_survive_json() -> None:
    for players in (2, 4):
        rules, initial, log = bot_game(players, seed=players, options={"mode": "relay"})
        state = initial
        for event in log:
            state = rules.evolve(state, event)
            for seat in (None, *range(players)):
                json.dumps(rules.view(state, seat))
        assert state.over and sum(1 for e in log if e.type == "round_ended") == 2 * players


def test_M5_resign_of_the_police_in_its_session_keeps_what_was_recorded() -> None:
    game = Game(players=3, options=RELAY, scripted=Scripted(first=0, pairs=(("H", "I"),)))
    game.do(0, {"type": "place_random"}, 0)
    game.do(1, {"type": "ready"}, 0)
    game.do(1, {"type": "move", "dir": "up", "from": [9, 9]}, 3000)
    events = game.do(SYSTEM, {"type": "resign", "seat": 1}, 3100)
    assert game.types(events) == ["resigned", "session_ended"] and events[1].data["reason"] == "resigned"
    assert game.state.step == "thief" and game.state.recording == ((0, "move", "up"),)
    missed = Event("thief_caught", {"t": 1, "missed": True})
    assert "did not play" in RULES.log_lines(missed.for_seat(None))[0].message
