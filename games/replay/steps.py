"""What one step of a replay shows: the view a viewpoint may see, the game's own board built from
it, and the log lines up to the step, each worded as that viewpoint read it.

A viewpoint is a seat (what that seat was shown: ``rules.view(state, seat)`` and each event as
``Event.for_seat`` gives it) or ``None``, everything revealed (``rules.view_revealed`` and every
event's secret, its lines naming the owner). Who may take which viewpoint is the web layer's to decide.
Nothing here is actionable: the board gets no legal actions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games import boards
from games.boards.contract import BoardInputs
from games.engines.base import Event
from games.models import Match
from games.play.seat_rows import seats_of
from games.push.presenter import render_param, seat_names, standings
from games.push.speaking import gettext as _
from games.replay.timeline import Timeline

LOG_WINDOW = 40
"""How many log lines a step shows, ending with the step's own."""


def event_seen(event: Event, seat: int | None) -> dict[str, Any]:
    """``event`` as the viewpoint sees it: a seat's own share, or (``None``) with its secret,
    marked ``revealed`` so that its lines name the owner rather than "you"."""
    if seat is not None:
        return event.for_seat(seat)
    if event.secret is None:
        return {"type": event.type, "data": event.data}
    return {"type": event.type, "data": event.data, "secret": event.secret, "revealed": True}


def step_lines(
    timeline: Timeline, step: int, seat: int | None, names: dict[int, str], limit: int = LOG_WINDOW
) -> list[dict[str, Any]]:
    """The last ``limit`` log lines up to ``step``, oldest first, each ``{"seq", "text", "current"}``
    (``current``: a line of the step's own event)."""
    rules = timeline.rules
    terms: Mapping[str, str] = rules.terms
    lines: list[dict[str, Any]] = []
    seq = step
    while seq > 0 and len(lines) < limit:
        worded = []
        for line in rules.log_lines(event_seen(timeline.events[seq - 1], seat)):
            params = {k: render_param(k, v, names, terms) for k, v in line.params.items()}
            try:
                text = _(line.message) % params if params else _(line.message)
            except (KeyError, ValueError, TypeError):
                text = line.message
            worded.append({"seq": seq, "text": text, "current": seq == step})
        lines[:0] = worded
        seq -= 1
    return lines[-limit:]


def step_context(match: Match, timeline: Timeline, step: int, seat: int | None) -> dict[str, Any]:
    """The context of step ``step`` (0 < step <= last) seen from ``seat`` (``None``: everything)."""
    rules = timeline.rules
    state = timeline.state_at(step)
    over = rules.outcome(state) is not None
    view = rules.view_revealed(state) if seat is None else rules.view(state, seat)
    names = seat_names(match)
    context: dict[str, Any] = {
        "view": view,
        "seat": seat,
        "legal": [],
        "actors": [],
        "deadlines": [],
        "names": names,
        "seats": seats_of(match.pk),
        "standings": standings(match, names) if over else None,
        "replay": True,
        "log": step_lines(timeline, step, seat, names),
        "board_template": f"games/{match.game}/board.html",
    }
    board = boards.context_for(
        match.game, BoardInputs(view=view, seat=seat, legal=[], names=names, finished=over, state_key=None)
    )
    if board is not None:
        context["board"] = board
    return context
