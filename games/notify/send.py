"""The one way anything reaches a player away from the match page: ``notify(user, kind, match, **context)``."""

from __future__ import annotations

from typing import Any

from games.models import Match
from games.notify import emails, preferences
from games.notify.away import is_away
from games.play import clock


def notify(user: Any, kind: str, match: Match | None = None, **context: Any) -> bool:
    """Send ``user`` the e-mail of ``kind`` (``preferences.KINDS``) if they want it; whether it went.

    Nothing goes to an inactive account, an account with no address, a player who turned the kind
    off, or (for what waits on them) a player who is away. ``context`` is the kind's template's:
    ``seat`` and ``time_left`` for a turn or low time, ``host`` for an invitation, ``waiting`` and
    ``now`` for a digest.
    """
    if kind not in preferences.KINDS:
        raise ValueError(f"unknown kind of e-mail: {kind!r}")
    profile = getattr(user, "profile", None)
    if not user.is_active or not user.email or profile is None or not preferences.wants(profile, kind):
        return False
    if kind in preferences.ABOUT_WAITING and is_away(user, clock.now_datetime()):
        return False
    emails.send(user, kind, match, **context)
    return True
