"""Danger mode (section 7, R-47..R-56): every danger card on a prescribed table."""

from __future__ import annotations

from games.engines.exit_memory import RULES
from games.engines.exit_memory.walk import walk

from .table import Table

REST = "T21 T22 T24 T25 T29 T30 T33 T34 T35 T36 T37"


def test_R47_danger_mode_is_an_option_off_by_default() -> None:
    option = next(o for o in RULES.options if o.name == "danger")
    assert option.default is False and RULES.initial(3, {}).danger is False


def test_R48_danger_mode_reveals_one_danger_card_a_round() -> None:
    t = Table(["T01 T02 T03", "T04 T05 T07"], REST, dangers="DG4")
    assert t.state.dangers == ("DG4",) and len(t.state.danger_deck) == 6
    t.declare(0)
    t.do(0, {"type": "ready"})
    t.do(1, {"type": "ready"})
    assert len(t.state.dangers) == 2 and len(t.state.danger_deck) == 5


def test_R50_DG1_turns_the_whole_pile_a_quarter_clockwise_and_never_the_result() -> None:
    t = Table(["T08 T01 T02", "T04 T05 T07"], REST, dangers="DG1")
    t.place(0, "T08", "N")  # a left turn with a flame: its arrow would leave W
    assert t.view(1)["top"]["facing"] == "E" and t.state.start_facing == "E"
    assert t.view(1)["required_facing"] == "N"  # aligned to the rotated arrow
    assert t.view(1)["notice"] == {"card": "DG1", "seat": 0}  # a transient public notice
    t.place(1, "T04", "N")
    assert t.view(0)["notice"] is None
    # the walk orients tiles by the route, so the rotation changes nothing in resolution
    assert walk([p.tile for p in t.state.pile], ["FL0"]) == walk(["T08", "T04"], ["FL0"])


def test_R50_DG3_turns_the_pile_half_round() -> None:
    t = Table(["T10 T01 T02", "T04 T05 T07"], REST, dangers="DG3")
    t.place(0, "T10", "N")
    assert t.view(1)["top"]["facing"] == "S" and t.view(1)["required_facing"] == "E"


def test_R51_DG2_the_next_tile_goes_face_down_frees_the_facing_and_triggers_nothing() -> None:
    t = Table(["T03 T01 T02", "T08 T05 T07", "T09 T11 T13"], REST, dangers="DG2 DG1")
    t.place(0, "T03", "N")
    assert t.view(1)["face_down_next"] is True
    t.place(1, "T08", "E")  # face down, facing free, and the flame does not rotate the pile
    assert t.state.pile[-1].face_down and t.state.start_facing == "N"
    for seat in (None, 0, 1, 2):
        assert t.view(seat)["top"] == {"face_down": True}  # even its owner sees only its back
    assert t.view(2)["required_facing"] is None
    t.place(2, "T09", "S")
    assert not t.state.pile[-1].face_down and t.state.face_down_next is False  # it does not stack


def test_R52_DG4_every_holder_passes_their_hand_clockwise_then_the_player_draws() -> None:
    t = Table(["T06 T01 T02", "T04 T05 T07", "T09 T11 T13"], "T21 T22 T24", dangers="DG4")
    t.place(0, "T06", "N")
    assert t.state.hands[1] == ("T01", "T02")  # from seat 0
    assert t.state.hands[2] == ("T04", "T05", "T07")
    assert t.state.hands[0] == ("T09", "T11", "T13")  # from seat 2; already 3, nothing drawn
    received = [e for e in t.log if e.type == "hand_received"]
    assert all(e.visible_to == (e.data["seat"],) for e in received)  # each sees only their new hand


def test_R52_DG4_non_holders_keep_their_hands() -> None:
    t = Table(["T01 T02 T03", "T04 T05 T07", "T06 T11 T13", "T09 T14 T15"], REST, dangers="DG4")
    t.declare(0)
    for seat in (1, 2, 3):
        t.reply(seat, False)
    t.place(1, "T04", "N")
    t.place(2, "T06", "N")  # water: seat 0 has declared and keeps its hand
    assert t.state.hands[0] == ("T01", "T02", "T03")
    assert t.state.hands[3] == ("T11", "T13")  # from seat 2
    assert t.state.hands[1] == ("T09", "T14", "T15")  # from seat 3
    assert t.state.hands[2] == ("T05", "T07", "T21")  # seat 1's hand (after its draw); seat 2 holds 3 already


def test_R53_DG5_the_next_holder_skips_a_turn_and_with_two_holders_the_player_goes_again() -> None:
    t = Table(["T20 T01 T02", "T04 T05 T07", "T09 T11 T13"], REST, dangers="DG5")
    t.place(0, "T20", "N")
    assert t.state.turn == 2 and t.state.skipped == (False, False, False)
    t2 = Table(["T20 T01 T02", "T04 T05 T07"], REST, dangers="DG5")
    t2.place(0, "T20", "N")
    assert t2.state.turn == 0


def test_R54_DG6_the_player_places_one_more_tile_and_draws_once_afterwards() -> None:
    t = Table(["T12 T01 T02", "T04 T05 T07"], "T21 T22 T24", dangers="DG6")
    t.place(0, "T12", "N")  # gas: a left turn
    assert t.state.phase == "extra" and t.state.turn == 0 and len(t.state.hands[0]) == 2
    assert t.refused(0, {"type": "declare_lost"}) == "WRONG_PHASE"  # may not declare instead
    assert t.refused(0, {"type": "place", "tile": "T01", "facing": "N"}) == "BAD_FACING"  # aligned to the gas tile
    t.place(0, "T01", "W")
    assert t.state.phase == "turn" and t.state.turn == 1 and list(t.state.hands[0]) == ["T02", "T21", "T22"]


def test_R54_DG6_with_an_empty_hand_nothing_happens() -> None:
    t = Table(["T12", "T04 T05"], dangers="DG6")
    t.place(0, "T12", "N")
    assert t.state.phase == "turn" and t.state.turn == 1


def test_R55_DG7_the_next_holder_may_not_declare_on_their_next_turn_but_may_join() -> None:
    t = Table(["T16 T01 T02", "T04 T05 T07", "T09 T11 T13"], REST, dangers="DG7")
    t.place(0, "T16", "N")  # siren
    assert t.state.jammed == (False, True, False)
    assert t.refused(1, {"type": "declare_lost"}) == "JAMMED"
    assert {"type": "declare_lost"} not in t.rules.legal_actions(t.state, 1)
    t.place(1, "T04", "E")
    assert t.state.jammed == (False, False, False)  # lapses after their turn
    t.declare(2)
    t.reply(0, False)
    assert t.state.prompted == 1


def test_R56_the_extra_tile_triggers_its_own_card() -> None:
    t = Table(["T12 T06 T02", "T04 T05 T07"], "T21 T22 T24", dangers="DG6 DG4")
    t.place(0, "T12", "N")
    t.place(0, "T06", "W")  # water on the extra tile: hands pass, then seat 0 draws once
    assert t.state.hands[1] == ("T02",)
    assert t.state.hands[0] == ("T04", "T05", "T07")


def test_R58_danger_triggers_stay_out_of_the_feed_and_the_public_event() -> None:
    t = Table(["T08 T01 T02", "T04 T05 T07"], REST, dangers="DG1")
    t.place(0, "T08", "N")
    triggered = next(e for e in t.log if e.type == "danger_triggered")
    assert triggered.data == {} and triggered.visible_to == ()
    assert RULES.log_lines(triggered.for_seat(1)) == []


def test_R11_only_a_face_up_hazard_matching_a_revealed_card_triggers_it_before_the_draw() -> None:
    t = Table(["T02 T01 T03", "T04 T05 T07"], REST, dangers="DG4")  # DG4: water
    events = t.place(0, "T02", "N")  # a flame: no revealed card shows it
    assert "danger_triggered" not in t.types(events) and t.state.hands[1] == ("T04", "T05", "T07")
    t = Table(["T06 T01 T02", "T04 T05 T07", "T09 T11"], "T21 T22 T24", dangers="DG4")
    events = t.place(0, "T06", "N")  # water: the hands pass at once, and only then seat 0 draws
    assert t.types(events)[1] == "danger_triggered"
    assert t.state.hands[1] == ("T01", "T02")  # seat 0's hand without a drawn tile in it
    assert t.state.hands[0] == ("T09", "T11", "T21")  # seat 2's two tiles, then the draw
