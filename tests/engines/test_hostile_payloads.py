"""Every engine reads any hostile payload as an action or refuses it with InvalidAction.

A form sends small whole numbers as ASCII digits, names from fixed lists and lists of those. A
payload may hold anything else (superscript or Arabic-Indic digits, doubled signs, huge numbers,
wrong JSON types): ``parse_action`` must answer it with :class:`InvalidAction` (HTTP 400), never
with another exception (HTTP 500). The actions mutated are the legal actions of seeded random
playouts, so every field a form can send is covered, in every game.
"""

from __future__ import annotations

import json
import random
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines.base import SYSTEM, DecideContext, InvalidAction
from games.engines.registry import engines, get_rules

GAMES = engines()
HOSTILE: tuple[Any, ...] = (
    "²",
    "٣",
    "--1",
    "999999",
    "-999999",
    "",
    "1.5",
    " 1",
    "1e3",
    "0x1",
    "1_0",
    "+-1",
    None,
    [],
    {},
    10**30,
    -(10**30),
    -1,
    True,
    False,
    1.5,
    ["²"],
    [None],
    [[]],
    [{}],
    {"²": 1},
    "1,²",
    "²,1",
    "²:+10",
    "1:²",
    "1,1>²",
    "99999999",
    "9" * 400,
)
# Written for a whole number, these are refused whatever the field (never read as some number).
NOT_NUMBERS: tuple[Any, ...] = ("²", "٣", "--1", "+-1", "1.5", "1e3", "0x1", "9" * 40, 10**30, True, 1.5)
MAX_STEPS = 3000
SAMPLE_EVERY = 9


def reachable_states(slug: str, players: int, seed: int) -> list[Any]:
    """Every ``SAMPLE_EVERY``-th state of a seeded random playout, to its end."""
    rules = get_rules(slug)
    rng = random.Random(seed)
    state = rules.initial(players, {"time_limit": 60})
    now = 1_000_000.0
    sampled = []
    for step in range(MAX_STEPS):
        actors = rules.actors(state)
        if not actors:
            break
        if step % SAMPLE_EVERY == 0:
            sampled.append(state)
        now += rng.choice((0.0, 0.5, 3.0))
        deadlines = sorted(rules.deadlines(state), key=lambda d: d.due)
        people = [s for s in sorted(actors) if s != SYSTEM and rules.legal_actions(state, s)]
        if SYSTEM in actors:
            seat, action = SYSTEM, rules.legal_actions(state, SYSTEM)[0]
        elif deadlines and (not people or rng.random() < 0.1):
            now = max(now, deadlines[0].due)
            seat, action = SYSTEM, deadlines[0].action
        else:
            seat = rng.choice(people)
            action = rng.choice(rules.legal_actions(state, seat))
        for event in rules.decide(state, seat, rules.parse_action(action), DecideContext(rng, now)):
            state = rules.evolve(state, event)
    return sampled


@cache
def legal_actions(slug: str) -> tuple[dict[str, Any], ...]:
    """The distinct legal actions (of every seat, and of the server) of the sampled states."""
    rules = get_rules(slug)
    seen: dict[str, dict[str, Any]] = {}
    for players in (rules.min_players, rules.max_players):
        for state in reachable_states(slug, players, seed=players):
            for seat in (SYSTEM, *range(players)):
                for action in rules.legal_actions(state, seat):
                    seen.setdefault(json.dumps(action, sort_keys=True), json.loads(json.dumps(action)))
    return tuple(seen.values())


@cache
def one_action_per_field(slug: str) -> tuple[tuple[dict[str, Any], str], ...]:
    """One legal action for each (action type, field) pair that any legal action has."""
    pairs: dict[tuple[str, str], dict[str, Any]] = {}
    for action in legal_actions(slug):
        for field in action:
            if field != "type":
                pairs.setdefault((str(action["type"]), field), action)
    return tuple((action, field) for (_type, field), action in sorted(pairs.items()))


def assert_read_or_refused(slug: str, payload: dict[str, Any]) -> None:
    try:
        get_rules(slug).parse_action(payload)
    except InvalidAction:
        pass
    except Exception as exc:  # an InvalidAction subclass of ValueError is fine; nothing else is
        pytest.fail(f"{slug}: parse_action({payload!r}) raised {type(exc).__name__}: {exc}")


@pytest.mark.parametrize("slug", GAMES)
def test_every_field_of_every_legal_action_takes_each_hostile_value(slug: str) -> None:
    pairs = one_action_per_field(slug)
    assert pairs, f"{slug}: no legal action with a field was reached"
    for action, field in pairs:
        for value in HOSTILE:
            assert_read_or_refused(slug, {**action, field: value})


@pytest.mark.parametrize("slug", GAMES)
def test_numbers_no_form_writes_are_refused_in_every_number_field(slug: str) -> None:
    rules = get_rules(slug)
    for action, field in one_action_per_field(slug):
        if isinstance(action[field], bool) or not isinstance(action[field], int):
            continue
        for value in NOT_NUMBERS:
            with pytest.raises(InvalidAction):
                rules.parse_action({**action, field: value})


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)
numberish = st.from_regex(r"[-+ ]{0,2}[0-9²٣١]{1,8}[ ,:>]?", fullmatch=True)
hostile_values = st.sampled_from(HOSTILE) | json_values | numberish


@pytest.mark.parametrize("slug", GAMES)
@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_hostile_values_in_random_fields_are_read_or_refused(slug: str, data: st.DataObject) -> None:
    action = data.draw(st.sampled_from(legal_actions(slug)), label="action")
    fields = [f for f in action if f != "type"] or ["type"]
    changed = data.draw(st.lists(st.sampled_from(fields), min_size=1, max_size=len(fields), unique=True))
    payload = {**action, **{field: data.draw(hostile_values, label=field) for field in changed}}
    assert_read_or_refused(slug, payload)


# Refused whatever the game's actions: not an object, a type missing, badly typed or unknown, a
# resignation without a seat written as a whole number.
MALFORMED_ENVELOPES: tuple[Any, ...] = (
    None,
    [],
    {},
    {"type": 3},
    {"type": "fly"},
    {"type": "resign"},
    {"type": "resign", "seat": True},
    {"type": "resign", "seat": "²"},
    {"type": "resign", "seat": "--1"},
    {"type": "resign", "seat": "9" * 5000},
    {"type": "resign", "seat": 10**30},
    {"type": "resign", "seat": 10**40},
    {"type": "resign", "seat": 1.5},
    {"type": "resign", "seat": {"a": 1}},
)


@pytest.mark.parametrize("payload", MALFORMED_ENVELOPES)
@pytest.mark.parametrize("slug", GAMES)
def test_malformed_envelopes_are_invalid_actions_with_a_whole_message(slug: str, payload: Any) -> None:
    """Section 10.1 (dirty_money) and T-16 (police_alarm) in every game: the refusal's message
    takes its params, and none is left unfilled."""
    with pytest.raises(InvalidAction) as info:
        get_rules(slug).parse_action(payload)
    assert isinstance(info.value.message % info.value.params, str)
    assert info.value.message and "%(" not in str(info.value)
