"""What a match socket sends its client, decided without a socket (games.sockets.frames): a diff
only onto the board the client shows, with only the fragments that changed, the log's new lines
only after the version the client has, and large shared fragments ahead in a part of their own."""

from __future__ import annotations

import json
from typing import Any

from games.push.pushes import Rendered
from games.sockets import frames
from games.sockets.frames import SentFrames, shared_part
from games.templatetags.hideout import placeholder

SHELL = f"<div id='board'>{placeholder('table')}{placeholder('hand')}{placeholder('score')}</div>"


def board(revision: int, version: int, **changes: Any) -> Rendered:
    """A seat's partials at ``revision``: three fragments whose digests follow their text."""
    frags = {"table": f"<p>table {revision}</p>", "hand": "<p>hand</p>", "score": "<p>0</p>"}
    frags.update(changes.pop("frags", {}))
    fields: dict[str, Any] = {
        "revision": revision,
        "version": version,
        "chat_version": 0,
        "public": False,
        "shell": SHELL,
        "shell_digest": "shell-1",
        "frags": frags,
        "digests": {name: f"d({text})" for name, text in frags.items()},
        "log_html": "<ol id='log'>all</ol>",
        **changes,
    }
    return Rendered(**fields)


def shown(rendered: Rendered) -> SentFrames:
    """The record of a client that was sent ``rendered`` whole."""
    sent = SentFrames()
    sent.update_for(rendered, board=True, chat=False)
    return sent


def test_a_client_that_shows_no_board_gets_the_whole_board_and_log() -> None:
    sent = SentFrames(revision=-1, chat=-1)
    first = board(3, 7)
    part, update = sent.update_for(first, board=True, chat=False)
    assert part is None and "base" not in update and "frags" not in update
    assert update["html"] == first.board_html() + first.log_html
    assert "<p>table 3</p>" in update["html"] and placeholder("table") not in update["html"]
    assert (update["revision"], update["version"]) == (3, 7)
    assert (sent.revision, sent.version) == (3, 7)
    assert sent.frame == (3, "shell-1", first.digests)


def test_a_diff_holds_only_the_changed_fragments_and_names_its_base() -> None:
    sent = shown(board(3, 7))
    after = board(4, 9, frags={"score": "<p>5</p>"}, log_html="", log_add="<li>8</li><li>9</li>", log_after=7)
    part, update = sent.update_for(after, board=True, chat=False)
    assert part is None
    assert update["base"] == 3
    assert update["frags"] == ["<p>table 4</p>", "<p>5</p>"], "the hand did not change: not sent"
    assert update["log"] == "<li>8</li><li>9</li>" and update["html"] == ""
    assert (sent.revision, sent.version, sent.frame) == (4, 9, (4, "shell-1", after.digests))
    again = board(5, 10, frags={"table": "<p>table 4</p>", "score": "<p>5</p>"}, log_add="<li>10</li>", log_after=9)
    _, update = sent.update_for(again, board=True, chat=False)
    assert update["base"] == 4 and update["frags"] == [], "nothing changed since the board sent last"


def test_no_diff_onto_a_board_the_client_does_not_show() -> None:
    for name, after in {
        "another shell": board(4, 8, shell_digest="shell-2"),
        "other fragment names": board(4, 8, frags={"extra": "<p>x</p>"}),
    }.items():
        sent = shown(board(3, 7))
        assert not sent.can_diff(after), name
        _, update = sent.update_for(after, board=True, chat=False)
        assert "base" not in update and update["html"] == after.board_html() + after.log_html, name
    sent = shown(board(3, 7))
    sent.revision = 2  # the client said it shows another revision (a sync)
    assert not sent.can_diff(board(4, 8))
    sent = shown(board(3, 7))
    _, update = sent.update_for(board(4, 8), board=True, chat=False, full=True)
    assert "base" not in update, "a full push is never a diff"


def test_a_diff_after_a_log_gap_carries_the_whole_log() -> None:
    sent = shown(board(3, 7))
    after = board(4, 9, log_html="<ol id='log'>all 9</ol>", log_add="<li>9</li>", log_after=8)
    _, update = sent.update_for(after, board=True, chat=False)
    assert update["base"] == 3 and "log" not in update
    assert update["html"] == "<ol id='log'>all 9</ol>"


def test_the_writers_partials_are_news_only_when_newer_and_taken_whole_when_not_diffable() -> None:
    sent = shown(board(3, 7))
    sent.chat = 2
    follows = board(4, 8, log_html="", log_add="<li>8</li>", log_after=7)
    assert sent.news_in(follows) == (True, False)
    chat_box = board(4, 8, log_html="", log_add="<li>8</li>", log_after=7, chat_version=2, chat_html="<div>c</div>")
    assert sent.news_in(chat_box) == (True, True), "who may chat can change with the board"
    assert sent.news_in(board(4, 8, log_html="", log_add="<li>9</li>", log_after=8)) is None, "a log gap"
    assert sent.news_in(board(4, 8, shell_digest="shell-2")) is None, "a board the client cannot diff"
    assert sent.news_in(board(3, 7)) == (False, False), "a board the client has"
    chat_only = Rendered(revision=3, version=7, chat_version=3, public=False, chat_html="<div>chat</div>")
    assert sent.news_in(chat_only) == (False, True)
    _, update = sent.update_for(chat_only, board=False, chat=True)
    assert update["html"] == "<div>chat</div>" and sent.chat == 3 and sent.revision == 3
    assert sent.news_in(chat_only) == (False, False), "a chat box the client has"


def test_large_shared_fragments_go_ahead_in_a_part_of_their_own() -> None:
    table = "<p>" + "t" * frames.SHARED_PART_AT + "</p>"
    first = board(3, 7, shared=frozenset({"table"}))
    after = board(4, 8, frags={"table": table, "hand": "<p>hand 2</p>"}, shared=frozenset({"table"}), log_after=7)
    sent, other = shown(first), shown(first)
    part, update = sent.update_for(after, board=True, chat=False)
    assert part is not None
    assert json.loads(part) == {"type": "part", "revision": 4, "base": 3, "frags": [table]}
    assert update["frags"] == ["<p>hand 2</p>"], "the shared fragment is not sent twice"
    other_part, _ = other.update_for(after, board=True, chat=False)
    assert other_part is part, "the same part, written once, for every seat that showed the same board"
    small = board(4, 8, shared=frozenset({"table"}), log_after=7)
    part, update = shown(first).update_for(small, board=True, chat=False)
    assert part is None and update["frags"] == ["<p>table 4</p>"], "a small shared fragment goes with the rest"


def test_shared_part_leaves_unchanged_and_unshared_fragments_alone() -> None:
    rendered = board(4, 8, frags={"table": "x" * 600, "score": "y" * 600}, shared=frozenset({"table", "hand"}))
    part, rest = shared_part(rendered, ["table", "score"], 3)
    assert part is not None and json.loads(part)["frags"] == ["x" * 600]
    assert rest == ["score"]


def test_after_a_live_games_events_the_next_board_goes_whole() -> None:
    sent = shown(board(3, 7))
    sent.took_events(revision=5, version=12)
    assert (sent.revision, sent.version, sent.frame) == (5, 12, None)
    sent.took_events(revision=4, version=13)
    assert sent.revision == 5, "never back to an older revision"
    _, update = sent.update_for(board(6, 14), board=True, chat=False)
    assert "base" not in update
