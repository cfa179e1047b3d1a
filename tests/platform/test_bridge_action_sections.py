"""bridge_race's action panel sections written in Python instead of their templates: resolving the
dice (R-29) and shooting (R-53). Each must give the HTML its template gave, byte for byte once the
template's indentation is cut as a board fragment's is; the templates as they were are kept beside
these tests."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from django.template import Context, Template

from games.boards.bridge_race.panels import _Forms, _resolve, _shots
from games.models import Match
from games.push.speaking import speaking
from games.templatetags import hideout

from .helpers import play_one, started_match

_HERE = Path(__file__).parent


def _before(name: str) -> Template:
    template = Template((_HERE / f"bridge_{name}_before.html").read_text())
    hideout._compact(template.nodelist)  # as a board fragment's own text is cut
    return template


def _drawn_before(template: Template, act: dict[str, Any], action_url: str = "/m/7/action/") -> str:
    return template.render(Context({"act": act, "action_url": action_url}))


FORMS_CONTEXT = {"action_url": "/m/7/action/"}

RESOLVE = {
    "payload": {"type": "RESOLVE_DICE"},
    "base": 30,
    "dur_after": 2,
    "max": 5,
    "tokens": 1,
    "repairs": [{"index": 0, "units": 1, "label": "Die #1 <repair>"}],
    "adjusts": [{"index": 1, "weight": 1, "label": "Die #2"}, {"index": 2, "weight": 2, "label": "Die #3 & 4"}],
}


@pytest.mark.parametrize("language", ["en", "zh-hant"])
@pytest.mark.parametrize(
    "resolve",
    [
        RESOLVE,
        {**RESOLVE, "cancelled": 1, "damage": 2, "spin": True, "reversed": True},
        {**RESOLVE, "cancelled": 2, "damage": 1, "repairs": [], "adjusts": []},
        {
            **RESOLVE,
            "quick": [
                {"payload": {"type": "RESOLVE_DICE", "repair": [0]}, "label": "Repair <1>"},
                {"payload": {"type": "RESOLVE_DICE", "adjust": ["1:+10"]}, "label": "+10 mph"},
            ],
        },
    ],
)
def test_the_dice_resolution_r29_is_drawn_as_its_template_drew_it(resolve: dict[str, Any], language: str) -> None:
    with speaking(language):
        expected = _drawn_before(_before("resolve"), {"resolve": resolve})
        drawn = _resolve(resolve, _Forms(FORMS_CONTEXT))
    assert drawn == expected
    assert "<repair>" not in drawn and ("&lt;repair&gt;" in drawn) == bool(resolve["repairs"])  # escaped
    assert ('data-reversed="1"' in drawn) == bool(resolve.get("reversed"))


SHOT: dict[str, Any] = {
    "number": 2,
    "die": 1,
    "payload": {"type": "SHOOT", "die": 1},
    "dirs": [
        {
            "value": "0,1",
            "name": "ahead <north>",
            "hint": "hits car #3",
            "ray": "2,5,0,1",
            "payload": {"type": "SHOOT", "die": 1, "dir": [0, 1]},
        }
    ],
}
TWO_WAYS = {
    **SHOT,
    "number": 3,
    "die": 2,
    "payload": {"type": "SHOOT", "die": 2},
    "dirs": [
        *SHOT["dirs"],
        {
            "value": "0,-1",
            "name": "behind",
            "hint": "no car in the line of fire",
            "ray": "2,5,0,-1",
            "payload": {"type": "SHOOT", "die": 2, "dir": [0, -1]},
        },
    ],
}


@pytest.mark.parametrize("language", ["en", "zh-hant"])
@pytest.mark.parametrize("shots", [[SHOT], [TWO_WAYS], [SHOT, TWO_WAYS]])
def test_the_shots_r53_are_drawn_as_their_template_drew_them(shots: list[dict[str, Any]], language: str) -> None:
    with speaking(language):
        expected = _drawn_before(_before("shots"), {"shots": shots})
        drawn = _shots(shots, _Forms(FORMS_CONTEXT))
    assert drawn == expected
    assert "&lt;north&gt;" in drawn and "<north>" not in drawn
    assert drawn.count("<form") == len(shots)


@pytest.mark.django_db
@pytest.mark.parametrize(("players", "language"), [(3, "en"), (4, "zh-hant")])
def test_the_sections_of_a_random_race_are_drawn_as_their_templates_drew_them(
    make_user: Any, players: int, language: str
) -> None:
    """Over a random race, every acting seat's dice resolution and shots, from its own board model."""
    from games.push.presenter import match_context

    match, users = started_match(make_user, "bridge_race", players, seed=f"sections-{players}")
    rng = random.Random(f"sections-{players}-{language}")
    templates = {"resolve": _before("resolve"), "shots": _before("shots")}
    seen = {"resolve": 0, "shots": 0}
    for _move in range(600):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE or min(seen.values()) >= 6:
            break
        for user in users.values():
            with speaking(language):
                context = match_context(match, user)
                act = (context.get("board") or {}).get("act") or {}
                for name, draw in (("resolve", _resolve), ("shots", _shots)):
                    if act.get(name):
                        expected = _drawn_before(templates[name], {name: act[name]}, context["action_url"])
                        assert draw(act[name], _Forms(context)) == expected, name
                        seen[name] += 1
        play_one(match, rng, lambda rules, state, seat: rules.bot_action(state, seat, rng))
    assert min(seen.values()) >= 6, seen
