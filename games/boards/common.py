"""The inputs of the match page's own fragments (``templates/games/match.html``), for every game."""

from __future__ import annotations

from typing import Any

from . import FragmentInputs


def _turn(context: Any, key: Any) -> object:
    return context.get("seat"), context["match"].status, context.get("waiting_on_me")


def _status(context: Any, key: Any) -> object:
    # The final standings and who is waited for (read from the spectator's context: a shared fragment).
    return context.get("standings"), context.get("deadlines"), context.get("live"), context.get("names")


def _after(context: Any, key: Any) -> object:
    match = context["match"]
    return context.get("seat") is None, match.status, match.rematch_id


def _resign(context: Any, key: Any) -> object:
    return context.get("seat"), context["match"].status, context.get("resign_url")


FRAGMENT_INPUTS: dict[str, FragmentInputs] = {
    "turn": _turn,
    "match-status": _status,
    "match-after": _after,
    "resign": _resign,
}
