"""The match page's own fragments (``templates/games/match.html``), for every game: their inputs,
and the status panel written in Python (it changes with every move of a game with deadlines)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from html import escape
from typing import Any

from django.utils.safestring import SafeData, SafeString

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


def _status(context: Any, key: Any) -> object:
    # The final standings (read from the spectator's context: a shared fragment); whom the match
    # waits for is each viewer's own line, in "turn".
    return context.get("standings")


def _after(context: Any, key: Any) -> object:
    match = context["match"]
    return context.get("seat") is None, match.status, match.rematch_id, context.get("rematch_answer")


def _chart(context: Any, key: Any) -> object:
    # The end-of-game chart (read from the spectator's context: a shared fragment).
    board = context.get("board")
    return board.get("chart") if board else None


def _resign(context: Any, key: Any) -> object:
    return context.get("seat"), context["match"].status, context.get("resign_url")


FRAGMENT_INPUTS: dict[str, FragmentInputs] = {
    "match-status": _status,
    "match-after": _after,
    "match-chart": _chart,
    "resign": _resign,
}


def match_status(context: Any, clock: bool = True) -> SafeString:
    """The inside of ``#match-status``: the final standings, and (unless ``clock`` is false: the
    match page draws each viewer's line in ``#turn``, :func:`match_clock`) whom the match waits for
    until when, as a spectator reads it."""
    out = "\n"
    standings = context.get("standings")
    if standings:
        rows = "".join(_standing(row) for row in standings)
        heading = escape_text(gettext("Final standings"))  # not in the f-string: makemessages reads no call there
        out += f'<div class="standings">\n<h2>{heading}</h2>\n<ol>{rows}</ol>\n</div>\n'
    if clock:
        out += _waiting_line(context)
    return SafeString(out)


def _countdown(due: Any, since: Any = None) -> str:
    """A clock counting down to ``due``; ``since``: when the viewer's own decision began (the page
    warns once when a tenth of the time is left, static/js/match.js)."""
    began = f' data-since="{shown(since)}"' if since is not None else ""
    return f'<span class="countdown" data-due="{shown(due)}"{began}></span>'


def _awaited(context: Any) -> tuple[list[int], list[Mapping[str, Any]]]:
    """The seats the match waits for (in seat order, each once) and the deadlines that wait on
    someone; none in a live game, whose board shows its own clocks."""
    if context.get("live"):
        return [], []
    deadlines = [d for d in context.get("deadlines") or () if d.get("seats")]
    return sorted({int(s) for d in deadlines for s in d["seats"]}), deadlines


def _waiting_line(context: Any, awaited: tuple[list[int], list[Mapping[str, Any]]] | None = None) -> str:
    """One line: whom the match waits for, and the time left until its next deadline for them
    (``awaited``: :func:`_awaited` of ``context``, if the caller has it)."""
    seats, deadlines = _awaited(context) if awaited is None else awaited
    if not seats:
        return ""
    waiting, names = escape_text(gettext("Waiting for")), context.get("names")
    who = escape_text(", ".join(seat_name(names, seat) for seat in seats))
    due = min(d["due"] for d in deadlines)
    return f'<ul class="deadlines"><li>{waiting} {who}: {_countdown(due)}</li></ul>\n'


def turn_fragment(context: Any) -> SafeString:
    """The whole of the ``turn`` fragment (``{% drawn_fragment "turn" %}`` in match.html): while the
    match is played the viewer's own line (:func:`match_clock`), and to a spectator that they are
    watching. Drawn here, not by a template, and drawn again for every push rather than kept: its
    clock changes for every viewer with every move of a game with deadlines, and these few lines cost
    less to write than a kept fragment costs to look up (decision 0019)."""
    match = context["match"]
    clock = match_clock(context) if match.status == "active" else ""
    notice = ""
    if context.get("seat") is None and match.status != "aborted":
        watching = escape_text(gettext("You are watching this match."))  # not in the f-string: see match_status
        notice = f'<p class="notice">{watching}</p>'
    return SafeString(f'<div id="turn">{clock}{notice}</div>')


DRAWN_FRAGMENTS: dict[str, Callable[[Any], SafeString]] = {"turn": turn_fragment}


def match_clock(context: Any) -> SafeString:
    """The inside of ``#turn`` while a match is played, the viewer's own line: "It is your turn"
    (with the time left for it) to a player the match waits for; to everyone else whom it waits for
    and how long is left. Never "Waiting for <you>" to you. Then, to the others, who is on vacation
    until when, and on a time bank each player's time left."""
    return SafeString(_own_line(context) + _away_lines(context) + _bank_lines(context))


def _own_line(context: Any) -> str:
    seat = context.get("seat")
    awaited = _awaited(context)
    seats, deadlines = awaited
    if seat is not None and seat in seats:
        due = min(d["due"] for d in deadlines if seat in d["seats"])
        text = escape_text(gettext("It is your turn:"))
        since = context.get("waiting_since")
        countdown = _countdown(due, since) if since else _countdown(due)
        return f'<p class="your-turn" role="status">{text} {countdown}</p>'
    if seat is not None and context.get("waiting_on_me"):
        return f'<p class="your-turn" role="status">{escape_text(gettext("It is your turn."))}</p>'
    return _waiting_line(context, awaited)


def _away_lines(context: Any) -> str:
    """ "<name> is on vacation until <date>." for each seat whose player is away, but the viewer's own."""
    away = context.get("away")
    if not away:
        return ""
    seat, names = context.get("seat"), context.get("names")
    lines = [
        escape_text(gettext("%(name)s is on vacation until %(until)s.") % {"name": seat_name(names, n), "until": until})
        for n, until in away
        if n != seat
    ]
    return "".join(f'<p class="away">{line}</p>\n' for line in lines)


def _bank_lines(context: Any) -> str:
    """Each player's time bank: a running countdown for the decision being taken, else the reserve
    left, written alike (``games.push.presenter.clock_text``)."""
    rows = context.get("bank")
    if not rows:
        return ""
    names = context.get("names")
    items = []
    for n, due, left in rows:
        shown_left = _countdown(due) if due else f'<span class="bank-left">{escape_text(left)}</span>'
        items.append(f"<li>{escape_text(seat_name(names, n))}: {shown_left}</li>")
    heading = escape_text(gettext("Time bank"))
    return f'<div class="clocks"><h2>{heading}</h2><ul>{"".join(items)}</ul></div>\n'


def _standing(row: Mapping[str, Any]) -> str:
    winner = row.get("winner")
    opening = '<li class="winner">' if winner else "<li>"
    star = ", ★ " + escape_text(gettext("winner")) if winner else ""
    name = shown(row.get("name", ""))
    if row.get("url"):
        name = f'<a href="{shown(row["url"])}">{name}</a>'
    place = f"{shown(row.get('rank', ''))}. {name} — {shown(row.get('score_text', ''))}"
    change = ""
    if row.get("rating_change"):
        worded = gettext("rating %(change)s") % {"change": row["rating_change"]}
        change = f' <span class="rating-change">({escape_text(worded)})</span>'
    return f"{opening}{place}{star}{change}</li>"
