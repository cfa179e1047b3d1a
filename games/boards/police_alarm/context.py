"""police_alarm's board context: the city map as SVG, and what the page's script needs to keep it live.

The board is drawn once from the seat's view (section 12: W-3 police, W-4 thief, W-5 spectator);
after that the page's script (``static/js/police_alarm.js``) redraws it from the JSON events and
views the socket brings (a car move is only its event). Only ``view`` comes in, so the thief's
crime scenes reach nobody else's page (H-2): the view has them only for the thief.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from games.boards.contract import BoardInputs
from games.boards.police_alarm.chart import chart
from games.boards.police_alarm.words import texts
from games.engines.police_alarm.constants import CIRCLE_CELL, MAP_ROWS, ROAD, START
from games.push.speaking import gettext as _
from games.push.speaking import ngettext

CELL = 10  # SVG units per map cell


@cache
def city_map() -> dict[str, Any]:
    """The static map: road cells, the crime-scene circles and the start (section 3)."""
    return {
        "size": len(MAP_ROWS) * CELL,
        "roads": [{"x": x * CELL, "y": y * CELL} for (x, y) in sorted(ROAD, key=lambda c: (c[1], c[0]))],
        "circles": [
            {"id": cid, "cx": x * CELL + CELL // 2, "cy": y * CELL + CELL // 2, "x": x, "y": y}
            for cid, (x, y) in sorted(CIRCLE_CELL.items())
        ],
        "start": {"x": START[0] * CELL, "y": START[1] * CELL},
    }


def _names(names: Mapping[int, str], seat: int | None, players: int) -> list[str]:
    return [names.get(p, str(p + 1)) + (f" ({_('you')})" if p == seat else "") for p in range(players)]


def status(view: Mapping[str, Any], names: Mapping[int, str], seat: int | None) -> str:
    """The first line of the board, as the script writes it (the script keeps it current)."""
    phase, role = view["phase"], view["role"]
    if phase == "over":
        return _("The game is over.")
    if phase == "abandoned":
        return _("The game was abandoned.")
    if view["variant"] == "school":
        return _("Drive from crime scene to crime scene: the timer runs from one to the next.")
    if view["variant"] == "young":
        police = names.get(view["active"], "")
        if role == "police":
            return _("Your turn as police: press Start driving and find a thief.")
        return _("%(police)s's turn as police.") % {"police": police}
    thief, police = names.get(view["thief"], ""), names.get(view["police"], "")
    if phase == "setup":
        if role == "thief":
            return _("Choose two crime scenes for your thieves, or let chance choose.")
        if role == "police":
            return _("The thief is hiding. Sound the start siren when you are ready.")
        return _("%(thief)s is hiding the thieves; %(police)s gets ready.") % {"thief": thief, "police": police}
    if role == "thief":
        return _("Crack the safes! Roll the dice, and get out before you are caught.")
    if role == "police":
        return _("Drive to the crime scenes and sound the siren there.")
    return _("%(thief)s cracks safes while %(police)s drives.") % {"thief": thief, "police": police}


def board_context(inputs: BoardInputs) -> dict[str, Any]:
    view, seat, names = inputs.view, inputs.seat, inputs.names
    players = int(view["players"])
    shown = _names(names, seat, players)
    young = view["variant"] == "young"
    return {
        "map": city_map(),
        "young": young,
        "role": view["role"],
        "status": status(view, names, seat),
        "players": [{"seat": p, "name": shown[p], "score": view["scores"][p]} for p in range(players)],
        "rounds_text": (
            ngettext(
                "%(n)s round: everyone is thief twice and police twice.",
                "%(n)s rounds: everyone is thief twice and police twice.",
                2 * players,
            )
            % {"n": 2 * players}
            if not young
            else _("First to 3 safe cards wins.")
        ),
        "circles": list(CIRCLE_CELL),
        "chart": chart(view, names) if inputs.finished else None,
        "client": {
            "view": dict(view),
            "me": seat,
            "names": shown,
            "text": texts(),
            "finished": inputs.finished,
            "rows": list(MAP_ROWS),
        },
    }


def school_context() -> dict[str, Any]:
    """W-15 Driving school: the board of a police alone in the city, no thief and no score.

    Nothing is played on the server: the page drives the car by itself at the standard speed
    (one cell per 150 ms, the spec's STEP_MS) and times the drive between crime scenes.
    """
    view = {
        "phase": "driving",
        "role": "police",
        "variant": "school",
        "players": 1,
        "scores": [0],
        "step_ms": [150],
        "car": list(START),
        "tiles": {},
        "origin": 0,
        "timer": None,
    }
    context = board_context(BoardInputs(view=view, seat=0, legal=[], names={}, finished=False))
    context.update(school=True, players=[])
    context["client"]["school"] = True
    return context
