"""The background's side of the write path's follow-ups (:mod:`games.play.followups`).

Automatic moves and rematch invitations (e-mail, and browser pushes when on) go to Celery; a live
match's next due time to this process's timers. :func:`connect` runs when the app is ready (``GamesConfig.ready``).
"""

from __future__ import annotations

from games.background import livetimers, tasks
from games.notify import webpush
from games.play import followups


class CeleryAndTimers:
    """:class:`games.play.followups.Background` as this deployment does it."""

    def advance(self, match_id: int, version: int) -> None:
        tasks.advance_match.delay(match_id, version)

    def wake(self, match_id: int, due: float | None) -> None:
        livetimers.arm(match_id, due)

    def invite_to_rematch(self, match_id: int, user_ids: list[int]) -> None:
        tasks.send_rematch_invites.delay(match_id, user_ids)
        if webpush.enabled():
            tasks.push_rematch_invites.delay(match_id, user_ids)


def connect() -> None:
    followups.connect(CeleryAndTimers())
