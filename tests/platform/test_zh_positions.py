"""Issue 10, item 8 (how it is checked): every game's board, log and result panels rendered in
Traditional Chinese from stored positions carry no English left: no game term (a role, character,
card, location...) and no English phrase of three words or more, for every seat and a spectator.

The positions are the stored games of tests/e2e/data (heist in its third heist with the second's
result on the table and at its end, Bridge Race and Dirty Money late in the game).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from games.engines.registry import get_rules
from games.play.archive import import_match

from .page_text import LATIN_PHRASE, dirty_money_english_terms, visible_text

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parents[1] / "e2e" / "data"
POSITIONS = ["heist_mid.json", "heist_over.json", "bridge_race_late.json", "dirty_money_late.json"]
# Proper names that stay as they are in Chinese (Bridge Race's gangsters, as printed on the cards).
KEPT = {"W.B. Spender"}
CHINESE_NAMES = ["阿明", "小華", "大偉", "美玲", "志強"]


def english_terms(game: str) -> set[str]:
    """The names the game shows, in English: its log terms and its presentation's tables."""
    terms = set(getattr(get_rules(game), "terms", {}).values())
    if game == "heist":
        from games.boards.heist.words import PHASE_NAMES, RESULT_NAMES, ROLE_NAMES, STATUS_NAMES

        for table in (PHASE_NAMES, RESULT_NAMES, ROLE_NAMES, STATUS_NAMES):
            terms.update(str(v) for v in table.values())
    if game == "dirty_money":
        terms.update(dirty_money_english_terms())
    return {t for t in terms if t not in KEPT and re.search("[A-Za-z]{3}", t)}


def chinese_reader(make_user: Any, n: int) -> Any:
    user = make_user()
    user.profile.display_name = CHINESE_NAMES[n]
    user.profile.language = "zh-hant"
    user.profile.save()
    return user


@pytest.mark.parametrize("position", POSITIONS)
def test_item8_a_stored_position_reads_in_chinese_throughout(make_user: Any, position: str) -> None:
    document = json.loads((DATA / position).read_text())
    users = [chinese_reader(make_user, n) for n in range(document["seat_count"])]
    match = import_match(document, users, time_limit=630_720_000)
    terms = english_terms(document["game"])
    readers = [*users, chinese_reader(make_user, len(users))]  # the last one only watches
    for user in readers:
        client = Client()
        client.force_login(user)
        html = client.get(match.get_absolute_url()).content.decode()
        assert '<html lang="zh-hant">' in html
        text = visible_text(html)
        for name in CHINESE_NAMES:
            text = text.replace(name, "")
        left = {t for t in terms if re.search(rf"(?<![A-Za-z]){re.escape(t)}(?![A-Za-z])", text)}
        assert not left, f"{position}, {user.profile.display_name}: English terms {sorted(left)}"
        phrases = [p for p in LATIN_PHRASE.findall(text) if not any(k in p for k in KEPT)]
        assert not phrases, f"{position}, {user.profile.display_name}: English phrases {phrases[:10]}"
    if position == "heist_mid.json":
        assert 'class="heist-result"' in html and 'class="pool"' in html  # the panels under test are there
    if position == "heist_over.json":
        assert 'class="standings"' in html
