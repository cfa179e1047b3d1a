"""bridge_race's board context, its model: what ``templates/games/bridge_race/board.html`` and the
panels draw.

``bridge_model(view, seat, legal, names)`` turns the engine view (R-89) and this seat's legal
actions (R-93) into SVG coordinates, translated names and titles, and the legal actions grouped
per control (:mod:`.controls`). The board is public (R-89), so the spectator's model is built
once per match state and language, and each seat's is that one with its own car marked."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from django.utils.safestring import SafeString

from games.boards.bridge_race.chart import chart
from games.boards.bridge_race.controls import NO_CONTROLS, shop_slots, with_controls
from games.boards.bridge_race.drawing import car_svg, objects_svg, off_car_svg, piles_svg, targets_svg
from games.boards.bridge_race.geometry import CELL, HEIGHT, LANES, ROWS, WATER, WIDTH, cell_x, cell_y
from games.boards.bridge_race.words import (
    BONUS_NAMES,
    CHARACTER_ABILITIES,
    CHARACTER_COLOUR_NAMES,
    CHARACTER_NAMES,
    DIE_STATE_NAMES,
    END_REASON_NAMES,
    END_STEP_NAMES,
    FACE_HINTS,
    FACE_NAMES,
    LEG_NAMES,
    MODE_NAMES,
    NO_PAINT,
    OBJECT_EFFECTS,
    OBJECT_NAMES,
    PHASE_NAMES,
    PROMPT_NAMES,
    RAMP_NAMES,
    SPEEDS,
    STAGE_NAMES,
    STATUS_NAMES,
    adventure_name,
    cell_label,
    money,
    object_label,
    paint,
    tile_info,
)
from games.boards.contract import BoardInputs
from games.play.bounded_cache import BoundedCache
from games.push import fragment_memo
from games.push.speaking import current_language, gettext, speaking

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


def _object_title(o: dict[str, Any], lane: int, row: int, names: dict[int, str], wall_row: int | None) -> str:
    kind = o["kind"]
    effect: StrOrPromise
    if o.get("fortified"):
        label = gettext("Fortified police (%(n)s officers)") % {"n": o["n"]}
        effect = OBJECT_EFFECTS["fortified"]
    elif kind == "container" and wall_row is not None and row == wall_row and not o.get("tiles"):
        label, effect = str(OBJECT_NAMES["wall"]), OBJECT_EFFECTS["wall"]
    elif kind == "ramp":
        facing = gettext("facing the finish") if o["n"] >= 0 else gettext("facing the start")
        label = gettext("Ramp of %(owner)s, %(facing)s") % {"owner": names.get(o["owner"], "?"), "facing": facing}
        effect = OBJECT_EFFECTS["ramp"]
    elif kind == "mine":
        label = gettext("Mine buried by %(owner)s") % {"owner": names.get(o["owner"], "?")}
        effect = OBJECT_EFFECTS["mine"]
    elif kind in ("oil", "acid"):
        label = gettext("%(what)s placed by %(owner)s") % {
            "what": OBJECT_NAMES[kind],
            "owner": names.get(o["owner"], "?"),
        }
        effect = OBJECT_EFFECTS[kind]
    else:
        label, effect = object_label(kind, o["n"]), OBJECT_EFFECTS.get(kind, "")
    return f"{label} — {effect} ({cell_label(lane, row)})"


def _symbol_for(o: dict[str, Any], row: int, wall_row: int | None) -> str:
    if o.get("fortified"):
        return "fortified"
    if o["kind"] == "container" and wall_row is not None and row == wall_row and not o.get("tiles"):
        return "wall"
    return o["kind"]


def _objects_and_piles(
    board: dict[str, Any], wall_row: int | None, by_seat: dict[int, dict[str, Any]], names: dict[int, str]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], str, str]:
    """The objects and money piles on the bridge, and their SVG layers (the same for every viewer)."""
    objects, piles = [], []
    for c in board.get("cells") or ():
        lane, row = c["lane"], c["row"]
        x, y = cell_x(lane), cell_y(row)
        o = c["object"]
        if o is not None:
            sym = _symbol_for(o, row, wall_row)
            badge = ""
            if o["kind"] in ("caltrops", "roadblock", "police") and not o.get("fortified"):
                badge = f"×{o['n']}"
            owner = o.get("owner", -1)
            owner_paint = None
            if o["kind"] in ("ramp", "mine", "oil", "acid") and owner in by_seat:
                owner_paint = paint(by_seat[owner]["character"])
            objects.append(
                {
                    "x": x,
                    "y": y,
                    "lane": lane,
                    "row": row,
                    "symbol": sym,
                    "kind": o["kind"],
                    "n": o["n"],
                    "badge": badge,
                    "title": _object_title(o, lane, row, names, wall_row),
                    "flip": o["kind"] == "ramp" and o["n"] < 0,
                    "owner": owner + 1 if owner >= 0 and o["kind"] in ("ramp", "mine", "oil", "acid") else None,
                    "owner_fill": owner_paint[0] if owner_paint else None,
                }
            )
        if c["money"]:
            piles.append(
                {
                    "x": x,
                    "y": y,
                    "amount": c["money"],
                    "text": money(c["money"]),
                    "title": gettext("Money pile: %(amount)s (%(cell)s)")
                    % {"amount": money(c["money"]), "cell": cell_label(lane, row)},
                }
            )
    return objects, piles, SafeString(objects_svg(objects)), SafeString(piles_svg(piles))


# The objects and money piles on the bridge, drawn once for all viewers (R-89: the board is public)
# and again only when what they show changed (most moves move a car and nothing else): by the
# digest of what _objects_and_piles reads -> (objects, piles, their SVG).
_layers: BoundedCache[tuple[str, bytes], tuple[list[dict[str, Any]], list[dict[str, Any]], str, str]] = BoundedCache(
    256
)


def _layers_key(
    board: dict[str, Any], wall_row: int | None, by_seat: dict[int, dict[str, Any]], names: dict[int, str]
) -> tuple[str, bytes]:
    """What :func:`_objects_and_piles` reads: the cells' objects and money (not their cars), the
    wall, the cars' characters (an owner's colour), the seats' names, and the language."""
    cells = [
        (c["lane"], c["row"], c["object"], c["money"])
        for c in board.get("cells") or ()
        if c["object"] is not None or c["money"]
    ]
    characters = sorted((seat, p["character"]) for seat, p in by_seat.items())
    return current_language(), fragment_memo.digest((cells, wall_row, characters, sorted(names.items())))


# A state's model as every viewer without legal actions sees it, but for which car is theirs:
# match, seed, version, language and the seat names -> the spectator's model.
_public_models: BoundedCache[tuple[Any, ...], dict[str, Any]] = BoundedCache(256, revision_keyed=True)


def bridge_model(
    view: dict[str, Any], seat: Any, legal: Any, names: Any, state_key: tuple[Any, ...] | None = None
) -> dict[str, Any]:
    """Everything the board template draws (``board``, see :func:`board_context`), once per render.

    The board is public (R-89): a seat's view differs from a spectator's only by its own options
    (legal actions, placements). So the model is the spectator's, with the viewer's dashboard
    marked "yours", and, for the seat to act, its controls added. (The viewer's car is marked by
    the stylesheet, from the board's ``data-seat``: the cars' drawing is the same for every viewer.) ``state_key`` names
    the match state the view is of (match, seed, version): the spectator's model is then built
    once per state, language and seat names, for every viewer.
    """
    if state_key is None:
        public = _model(view, names, None)
    else:
        public = _public_models.get_or_build(_state_words_key(state_key, names), lambda: _model(view, names, state_key))
    if not isinstance(seat, int):
        return public
    seen = _seen_by(public, view, seat)
    if not legal:
        return seen
    with speaking(current_language()):
        return with_controls(seen, view, seat, list(legal), names)


def _state_words_key(state_key: tuple[Any, ...], names: Any) -> tuple[Any, ...]:
    """A match state as drawn in words: the state, the language and the seats' names."""
    return (*state_key, current_language(), tuple(sorted(dict(names or {}).items())))


def _seen_by(public: dict[str, Any], view: dict[str, Any], seat: int) -> dict[str, Any]:
    """The spectator's ``public`` model as ``seat`` sees it: its dashboard and, when no car acts,
    the focus on its car."""
    by_seat = {p["seat"]: p for p in view.get("players_info") or []}
    turn = view.get("turn")
    return {
        **public,
        "players": [{**p, "me": True} if p["seat"] == seat else p for p in public["players"]],
        "me": by_seat.get(seat),
        "focus": _focus(by_seat, turn["seat"] if turn else None, public["active"], seat),
    }


def _focus(by_seat: dict[int, dict[str, Any]], turn_seat: Any, active: Any, seat: Any) -> dict[str, int]:
    """The car to centre the scrolled bridge on: the one taking its turn, else the one acting,
    else the viewer's."""
    for s in (turn_seat, active, seat):
        p = by_seat.get(s) if isinstance(s, int) else None
        if p and p["status"] in ("board", "river"):
            lane, row = max(0, min(LANES - 1, p["lane"])), max(0, min(ROWS - 1, p["row"]))
            return {"x": cell_x(lane) + CELL // 2, "y": cell_y(row) + CELL // 2}
    return {"x": cell_x(2) + CELL // 2, "y": cell_y(3)}  # nobody on the bridge yet: the start area


def _model(view: dict[str, Any], names: Any, state_key: tuple[Any, ...] | None) -> dict[str, Any]:
    with speaking(current_language()):
        return _build_model(view, names, state_key)


# A dashboard's entry by its player's part of the view and the rest it reads (the language, the name,
# whether it acts, its places in the turn order and the finish, its dice pool, the mode): most of a
# move's five are those of the move before, and an entry kept is the same object in every viewer's
# model of every state it is drawn in (never changed once made: a viewer's own is a marked copy), so
# the dashboards' shared fragments find their inputs' digests by identity.
_dashboards: BoundedCache[tuple[str, bytes], dict[str, Any]] = BoundedCache(1024)


def _dashboard(
    p: dict[str, Any],
    name: str,
    acting: bool,
    turn_pos: int | None,
    pool: Any,
    finished_pos: int | None,
    closed_border: bool,
) -> dict[str, Any]:
    """The dashboard's entry of the player ``p`` (an entry of the view's ``players_info``)."""
    s = p["seat"]
    fill, ink, outline = paint(p["character"])
    speed = int(p["speed"])
    status_text = str(STATUS_NAMES.get(p["status"], p["status"]))
    if p["status"] == "finished" and p["place"]:
        status_text = gettext("crossed the finish, place %(n)s") % {"n": p["place"]}
    elif p["status"] == "exited" and p["place"]:
        status_text = gettext("left the bridge, place %(n)s") % {"n": p["place"]}
    elif p["status"] == "board":
        status_text = cell_label(p["lane"], p["row"])
    normal = -1 if p["leg"] == "RET" else 1
    return {
        "seat": s,
        "number": s + 1,
        "name": name,
        "me": False,
        "active": acting,
        "char": p["character"],
        "char_name": CHARACTER_NAMES.get(p["character"], p["character"] or "—"),
        "ability": CHARACTER_ABILITIES.get(p["character"], ""),
        "colour_name": CHARACTER_COLOUR_NAMES.get(p["character"], ""),
        "fill": fill,
        "ink": ink,
        "outline": outline,
        "speed": speed,
        "speed_steps": [{"v": v, "on": v <= speed and v > 0, "cur": v == speed} for v in SPEEDS],
        "free_tokens": p["free_tokens"],
        "pips": [i < p["durability"] for i in range(p["max_durability"])],
        "durability": p["durability"],
        "max_durability": p["max_durability"],
        "balance": p["balance"],
        "balance_text": money(p["balance"]),
        "debt": p["balance"] < 0,
        "tiles": [tile_info(t["id"], t["colour"]) for t in p["tiles"]],
        "active_tiles": [tile_info(t, "blue") for t in p["active_tiles"]],
        "ramp": p["ramp"],
        "ramp_text": RAMP_NAMES.get(p["ramp"], p["ramp"]),
        "status": p["status"],
        "status_text": status_text,
        "place": p["place"],
        "reversed": p["status"] == "board" and p["facing"] != normal,
        "leg": LEG_NAMES.get(p["leg"], p["leg"]) if closed_border else "",
        "resigned": p["resigned"],
        "turn_pos": turn_pos,
        "pool": pool,
        "finished_pos": finished_pos,
    }


def _build_model(view: dict[str, Any], names: Any, state_key: tuple[Any, ...] | None) -> dict[str, Any]:
    """The spectator's model: no car is "yours" and there are no controls (R-89: nothing else differs)."""
    names = dict(names or {})
    board = view.get("board") or {}
    wall_row = board.get("wall_row")
    turn = view.get("turn")
    active = view.get("active_seat")
    active = active if isinstance(active, int) and active >= 0 else None
    players_info = view.get("players_info") or []
    by_seat = {p["seat"]: p for p in players_info}
    turn_seat = turn["seat"] if turn else None

    objects, piles, svg_objects, svg_piles = _layers.get_or_build(
        _layers_key(board, wall_row, by_seat, names), lambda: _objects_and_piles(board, wall_row, by_seat, names)
    )

    cars, off_cars, svg_cars = _car_layers.get_or_build(
        _cars_key(players_info, names, active, turn_seat), lambda: _cars(players_info, names, active, turn_seat)
    )

    focus = _focus(by_seat, turn_seat, active, None)

    # dashboards
    players = []
    order = list(view.get("turn_order") or [])
    finish_order = list(view.get("finish_order") or [])
    closed_border = view.get("mode") == "closed_border"
    language = current_language()
    for p in players_info:
        s = p["seat"]
        situation = (
            names.get(s, str(s + 1)),
            s in (active, turn_seat),
            order.index(s) + 1 if s in order else None,
            turn["pool"] if turn and turn["seat"] == s and turn["stage"] in ("move", "after") else None,
            finish_order.index(s) + 1 if s in finish_order else None,
            closed_border,
        )
        key = (language, fragment_memo.digest((p, situation)))
        players.append(_dashboards.get_or_build(key, partial(_dashboard, p, *situation)))

    # turn order strip
    turn_idx = order.index(turn_seat) if turn_seat in order else -1
    order_strip = []
    for i, s in enumerate(order):
        p = by_seat.get(s)
        order_strip.append(
            {
                "seat": s,
                "number": s + 1,
                "name": names.get(s, str(s + 1)),
                "fill": paint(p["character"])[0] if p else NO_PAINT[0],
                "current": s == turn_seat,
                "done": view.get("phase") == "turn" and 0 <= i < turn_idx,
            }
        )

    # dice tray (public: the active player's dice)
    tray = []
    tp = by_seat.get(turn_seat) if turn_seat is not None else None
    if tp:
        for d in tp["dice"]:
            tray.append(
                {
                    **d,
                    "number": d["index"] + 1,
                    "name": FACE_NAMES.get(d["face"], d["face"]),
                    "hint": FACE_HINTS.get(d["face"], ""),
                    "state_name": DIE_STATE_NAMES.get(d["state"], ""),
                }
            )

    # shop, adventure row, piles
    shop = _shops.get_or_build(
        (current_language(), fragment_memo.digest(view.get("shop"))), lambda: shop_slots(view, set(), None)
    )
    face_up_tiles = [
        {
            "id": t["id"],
            "kind": t["kind"],
            "n": t["n"],
            "label": adventure_name(t["id"]),
            "effect": OBJECT_EFFECTS.get(t["kind"], ""),
        }
        for t in view.get("face_up") or ()
    ]
    end_steps = list(view.get("end_steps") or ())
    all_steps = ["police", "crane", "shop", "next"]
    end_strip = []
    if view.get("phase") == "round_end":
        pending = set(end_steps)
        current = end_steps[0] if end_steps else None
        for s in all_steps:
            end_strip.append(
                {"name": END_STEP_NAMES[s], "current": s == current, "done": s not in pending, "skipped": False}
            )

    prompt = view.get("prompt")
    prompt_seat = prompt["seat"] if prompt else None
    model = {
        "svg_objects": svg_objects,
        "svg_cars": svg_cars,
        "public_players": players,  # kept by every viewer's model: its own entry is one of them marked
        "svg_piles": svg_piles,
        "svg_targets": SafeString(targets_svg([])),
        "width": WIDTH,
        "height": HEIGHT,
        "cell": CELL,
        "half": CELL // 2,
        "objects": objects,
        "piles": piles,
        "cars": cars,
        "off_cars": off_cars,
        "targets": [],
        "focus": focus,
        "players": players,
        "order": order_strip,
        "tray": tray,
        "act": {**NO_CONTROLS, "any": False},
        "me": None,
        "my_turn": False,
        "active": active,
        "active_name": names.get(active, "") if active is not None else "",
        "turn_seat": turn_seat,
        "turn_name": names.get(turn_seat, "") if turn_seat is not None else "",
        "turn_char": CHARACTER_NAMES.get(tp["character"], "") if tp else "",
        "stage": STAGE_NAMES.get(turn["stage"], turn["stage"]) if turn else "",
        "shop": shop,
        "face_up": face_up_tiles,
        "end_strip": end_strip,
        "finish": [
            {"number": s + 1, "name": names.get(s, str(s + 1)), "place": i + 1} for i, s in enumerate(finish_order)
        ],
        "arrested": [{"number": s + 1, "name": names.get(s, str(s + 1))} for s in view.get("arrest_order") or ()],
        "end_reason": END_REASON_NAMES.get(view.get("end_reason") or "", view.get("end_reason") or ""),
        "phase": PHASE_NAMES.get(view.get("phase", ""), view.get("phase", "")),
        "mode": MODE_NAMES.get(view.get("mode", ""), view.get("mode", "")),
        "prompt_name": names.get(prompt_seat, "") if prompt_seat is not None else "",
        "prompt_question": PROMPT_NAMES.get(prompt["kind"], "") if prompt else "",
        "adventure_discard": [adventure_name(t) for t in view.get("adventure_discard") or ()],
        "bonus_discard": [BONUS_NAMES.get(t, t) for t in view.get("bonus_discard") or ()],
    }
    # What the status line draws of the model, digested once per state for every viewer: no viewer's
    # model changes these (``_seen_by`` and ``with_controls`` add only what is the viewer's own).
    model["status_digest"] = fragment_memo.digest(tuple(model[key] for key in STATUS_MODEL_KEYS))
    return model


# The shop as every viewer without a purchase to make sees it, by what it offers: it changes when a
# tile is bought or the shop refreshes, not with most moves.
_shops: BoundedCache[tuple[str, bytes], list[dict[str, Any]]] = BoundedCache(256)

# The cars' entries and their drawing by what they show (R-89: public): a roll, a die's resolution or
# a purchase leaves them as they were, and a kept drawing is the same string for the shared fragment.
_car_layers: BoundedCache[tuple[Any, ...], tuple[list[dict[str, Any]], list[dict[str, Any]], str]] = BoundedCache(256)


def _cars_key(
    players_info: list[dict[str, Any]], names: dict[int, str], active: int | None, turn_seat: int | None
) -> tuple[Any, ...]:
    """What :func:`_cars` reads: each car's place and looks, the seats' names, who acts, the language."""
    cars = tuple(
        (p["seat"], p["status"], p["character"], p["speed"], p["facing"], p["lane"], p["row"]) for p in players_info
    )
    return (current_language(), cars, tuple(sorted(names.items())), active, turn_seat)


def _cars(
    players_info: list[dict[str, Any]], names: dict[int, str], active: int | None, turn_seat: int | None
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], str]:
    """The cars on the bridge and those off it (in the river, past the ends), and their SVG."""
    cars, off_cars = [], []
    finish_slot = exit_slot = 0
    for p in players_info:
        if p["status"] == "none":
            continue
        fill, ink, outline = paint(p["character"])
        name = names.get(p["seat"], str(p["seat"] + 1))
        common = {
            "seat": p["seat"],
            "label": p["seat"] + 1,
            "fill": fill,
            "ink": ink,
            "outline": outline,
            "speed": p["speed"],
            "facing": p["facing"],
            "char": p["character"],
            "active": p["seat"] == active or p["seat"] == turn_seat,
        }
        if p["status"] == "board":
            title = gettext("Car %(n)s: %(name)s (%(char)s), %(speed)s mph, %(facing)s, %(cell)s") % {
                "n": p["seat"] + 1,
                "name": name,
                "char": CHARACTER_NAMES.get(p["character"], p["character"]),
                "speed": p["speed"],
                "cell": cell_label(p["lane"], p["row"]),
                "facing": gettext("facing the finish") if p["facing"] > 0 else gettext("facing the start"),
            }
            cars.append(
                {
                    **common,
                    "x": cell_x(p["lane"]),
                    "y": cell_y(p["row"]),
                    "lane": p["lane"],
                    "row": p["row"],
                    "title": title,
                }
            )
        else:
            status = STATUS_NAMES.get(p["status"], p["status"])
            title = gettext("Car %(n)s: %(name)s — %(status)s") % {"n": p["seat"] + 1, "name": name, "status": status}
            if p["status"] == "river":
                west = p["lane"] <= 1 or (p["lane"] == 2 and p["seat"] % 2 == 0)
                x = 1 if west else WIDTH - WATER + 1
                y = cell_y(max(0, min(ROWS - 1, p["row"]))) + 4
            elif p["status"] == "exited":
                x, y = WATER + 4 + 40 * exit_slot, cell_y(0) + CELL + 1
                exit_slot += 1
            else:  # finished or arrested: beyond the far end
                x, y = WATER + 4 + 40 * finish_slot, 2
                finish_slot += 1
            off_cars.append({**common, "x": x, "y": y, "title": title, "status": p["status"]})
    return cars, off_cars, SafeString("".join(car_svg(c) for c in cars) + "".join(off_car_svg(c) for c in off_cars))


# The status line's parts of the model (``panels.status_line``, games.boards.bridge_race._status_inputs).
STATUS_MODEL_KEYS = (
    "active_name",
    "arrested",
    "end_reason",
    "end_strip",
    "finish",
    "mode",
    "order",
    "phase",
    "prompt_name",
    "prompt_question",
    "stage",
    "turn_char",
    "turn_name",
)


def board_context(inputs: BoardInputs) -> dict[str, Any]:
    """The board's model for this seat (:func:`bridge_model`), with the end chart once finished."""
    model = bridge_model(inputs.view, inputs.seat, inputs.legal, inputs.names, inputs.state_key)
    return {**model, "chart": chart(inputs.view, inputs.names)} if inputs.finished else model
