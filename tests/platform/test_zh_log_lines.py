"""Issue 54 #12: every log line of every game reads in Traditional Chinese, with no English left.

Seeded random playouts (the engines' own conformance games, time running out now and then) give
every kind of event each engine writes; each event's lines are rendered as the site renders them
(games.push.presenter: the seat's view of the event, names for seats, terms translated) for every
seat and a spectator, while the match runs and after it, in zh-Hant. No Latin word may remain but
the players' names (here Chinese), single letters (police_alarm's crime-scene letters), the unit
"mph" (bridge_race's speeds, written so in both languages) and hexadecimal seeds and SHA-256 commitments.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import translation

from games.engines.registry import engines, get_rules
from games.push.presenter import _event_lines, event_for
from tests.engines.random_play import option_sets, play

NAMES = {n: name for n, name in enumerate("甲乙丙丁戊己庚辛")}
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
ALLOWED = re.compile(r"\b[0-9a-f]{16,}\b|\d mph\b|SHA-256")  # a seed, a commitment and its hash; a speed


def english_in(text: str) -> bool:
    return bool(LATIN_WORD.search(ALLOWED.sub("", text)))


def rendered_lines(slug: str) -> tuple[dict[str, set[str]], set[str]]:
    """{line text: event types giving it}, and every event type the playouts wrote."""
    rules = get_rules(slug)
    texts: dict[str, set[str]] = {}
    kinds: set[str] = set()
    runs = 0
    with translation.override("zh-hant"):
        for options in option_sets(rules):
            for players in range(rules.min_players, rules.max_players + 1):
                for extra in range(2):
                    runs += 1
                    _initial, _state, log = play(rules, players, options, runs * 104_729 + extra)
                    names = {n: NAMES[n] for n in range(players)}
                    for seq, event in enumerate(log, start=1):
                        kinds.add(event.type)
                        told: list[Any] = []  # the views of this event already rendered (most seats share one)
                        for finished in (False, True):
                            for seat in [None, *range(players)]:
                                shown = event_for(event, seat, finished)
                                if shown in told:
                                    continue
                                told.append(shown)
                                for line in _event_lines(rules, shown, seq, names, rules.terms):
                                    texts.setdefault(line["text"], set()).add(event.type)
    return texts, kinds


@pytest.mark.parametrize("slug", engines())
def test_every_log_line_of_every_game_reads_in_traditional_chinese(slug: str) -> None:
    texts, kinds = rendered_lines(slug)
    assert len(kinds) >= 8 and len(texts) >= 20  # the playouts wrote a real game's worth of lines
    english = sorted(f"{text!r} ({', '.join(sorted(types))})" for text, types in texts.items() if english_in(text))
    assert not english, "\n".join(english)


def test_a_list_in_a_log_line_is_joined_the_chinese_way() -> None:
    from games.push.presenter import render_param

    with translation.override("zh-hant"):
        assert render_param("cards", ["A", "B", "C"], {}, {}) == "A、B、C"
    with translation.override("en"):
        assert render_param("cards", ["A", "B", "C"], {}, {}) == "A, B, C"
