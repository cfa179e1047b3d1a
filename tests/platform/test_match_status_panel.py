"""The match page's status panel (games.boards.common.match_status), every game's: the final
standings with the winners starred, and whom the match waits for with the time its clock runs out
(a countdown in the page), except in a live game, whose board shows its own clocks."""

from __future__ import annotations

from typing import Any

from django.template import Context, Template

from games.push.speaking import speaking


def panel(**context: Any) -> str:
    return Template("{% load hideout %}{% match_status %}").render(Context(context))


def test_it_names_the_seats_waited_for_escaped_with_their_deadline() -> None:
    html = panel(deadlines=[{"seats": [0, 2], "due": 1764300000.5}], names={0: "<Ann>", 2: "Bo"}, live=False)
    assert '<ul class="deadlines"><li>Waiting for &lt;Ann&gt;, Bo: ' in html
    assert 'data-due="1764300000.5"' in html and "<Ann>" not in html


def test_a_live_game_shows_no_deadlines_here() -> None:
    assert "deadlines" not in panel(deadlines=[{"seats": [0], "due": 1.0}], names={0: "Ann"}, live=True)


def test_the_final_standings_star_the_winners() -> None:
    rows = [
        {"rank": 1, "name": "<Ann>", "score_text": "12 points", "winner": True},
        {"rank": 2, "name": "Bo", "score_text": "9 points", "winner": False},
    ]
    html = panel(standings=rows, deadlines=[], names={})
    assert "<h2>Final standings</h2>" in html
    assert '<li class="winner">1. &lt;Ann&gt; — 12 points, ★ winner</li><li>2. Bo — 9 points</li>' in html
    with speaking("zh-hant"):
        assert "Final standings" not in panel(standings=rows, deadlines=[], names={})


def test_escaped_texts_are_kept_and_stay_escaped_once_the_store_is_full(monkeypatch: Any) -> None:
    """``escape_text`` finds a text it escaped before; full, it forgets them all and goes on escaping;
    a long text is escaped without being kept."""
    from django.utils.safestring import mark_safe

    from games.boards import common

    monkeypatch.setattr(common, "_escaped", {})
    monkeypatch.setattr(common, "_ESCAPED_KEPT", 3)
    assert common.escape_text("<b>\"Tom\" & 'Jo'</b>") == "&lt;b&gt;&quot;Tom&quot; &amp; &#x27;Jo&#x27;&lt;/b&gt;"
    assert common.escape_text(12) == "12"
    assert common.escape_text("<b>\"Tom\" & 'Jo'</b>") is common._escaped["<b>\"Tom\" & 'Jo'</b>"]
    for n in range(10):
        assert common.escape_text(f"<{n}>") == f"&lt;{n}&gt;"
    assert len(common._escaped) <= 3
    long_text = "<" * (common._ESCAPED_LONGEST + 1)
    assert common.escape_text(long_text) == "&lt;" * len(long_text) and long_text not in common._escaped
    assert common.shown(mark_safe("<i>kept</i>")) == "<i>kept</i>"
    assert common.shown("<i>") == "&lt;i&gt;"
