"""Secrets (no view or event leaks another seat's role), parsing, bot and log lines."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games.engines.base import SYSTEM, IllegalAction, InvalidAction, Rules
from games.engines.heist import RULES
from games.engines.heist.state import NAMING, NEGOTIATION, OVER

from .helpers import NOW, act, commit_all, event, heist, negotiation_state, planning_state, started

IN, TH, DR, GO, MM = "INFORMANT", "THUG", "DRIVER", "GOON", "MASTERMIND"


def _public_text(view: dict[str, Any]) -> str:
    """A view without the keys that list role *types* regardless of anybody's choice."""
    view = dict(view)
    view.pop("roles_in_play", None)
    if view.get("me"):
        view["me"] = {k: v for k, v in view["me"].items() if k != "allowed_roles"}
    return json.dumps(view).upper()


def test_rules_object_implements_the_protocol() -> None:
    assert isinstance(RULES, Rules)
    assert (RULES.slug, RULES.min_players, RULES.max_players) == ("heist", 3, 8)
    state = RULES.initial(5, {"time_limit": 60})
    assert RULES.actors(state) == frozenset({SYSTEM})
    assert RULES.legal_actions(state, SYSTEM) == [{"type": "start"}]


def test_secret_goon_of_a_withdrawn_player_never_leaks() -> None:
    # Seat 1 is the only Goon, its card is set aside, and it withdraws: nobody else may ever
    # learn "GOON" from a view, an event or a log line during the match.
    seed = next(s for s in range(200) if _set_aside(s) == GO)
    state = planning_state(4)
    log = []
    for seat, role in enumerate([TH, GO, DR, DR]):
        state, events = act(state, seat, {"type": "choose", "roles": [role]}, seed=seed)
        log.extend(events)
    assert state.set_aside == GO and GO not in state.pool
    state, events = act(state, 1, {"type": "withdraw", "slot": 1})
    log.extend(events)
    state, events = commit_all(state)
    log.extend(events)
    assert state.phase != OVER
    for viewer in (None, 0, 2, 3):
        assert GO not in _public_text(RULES.view(state, viewer))
        for e in log:
            red = e.for_seat(viewer)
            assert GO not in json.dumps(red).upper()
            for line in RULES.log_lines(red):
                assert "GOON" not in (line.message % line.params).upper()
    assert GO in json.dumps(RULES.view(state, 1))  # its owner still knows


def _set_aside(seed: int) -> str:
    state = planning_state(4)
    for seat, role in enumerate([TH, GO, DR, DR]):
        state, _ = act(state, seat, {"type": "choose", "roles": [role]}, seed=seed)
    return state.set_aside


def test_secret_unrevealed_roles_hidden_in_negotiation() -> None:
    state = negotiation_state([[TH, DR], [GO, IN], [MM, TH]])
    for seat in (None, 0, 1, 2):
        view = RULES.view(state, seat)
        for h in view["hands"]:
            assert ("role" in h) == (h["seat"] == seat)
        assert view["final"] is None and "set_aside" not in json.dumps(view)


def test_secret_timeout_pick_only_for_its_player() -> None:
    state, _ = started(4)
    state, events = act(state, SYSTEM, {"type": "planning_timeout"}, now=NOW + 60)
    pick = event(events, "choice_timed_out")
    assert pick.visible_to == (0,)
    assert "secret" in pick.for_seat(0) and "secret" not in pick.for_seat(1)


def test_parse_action_accepts_form_strings() -> None:
    assert RULES.parse_action({"type": "withdraw", "slot": "2"}) == {"type": "withdraw", "slot": 2}
    assert RULES.parse_action(
        {"type": "offer", "to_seat": "1", "amount": "3", "direction": "ask", "clause_slot": ""}
    ) == {"type": "offer", "to_seat": 1, "amount": 3, "direction": "ask", "clause_slot": None}
    assert RULES.parse_action({"type": "choose", "role": "driver"}) == {"type": "choose", "roles": [DR]}
    assert RULES.parse_action({"type": "choose", "roles": "THUG,GOON"})["roles"] == [TH, GO]
    assert RULES.parse_action({"type": "accept", "offer": "7"}) == {"type": "accept", "offer": 7}


@pytest.mark.parametrize(
    "payload",
    [
        {},
        {"type": 3},
        {"type": "nope"},
        {"type": "withdraw", "slot": "x"},
        {"type": "withdraw", "slot": True},
        {"type": "offer", "to_seat": 1, "amount": 2, "direction": "steal"},
        {"type": "offer", "to_seat": 1},
        {"type": "choose", "roles": ["PILOT"]},
        {"type": "choose", "roles": 5},
        {"type": "look", "target_seat": None},
    ],
)
def test_parse_action_rejects_malformed(payload: dict[str, Any]) -> None:
    with pytest.raises(InvalidAction):
        RULES.parse_action(payload)


def test_system_and_player_actions_are_separated() -> None:
    state = negotiation_state([TH, DR, GO, DR])
    with pytest.raises(IllegalAction):
        act(state, 0, {"type": "negotiation_timeout"}, now=NOW + 999)
    with pytest.raises(IllegalAction):
        act(state, SYSTEM, {"type": "commit"})
    with pytest.raises(IllegalAction):
        act(state, 0, {"type": "resign", "seat": 0})


def test_bot_withdraws_a_duplicated_role_and_commits_otherwise() -> None:
    state = negotiation_state([TH, DR, GO, DR], set_aside=0)  # face up: DR, GO, DR
    rng = random.Random(1)
    assert RULES.bot_action(state, 1, rng) == {"type": "withdraw", "slot": 1}
    assert RULES.bot_action(state, 2, rng) == {"type": "commit"}


def test_bot_accepts_paying_offers_and_names_face_up_roles() -> None:
    state = negotiation_state([TH, DR, GO, DR])
    state, ev = act(state, 0, {"type": "offer", "to_seat": 2, "amount": 1, "direction": "pay"})
    assert RULES.bot_action(state, 2, random.Random(0)) == {"type": "accept", "offer": ev[0].data["offer"]}
    naming, _ = heist([IN, TH, DR, GO, DR], set_aside=0)
    assert naming.phase == NAMING
    action = RULES.bot_action(naming, 0, random.Random(0))
    assert action["type"] == "name" and action["role"] in naming.pool


def test_bot_plays_legal_choices() -> None:
    state, _ = started(3)
    for seat in range(3):
        action = RULES.bot_action(state, seat, random.Random(seat))
        assert action in RULES.legal_actions(state, seat)
        state, _ = act(state, seat, action)
    assert state.phase == NEGOTIATION


def test_log_lines_read_like_the_spec() -> None:
    state = negotiation_state([TH, DR, GO, DR])
    _, events = act(state, 1, {"type": "withdraw", "slot": 1})
    (line,) = RULES.log_lines(events[0].for_seat(None))
    assert line.message == "%(seat)s withdrew and took back %(amount)sM"
    assert line.params["seat"] == 1 and line.params["amount"] == 1
    _, events = heist([TH, DR, GO, DR], withdraw=[(3, 1)])
    lines = [ln for e in events for ln in RULES.log_lines(e.for_seat(None))]
    assert any(ln.message == "%(seat)s revealed %(role)s" and ln.params["role"] == "Driver" for ln in lines)
    for ln in lines:
        for key, value in ln.params.items():
            if key.endswith("seat"):
                assert isinstance(value, int)


def test_bot_answers_the_offer_it_is_waited_on_for() -> None:
    state = negotiation_state([TH, DR, GO, DR])
    # seat 0 offers 1M for seat 2's (unique) Goon to withdraw: not worth it, so the bot declines
    state, ev = act(state, 0, {"type": "offer", "to_seat": 2, "amount": 1, "direction": "pay", "clause_slot": 1})
    oid = ev[0].data["offer"]
    assert 2 in next(d.seats for d in RULES.deadlines(state) if d.kind == "offer")
    assert RULES.bot_action(state, 2, random.Random(0)) == {"type": "decline", "offer": oid}
    # an "ask" offer (the bot would pay) is declined too
    state, ev = act(state, 1, {"type": "offer", "to_seat": 3, "amount": 2, "direction": "ask"})
    assert RULES.bot_action(state, 3, random.Random(0)) == {"type": "decline", "offer": ev[0].data["offer"]}


@pytest.mark.parametrize("now", [0.0, NOW, NOW + 30, NOW + 10_000])
def test_r76_r80_bot_boss_action_is_accepted_at_any_clock_time(now: float) -> None:
    # The boss bot, with nothing left to decide, may pick any quiet power: before the
    # boss_powers_ready event it is never offered prompt or call, whatever the clock says.
    state = negotiation_state([TH, DR, GO, DR], boss=0)
    state, _ = act(state, 0, {"type": "commit"})
    state, _ = act(state, 0, {"type": "roll_call"})
    for ready in (False, True):
        if ready:
            state, _ = act(state, SYSTEM, {"type": "powers_ready"}, now=NOW + 30)
        for seed in range(20):
            action = RULES.bot_action(state, 0, random.Random(seed))
            assert action in RULES.legal_actions(state, 0)
            assert ready or action["type"] not in ("prompt", "call")
            act(state, 0, action, now=now)  # accepted


def test_legal_actions_are_copies_that_a_caller_may_change() -> None:
    """The engine remembers the last state's legal actions; what it hands out must be the caller's own."""
    planning = planning_state(4)
    first = RULES.legal_actions(planning, 0)
    first[0]["roles"].append("MASTERMIND")  # an action holding a list
    first[0]["type"] = "changed"
    assert RULES.legal_actions(planning, 0)[0] == {"type": "choose", "roles": ["THUG"]}
    negotiation = negotiation_state([TH, DR, GO, MM])
    offers = RULES.legal_actions(negotiation, 0)
    offers[2]["amount"] = 99  # an action holding only scalars
    offers.clear()
    assert RULES.legal_actions(negotiation, 0)[2]["amount"] == 1
    assert RULES.actors(negotiation) == frozenset({0, 1, 2, 3})
