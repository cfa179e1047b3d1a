"""What each fragment of bridge_race's board reads (:mod:`games.push.fragment_memo`) and what its
shell reads (:mod:`games.push.shell_memo`).

A fragment is rendered again only when the parts of the board model (:func:`.context.bridge_model`)
and of the view that it draws changed for its viewer. After a move most of the five dashboards, the
shop and the other seats' action panels are unchanged. The board is public (R-89): the bridge's
layers and the dashboards are shared fragments, drawn once per move for every viewer, and the
viewer's own car and dashboard are marked outside them (the stylesheet, the shell). The other
fragments are kept once per set of inputs for all viewers (:func:`games.push.fragment_memo.rendered`, under
a key that names no viewer), so their inputs name what they show of the viewer, and nothing more.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from games.boards.contract import FragmentInputs
from games.push import fragment_memo


def _picked(mapping: Mapping[str, Any] | None, keys: Iterable[str]) -> tuple[Any, ...]:
    mapping = mapping or {}
    return tuple(mapping.get(key) for key in keys)


def _model_parts(board: Mapping[str, Any] | None, keys: Iterable[str]) -> tuple[Any, ...]:
    """``_picked`` of the board model (or of the view), each list or dict given by its digest taken
    once per object (:func:`fragment_memo.kept_digest`).

    The model's parts are made once and never changed: the spectator's are shared by every viewer of
    a state (``context.bridge_model``), so the five seats' inputs digest the shop once, not five
    times; pickling those lists and dicts was most of a shop's or status line's reuse. So are the
    view's: the spectator's view is built once per state and an acting seat's is a copy of it with
    its options added (``presenter._view_for``, R-89)."""
    board = board or {}
    kept_digest = fragment_memo.kept_digest
    return tuple([kept_digest(v) if isinstance(v, list | dict) else v for v in [board.get(key) for key in keys]])


def _dashboard_inputs(context: Any, key: Any) -> object:
    """``_players.html``: a dashboard draws its player's entry of ``br.players`` and nothing else.

    It is the same for every viewer (the viewer's own is marked "yours" around it, in the board's
    shell): a shared fragment, rendered from the spectator's model, and again only when its entry
    changed."""
    board = context.get("board") or {}
    entries = board.get("public_players") or board.get("players") or ()
    entry = next((p for p in entries if p.get("seat") == key), None)
    return None if entry is None else fragment_memo.kept_digest(entry)


def _viewer_acts(context: Any) -> tuple[bool, bool]:
    """All that the status line, the shop and the dice tray read of their viewer: whether it is the
    seat taking its turn or the one acting (so that the seats that are neither share them)."""
    view, seat = context["view"], context.get("seat")
    return seat is not None and (view.get("turn") or {}).get("seat") == seat, view.get("active_seat") == seat


def _status_inputs(context: Any, key: Any) -> object:
    """The status line (``panels.status_line``): its parts of the model are digested once per state
    (``context.STATUS_MODEL_KEYS``), those of the view once per view object."""
    return (
        _viewer_acts(context),
        _model_parts(context["view"], ("round", "phase", "turn", "prompt", "active_seat")),
        (context.get("board") or {}).get("status_digest"),
    )


def _shop_inputs(context: Any, key: Any) -> object:
    """The shop (``panels.shop_panel``; its buy buttons are action forms: the action address too)."""
    return (
        _viewer_acts(context),
        _picked(
            context["view"], ("adventure_discard", "adventure_pile_size", "bonus_discard", "bonus_pile_size", "mode")
        ),
        _picked(context["view"].get("turn"), ("bought", "seat")),
        _model_parts(context.get("board"), ("adventure_discard", "bonus_discard", "face_up", "shop")),
        context.get("action_url"),
    )


def _act_inputs(context: Any, key: Any) -> object:
    """The action panel (``panels.action_panel``): the controls on the viewer's turn, else the dice tray."""
    return (
        _viewer_acts(context),
        _picked(context["view"].get("turn"), ("seat", "pool", "steps_left")),
        _model_parts(context.get("board"), ("my_turn", "act", "tray", "turn_name")),
        context.get("action_url"),
    )


def _backdrop_inputs(context: Any, key: Any) -> object:
    """The bridge itself (``bridge_backdrop``): the mode, the number of cars, the forced zone and the wall."""
    view = context["view"]
    board = view.get("board") or {}
    return view.get("mode"), view.get("players"), board.get("forced_zone"), board.get("wall_row")


def _targets_inputs(context: Any, key: Any) -> object:
    """The clickable cells: their drawing and the form armed, when there are any."""
    board = context.get("board") or {}
    if not board.get("targets"):
        return None
    return board.get("svg_targets"), (board.get("act") or {}).get("armed")


def _objects_inputs(context: Any, key: Any) -> object:
    """The objects' layer: its drawing, kept while the objects stay as they were (``context._layers``)."""
    return fragment_memo.kept_digest((context.get("board") or {}).get("svg_objects"))


def _piles_inputs(context: Any, key: Any) -> object:
    """The money piles' layer: its drawing, kept like the objects'."""
    return fragment_memo.kept_digest((context.get("board") or {}).get("svg_piles"))


def _focus_inputs(context: Any, key: Any) -> object:
    """The point the scrolled bridge centres on."""
    return (context.get("board") or {}).get("focus")


FRAGMENT_INPUTS: dict[str, FragmentInputs] = {
    "br-backdrop": _backdrop_inputs,
    "br-objects": _objects_inputs,
    "br-piles": _piles_inputs,
    "br-targets": _targets_inputs,
    "br-focus": _focus_inputs,
    "br-dash": _dashboard_inputs,
    "br-status": _status_inputs,
    "br-shop": _shop_inputs,
    "br-act": _act_inputs,
}


def _shell_inputs(context: Any) -> object:
    """``board.html`` and ``_players.html`` outside their fragments: the seat, a dashboard per player."""
    return context.get("seat"), [p["seat"] for p in (context.get("board") or {}).get("players") or ()]


SHELL_INPUTS = _shell_inputs
