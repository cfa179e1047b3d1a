"""exit_memory's board context: the engine's filtered view (section 8) turned into what its board draws.

Only ``view`` and ``legal`` come in, so a covered tile cannot reach the template: the view has no
covered tile in it (R-57). The round's transcript (R-71) arrives only once the round has ended.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from games.boards.contract import BoardInputs
from games.boards.exit_memory.chart import chart
from games.boards.exit_memory.words import (
    DANGER_HELP,
    FACING_WORDS,
    FLOOR_HELP,
    REASON_HELP,
    STATUS_NAMES,
    TYPE_HELP,
    WALK_KINDS,
    term,
)
from games.push.speaking import gettext as _
from games.push.speaking import list_separator

ROTATION = {"N": 0, "E": 90, "S": 180, "W": 270}
ARROWS = {"N": "↑", "E": "→", "S": "↓", "W": "←"}
CELL = 60


def tile(
    tile_id: str, kind: str, facing: str | None = None, *, character: str = "", symbol: str = ""
) -> dict[str, Any]:
    """A tile face as the board draws it: its type, its marks and its rotation."""
    return {
        "id": tile_id,
        "kind": kind,
        "name": term(kind),
        "help": _(TYPE_HELP[kind]),
        "rotation": ROTATION.get(facing or "N", 0),
        "facing": facing or "",
        "arrow": ARROWS.get(facing or "", ""),
        "character": term(character) if character else "",
        "character_code": character,
        "symbol": term(symbol) if symbol else "",
        "symbol_code": symbol,
    }


def _name(names: Mapping[int, str], seat: int) -> str:
    return names.get(seat, _("Player %(n)s") % {"n": seat + 1})


def _players(view: Mapping[str, Any], names: Mapping[int, str], me: int | None) -> list[dict[str, Any]]:
    phase = view["phase"]
    return [
        {
            "seat": s,
            "name": _name(names, s),
            "me": s == me,
            "score": view["scores"][s] if view["scores"] else 0,
            "holder": view["holders"][s] if view["holders"] else True,
            "hand_count": view["hand_counts"][s] if view["hand_counts"] else 0,
            "turn": phase in ("turn", "extra") and view["turn"] == s,
            "deciding": phase == "chain" and view["prompted"] == s,
            "start": view["start_player"] == s,
            "skipped": bool(view["skipped"] and view["skipped"][s]),
            "jammed": bool(view["jammed"] and view["jammed"][s]),
            "ready": phase == "summary" and bool(view["ready"][s]),
        }
        for s in range(view["players"])
    ]


def _hand(view: Mapping[str, Any], legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """My tiles, each pre-rotated to the facing it must have (R-67), with one button per allowed facing."""
    places: dict[str, list[dict[str, Any]]] = {}
    for action in legal:
        if action["type"] == "place":
            places.setdefault(action["tile"], []).append(action)
    out = []
    for t in view.get("hand", []):
        options = places.get(t["tile"], [])
        facing = options[0]["facing"] if len(options) == 1 else (t["facings"][0] if len(t["facings"]) == 1 else "N")
        face = tile(t["tile"], t["type"], facing, character=t["character"], symbol=t["symbol"])
        face["choices"] = [
            {
                "action": a,
                "tile": tile(t["tile"], t["type"], a["facing"]),
                "arrow": ARROWS[a["facing"]],
                "direction": _(FACING_WORDS[a["facing"]]),
            }
            for a in options
        ]
        face["free"] = len(options) > 1
        out.append(face)
    return out


def _top(view: Mapping[str, Any]) -> dict[str, Any] | None:
    top = view.get("top")
    if not top:
        return None
    if top.get("face_down"):
        return {"face_down": True}
    return tile(top["tile"], top["type"], top.get("facing"), character=top["character"], symbol=top["symbol"])


def _status(view: Mapping[str, Any], me: int | None, names: Mapping[int, str]) -> str:
    phase = view["phase"]
    if phase == "over":
        return _("The game is over.")
    if phase == "summary":
        return _("The round is over. Watch the route being walked, then press Ready.")
    if phase in ("turn", "extra"):
        if view["turn"] == me:
            if phase == "extra":
                return _("Gas leak: place one more tile at once.")
            return _("Your turn: place a tile that continues the route, or declare that the route is lost.")
        return _("%(who)s is playing.") % {"who": _name(names, view["turn"])}
    if phase == "chain":
        declarer = view["chains"][-1]["members"][0]
        if view["prompted"] == me:
            return _("%(who)s declared the route lost. Join them, or keep your lost tile?") % {
                "who": _name(names, declarer)
            }
        return _("%(who)s declared the route lost; %(asked)s is deciding whether to join.") % {
            "who": _name(names, declarer),
            "asked": _name(names, view["prompted"]),
        }
    return ""


def _chains(view: Mapping[str, Any], names: Mapping[int, str]) -> list[dict[str, Any]]:
    return [
        {
            "number": c["number"],
            "position": c["position"],
            "members": list_separator().join(_name(names, s) for s in c["members"]),
        }
        for c in view["chains"]
    ]


def walk_picture(result: Mapping[str, Any]) -> dict[str, Any]:
    """R-71: the laid-out route as SVG cells (start at the origin, north up) and the animation steps."""
    cells: dict[tuple[int, int], dict[str, Any]] = {(0, 0): {"tile": tile("T00", "START", "N"), "step": 0}}
    for s in result["steps"]:
        if s["kind"] == "REVEAL":
            cells[(s["cell"][0], s["cell"][1])] = {"tile": tile(s["tile"], s["type"], s["facing"]), "step": s["step"]}
    blocked = result.get("blocked")
    xs = [x for x, _y in cells] + ([blocked["cell"][0]] if blocked else [])
    ys = [y for _x, y in cells] + ([blocked["cell"][1]] if blocked else [])
    left, top = min(xs), max(ys)

    def at(x: int, y: int) -> tuple[int, int]:
        return ((x - left) * CELL, (top - y) * CELL)

    laid = []
    for (x, y), c in sorted(cells.items(), key=lambda item: item[1]["step"]):
        px, py = at(x, y)
        laid.append({**c, "x": px, "y": py})
    centre = [at(0, 0)]
    for s in result["steps"]:
        centre.append(at(s["cell"][0], s["cell"][1]))
    points = " ".join(f"{x + CELL // 2},{y + CELL // 2}" for x, y in centre)
    lost_cell = None
    if result["outcome"] == "LOST":
        if blocked:
            lost_cell = at(blocked["cell"][0], blocked["cell"][1])
        elif result["steps"]:
            last = result["steps"][-1]["cell"]
            lost_cell = at(last[0], last[1])
    return {
        "cells": laid,
        "width": (max(xs) - left + 1) * CELL,
        "height": (top - min(ys) + 1) * CELL,
        "points": points,
        "lost_cell": {"x": lost_cell[0], "y": lost_cell[1]} if lost_cell else None,
        "steps_json": json.dumps([s["step"] for s in result["steps"]]),
    }


def _result(view: Mapping[str, Any], names: Mapping[int, str]) -> dict[str, Any] | None:
    result = view.get("result")
    if not result:
        return None
    lost_at = result["lost_at"]
    reasons = [_(REASON_HELP[r]) if r in REASON_HELP else f"{term(r)}: {_(FLOOR_HELP[r])}" for r in result["reasons"]]
    markers: dict[int, list[dict[str, Any]]] = {}
    for c in result["chains"]:
        markers.setdefault(c["position"], []).append(
            {
                "number": c["chain"],
                "members": list_separator().join(_name(names, s) for s in c["members"]),
                "status": c["status"].replace(" ", "-"),
                "status_name": _(STATUS_NAMES[c["status"]]),
            }
        )
    pile = [{"index": 0, "tile": tile("T00", "START", "N"), "beyond": False, "markers": markers.get(0, [])}]
    for i, p in enumerate(result["pile"], start=1):
        pile.append(
            {
                "index": i,
                "tile": tile(p["tile"], p["type"], p["facing"]),
                "face_down": p["face_down"],
                "beyond": lost_at is not None and i > lost_at,
                "markers": markers.get(i, []),
            }
        )
    scorers = list_separator().join(_name(names, s) for s in result["scorers"])
    if result["outcome"] == "ESCAPED":
        headline = _("The team escaped! Everyone who kept their lost tile scores a point.")
    else:
        headline = _("The route got lost at tile #%(n)s.") % {"n": lost_at}
    return {
        "escaped": result["outcome"] == "ESCAPED",
        "headline": headline,
        "reasons": reasons,
        "scorers": scorers,
        "pile": pile,
        "picture": walk_picture(result),
        "steps": [
            {
                "step": s["step"],
                "kind": _(WALK_KINDS[s["kind"]]),
                "tile": term(s["type"]),
                "turn": s["turn"],
                "k": s["k"],
            }
            for s in result["steps"]
        ],
        "round": result["round"],
        "next_start": _name(names, result["next_start"]),
    }


def _revealed(view: Mapping[str, Any], names: Mapping[int, str]) -> dict[str, Any] | None:
    """Every hand and the pile in order, from a view that shows them (a replay with everything
    revealed: ``rules.view_revealed``); ``None`` for any player's or spectator's view."""
    if "hands" not in view:
        return None

    def face(t: Mapping[str, Any]) -> dict[str, Any]:
        return tile(t["tile"], t["type"], t.get("facing"), character=t["character"], symbol=t["symbol"])

    return {
        "hands": [{"name": _name(names, s), "tiles": [face(t) for t in hand]} for s, hand in enumerate(view["hands"])],
        "pile": [face(t) for t in view.get("pile", [])],
    }


def board_context(inputs: BoardInputs) -> dict[str, Any]:
    view, seat, legal, names = inputs.view, inputs.seat, inputs.legal, inputs.names
    me = seat if seat is not None and "hand" in view else None
    notice = view.get("notice")
    prompt = None
    if legal and view["phase"] == "chain":
        prompt = {
            "join": next(a for a in legal if a.get("join") is True),
            "keep": next(a for a in legal if a.get("join") is False),
        }
    return {
        "status": _status(view, me, names),
        "my_turn": bool(legal),
        "players": _players(view, names, me),
        "hand": _hand(view, legal) if me is not None else [],
        "top": _top(view),
        "pile_count": view["pile_count"],
        "deck_count": view["deck_count"],
        "floors": [{"id": f, "name": term(f), "help": _(FLOOR_HELP[f])} for f in view["floors"]],
        "floor_deck": view["floor_deck_count"],
        "dangers": [{"id": d, "name": term(d), "help": _(DANGER_HELP[d])} for d in view["dangers"]],
        "danger_deck": view["danger_deck_count"] if view["danger"] else None,
        "chains": _chains(view, names),
        "declare": next((a for a in legal if a["type"] == "declare_lost"), None),
        "pass": next((a for a in legal if a["type"] == "pass"), None),
        "ready": next((a for a in legal if a["type"] == "ready"), None),
        "prompt": prompt,
        "face_down_next": view["face_down_next"],
        "notice": {"name": term(notice["card"]), "help": _(DANGER_HELP[notice["card"]])} if notice else None,
        "result": _result(view, names),
        "round": view["round"],
        "revealed": _revealed(view, names),
        "target": view["target"],
        "jammed": me is not None and bool(view["jammed"]) and view["jammed"][me],
        "chart": chart(view, names) if inputs.finished else None,
    }
