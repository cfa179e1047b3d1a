"""Issue 54, items 2 and 3, on a heist paused for the lone Informant's naming (R-31 b; the stored
position tests/e2e/data/heist_naming.json: five players, all committed): no result panel before the
heist resolves, and one line saying who is awaited and for how long ("It is your turn" to that player)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from games.play import services
from games.play.archive import import_match

from .helpers import page_for
from .page_text import visible_text

pytestmark = pytest.mark.django_db

POSITION = Path(__file__).resolve().parents[1] / "e2e" / "data" / "heist_naming.json"


def load(make_user: Any) -> tuple[Any, list[Any]]:
    """The match and its five players, then one user who only watches."""
    users = [make_user(name) for name in ("carol", "bob", "alice", "dan", "eve")]
    return import_match(json.loads(POSITION.read_text()), users), [*users, make_user("walt")]


def test_item2_no_result_panel_while_the_informant_names_a_role(make_user: Any) -> None:
    match, users = load(make_user)
    for user in users:
        html = page_for(user, match)
        assert "heist-result" in html  # the panel's place is there, empty
        assert "Result of heist" not in html and "Withdrew:" not in html, visible_text(html)
    # Once the Informant names a role the heist resolves, and the panel tells only what happened.
    services.do_submit_action(match.pk, 0, {"type": "name", "role": "GOON"})
    html = page_for(users[1], match)
    panel = html.split('class="heist-result"', 1)[1].split("</section>", 1)[0]
    assert "Result of heist 1" in panel
    assert "Withdrew:" not in panel  # everybody committed
    assert "The Informant named the Goon." in panel


def clock_lines(html: str) -> list[str]:
    """The page's lines that carry a match clock (the board's own per-offer or per-notice clocks aside)."""
    board = html.split('id="board"', 1)[1]
    return [
        visible_text(m.group(0))
        for m in re.finditer(r"<(p|li)[^>]*>(?:(?!</\1>).)*class=\"countdown\"(?:(?!</\1>).)*</\1>", board, re.S)
    ]


def test_item3_one_line_says_who_is_awaited_and_the_awaited_player_reads_its_her_turn(make_user: Any) -> None:
    match, users = load(make_user)
    carol, bob = users[0], users[1]
    for viewer in (bob, users[4], users[5]):
        lines = clock_lines(page_for(viewer, match))
        assert len(lines) == 1, lines
        assert lines[0].startswith("Waiting for Carol"), lines
    html = page_for(carol, match)
    lines = clock_lines(html)
    assert len(lines) == 1, lines
    assert "It is your turn" in lines[0], lines
    assert "Waiting for Carol" not in visible_text(html)


def test_item3_a_deadline_that_waits_on_nobody_draws_no_line(make_user: Any) -> None:
    from django.template import Context, Template

    html = Template("{% load hideout %}{% match_status %}").render(
        Context({"deadlines": [{"seats": [], "due": 5.0}], "names": {}, "live": False})
    )
    assert "Waiting for" not in html and "countdown" not in html
