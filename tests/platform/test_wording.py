"""Issue 54 #13: wording slips players saw (articles, doubled punctuation, pairs listed twice,
panel headings, "-0" scores), in English and Traditional Chinese."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from games.boards.contract import BoardInputs
from games.push.speaking import speaking

from .helpers import client_for

DOUBLED = re.compile(r"[!.?！。？]\s*[!.?！。？]")


@pytest.mark.parametrize("language", ["en", "zh-hant"])
def test_police_alarm_crime_scene_sentences_end_once(language: str) -> None:
    """ "Crime scene K: a thief!." — the script fills a state word into a scene sentence."""
    from games.boards.police_alarm.words import texts

    with speaking(language):
        words = texts()
    for template in ("circle", "announce_reveal"):
        for state in ("green", "thief_tile", "face_down"):
            sentence = words[template] % {"id": "K", "state": words[state]}
            assert not DOUBLED.search(sentence), sentence


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "zh-hant"])
def test_how_to_play_start_buttons_have_no_wrong_article(make_user: Any, language: str) -> None:
    from games.engines.registry import available

    client = client_for(make_user(), language)
    seen = 0
    for slug in available():
        page = client.get(reverse("how_to_play", args=[slug])).content.decode()
        for button in re.findall(r'<a class="btn primary" href="/matches/new/\?game=[^"]*">([^<]*)</a>', page):
            seen += 1
            assert not re.search(r"\ba [AEIOU]", button), button  # "Start a Emergency Exit match"
    assert seen >= 3


def test_dirty_money_score_line_says_no_minus_zero() -> None:
    from games.engines.dirty_money.log import log_lines
    from games.engines.registry import get_rules
    from games.push.presenter import _event_lines

    rules = get_rules("dirty_money")
    row = {"seat": 0, "total": 12, "base": 10, "art": 0, "restaurant": 0, "remittance": 0, "bank": 0, "tokens": 2}
    event = {"type": "game_scored", "data": {"players": [{**row, "penalty": 0}, {**row, "seat": 1, "penalty": 3}]}}
    assert log_lines(event)
    for language in ("en", "zh-hant"):
        with translation.override(language):
            lines = [line["text"] for line in _event_lines(rules, event, 1, {0: "Ann", 1: "Bo"}, rules.terms)]
        assert not any("-0" in line for line in lines), lines
        assert any("-3" in line for line in lines), lines


def _dirty_money_board(location: str, hand: list[str]) -> tuple[dict[str, Any], Any]:
    from games.boards.dirty_money.context import board_context
    from games.engines.dirty_money import RULES
    from tests.engines.dirty_money.helpers import at_location, position

    displays = (("EU-16", "EU-01"), ("US-16", "US-07"), ("JP-16", "JP-20"))
    state = at_location(position(hands={0: hand}, displays=displays), location)
    legal = RULES.legal_actions(state, 0)
    names = {0: "ana", 1: "ben", 2: "cho"}
    return board_context(
        BoardInputs(view=RULES.view(state, 0), seat=0, legal=legal, names=names, finished=False)
    ), legal


def test_dirty_money_buy_two_lists_each_pair_once_with_a_legal_order() -> None:
    hand = ["EUR-1C-1", "EUR-3C-1", "EUR-5C-3", "CRY-3C-1", "EUR-5C-1"]
    board, legal = _dirty_money_board("LOC-EU", hand)
    pairs = [tuple(c["id"] for c in o["cards"]) for o in board["purchase"]["pairs"]]
    assert len(pairs) == 1 and set(pairs[0]) == {"EU-16", "EU-01"}, pairs  # not A+B and B+A
    option = board["purchase"]["pairs"][0]
    assert option["affordable"]
    action = {
        **option["action"],
        "payment": [c["id"] for c in option["payable"] if c["checked"]],
        "shark_card": option["shark_card"],
    }
    assert action in legal


def test_dirty_money_banana_republic_has_no_buy_panel() -> None:
    board, legal = _dirty_money_board("LOC-BR", ["EUR-1C-1", "USD-3C-1"])
    assert board["purchase"] is None
    assert {"type": "banana_republic"} in legal
    assert board["prompt"]["banana"] == {"type": "banana_republic"}  # the visit's own panel, headed by nothing else
