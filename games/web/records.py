"""What the pages of players' records share: where a match's replay is, and a seat's result in words.

``replay_url`` is the one place that says where a finished match is replayed (its replay page).
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.models import Match


def replay_url(match_id: int) -> str:
    """Where a finished match is watched again."""
    return reverse("match_replay", args=[match_id])


def player_url(username: str) -> str:
    return reverse("player", args=[username])


def result_text(status: str, outcome: dict[str, Any] | None, seat: int, waiting: bool) -> str:
    """A seat's result as players read it: "Won", "2nd of 4", "Your turn", "Aborted"…"""
    if status == Match.Status.FINISHED and outcome:
        if seat in outcome.get("winners", []):
            return pgettext("player records", "Won")
        ranks = outcome.get("ranks", [])
        if seat < len(ranks):
            return _("Place %(rank)s of %(players)s") % {"rank": ranks[seat], "players": len(ranks)}
        return _("Finished")
    if status == Match.Status.ACTIVE:
        return _("Your turn") if waiting else _("In progress")
    if status == Match.Status.LOBBY:
        return _("Waiting for players")
    return _("Aborted")


def won(outcome: dict[str, Any] | None, seat: int) -> bool:
    return bool(outcome) and seat in (outcome or {}).get("winners", [])
