"""What a committed change sets going besides its pushes (``games.push.pushes.publish_after_commit``):
a live match's next timer, the server's own moves, rematch invitations.

The background work (Celery tasks, live timers: :mod:`games.background`) itself runs the write
path, so the write path does not import it: it asks for that work through :class:`Background`,
which the background connects when the app is ready (:mod:`games.background.followups`). The
dependency runs one way, background -> play.
"""

from __future__ import annotations

from typing import Any, Protocol

from django.db import transaction

from games.engines.base import Rules
from games.models import Match
from games.play.decision import next_wake


class Background(Protocol):
    """The work the write path hands to the background."""

    def advance(self, match_id: int, version: int) -> None:
        """Make the match's automatic moves (SYSTEM steps, bots, due time-outs), if still at ``version``."""

    def wake(self, match_id: int, due: float | None) -> None:
        """Advance a live match at ``due`` (epoch seconds), on time; ``None``: nothing is due."""

    def invite_to_rematch(self, match_id: int, user_ids: list[int]) -> None:
        """E-mail the rematch's link to these players."""


class _NotConnected:
    def _missing(self, *args: Any) -> None:
        raise RuntimeError("games.play.followups: no background connected (GamesConfig.ready connects it)")

    advance = wake = invite_to_rematch = _missing


background: Background = _NotConnected()


def connect(worker: Background) -> None:
    """Hand the write path's follow-up work to ``worker`` (done once, when the app is ready)."""
    global background
    background = worker


def advance_after_commit(match_id: int, version: int) -> None:
    """Once committed, make the automatic moves due after ``version``."""
    transaction.on_commit(lambda: background.advance(match_id, version))


def arm_live_after_commit(match: Match, rules: Rules[Any], state: Any) -> None:
    """A live game's next due time fires on time (:mod:`games.background.livetimers`)."""
    if rules.live:
        wake = next_wake(match, rules, state)
        transaction.on_commit(lambda: background.wake(match.pk, wake))


def invite_after_commit(match_id: int, user_ids: list[int]) -> None:
    """Once committed, send the rematch's invitations."""
    transaction.on_commit(lambda: background.invite_to_rematch(match_id, user_ids))
