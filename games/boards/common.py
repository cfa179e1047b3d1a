"""The match page's own fragments (``templates/games/match.html``), for every game: their inputs,
and the status panel written in Python (it changes with every move of a game with deadlines)."""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

from django.utils.safestring import SafeData, SafeString, mark_safe

from games.boards.contract import FragmentInputs
from games.push.speaking import gettext

_escaped: dict[str, str] = {}
_ESCAPED_KEPT = 8192
_ESCAPED_LONGEST = 200  # labels, names, hints: a longer text is escaped without being kept


def escape_text(value: Any) -> str:
    """``html.escape(str(value))``, kept for the latest few thousand texts (then all forgotten at once:
    a dict operation is atomic between threads). A bridge_race push escapes some 400 texts, most of
    them the same short ones every move (cell labels, form ids, die names): finding one is cheaper
    than its five replacements."""
    text = str(value)
    found = _escaped.get(text)
    if found is None:
        if len(text) > _ESCAPED_LONGEST:
            return escape(text)
        if len(_escaped) >= _ESCAPED_KEPT:
            _escaped.clear()
        found = _escaped[text] = escape(text)
    return found


def shown(value: Any) -> str:
    """``{{ value }}`` in a board fragment (numbers as Python writes them): escaped unless marked safe."""
    if isinstance(value, SafeData):
        return str(value)
    return escape_text(value)


def seat_name(names: Mapping[int, str] | None, seat: Any) -> str:
    """The name of ``seat`` in ``names`` (a match's seat names), else the seat as it is."""
    try:
        return str((names or {}).get(int(seat), seat))
    except (TypeError, ValueError):
        return str(seat)


def _turn(context: Any, key: Any) -> object:
    return context.get("seat"), context["match"].status, context.get("waiting_on_me")


def _status(context: Any, key: Any) -> object:
    # The final standings and who is waited for (read from the spectator's context: a shared fragment).
    return context.get("standings"), context.get("deadlines"), context.get("live"), context.get("names")


def _after(context: Any, key: Any) -> object:
    match = context["match"]
    return context.get("seat") is None, match.status, match.rematch_id, context.get("rematch_answer")


def _resign(context: Any, key: Any) -> object:
    return context.get("seat"), context["match"].status, context.get("resign_url")


FRAGMENT_INPUTS: dict[str, FragmentInputs] = {
    "turn": _turn,
    "match-status": _status,
    "match-after": _after,
    "resign": _resign,
}


def match_status(context: Any) -> SafeString:
    """The inside of ``#match-status``: the final standings, and whom the match waits for until when
    (a live game's board shows its own clocks). Rendered from the spectator's context."""
    out = "\n"
    standings = context.get("standings")
    if standings:
        rows = "".join(_standing(row) for row in standings)
        heading = escape_text(gettext("Final standings"))  # not in the f-string: makemessages reads no call there
        out += f'<div class="standings">\n<h2>{heading}</h2>\n<ol>{rows}</ol>\n</div>\n'
    deadlines = context.get("deadlines")
    if deadlines and not context.get("live"):
        waiting, names = escape_text(gettext("Waiting for")), context.get("names")
        items = "".join(
            f"<li>{waiting} {', '.join(escape_text(seat_name(names, seat)) for seat in d['seats'])}: "
            f'<span class="countdown" data-due="{shown(d["due"])}"></span></li>'
            for d in deadlines
        )
        out += f'<ul class="deadlines">{items}</ul>\n'
    return mark_safe(out)


def _standing(row: Mapping[str, Any]) -> str:
    winner = row.get("winner")
    opening = '<li class="winner">' if winner else "<li>"
    star = ", ★ " + escape_text(gettext("winner")) if winner else ""
    place = f"{shown(row.get('rank', ''))}. {shown(row.get('name', ''))} — {shown(row.get('score_text', ''))}"
    return f"{opening}{place}{star}</li>"
