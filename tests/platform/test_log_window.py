"""The log a page shows is the last lines of the whole log, whatever this process had kept.

A push renders only a move's new lines on top of the lines kept for the reader (presenter.log_lines);
a page rendered without them (a reload after a restart, the first view of a finished game, whose
key is new because its secrets are now shown) must show the very same lines, even where the last
events carry few lines (exit_memory's tile placements and draws carry none).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.models import Match
from games.push.presenter import LOG_LINES, forget_log_cache, log_lines

from .helpers import random_move, started_match

pytestmark = pytest.mark.django_db


def texts(match_id: int, seat: int | None) -> list[str]:
    return [line["text"] for line in log_lines(Match.objects.get(pk=match_id), seat)]


def reaches_back(match_id: int, seat: int | None) -> bool:
    """Whether the log shows a line of an event older than the last ``LOG_LINES * 2`` (the events
    read at once when nothing is kept)."""
    match = Match.objects.get(pk=match_id)
    return any(line["seq"] <= match.version - LOG_LINES * 2 for line in log_lines(match, seat))


@pytest.mark.parametrize(("game", "players", "seed"), [("exit_memory", 3, 6)])
def test_the_log_shown_does_not_depend_on_the_lines_kept(make_user: Any, game: str, players: int, seed: int) -> None:
    match, _by_seat = started_match(make_user, game, players, seed=f"log-window-{seed}")
    viewers: list[int | None] = [None, *range(players)]
    rng = random.Random(seed)
    reached_back = False
    for _ in range(400):
        if not random_move(match.pk, rng):
            break
        kept = {seat: texts(match.pk, seat) for seat in viewers}  # on top of the previous move's lines
        forget_log_cache()
        for seat in viewers:
            assert texts(match.pk, seat) == kept[seat], f"seat {seat}'s log depends on the lines kept"
        for seat in viewers:  # kept again, as by a process that goes on pushing
            reached_back |= reaches_back(match.pk, seat)
    assert reached_back, "no log showed an event older than the window read at once: the case is not tested"


def test_log_items_escape_each_line_as_format_html_did_newest_first() -> None:
    """A push's new log lines: plain text, escaped (names are chosen by players), newest first."""
    from django.utils.html import format_html_join

    from games.templatetags.hideout import log_items

    lines = [{"seq": 1, "text": "<b>Eve</b> & \"Bob\" chose 'Goon'"}, {"seq": 2, "text": "阿明 rolled 6"}]
    expected = format_html_join("", "<li>{}</li>", ((line["text"],) for line in reversed(lines)))
    assert log_items(lines) == expected
    assert log_items(lines).startswith("<li>阿明 rolled 6</li><li>&lt;b&gt;Eve&lt;/b&gt; &amp; &quot;Bob&quot;")
