"""One test (or more) per rule of rules/exit_memory.md sections 3–5 and 10, on prescribed tables."""

from __future__ import annotations

import itertools
import json
from dataclasses import replace
from typing import Any

import pytest

from games.engines.base import SYSTEM, IllegalAction
from games.engines.exit_memory import RULES
from games.engines.exit_memory.rules import next_start_player
from games.engines.exit_memory.walk import ChainRecord, score_chains

from .table import Table

REST = "T21 T22 T24 T25 T29 T30 T33 T34 T35 T36 T37"


def three_players(start: int = 0) -> Table:
    return Table(["T01 T02 T03", "T04 T05 T06", "T07 T09 T11"], REST, start=start)


# -- section 3: setup ---------------------------------------------------------------------------


def test_section3_setup_by_player_count() -> None:
    import random

    from games.engines.base import DecideContext

    for players, target, deck in ((2, 3, 31), (3, 3, 28), (4, 2, 25), (5, 2, 22)):
        state = RULES.initial(players, {})
        for event in RULES.decide(state, SYSTEM, {"type": "start"}, DecideContext(random.Random(players), 0.0)):
            state = RULES.evolve(state, event)
        view = RULES.view(state, 0)
        assert (view["target"], view["deck_count"], view["hand_counts"]) == (target, deck, [3] * players)
        assert view["floors"] == ["FL0"] and view["floor_deck_count"] == 6 and view["scores"] == [0] * players
        assert view["top"]["type"] == "START" and view["top"]["facing"] == "N"  # step 5, R-72


# -- 5.1 seats and turns -------------------------------------------------------------------------


def test_R1_R21_turns_go_clockwise_from_the_start_player() -> None:
    t = three_players(start=1)
    assert t.state.turn == 1
    t.place(1, "T04", "N")
    assert t.state.turn == 2
    t.place(2, "T07", "N")
    assert t.state.turn == 0


def test_R3_R4_a_player_holding_tiles_may_not_pass() -> None:
    t = three_players()
    assert t.refused(0, {"type": "pass"}) == "HAND_NOT_EMPTY"
    assert {"type": "pass"} not in t.rules.legal_actions(t.state, 0)


# -- 5.2 placing -----------------------------------------------------------------------------------


def test_R5_R6_the_new_tile_continues_the_arrow_of_the_top_tile() -> None:
    t = Table(["T09 T14 T18", "T01 T26 T02", "T03 T04 T05"], REST)
    assert t.refused(0, {"type": "place", "tile": "T09", "facing": "E"}) == "BAD_FACING"  # the start arrow is N
    t.place(0, "T09", "N")  # a left turn facing N: its arrow leaves west
    assert t.view(1)["required_facing"] == "W"
    assert t.refused(1, {"type": "place", "tile": "T01", "facing": "N"}) == "BAD_FACING"
    t.place(1, "T01", "W")
    t.place(2, "T03", "W")
    t.place(0, "T14", "W")  # a right turn facing W leaves north
    assert t.view(1)["required_facing"] == "N"
    t.place(1, "T26", "N")  # only the cross's arrowed path counts
    assert t.view(2)["required_facing"] == "N"
    t.place(2, "T04", "N")
    t.place(0, "T18", "N")  # a double left's path 1 turns left
    assert t.view(1)["required_facing"] == "W"


def test_R7_R8_any_facing_after_a_roundabout_and_for_a_roundabout() -> None:
    t = Table(["T32 T01 T02", "T03 T04 T05", "T06 T07 T09"], REST)
    assert t.view(0)["hand"][2]["facings"] == ["N", "E", "S", "W"]  # a roundabout takes any facing
    t.place(0, "T32", "S")
    assert t.view(1)["required_facing"] is None
    assert all(tile["facings"] == ["N", "E", "S", "W"] for tile in t.view(1)["hand"])
    t.place(1, "T03", "E")
    assert t.view(2)["required_facing"] == "E"


def test_R10_draw_up_to_three_and_skip_when_the_deck_is_empty() -> None:
    t = Table(["T01 T02 T03", "T04 T05 T06"], "T07")
    t.place(0, "T01", "N")
    assert len(t.state.hands[0]) == 3 and t.state.deck == ()
    t.place(1, "T04", "N")
    assert len(t.state.hands[1]) == 2  # nothing left to draw; the round goes on
    assert t.state.phase == "turn"


def test_R12_R24b_empty_hands_pass_and_the_round_ends_when_every_tile_is_played() -> None:
    t = Table(["T01", "T02 T03", "T04"])
    t.place(0, "T01", "N")
    t.place(1, "T02", "N")
    t.place(2, "T04", "N")
    assert {"type": "pass"} in t.rules.legal_actions(t.state, 0)
    t.do(0, {"type": "pass"})
    events = t.place(1, "T03", "N")
    assert "round_ended" in t.types(events)
    assert next(e for e in events if e.type == "round_ended").data["reason"] == "all_played"


# -- 5.4 declaring and chains -------------------------------------------------------------------------


def four_players() -> Table:
    return Table(["T01 T02 T03", "T04 T05 T06", "T07 T09 T11", "T13 T14 T15"], REST)


def test_R13_R14_R16_R17_a_chain_asks_each_holder_clockwise_and_records_its_members() -> None:
    t = four_players()
    t.place(0, "T01", "N")
    t.place(1, "T04", "N")
    t.declare(2)
    chain = t.state.chains[-1]
    assert (chain.number, chain.position, chain.members) == (1, 2, (2,))  # position = tiles placed
    assert t.state.prompted == 3
    assert t.refused(0, {"type": "chain_reply", "join": True}) == "NOT_YOUR_TURN"
    t.reply(3, True)
    assert t.state.prompted == 0 and t.view(None)["chains"][0]["members"] == [2, 3]  # public at once
    t.reply(0, False)
    assert t.state.prompted == 1
    t.reply(1, False)
    assert t.state.chains[-1].members == (2, 3)
    assert t.state.turn == 0  # the first holder clockwise from the declarer


def test_R15_the_last_holder_is_not_asked_and_R24a_ends_the_round() -> None:
    t = three_players()
    t.declare(0)
    t.reply(1, True)
    assert t.state.phase == "summary"  # player 2 was the last holder: kept without a prompt
    assert [e.data["seat"] for e in t.log if e.type == "prompted"] == [1]
    assert next(e for e in t.log if e.type == "round_ended").data["reason"] == "one_holder"


def test_R15_a_two_player_declaration_ends_the_round_at_once() -> None:
    t = Table(["T01 T02 T03", "T04 T05 T06"], REST)
    t.declare(0)
    assert t.state.phase == "summary" and not [e for e in t.log if e.type == "prompted"]


def test_R15_joining_as_last_holder_is_refused_even_if_asked() -> None:
    t = three_players()
    t.declare(0)
    t.state = replace(t.state, holders=(False, True, False))  # guarded although never prompted
    assert t.refused(1, {"type": "chain_reply", "join": True}) == "CANNOT_JOIN_LAST_HOLDER"


def test_R19_players_who_declared_take_no_turns_receive_no_prompts_and_do_not_draw() -> None:
    t = four_players()
    t.declare(0)
    for seat in (1, 2, 3):
        t.reply(seat, False)
    hand = t.state.hands[0]
    t.place(1, "T04", "N")
    t.place(2, "T07", "N")
    t.place(3, "T13", "N")
    assert t.state.turn == 1 and t.state.hands[0] == hand
    t.declare(1)
    assert t.state.prompted == 2
    t.reply(2, False)
    assert t.state.prompted == 3
    t.reply(3, False)
    assert t.state.turn == 2  # seat 0 was never asked, and the turn passes it by


def test_R20_declaring_only_on_ones_own_turn() -> None:
    t = four_players()
    assert t.refused(1, {"type": "declare_lost"}) == "NOT_YOUR_TURN"
    t.declare(0)
    assert t.refused(1, {"type": "declare_lost"}) == "WRONG_PHASE"
    assert t.refused(1, {"type": "place", "tile": "T04", "facing": "N"}) == "WRONG_PHASE"


def test_R5_a_tile_not_in_hand_is_refused() -> None:
    t = three_players()
    assert t.refused(0, {"type": "place", "tile": "T04", "facing": "N"}) == "TILE_NOT_IN_HAND"
    assert t.refused(1, {"type": "place", "tile": "T04", "facing": "N"}) == "NOT_YOUR_TURN"


# -- 5.8 scoring ----------------------------------------------------------------------------------------


def test_R38_R39_R29_premature_and_scoring_chains() -> None:
    """The route T09 T11 T13 runs into the start tile after tile #3 (DEAD END, L = 3)."""
    t = Table(["T01 T02 T03", "T09 T13 T04", "T11 T05 T06"], REST)
    t.declare(0)  # C1 at position 0: premature
    t.reply(1, False)
    t.reply(2, False)
    t.place(1, "T09", "N")
    t.place(2, "T11", "W")
    t.place(1, "T13", "S")
    t.declare(2)  # C2 at position 3 = L: scores; seat 1 is the last holder
    result = t.state.result
    assert result is not None
    assert (result["outcome"], result["lost_at"], result["reasons"]) == ("LOST", 3, ["DEAD END"])
    assert [c["status"] for c in result["chains"]] == ["premature", "scoring"]
    assert result["scorers"] == [2] and t.state.scores == (0, 0, 1)


def escaped_after_a_premature_declaration() -> Table:
    """Seat 1 declares the route lost after one tile and nobody joins; the route then escapes."""
    t = Table(["T01", "T02", "T04"])
    t.place(0, "T01", "N")
    t.declare(1)
    t.reply(2, False)
    t.reply(0, False)
    t.place(2, "T04", "N")
    return t


def test_R38_when_the_route_escapes_the_holders_score_and_every_chain_was_premature() -> None:
    t = escaped_after_a_premature_declaration()
    assert t.state.phase == "summary"
    assert t.state.result is not None and t.state.result["outcome"] == "ESCAPED"
    assert t.state.scores == (1, 0, 1) and t.state.result["chains"][0]["status"] == "premature"


def test_R39_R40_R41_only_the_earliest_chain_after_the_loss_scores() -> None:
    lost_at_3 = {"outcome": "LOST", "lost_at": 3}
    chains = [ChainRecord(1, 2, (0,)), ChainRecord(2, 3, (1, 2)), ChainRecord(3, 5, (3,))]
    scored = score_chains(lost_at_3, chains, holders=[4])
    assert scored["scorers"] == [1, 2]  # all members of the earliest chain at position ≥ L
    assert [c["status"] for c in scored["chains"]] == ["premature", "scoring", "too late"]
    assert score_chains(lost_at_3, chains[:1], holders=[1, 2])["scorers"] == []
    assert len(set(scored["scorers"])) == len(scored["scorers"])


def test_R43_the_opener_of_C1_starts_the_next_round_or_else_the_left_neighbour() -> None:
    t = four_players()
    t.place(0, "T01", "N")
    t.declare(1)
    t.reply(2, True)
    t.reply(3, False)
    t.reply(0, False)
    assert next_start_player(t.state) == 1
    assert next_start_player(replace(t.state, chains=(), start_player=3)) == 0


def test_R44_a_new_round_gives_back_lost_tiles_reshuffles_and_reveals_a_floor_card() -> None:
    t = three_players()
    t.declare(1 - 1)
    t.reply(1, True)
    assert t.state.phase == "summary" and t.state.result is not None
    assert t.state.result["next_start"] == 0
    t.do(0, {"type": "ready"})
    t.do(1, {"type": "ready"})
    assert t.refused(1, {"type": "place", "tile": "T04", "facing": "N"}) == "WRONG_PHASE"
    events = t.do(2, {"type": "ready"})
    assert t.types(events)[:2] == ["ready", "round_started"]
    shuffled = next(e for e in events if e.type == "shuffled")
    assert shuffled.data["label"] == "tiles/round-2" and sorted(shuffled.secret["order"]) == [  # type: ignore[index]
        f"T{i:02d}" for i in range(1, 38)
    ]
    s = t.state
    assert s.round == 2 and s.holders == (True,) * 3 and s.pile == () and s.chains == ()
    assert len(s.floors) == 2 and len(s.floor_deck) == 5 and s.turn == 0
    assert [len(h) for h in s.hands] == [3, 3, 3]


def test_R45_an_empty_floor_deck_reveals_nothing() -> None:
    t = three_players()
    t.state = replace(t.state, floor_deck=())
    t.declare(0)
    t.reply(1, True)
    for seat in range(3):
        t.do(seat, {"type": "ready"})
    assert t.state.round == 2 and t.state.floors == ("FL0",)


def test_R46_everyone_at_the_target_shares_the_victory() -> None:
    t = Table(["T01", "T02"])
    t.state = replace(t.state, scores=(2, 2))
    t.place(0, "T01", "N")
    t.place(1, "T02", "N")  # both still hold their lost tile and the route escapes
    assert t.state.phase == "over" and t.state.winners == (0, 1)
    outcome = t.rules.outcome(t.state)
    assert outcome is not None and outcome.winners == (0, 1) and outcome.ranks == (1, 1)
    ended = next(e for e in t.log if e.type == "game_ended")
    assert ended.data["seed"] == t.state.seed and t.view(None)["seed"] == t.state.seed


def test_R46_the_game_goes_on_below_the_target() -> None:
    t = Table(["T01", "T02", "T03", "T04"])
    t.state = replace(t.state, scores=(1, 0, 0, 0))
    for seat, tile in enumerate(("T01", "T02", "T03", "T04")):
        t.place(seat, tile, "N")
    # FL0 only: four straights escape; every holder scores; 4 players need 2 points
    assert t.state.scores == (2, 1, 1, 1) and t.state.phase == "over" and t.state.winners == (0,)


# -- 10: actions, refusals, time-outs -------------------------------------------------------------------


def test_R67_R68_malformed_actions_are_invalid() -> None:
    from games.engines.base import InvalidAction

    for payload in (
        {"type": "place"},
        {"type": "place", "tile": "T99"},
        {"type": "place", "tile": "T01", "facing": "X"},
        {"type": "chain_reply"},
        {"type": "chain_reply", "join": "maybe"},
        {"type": "fly"},
    ):
        with pytest.raises(InvalidAction):
            RULES.parse_action(payload)


def test_R70_a_turn_time_out_places_the_lowest_tile_with_the_required_facing() -> None:
    t = Table(["T14 T09 T11", "T04 T05 T06"], REST, options={"turn_seconds": "30"})
    (deadline,) = t.rules.deadlines(t.state)
    assert (deadline.kind, deadline.due) == ("turn", 1030.0)
    with pytest.raises(IllegalAction):
        t.do(SYSTEM, deadline.action)  # too early
    t.now = 1030.0
    events = t.do(SYSTEM, deadline.action)
    placed = next(e for e in events if e.type == "tile_placed")
    assert placed.secret == {"tile": "T09", "facing": "N"} and placed.data["auto"] is True
    assert "declare_lost" not in t.types(events)


def test_R70_a_chain_time_out_keeps_and_a_summary_time_out_makes_everyone_ready() -> None:
    t = four_players()
    t.declare(0)
    (deadline,) = t.rules.deadlines(t.state)
    assert deadline.kind == "chain" and deadline.due == t.now + 20
    t.now += 20
    reply = next(e for e in t.do(SYSTEM, deadline.action) if e.type == "chain_reply")
    assert reply.data == {"seat": 1, "chain": 1, "join": False, "auto": True}
    t.reply(2, True)
    t.reply(3, True)
    assert t.state.phase == "summary"
    t.do(0, {"type": "ready"})
    (deadline,) = t.rules.deadlines(t.state)
    assert deadline.kind == "summary" and deadline.seats == (1, 2, 3)
    t.now = deadline.due
    t.do(SYSTEM, deadline.action)
    assert t.state.round == 2


def test_R70_an_empty_hand_times_out_as_a_pass() -> None:
    t = Table(["T01", "T02 T03", "T04"])
    for seat, tile in ((0, "T01"), (1, "T02"), (2, "T04")):
        t.place(seat, tile, "N")
    (deadline,) = t.rules.deadlines(t.state)
    t.now = deadline.due
    events = t.do(SYSTEM, deadline.action)
    assert next(e for e in events if e.type == "passed").data == {"seat": 0, "auto": True}


def test_R65_prescribed_deals_are_only_reachable_through_a_test_rules_object() -> None:
    assert RULES.prescribed is None and RULES.fixed_seed is None
    state = RULES.initial(2, {"prescribed": {"hands": [["T01"]]}, "seed": "00"})
    assert "prescribed" not in repr(state)


# -- rules that hold across a whole round ------------------------------------------------------------


def play_round_one(t: Table) -> None:
    """Seats 0, 1, 2 each place a tile facing the required way, in turn."""
    for seat, tile in ((0, "T01"), (1, "T04"), (2, "T07")):
        t.place(seat, tile, t.view(seat)["required_facing"])


def test_R22_placed_tiles_stay_in_the_pile_in_their_order_and_no_action_takes_one_back() -> None:
    t = three_players()
    piles = [t.state.pile]
    for seat, tile in ((0, "T01"), (1, "T04"), (2, "T07")):
        assert {a["type"] for a in t.rules.legal_actions(t.state, seat)} <= {"place", "declare_lost", "pass"}
        t.place(seat, tile, t.view(seat)["required_facing"])
        piles.append(t.state.pile)
    for before, after in itertools.pairwise(piles):
        assert after[: len(before)] == before and len(after) == len(before) + 1
    assert [p.tile for p in t.state.pile] == ["T01", "T04", "T07"]


def test_R61_no_view_offers_the_tiles_under_the_top_one() -> None:
    """The client is never given a history of past top tiles: only the top and the pile's size."""
    t = three_players()
    play_round_one(t)
    for seat in (None, 0, 1, 2):
        view = json.dumps(t.view(seat))
        assert '"T01"' not in view and '"T04"' not in view, seat  # covered by T07
        assert t.view(seat)["top"]["tile"] == "T07" and t.view(seat)["pile_count"] == 3


def test_R35_FL0_lies_face_up_in_every_round() -> None:
    t = three_players()
    assert t.state.floors == ("FL0",)
    t.declare(0)
    t.reply(1, True)
    for seat in range(3):
        t.do(seat, {"type": "ready"})
    assert t.state.round == 2 and t.state.floors[0] == "FL0" and len(t.state.floors) == 2


def test_R42_scores_are_public() -> None:
    t = escaped_after_a_premature_declaration()
    assert t.state.scores == (1, 0, 1)
    assert all(t.view(seat)["scores"] == [1, 0, 1] for seat in (None, 0, 1, 2))


def test_R66_a_game_moves_from_its_start_through_turns_chains_and_the_summary_to_the_next_round() -> None:
    assert RULES.initial(3, {}).phase == "prestart"  # the platform's lobby comes before it
    t = three_players()
    assert t.state.phase == "turn"
    t.place(0, "T01", "N")
    t.declare(1)
    assert t.state.phase == "chain"
    t.reply(2, False)
    t.reply(0, False)
    assert t.state.phase == "turn"
    t.place(2, "T07", "N")
    t.place(0, "T02", "N")
    t.declare(2)  # seat 0 is the last holder: the route is resolved at once
    assert t.state.phase == "summary" and t.state.result is not None
    for seat in range(3):
        t.do(seat, {"type": "ready"})
    assert t.state.phase == "turn" and t.state.round == 2


def test_R73_each_event_is_public_private_or_secret_as_the_log_table_says() -> None:
    t = three_players()
    play_round_one(t)
    by_type: dict[str, list[Any]] = {}
    for event in t.log:
        by_type.setdefault(event.type, []).append(event)
    (created,) = by_type["game_created"]
    assert "seed" not in created.data and created.visible_to == () and created.secret == {"seed": t.state.seed}
    assert all(e.visible_to == () and "order" not in e.data for e in by_type["shuffled"])
    for dealt in by_type["dealt"] + by_type["drew"]:
        assert dealt.visible_to == (dealt.data["seat"],) and "tiles" not in dealt.data
    for placed in by_type["tile_placed"]:
        assert placed.visible_to == () and "tile" not in placed.data and placed.secret is not None
    (started,) = by_type["round_started"]
    assert started.secret is None and started.data["start"] == 0
