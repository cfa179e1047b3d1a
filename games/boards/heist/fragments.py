"""What each fragment of heist's board reads (:mod:`games.push.fragment_memo`): a panel is rendered
again only when it changed; and what its board reads around them (:mod:`games.push.shell_memo`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.boards.contract import FragmentInputs
from games.boards.heist.context import NOT_IN_ACTIONS, OFFER_ANSWERS
from games.boards.lookups import get


def _hands(view: Mapping[str, Any], seat: Any) -> list[Any]:
    return [h for h in view.get("hands") or () if h.get("seat") == seat]


def _status_inputs(context: Any, key: Any) -> object:
    view = context["view"]
    return tuple(view.get(k) for k in ("heist", "max_heists", "phase", "deck_count", "target", "variants", "loot"))


def _seat_inputs(context: Any, key: Any) -> object:
    view = context["view"]
    return (
        key,
        (context.get("names") or {}).get(key),  # the seat's display_name, as read once for every seat
        view.get("boss_seat") == key,
        get(view.get("resigned"), key),
        get(view.get("balances"), key),
        get(view.get("threats"), key),
        view.get("phase"),
        get(view.get("chosen"), key),
        _hands(view, key),
        view.get("heist"),
        view.get("hands_per_player"),
        bool(view.get("previous_roles")),
        get(view.get("previous_roles"), key),
    )


def _result_inputs(context: Any, key: Any) -> object:
    board = context.get("board") or {}
    return board.get("result"), context["view"].get("hands_per_player")


def _me_inputs(context: Any, key: Any) -> object:
    # What the panel reads, and no more: the whole "me" and every field of my hands changed more
    # often than the panel (about half of its renders gave the HTML it already had).
    view, seat = context["view"], context.get("seat")
    me = view.get("me")
    board = context.get("board") or {}
    two_hands = view.get("hands_per_player") == 2
    looks = me.get("looks") if me else None
    return (
        seat,
        None if me is None else (bool(me), me.get("roles"), me.get("timed_out"), looks),
        board.get("notices"),
        two_hands,
        [(h.get("slot"), h.get("role"), h.get("status")) for h in _hands(view, seat)] if two_hands else None,
        context.get("names") if looks else None,
    )


def _actions_inputs(context: Any, key: Any) -> object:
    view = context["view"]
    legal = context.get("legal") or ()
    return (
        context.get("seat"),
        [a for a in legal if a.get("type") not in NOT_IN_ACTIONS],
        (view.get("me") or {}).get("allowed_roles"),
        view.get("hands_per_player"),
        context.get("names"),  # the seats named by a look or a prompt
        context.get("action_url"),
    )


def _offer_form_inputs(context: Any, key: Any) -> object:
    return (
        context.get("seat"),
        any(a.get("type") == "offer" for a in context.get("legal") or ()),
        context["view"].get("hands_per_player"),
        context.get("names"),  # every seat's number and display_name
        context.get("action_url"),
    )


def _offers_inputs(context: Any, key: Any) -> object:
    answers = [a for a in context.get("legal") or () if a.get("type") in OFFER_ANSWERS]
    return context["view"].get("offers"), answers, context.get("names"), context.get("action_url")


FRAGMENT_INPUTS: dict[str, FragmentInputs] = {
    "heist-status": _status_inputs,
    "heist-seat": _seat_inputs,
    "heist-pool": lambda context, key: context["view"].get("pool"),
    "heist-result": _result_inputs,
    "heist-me": _me_inputs,
    "heist-actions": _actions_inputs,
    "heist-offer-form": _offer_form_inputs,
    "heist-offers": _offers_inputs,
    "heist-final": lambda context, key: context["view"].get("final"),
}


def _shell_inputs(context: Any) -> object:
    """``board.html`` outside its fragments: the seat it is drawn for and a panel per seat."""
    return context.get("seat"), [s.number for s in context.get("seats") or ()]


SHELL_INPUTS = _shell_inputs
