"""The acting seat's controls (R-93): its legal actions as forms and as clickable cells of the bridge,
with a hint of what each would do, and the shop's slots it may buy."""

from __future__ import annotations

import json
from typing import Any

from django.utils.safestring import SafeString

from games.boards.bridge_race.drawing import click_target, targets_svg
from games.boards.bridge_race.geometry import ROWS, BoardCells, on_bridge
from games.boards.bridge_race.words import (
    CHARACTER_ABILITIES,
    CHARACTER_COLOUR_NAMES,
    CHARACTER_NAMES,
    DIRECTION_NAMES,
    FACE_NAMES,
    FREE_TOKENS,
    PROMPT_NAMES,
    STEP_ARROWS,
    STEP_NAMES,
    adventure_name,
    cell_label,
    cell_labels,
    money,
    paint,
    tile_info,
)
from games.boards.common import escape_text
from games.engines.bridge_race.board import START_CELLS
from games.engines.bridge_race.state import ADVENTURE
from games.push.speaking import gettext


def _options(items: list[dict[str, Any]]) -> SafeString:
    """<option>s for a select of cells (value, label and, for adventure tiles, data-tiles)."""
    return SafeString(
        "".join(
            f'<option value="{escape_text(i["value"])}"'
            + (f' data-tiles="{escape_text(i["tiles"])}"' if i.get("tiles") else "")
            + f">{escape_text(i['label'])}</option>"
            for i in items
        )
    )


def _cell_options(cells: list[list[int]], selected: list[int] | None = None) -> SafeString:
    """<option>s for every cell of a placement, in board order (the finish at the top), with the
    suggested cell selected (else the browser selects the first)."""
    pick = f"{selected[0]},{selected[1]}" if selected else ""
    labels = cell_labels()
    out = []
    for lane, row in sorted(((c[0], c[1]) for c in cells), key=lambda c: (-c[1], c[0])):
        value = f"{lane},{row}"
        label = labels.get((lane, row)) or cell_label(lane, row)
        out.append(f'<option value="{value}"{" selected" if value == pick else ""}>{escape_text(label)}</option>')
    return SafeString("".join(out))


def _first_cell(acts: list[dict[str, Any]], tile: str | None = None) -> list[int] | None:
    """The first cell legal_actions suggests for a placement (a cell near the car)."""
    for a in acts:
        if tile is None or a.get("tile") == tile:
            if "cell" in a:
                return a["cell"]
            if a.get("cells"):
                return a["cells"][0]
    return None


USE_PLACEMENTS = ("B24", "B25", "B29", "B30")


def _with_placements(acts: list[dict[str, Any]], placements: dict[str, Any]) -> list[dict[str, Any]]:
    """The USE_TILE actions with the sampled cells (or moves) of B24, B25, B29 and B30 replaced by
    every one the engine accepts (view["placements"]); the sample's first stays first."""
    out: list[dict[str, Any]] = []
    done: set[str] = set()

    def expand(tile: str, first: dict[str, Any] | None) -> None:
        done.add(tile)
        key = {"B24": "moves", "B25": "cells"}.get(tile, "cell")
        items = list(placements[tile])
        lead = first.get(key) if first else None
        if key != "cell" and lead:
            lead = lead[0]
        if lead in items:
            items.remove(lead)
            items.insert(0, lead)
        for item in items:
            out.append({"type": "USE_TILE", "tile": tile, key: item if key == "cell" else [item]})

    for a in acts:
        tile = a["tile"]
        if tile in USE_PLACEMENTS and tile in placements:
            if tile not in done:
                expand(tile, a)
        else:
            out.append(a)
    for tile in USE_PLACEMENTS:
        if tile in placements and tile not in done:
            expand(tile, None)
    return out


def _step_hint(b: BoardCells, lane: int, row: int, facing: int, dirname: str, steps_left: int, speed: int) -> str:
    """A short warning of what entering the target cell does (R-33, R-34)."""
    if row >= ROWS:
        return gettext("crosses the finish line!")
    if row < 0:
        return gettext("the end of the bridge")
    car = b.car(lane, row)
    if car is not None:
        return gettext("collision with car %(n)s") % {"n": car["seat"] + 1}
    o = b.obj(lane, row)
    hints = []
    if o is not None:
        kind = o["kind"]
        if kind == "container" or o.get("fortified"):
            return gettext("crash into a container: damage %(n)s") % {"n": speed // 10}
        if kind == "roadblock":
            hints.append(gettext("roadblock: damage %(n)s") % {"n": o["n"]})
        elif kind == "caltrops":
            hints.append(gettext("caltrops: −%(n)s mph") % {"n": 10 * o["n"]})
        elif kind == "speed":
            if speed >= 40:
                hints.append(gettext("speed limit: damage %(n)s") % {"n": 1 if speed == 40 else 2})
        elif kind == "police":
            hints.append(gettext("the police dodge"))
        elif kind == "mine":
            hints.append(gettext("mine: damage 2 (unless it is yours)"))
        elif kind in ("oil", "acid"):
            hints.append(gettext("slide!"))
        elif kind == "ramp":
            if dirname == "STRAIGHT" and o["n"] == facing and steps_left > 1:
                hints.append(gettext("JUMP!"))
            elif not (dirname == "STRAIGHT" and o["n"] == facing):
                hints.append(gettext("ramp from the side: damage 1"))
    cash = b.money(lane, row)
    if cash:
        hints.append(gettext("pick up %(amount)s") % {"amount": money(cash)})
    return ", ".join(hints)


def _shot_hint(b: BoardCells, lane: int, row: int, dl: int, dr: int) -> str:
    what, pos = b.trace(lane, row, dl, dr)
    if pos is None:
        return gettext("nothing in the line of fire")
    if what == "car":
        car = b.car(*pos)
        return gettext("hits car %(n)s at %(cell)s") % {"n": (car or {}).get("seat", 0) + 1, "cell": cell_label(*pos)}
    if what == "roadblock":
        return gettext("hits a roadblock at %(cell)s") % {"cell": cell_label(*pos)}
    if what == "police":
        return gettext("the police at %(cell)s dodge") % {"cell": cell_label(*pos)}
    return gettext("absorbed at %(cell)s") % {"cell": cell_label(*pos)}


def _resolve_model(view: dict[str, Any], me: dict[str, Any], presets: list[dict[str, Any]]) -> dict[str, Any]:
    """What RESOLVE_DICE (R-29) can choose, and the numbers the speed preview needs."""
    t = view["turn"]
    dice = me["dice"]
    rep_units: list[int] = []
    dmg = 0
    for d in dice:
        if d["face"] == "REPAIR":
            rep_units += [d["index"]] * (2 if d["double"] else 1)
        if d["face"] == "DAMAGE":
            dmg += 2 if d["double"] else 1
    pairs = min(len(rep_units), dmg)
    remaining = rep_units[pairs:]
    dur_after = max(0, me["durability"] - (dmg - pairs))
    spin = me["durability"] > 0 and dur_after == 0
    normal = -1 if me["leg"] == "RET" else 1
    reversed_now = (me["facing"] != normal) != spin
    base = 0 if spin else me["speed"]
    repairs = [
        {
            "index": i,
            "units": remaining.count(i),
            "label": gettext("Apply repair die #%(n)s (+%(u)s durability)") % {"n": i + 1, "u": remaining.count(i)},
        }
        for i in dict.fromkeys(remaining)
    ]
    adjusts = []
    for d in dice:
        if d["face"] == "POINTER" and d["state"] == "unused":
            w = 2 if d["double"] else 1
            adjusts.append(
                {
                    "index": d["index"],
                    "weight": w,
                    "label": gettext("Pointer die #%(n)s") % {"n": d["index"] + 1} + (" ×2" if w == 2 else ""),
                }
            )
    for k in range(int(t.get("extra_adjustments") or 0)):
        adjusts.append({"index": 5 + k, "weight": 1, "label": gettext("Tile adjustment %(n)s") % {"n": k + 1}})
    weights = {a["index"]: a["weight"] for a in adjusts}
    quick = []
    for p in presets:
        speed = base + sum(int(d) * weights.get(i, 1) for i, d in p["adjust"])
        nrep = sum(remaining.count(i) for i in p["repair"])
        if nrep:
            label = gettext("%(speed)s mph, repair +%(n)s") % {"speed": speed, "n": nrep}
        else:
            label = gettext("%(speed)s mph") % {"speed": speed}
        quick.append({"payload": p, "label": label, "speed": speed})
    quick.sort(key=lambda q: (q["speed"], -len(q["payload"]["repair"])))
    return {
        "base": base,
        "reversed": reversed_now,
        "spin": spin,
        "damage": dmg - pairs,
        "cancelled": pairs,
        "dur_after": dur_after,
        "max": me["max_durability"],
        "repairs": repairs,
        "adjusts": adjusts,
        "quick": quick,
        "payload": {"type": "RESOLVE_DICE", "repair": [], "adjust": []},
        "tokens": json.dumps(FREE_TOKENS),
    }


def _tile_uses(
    acts: list[dict[str, Any]], me: dict[str, Any], view: dict[str, Any], names: dict[int, str], b: BoardCells
) -> list[dict[str, Any]]:
    """USE_TILE choices grouped per tile, with the parameters each needs (R-68, R-69)."""
    colours = {t["id"]: t["colour"] for t in me["tiles"]}
    by_tile: dict[str, list[dict[str, Any]]] = {}
    for a in acts:
        by_tile.setdefault(a["tile"], []).append(a)
    dice = {d["index"]: d for d in me["dice"]}
    labels = cell_labels()
    out = []
    for tile, group in by_tile.items():
        info = tile_info(tile, colours.get(tile, ""))
        first = group[0]
        entry: dict[str, Any] = {**info, "payload": {"type": "USE_TILE", "tile": tile}, "form_id": f"br-use-{tile}"}
        if "target" in first:
            entry["kind"] = "target"
            entry["options"] = [
                {"value": a["target"], "label": f"{names.get(a['target'], a['target'])} (#{a['target'] + 1})"}
                for a in group
            ]
        elif "face" in first:
            entry["kind"] = "die_face"
            entry["dice"] = [
                {"value": i, "label": f"#{i + 1} {FACE_NAMES.get(dice[i]['face'], dice[i]['face'])}"}
                for i in dict.fromkeys(a["die"] for a in group)
                if i in dice
            ]
            entry["faces"] = [
                {"value": f, "label": FACE_NAMES[f]} for f in ("POINTER", "STEER", "SHOOT", "REPAIR", "DAMAGE")
            ]
        elif "die" in first:
            entry["kind"] = "die"
            entry["options"] = [
                {"value": a["die"], "label": f"#{a['die'] + 1} {FACE_NAMES.get(dice[a['die']]['face'], '')}"}
                for a in group
                if a["die"] in dice
            ]
        elif "dir" in first:
            entry["kind"] = "dir"
            entry["options"] = []
            for a in group:
                d = (a["dir"][0], a["dir"][1])
                hint = _mortar_hint(b, me, d)
                entry["options"].append(
                    {
                        "value": f"{d[0]},{d[1]}",
                        "label": f"{DIRECTION_NAMES.get(d, d)} — {hint}",
                        "ray": f"{me['lane']},{me['row']},{d[0]},{d[1]}",
                    }
                )
        elif "cell" in first:
            entry["kind"] = "cell"
            entry["place"] = "cell"
            entry["cells"] = [
                {
                    "value": f"{a['cell'][0]},{a['cell'][1]}",
                    "lane": a["cell"][0],
                    "row": a["cell"][1],
                    "label": labels.get((a["cell"][0], a["cell"][1])) or cell_label(*a["cell"]),
                }
                for a in group
            ]
            entry["options_html"] = _cell_options([a["cell"] for a in group], first["cell"])
        elif "cells" in first:
            entry["kind"] = "cells"
            entry["place"] = "cells[]"
            entry["cells"] = [
                {
                    "value": f"{a['cells'][0][0]},{a['cells'][0][1]}",
                    "lane": a["cells"][0][0],
                    "row": a["cells"][0][1],
                    "label": cell_label(*a["cells"][0]),
                }
                for a in group
            ]
        elif "moves" in first:
            # Up to 5 pieces, one <select name="moves[]"> each ("lane,row>lane,row"): a stack may send
            # several pieces the same way, so a multiple select would not do.
            entry["kind"] = "moves"
            moves = [a["moves"][0] for a in group]
            options = "".join(
                f'<option value="{src[0]},{src[1]}&gt;{dst[0]},{dst[1]}">'
                + escape_text(gettext("%(src)s → %(dst)s") % {"src": cell_label(*src), "dst": cell_label(*dst)})
                + "</option>"
                for src, dst in moves
            )
            pieces = 0
            for src in dict.fromkeys((m[0][0], m[0][1]) for m in moves):
                o = b.obj(*src)
                pieces += int(o["n"]) if o else 1
            entry["slots"] = list(range(1, min(5, pieces) + 1))
            entry["first_html"] = SafeString(options)
            no_more = escape_text(gettext("— no more pieces —"))
            entry["more_html"] = SafeString(f'<option value="">{no_more}</option>' + options)
        else:
            entry["kind"] = "plain"
        out.append(entry)
    return out


def _mortar_hint(b: BoardCells, me: dict[str, Any], d: tuple[int, int]) -> str:
    what, pos = b.trace(me["lane"], me["row"], d[0], d[1])
    if what == "car" and pos is not None:
        car = b.car(*pos)
        return gettext("pushes car %(n)s") % {"n": (car or {}).get("seat", 0) + 1}
    return gettext("no car in the line of fire")


# Every control the action panel asks about, None where the seat has no such action: a key missing
# from a dict costs the template engine three exceptions and a dir() of the dict per lookup.
NO_CONTROLS: dict[str, Any] = dict.fromkeys(
    (
        "adventure",
        "armed",
        "choose",
        "choose_car",
        "end_turn",
        "finalize",
        "handbrake",
        "mine",
        "pay_repair",
        "ramp",
        "reroll",
        "resolve",
        "roll",
        "shots",
        "steps",
        "uses",
    )
)


def with_controls(
    seen: dict[str, Any], view: dict[str, Any], seat: int, legal: list[dict[str, Any]], names: Any
) -> dict[str, Any]:
    """``seen`` (the spectator's model as ``seat`` sees it) with the seat's controls: its legal
    actions as forms and as clickable cells of the bridge, and the shop slots it may buy."""
    names = dict(names or {})
    board = view.get("board") or {}
    b = BoardCells(view)
    turn = view.get("turn")
    me = seen["me"]
    tray = seen["tray"]
    placements = view.get("placements") or {}
    groups: dict[str, list[dict[str, Any]]] = {}
    for a in legal:
        groups.setdefault(a["type"], []).append(a)

    act: dict[str, Any] = {**NO_CONTROLS, "any": True}
    targets: list[dict[str, Any]] = []
    if me is not None:
        act["roll"] = groups.get("ROLL", [None])[0]
        act["finalize"] = groups.get("FINALIZE_DICE", [None])[0]
        rerolls = groups.get("REROLL", [])
        if rerolls and turn:
            free = turn["rerolls"] >= 2 and turn["max_rerolls"] > 2
            act["reroll"] = {
                "payload": {"type": "REROLL", "keep": []},
                "left": turn["max_rerolls"] - turn["rerolls"],
                "dice": [{**d, "locked": d["kept"] and not free} for d in tray],
                "free": free,
            }
        if groups.get("RESOLVE_DICE") and me:
            act["resolve"] = _resolve_model(view, me, groups["RESOLVE_DICE"])
        steps = []
        for a in groups.get("STEP", []):
            dl = {"STRAIGHT": 0, "LANE-": -1, "LANE+": 1}[a["dir"]]
            lane, row = me["lane"] + dl, me["row"] + me["facing"]
            hint = _step_hint(b, lane, row, me["facing"], a["dir"], turn["steps_left"] if turn else 0, me["speed"])
            form_id = f"br-step-{a['dir'].replace('+', 'p').replace('-', 'm')}"
            arrow = STEP_ARROWS[a["dir"]] if me["facing"] > 0 else {"↑": "↓", "↖": "↙", "↗": "↘"}[STEP_ARROWS[a["dir"]]]
            steps.append(
                {
                    "payload": a,
                    "name": STEP_NAMES[a["dir"]],
                    "arrow": arrow,
                    "lane": lane,
                    "row": row,
                    "cell": cell_label(lane, row),
                    "hint": hint,
                    "form_id": form_id,
                    "on_bridge": on_bridge(lane, row),
                    "cost": 2 if dl else 0,
                }
            )
            if on_bridge(lane, row):
                label = f"{STEP_NAMES[a['dir']]}: {cell_label(lane, row)}"
                targets.append(click_target(lane, row, form_id, "step", label, arrow=arrow))
        act["steps"] = sorted(steps, key=lambda st: st["lane"])
        shots: dict[int, dict[str, Any]] = {}
        for a in groups.get("SHOOT", []):
            d = (a["dir"][0], a["dir"][1])
            entry = shots.setdefault(
                a["die"],
                {"die": a["die"], "number": a["die"] + 1, "dirs": [], "payload": {"type": "SHOOT", "die": a["die"]}},
            )
            entry["dirs"].append(
                {
                    "value": f"{d[0]},{d[1]}",
                    "name": DIRECTION_NAMES.get(d, str(d)),
                    "hint": _shot_hint(b, me["lane"], me["row"], d[0], d[1]),
                    "ray": f"{me['lane']},{me['row']},{d[0]},{d[1]}",
                    "payload": a,
                }
            )
        act["shots"] = list(shots.values())
        buy_slots = {a["slot"] for a in groups.get("BUY", [])}
        act["buy_slots"] = buy_slots
        act["pay_repair"] = groups.get("PAY_REPAIR", [None])[0]
        act["handbrake"] = groups.get("HANDBRAKE", [None])[0]
        ends = groups.get("END_TURN", [])
        if ends:
            sell = max((a["sell"] for a in ends), key=len)
            act["end_turn"] = {
                "payload": {"type": "END_TURN", "sell": []},
                "dice": [d for d in tray if d["index"] in sell],
                "mochico": me["character"] == "C2",
            }
        # Placements: every cell the engine accepts (view["placements"]), with the cell that
        # legal_actions suggests (near the car) preselected in each form's <select>.
        # (form id, target kind, label format with %(cell)s, its other params, cells)
        places: list[tuple[str, str, str, dict[str, Any], list[list[int]]]] = []
        mine_acts = groups.get("PLACE_MINE", [])
        mine_tiles = [t for t in ("B27", "B28") if t in placements] or [a["tile"] for a in mine_acts]
        if mine_tiles:
            tile = mine_tiles[0]
            cells = placements.get(tile) or [a["cell"] for a in mine_acts if a["tile"] == tile]
            act["mine"] = {
                "payload": {"type": "PLACE_MINE", "tile": tile},
                "tile": tile_info(tile, "grey"),
                "options_html": _cell_options(cells, _first_cell(mine_acts, tile)),
            }
            places.append(("br-mine", "mine", gettext("Bury the mine at %(cell)s"), {}, cells))
        ramp_acts = groups.get("PLACE_RAMP", [])
        if ramp_acts or "PLACE_RAMP" in placements:
            cells = placements.get("PLACE_RAMP") or [a["cell"] for a in ramp_acts]
            act["ramp"] = {
                "payload": {"type": "PLACE_RAMP", "dir": 1},
                "options_html": _cell_options(cells, _first_cell(ramp_acts)),
                "closed": view.get("mode") == "closed_border",
            }
            places.insert(0, ("br-ramp", "ramp", gettext("Place your ramp at %(cell)s"), {}, cells))
        uses = _tile_uses(_with_placements(groups.get("USE_TILE", []), placements), me, view, names, b)
        for u in uses:
            if u["kind"] in ("cell", "cells"):
                cells = [[c["lane"], c["row"]] for c in u["cells"]]
                places.append((u["form_id"], "tile", gettext("%(tile)s at %(cell)s"), {"tile": str(u["name"])}, cells))
        act["uses"] = uses
        # One clickable target per cell; when several forms take the same cell (a mine and an oil
        # slick), the form last touched ("armed") gets the click. Only the armed form's cells are
        # shown: by default the ramp or the mine, or else the first tile unless the car is driving
        # (then the cells ahead belong to the STEP targets).
        armed = ""
        if places and (places[0][1] in ("ramp", "mine") or not act.get("steps")):
            armed = places[0][0]
        by_cell: dict[tuple[int, int], list[tuple[str, str, str]]] = {}
        labels = cell_labels()
        for form_id, kind, fmt, params, cells in places:
            for c in cells:
                label = fmt % {**params, "cell": labels.get((c[0], c[1])) or cell_label(c[0], c[1])}
                by_cell.setdefault((c[0], c[1]), []).append((form_id, kind, label))
        for (lane, row), forms in by_cell.items():
            ids = [f[0] for f in forms]
            label = " / ".join(f[2] for f in forms)
            targets.append(
                click_target(
                    lane,
                    row,
                    " ".join(ids),
                    forms[0][1],
                    label,
                    value=f"{lane},{row}",
                    place=True,
                    off=armed not in ids,
                )
            )
        act["armed"] = armed
    # choices that do not need the car: adventure placement, car choice, prompts
    labels = cell_labels()
    adventure = {t: cells for t, cells in placements.items() if t in ADVENTURE}
    if not adventure:
        for a in groups.get("PLACE_ADVENTURE", []):
            adventure.setdefault(a["tile"], []).append(a["cell"])
    if adventure:
        face_up = {t["id"]: t for t in view.get("face_up") or ()}
        cell_tiles: dict[tuple[int, int], list[str]] = {}
        for tile, cells in adventure.items():
            for c in cells:
                cell_tiles.setdefault((c[0], c[1]), []).append(tile)
        first = next(iter(adventure))
        act["adventure"] = {
            "payload": {"type": "PLACE_ADVENTURE"},
            "tiles": [
                {
                    "id": t,
                    "kind": face_up.get(t, {}).get("kind", ADVENTURE.get(t, ("", 0))[0]),
                    "label": adventure_name(t),
                    "count": len(cs),
                    "checked": t == first,
                }
                for t, cs in adventure.items()
            ],
            "cells": [
                {"value": f"{c[0]},{c[1]}", "label": labels.get(c) or cell_label(*c), "tiles": " ".join(ts)}
                for c, ts in sorted(cell_tiles.items(), key=lambda kv: (-kv[0][1], kv[0][0]))
            ],
        }
        act["adventure"]["options_html"] = _options(act["adventure"]["cells"])
        adv_fmt = gettext("Place the chosen tile at %(cell)s")
        for spot, ts in cell_tiles.items():
            label = adv_fmt % {"cell": labels.get(spot) or cell_label(*spot)}
            value = f"{spot[0]},{spot[1]}"
            targets.append(click_target(*spot, "br-adv", "adv", label, field="cell", value=value, tiles=" ".join(ts)))
    cars_ = groups.get("CHOOSE_CAR", [])
    if cars_:
        chars = list(dict.fromkeys(a["character"] for a in cars_))
        starts = list(dict.fromkeys(a["start"] for a in cars_))
        start_money = {k: v["money"] for k, v in (board.get("start_cells") or {}).items()}
        act["choose_car"] = {
            "payload": {"type": "CHOOSE_CAR"},
            "chars": [
                {
                    "id": c,
                    "name": CHARACTER_NAMES.get(c, c),
                    "ability": CHARACTER_ABILITIES.get(c, ""),
                    "fill": paint(c)[0],
                    "outline": paint(c)[2],
                    "colour_name": CHARACTER_COLOUR_NAMES[c],
                }
                for c in chars
            ],
            "starts": [
                {"id": s, "label": cell_label(*START_CELLS[s][0]), "money": money(start_money.get(s, 0))}
                for s in starts
            ],
        }
        for s in starts:
            lane, row = START_CELLS[s][0]
            label = gettext("Start at %(start)s (%(cell)s)") % {"start": s, "cell": cell_label(lane, row)}
            targets.append(click_target(lane, row, "br-car", "start", label, field="start", value=s))
    prompt = view.get("prompt")
    if groups.get("CHOOSE") and prompt:
        choices = placements.get("CHOOSE") or prompt["options"]
        opts = []
        for a in groups["CHOOSE"]:
            i = a["option"]
            lane, row = choices[i]
            form_id = f"br-choose-{i}"
            opts.append(
                {
                    "payload": a,
                    "label": cell_label(lane, row),
                    "form_id": form_id,
                    "hl": f"{lane},{row}" if on_bridge(lane, row) else "",
                }
            )
            if on_bridge(lane, row):
                targets.append(click_target(lane, row, form_id, "choose", cell_label(lane, row)))
        act["choose"] = {"question": PROMPT_NAMES.get(prompt["kind"], prompt["kind"]), "options": opts}

    return {
        **seen,
        "act": act,
        "targets": targets,
        "svg_targets": SafeString(targets_svg(targets)),
        "my_turn": True,
        # With nothing to buy, the shop is the one every viewer sees (kept by the model, R-66/R-67).
        "shop": shop_slots(view, act["buy_slots"], me) if act.get("buy_slots") else seen["shop"],
    }


def shop_slots(view: dict[str, Any], buy_slots: set[int], me: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The shop's slots, those ``buy_slots`` marked for sale to the seat ``me``."""
    shop = []
    for s in view.get("shop") or ():
        info = tile_info(s["tile"], s["colour"]) if s["tile"] else None
        slot = {
            "slot": s["slot"],
            "price": s["price"],
            "price_text": money(s["price"]),
            "tile": info,
            "can_buy": s["slot"] in buy_slots,
            "payload": {"type": "BUY", "slot": s["slot"]},
        }
        slot["debt"] = bool(me and slot["can_buy"] and s["price"] > me["balance"])
        shop.append(slot)
    return shop
