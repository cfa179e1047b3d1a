"""Rules of the standard game, one or more tests per rule id (R-n)."""

from __future__ import annotations

import pytest

from games.engines.base import SYSTEM
from games.engines.police_alarm import PoliceAlarmRules, Scripted
from games.engines.police_alarm.constants import CIRCLE_CELL, START
from games.engines.police_alarm.state import COUNTDOWN, PAUSED, RUNNING, SETUP

from .helpers import Game, deck_with

ROUND_TABLE = {
    2: [(0, 1), (1, 0), (0, 1), (1, 0)],
    3: [(0, 1), (1, 2), (2, 0), (0, 1), (1, 2), (2, 0)],
    4: [(0, 1), (1, 2), (2, 3), (3, 0), (0, 1), (1, 2), (2, 3), (3, 0)],
}


def crack_game(dice: tuple[int, ...] = (1, 1, 2), *codes: str, players: int = 2) -> Game:
    """A game whose cards and dice are scripted; default: 112 cracks with one roll of 1,1,2."""
    deck = deck_with(*(codes or ("112",) * 1))
    return Game(players=players, scripted=Scripted(first=0, deck=deck, dice=dice, pairs=(("H", "I"),)))


def end_round_by_catch(game: Game, at: int) -> int:
    """Thieves at H and E, the police finds both; return the time of the catch."""
    go = game.setup(circles=("H", "E"), at=at)
    arrive = game.drive("H", go)
    game.do(game.police, {"type": "siren", "circle": "H"}, arrive)
    arrive = game.drive("E", arrive + 2000)
    game.do(game.police, {"type": "siren", "circle": "E"}, arrive)
    return arrive


def test_R1_two_to_four_players() -> None:
    rules = PoliceAlarmRules()
    for n in (2, 3, 4):
        assert rules.initial(n, {}).players == n
    for n in (1, 5):
        with pytest.raises(ValueError):
            rules.initial(n, {})


def test_R2_spectators_have_no_actions() -> None:
    """D-17: in a game of three or four, the players without a role watch."""
    game = Game(players=3)
    assert game.rules.legal_actions(game.state, 2) == []
    for payload in ({"type": "ready"}, {"type": "place_random"}, {"type": "auto_escape", "on": True}):
        game.reject(2, payload, 0, "not_your_role")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_R3_R4_roles_rotate_every_player_twice_thief_and_police(players: int) -> None:
    game = crack_game(players=players)
    at = 0
    seen = []
    for _round in range(2 * players):
        seen.append((game.thief, game.police))
        at = end_round_by_catch(game, at) + 10
    assert seen == ROUND_TABLE[players]
    assert game.state.phase == "over"


def test_R3_first_thief_from_the_lobby_or_drawn() -> None:
    """D-14: the first thief is the lobby's choice, else drawn."""
    assert Game(players=3, first=2).state.thief == 2
    assert Game(players=3, first=None).state.thief == 2  # N-8: draw("first", 0, 3) = 2
    assert Game(players=2, options={"first": "3"}, first=None).state.thief == 1  # no seat 4: drawn


def test_R5_R7_each_round_uses_the_next_six_deck_cards_in_order() -> None:
    """D-26: one shuffle per game; each round's stack keeps the deck's order."""
    game = crack_game()
    deck = game.state.deck
    assert game.state.stack == deck[:6]
    end_round_by_catch(game, 0)
    assert game.state.round == 2 and game.state.stack == deck[6:12]


def test_R7_cards_are_drawn_in_stack_order() -> None:
    game = crack_game((1, 1, 2, 1, 1, 3, 1, 1, 4), "112", "113", "114")
    go = game.setup()
    positions = []
    for i in range(3):
        events = game.do(game.thief, {"type": "roll"}, go + 1000 * i)
        positions += [e.data["code"] for e in events if e.type == "card_cracked"]
        if i < 2:
            drawn = game.do(game.thief, {"type": "draw"}, go + 1000 * i)
            assert drawn[0].data["pos"] == i + 2
    assert positions == ["112", "113", "114"]


def test_R8_placement_needs_exactly_two_different_known_circles() -> None:
    game = Game()
    for circles in (["A"], ["A", "B", "C"], ["A", "A"], ["A", "Z"], []):
        game.reject(0, {"type": "place", "circles": circles}, 0, "invalid_placement")
    game.do(0, {"type": "place", "circles": ["a", "L"]}, 0)
    assert game.state.placement == ("A", "L")
    game.reject(0, {"type": "place", "circles": ["B", "C"]}, 0, "wrong_phase")
    game.reject(0, {"type": "place_random"}, 0, "wrong_phase")


def test_R8_N6_place_random_uses_the_seeded_pair() -> None:
    game = Game()
    game.do(0, {"type": "place_random"}, 5)
    assert set(game.state.placement) == {"H", "I"}


def test_R9_random_placement_exactly_60000_ms_after_the_round_started() -> None:
    """D-15: the placement times out after 60 s."""
    game = Game()
    game.do(1, {"type": "ready"}, 100)
    game.reject(1, {"type": "move", "dir": "up", "from": [9, 9]}, 59_999, "wrong_phase")
    with pytest.raises(Exception, match="Nothing is due"):
        game.tick(59_999)
    events = game.tick(61_000)
    assert game.types(events)[:2] == ["tiles_placed", "countdown"]
    # T-18: a private event keeps even its time in its secret.
    assert (events[0].secret or {}).get("t") == 60_000 and events[1].data["go_at"] == 63_000
    assert set(game.state.placement) == {"H", "I"}


def test_R10_ready_once_and_automatic_30000_ms_after_the_placement() -> None:
    """D-15: the police's ready is the start siren, given automatically 30 s after the placement."""
    game = Game()
    game.do(0, {"type": "place", "circles": ["A", "B"]}, 1000)
    game.reject(1, {"type": "move", "dir": "up", "from": [9, 9]}, 30_999, "wrong_phase")
    events = game.tick(31_000)
    assert game.types(events) == ["police_ready", "countdown"]
    assert events[0].data == {"t": 31_000, "auto": True}
    game.reject(1, {"type": "ready"}, 31_500, "wrong_phase")


def test_R10_ready_before_the_placement_waits_for_it() -> None:
    game = Game()
    game.do(1, {"type": "ready"}, 10)
    game.reject(1, {"type": "ready"}, 20, "wrong_phase")
    assert game.state.phase == SETUP
    events = game.do(0, {"type": "place", "circles": ["A", "B"]}, 40)
    assert game.types(events) == ["tiles_placed", "countdown"]


def test_R11_countdown_lasts_3000_ms_and_accepts_only_auto_escape() -> None:
    """D-15: the start siren is followed by a 3 s countdown."""
    game = Game()
    go = game.setup(at=500)
    assert go == 3500 and game.state.phase == COUNTDOWN
    game.reject(0, {"type": "roll"}, 3499, "wrong_phase")
    game.reject(1, {"type": "move", "dir": "up", "from": [9, 9]}, 3499, "wrong_phase")
    game.reject(1, {"type": "siren", "circle": "A"}, 3499, "wrong_phase")
    game.do(0, {"type": "auto_escape", "on": True}, 3499)
    assert game.state.phase == COUNTDOWN


def test_R12_go_draws_the_first_card_and_allows_rolling_and_driving_at_once() -> None:
    """D-5: the first card is drawn automatically at "go"."""
    game = Game()
    go = game.setup()
    events = game.do(1, {"type": "move", "dir": "up", "from": [9, 9]}, go)
    assert game.types(events) == ["round_started", "card_drawn", "car_moved"]
    assert all(e.data["t"] == go for e in events)
    assert events[1].data["pos"] == 1 and game.state.current == 0
    game.do(0, {"type": "roll"}, go)
    assert game.state.phase == RUNNING


def test_R13_R15_a_roll_throws_one_die_per_open_slot() -> None:
    game = crack_game((3, 3, 3, 6, 5), "335")
    go = game.setup()
    first = game.do(0, {"type": "roll"}, go)[-1]
    assert first.data == {"t": go, "values": [3, 3, 3], "filled": [1, 2], "open": 1}
    assert game.rules.view(game.state, 1)["hand"] == 1
    second = game.do(0, {"type": "roll"}, go + 1000)[0]
    assert len(second.data["values"]) == 1


def test_R16_matching_dice_fill_the_lowest_open_slot_automatically() -> None:
    """D-4: the roll itself sets the matching dice aside; the thief is asked nothing."""
    game = crack_game((5, 3, 3, 3, 5), "335")
    go = game.setup()
    events = game.do(0, {"type": "roll"}, go)
    rolled = next(e for e in events if e.type == "dice_rolled")
    assert rolled.data["filled"] == [3, 1, 2]  # 5 -> slot 3, then 3 -> slot 1, 3 -> slot 2
    assert "card_cracked" in game.types(events)


def test_R14_roll_cooldown_is_half_open_and_only_with_a_current_card() -> None:
    game = crack_game((1, 4, 4), "112")
    go = game.setup()
    game.do(0, {"type": "roll"}, go)
    game.reject(0, {"type": "roll"}, go + 999, "cooldown")
    game.do(0, {"type": "roll"}, go + 1000)  # T-4: a cooldown ending at T allows T


def test_R14_no_current_card_at_the_choice_point() -> None:
    game = crack_game()
    go = game.setup()
    game.do(0, {"type": "roll"}, go)
    assert game.state.at_choice
    game.reject(0, {"type": "roll"}, go + 5000, "no_current_card")


def test_R17_R18_the_sixth_crack_ends_the_round_all_cracked() -> None:
    game = crack_game((1, 1, 2, 1, 1, 3, 1, 1, 4, 1, 1, 5, 1, 1, 6, 1, 2, 2), "112", "113", "114", "115", "116", "122")
    go = game.setup()
    at = go
    for i in range(6):
        events = game.do(0, {"type": "roll"}, at)
        assert next(e for e in events if e.type == "card_cracked").data["cracked"] == i + 1
        if i < 5:
            game.do(0, {"type": "draw"}, at)
        at += 1000
    assert "round_ended" in game.types(events)
    ended = next(e for e in events if e.type == "round_ended")
    assert ended.data["outcome"] == "all_cracked" and ended.data["thief_gain"] == 6
    assert game.state.round == 2


def test_R19_R25_T21_auto_escape_escapes_at_the_crack_timestamp() -> None:
    game = crack_game()
    game.do(0, {"type": "auto_escape", "on": True}, 0)  # accepted in SETUP
    go = game.setup()
    events = game.do(0, {"type": "roll"}, go)
    types = game.types(events)
    assert types[types.index("card_cracked") + 1 : types.index("card_cracked") + 3] == ["thief_escaped", "round_ended"]
    escaped = next(e for e in events if e.type == "thief_escaped")
    assert escaped.data == {"t": go, "auto": True}
    assert game.state.scores == (1, 5)


def test_R19_auto_escape_off_leaves_the_thief_at_the_choice_point() -> None:
    game = crack_game()
    game.do(0, {"type": "auto_escape", "on": True}, 0)
    game.do(0, {"type": "auto_escape", "on": False}, 0)
    go = game.setup()
    game.do(0, {"type": "roll"}, go)
    assert game.state.at_choice and game.state.round == 1


def test_D7_the_thief_may_wait_at_the_choice_point_without_a_time_limit() -> None:
    """D-7: no deadline runs while the thief waits at the choice point; "I'm out" is still taken
    ten minutes later (the risk is the police's car)."""
    game = crack_game()
    go = game.setup()
    game.do(0, {"type": "roll"}, go)
    assert game.state.at_choice and game.rules.deadlines(game.state) == []
    events = game.do(0, {"type": "escape"}, go + 600_000)
    assert game.types(events)[:2] == ["thief_escaped", "round_ended"] and game.state.round == 2


def test_R25_auto_escape_flag_is_off_at_each_round_start_and_accepted_in_pause() -> None:
    game = crack_game()
    go = game.setup(circles=("B", "L"))
    game.drive("H", go)
    game.do(1, {"type": "siren", "circle": "H"}, go + 600)
    assert game.state.phase == PAUSED
    game.do(0, {"type": "auto_escape", "on": True}, go + 700)
    assert game.state.auto_escape
    game.do(0, {"type": "roll"}, go + 2600)  # cracks 112 and escapes
    assert game.state.round == 2 and not game.state.auto_escape


def test_R20_R21_draw_and_escape_only_at_the_choice_point() -> None:
    """D-6: "I'm out" only at the choice point, after a crack and before the next draw."""
    game = crack_game((1, 4, 4, 4, 4, 1, 2))
    go = game.setup()
    game.reject(0, {"type": "draw"}, go, "not_at_choice")
    game.reject(0, {"type": "escape"}, go, "not_at_choice")  # not before the first crack
    game.do(0, {"type": "roll"}, go)  # 1 -> slot 1
    game.reject(0, {"type": "escape"}, go + 500, "not_at_choice")  # not a half-solved card
    game.do(0, {"type": "roll"}, go + 1000)  # 4, 4 -> nothing
    game.do(0, {"type": "roll"}, go + 2000)  # 1, 2 -> slots 2, 3: cracked
    assert game.state.at_choice
    game.do(0, {"type": "draw"}, go + 2000)
    game.reject(0, {"type": "escape"}, go + 2000, "not_at_choice")  # drawn, so no escape


def test_R22_draw_does_not_restart_the_roll_cooldown() -> None:
    game = crack_game((1, 1, 2, 4, 4, 4))
    go = game.setup()
    game.do(0, {"type": "roll"}, go)
    game.do(0, {"type": "draw"}, go + 900)
    game.reject(0, {"type": "roll"}, go + 999, "cooldown")
    game.do(0, {"type": "roll"}, go + 1000)


def test_R23_R36_escape_gives_c_to_the_thief_and_the_rest_to_the_police() -> None:
    game = crack_game((1, 1, 2, 1, 1, 3), "112", "113")
    go = game.setup()
    game.do(0, {"type": "roll"}, go)
    game.do(0, {"type": "draw"}, go + 1000)
    game.do(0, {"type": "roll"}, go + 1000)
    events = game.do(0, {"type": "escape"}, go + 1500)
    ended = next(e for e in events if e.type == "round_ended").data
    assert (ended["outcome"], ended["thief_gain"], ended["police_gain"]) == ("escaped", 2, 4)
    assert game.state.scores == (2, 4)


def test_R26_T8_moves_are_one_adjacent_road_cell_from_the_car() -> None:
    game = Game()
    go = game.setup()
    game.do(1, {"type": "move", "dir": "up", "from": [9, 9]}, go)
    assert game.state.car == (9, 8)
    rejected = game.reject(1, {"type": "move", "dir": "left", "from": [9, 8]}, go + 150, "bad_move")
    assert rejected.params["car"] == [9, 8]  # the authoritative cell for the snap-back
    game.reject(1, {"type": "move", "dir": "up", "from": [9, 9]}, go + 150, "bad_move")
    game.reject(1, {"type": "move", "dir": "up", "from": [40, -3]}, go + 150, "bad_move")
    game.reject(0, {"type": "move", "dir": "up", "from": [9, 8]}, go + 150, "not_your_role")


def test_R27_driving_over_a_circle_reveals_nothing() -> None:
    game = Game()
    go = game.setup(circles=("H", "I"))
    game.drive("H", go)
    game.do(1, {"type": "move", "dir": "left", "from": list(CIRCLE_CELL["H"])}, go + 600)
    assert game.state.revealed == () and game.state.found == 0


def test_R28_R29_siren_only_at_the_named_face_down_circle_under_the_car() -> None:
    """D-10: the car on the circle's cell is enough. D-12: a revealed circle stays face up for the round."""
    game = Game()
    go = game.setup(circles=("B", "L"))
    game.reject(1, {"type": "siren", "circle": "H"}, go, "not_at_circle")
    at = game.drive("H", go)
    game.reject(1, {"type": "siren", "circle": "E"}, at, "not_at_circle")
    game.do(1, {"type": "siren", "circle": "H"}, at)
    game.reject(1, {"type": "siren", "circle": "H"}, at + 2000, "already_revealed")
    game.tick(at + 2000)
    game.reject(1, {"type": "siren", "circle": "H"}, at + 2100, "already_revealed")
    assert game.state.phase == RUNNING  # D-11: no pause from a rejected siren


def test_R30_R31_R32_green_reveal_pauses_both_for_2000_ms() -> None:
    """D-9: the pause is fixed at 2 s, freezes both players (no "I'm out" either) and ends by itself."""
    game = crack_game((1, 4, 4))
    go = game.setup(circles=("B", "L"))
    at = game.drive("H", go)
    events = game.do(1, {"type": "siren", "circle": "H"}, at)
    assert events[-1].data == {"t": at, "circle": "H", "tile": "green", "found": 0, "pause_until": at + 2000}
    for payload, seat in (
        ({"type": "roll"}, 0),
        ({"type": "draw"}, 0),
        ({"type": "escape"}, 0),
        ({"type": "move", "dir": "left", "from": list(game.state.car)}, 1),
        ({"type": "siren", "circle": "H"}, 1),
    ):
        game.reject(seat, payload, at + 1999, "paused")
    events = game.do(0, {"type": "roll"}, at + 2000)  # the pause ends first
    assert game.types(events)[:2] == ["alarm_ended", "dice_rolled"]
    assert events[0].data["t"] == at + 2000
    assert game.state.revealed == (("H", "green"),)


def test_R30_R33_R36_second_thief_catches_without_pause_and_police_takes_six() -> None:
    game = crack_game((1, 1, 2))
    go = game.setup(circles=("H", "E"))
    game.do(0, {"type": "roll"}, go)  # one cracked card
    at = game.drive("H", go)
    events = game.do(1, {"type": "siren", "circle": "H"}, at)
    assert events[-1].data["tile"] == "thief" and events[-1].data["found"] == 1
    at = game.drive("E", at + 2000)
    events = game.do(1, {"type": "siren", "circle": "E"}, at)
    types = game.types(events)
    assert types[:5] == ["siren", "tile_revealed", "thief_caught", "round_ended", "placement_revealed"]
    assert "pause_until" not in events[1].data
    ended = events[3].data
    assert (ended["outcome"], ended["thief_gain"], ended["police_gain"]) == ("caught", 0, 6)
    assert game.state.scores == (0, 6)


def test_R34_one_found_thief_does_not_change_an_escape() -> None:
    game = crack_game((1, 1, 2))
    go = game.setup(circles=("H", "E"))
    at = game.drive("H", go)
    game.do(1, {"type": "siren", "circle": "H"}, at)
    game.do(0, {"type": "roll"}, at + 2000)
    events = game.do(0, {"type": "escape"}, at + 2000)
    assert next(e for e in events if e.type == "round_ended").data["thief_gain"] == 1
    assert game.state.scores == (1, 5)


def test_R35_T17_late_actions_of_a_finished_round_are_not_your_role() -> None:
    game = crack_game((1, 1, 2))
    go = game.setup(circles=("H", "E"))
    game.do(0, {"type": "roll"}, go)
    game.do(0, {"type": "escape"}, go + 10)
    game.reject(1, {"type": "siren", "circle": "H"}, go + 20, "not_your_role")
    game.reject(0, {"type": "move", "dir": "up", "from": [9, 9]}, go + 20, "wrong_phase")  # now the police


def test_R37_placement_is_public_at_round_end() -> None:
    game = crack_game()
    go = game.setup(circles=("L", "B"))
    game.do(0, {"type": "roll"}, go)
    events = game.do(0, {"type": "escape"}, go)
    revealed = next(e for e in events if e.type == "placement_revealed")
    assert revealed.data["circles"] == ["B", "L"] and revealed.secret is None
    assert game.rules.view(game.state, None)["last_round"]["circles"] == ["B", "L"]


def test_R38_next_round_starts_at_the_same_timestamp_with_a_fresh_board() -> None:
    game = crack_game()
    go = game.setup(circles=("H", "E"))
    game.drive("H", go)
    game.do(1, {"type": "siren", "circle": "H"}, go + 600)
    game.do(0, {"type": "roll"}, go + 2600)
    events = game.do(0, {"type": "escape"}, go + 2600)
    setup = next(e for e in events if e.type == "round_setup")
    assert setup.data["t"] == go + 2600 and setup.data["round"] == 2
    s = game.state
    assert (s.phase, s.car, s.revealed, s.found, s.placed, s.ready) == (SETUP, START, (), 0, False, False)
    assert (s.thief, s.police) == (1, 0)


def test_R39_R40_R18_ties_share_the_win() -> None:
    """D-18: ties share the win."""
    game = crack_game((1, 1, 2))
    at = 0
    for _round in range(4):  # each round caught: police 6, so 12 each
        at = end_round_by_catch(game, at) + 10
    outcome = game.rules.outcome(game.state)
    assert outcome is not None and outcome.scores == (12, 12) and outcome.winners == (0, 1)
    assert outcome.ranks == (1, 1)


def test_R41_H6_the_seed_is_published_at_the_end() -> None:
    """D-25: the seed is published at the end."""
    game = crack_game((1, 1, 2))
    at = 0
    for _round in range(4):
        at = end_round_by_catch(game, at) + 10
    ended = game.log[-1]
    assert ended.type == "game_ended" and ended.data["seed"] == "demo"
    for seat in (None, 0, 1):
        assert game.rules.view(game.state, seat)["seed"] == "demo"
    assert game.rules.actors(game.state) == frozenset()
    game.reject(0, {"type": "roll"}, at + 10, "game_over")


def test_R2_system_only_and_player_only_actions() -> None:
    game = Game()
    with pytest.raises(Exception, match="Only the server"):
        game.do(0, {"type": "tick"}, 10)
    with pytest.raises(Exception, match="Only a player"):
        game.do(SYSTEM, {"type": "roll"}, 10)


def test_R6_R5_a_four_player_game_uses_the_whole_deck_without_running_out() -> None:
    game = crack_game(players=4)
    deck = game.state.deck
    at = 0
    for _round in range(7):
        at = end_round_by_catch(game, at) + 10
    assert game.state.round == 8 and game.state.stack == deck[42:48]


def test_R24_no_escape_in_the_pause_nor_from_a_partly_solved_card() -> None:
    game = crack_game((1, 1, 2, 1, 4, 4))
    go = game.setup(circles=("B", "L"))
    game.do(0, {"type": "roll"}, go)  # cracked: choice point
    at = game.drive("H", go)
    game.do(1, {"type": "siren", "circle": "H"}, at)
    game.reject(0, {"type": "escape"}, at + 1999, "paused")
    game.do(0, {"type": "draw"}, at + 2000)
    game.do(0, {"type": "roll"}, at + 2000)  # 1 -> slot 1 of 113: partly solved
    game.reject(0, {"type": "escape"}, at + 2100, "not_at_choice")


def test_T5_default_constants() -> None:
    """D-24: the constants of T-5 are the defaults."""
    from games.engines.police_alarm import constants as c

    assert (c.STEP_MS, c.ROLL_MS, c.ALARM_PAUSE_MS, c.COUNTDOWN_MS) == (150, 1000, 2000, 3000)
    assert (c.PLACEMENT_TIMEOUT_MS, c.AUTO_READY_MS, c.ABANDON_OFFER_MS) == (60_000, 30_000, 120_000)
    state = Game().state
    assert state.step_ms == (150, 150) and state.roll_ms == (1000, 1000)


def test_T9_D3_no_momentum_the_car_may_turn_back_at_once() -> None:
    game = crack_game()
    go = game.setup()
    game.do(1, {"type": "move", "dir": "up", "from": [9, 9]}, go)
    game.do(1, {"type": "move", "dir": "down", "from": [9, 8]}, go + 150)
    game.do(1, {"type": "move", "dir": "up", "from": [9, 9]}, go + 300)
    assert game.state.car == (9, 8)


def test_T13_who_may_do_what_in_which_phase() -> None:
    game = crack_game()
    thief_setup = {a["type"] for a in game.rules.legal_actions(game.state, 0)}
    assert thief_setup == {"place", "place_random", "auto_escape"}
    assert game.rules.legal_actions(game.state, 1) == [{"type": "ready"}]
    game.reject(1, {"type": "place_random"}, 0, "not_your_role")
    game.reject(0, {"type": "ready"}, 0, "not_your_role")
    go = game.setup()
    game.tick(go)
    assert {a["type"] for a in game.rules.legal_actions(game.state, 0)} == {"roll", "auto_escape"}
    assert {a["type"] for a in game.rules.legal_actions(game.state, 1)} == {"move"}
    game.reject(0, {"type": "siren", "circle": "H"}, go, "not_your_role")
    game.reject(1, {"type": "roll"}, go, "not_your_role")
