"""What a rematch's invitations mean for its pages (issue 54, item 9): read only.

A rematch (:func:`games.play.services.do_rematch`) seats its host and invites the other former
players; each accepts or declines (:func:`games.play.services.do_answer_rematch`). The host may start
once the table is full, or, with nobody's answer awaited, with at least the game's minimum.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.models import Match, RematchInvite, Seat
from games.play.store import rules_for


def start_refusal(match: Match, seated: int, statuses: list[str]) -> str | None:
    """Why the host may not start ``match`` with ``seated`` of its seats taken, its invitations'
    ``statuses`` being these (``None``: the host may). Only a rematch may start short."""
    if seated >= match.seat_count:
        return None
    if not statuses:
        return _("Every seat must be filled before the match can start.")
    if RematchInvite.Status.PENDING in statuses:
        return _("Wait until every invited player has answered.")
    needed = rules_for(match).min_players
    if seated < needed:
        return _("This game needs at least %(min)s players: fill a seat with a bot or invite someone.") % {
            "min": needed
        }
    return None


def lobby_context(match: Match, user: Any, seats: list[Seat]) -> dict[str, Any]:
    """A lobby's invitations: the list the host sees, the viewer's own, the seats still open to
    anyone (those kept for an awaited answer are not) and whether the host may start."""
    invites = list(match.invites.select_related("user__profile")) if match.pk else []
    statuses = [invite.status for invite in invites]
    pending = statuses.count(RematchInvite.Status.PENDING)
    user_id = getattr(user, "pk", None) if user is not None and user.is_authenticated else None
    return {
        "invites": invites,
        "my_invite": next((invite for invite in invites if invite.user_id == user_id), None),
        "open_seats": max(0, match.seat_count - len(seats) - pending),
        "can_start": start_refusal(match, len(seats), statuses) is None,
    }


def answer_of(match: Match, user: Any) -> str | None:
    """What the old match's page offers ``user`` (one of its players) about its rematch: "seated"
    (a link to it), "invited" (accept or decline), "declined", "open" (a link: not invited, say a
    player who left its lobby), or ``None``: no rematch (or a cancelled one), so "Rematch"."""
    if not match.rematch_id or user is None or not user.is_authenticated:
        return None
    status = Match.objects.filter(pk=match.rematch_id).values_list("status", flat=True).first()
    if status is None or status == Match.Status.ABORTED:
        return None
    if Seat.objects.filter(match_id=match.rematch_id, user_id=user.pk).exists():
        return "seated"
    answer = RematchInvite.objects.filter(match_id=match.rematch_id, user_id=user.pk).values_list("status", flat=True)
    found = answer.first()
    if found == RematchInvite.Status.PENDING and status == Match.Status.LOBBY:
        return "invited"
    if found == RematchInvite.Status.DECLINED:
        return "declined"
    return "open"
