"""bridge_race's board fragments: what each one reads (:mod:`games.fragment_memo`).

The board's model (``br``) is built by the ``bridge_model`` tag in ``games/bridge_race/board.html``
(the board predates the board modules); a fragment is rendered again only when the parts of ``br``
and of the view that it draws changed for its viewer. After a move most of the five dashboards,
the shop and the other seats' action panels are unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from . import FragmentInputs


def _picked(mapping: Mapping[str, Any] | None, keys: Iterable[str]) -> tuple[Any, ...]:
    mapping = mapping or {}
    return tuple(mapping.get(key) for key in keys)


def _dashboard_inputs(context: Any, key: Any) -> object:
    """``_players.html``: a dashboard draws its player's entry of ``br.players`` and nothing else."""
    players = (context.get("br") or {}).get("players") or ()
    return next((p for p in players if p.get("seat") == key), None)


def _status_inputs(context: Any, key: Any) -> object:
    """``_status.html``."""
    return (
        context.get("seat"),
        _picked(context["view"], ("round", "phase", "turn", "prompt", "active_seat")),
        _picked(
            context.get("br"),
            (
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
            ),
        ),
    )


def _shop_inputs(context: Any, key: Any) -> object:
    """``_shop.html`` (its buy buttons are action forms: the action address too)."""
    return (
        context.get("seat"),
        _picked(
            context["view"], ("adventure_discard", "adventure_pile_size", "bonus_discard", "bonus_pile_size", "mode")
        ),
        _picked(context["view"].get("turn"), ("bought", "seat")),
        _picked(context.get("br"), ("adventure_discard", "bonus_discard", "face_up", "shop")),
        context.get("action_url"),
    )


def _act_inputs(context: Any, key: Any) -> object:
    """The action panel: ``_actions.html`` on the viewer's turn, else the dice tray (``_dice.html``)."""
    return (
        context.get("seat"),
        _picked(context["view"].get("turn"), ("seat", "pool", "steps_left")),
        _picked(context.get("br"), ("my_turn", "act", "tray", "turn_name")),
        context.get("action_url"),
    )


FRAGMENT_INPUTS: dict[str, FragmentInputs] = {
    "br-dash": _dashboard_inputs,
    "br-status": _status_inputs,
    "br-shop": _shop_inputs,
    "br-act": _act_inputs,
}
