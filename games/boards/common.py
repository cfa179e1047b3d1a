"""The inputs of the match page's own fragments (``templates/games/match.html``), for every game."""

from __future__ import annotations

from typing import Any

from . import FragmentInputs


def _turn(context: Any, key: Any) -> object:
    return context.get("seat"), context["match"].status, context.get("waiting_on_me")


def _standings(context: Any, key: Any) -> object:
    return context.get("standings")


def _deadlines(context: Any, key: Any) -> object:
    return context.get("deadlines"), context.get("live"), context.get("names")


def _resign(context: Any, key: Any) -> object:
    return context.get("seat"), context["match"].status, context.get("resign_url")


FRAGMENT_INPUTS: dict[str, FragmentInputs] = {
    "turn": _turn,
    "match-status": _standings,
    "match-status-deadlines": _deadlines,
    "resign": _resign,
}
