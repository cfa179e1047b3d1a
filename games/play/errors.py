"""A refused request, as the write path answers it: a message for the user and an HTTP status.

Engine refusals (:class:`games.engines.base.EngineError`) become :class:`ServiceError` here:
a malformed action is a 400, an illegal one a 422 with the engine's params for its sender.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.engines.base import EngineError, InvalidAction
from games.models import Match


class ServiceError(Exception):
    """A refused request: ``status`` is the HTTP status, ``message`` is shown to the user."""

    status = 400

    def __init__(self, message: str, status: int | None = None, detail: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.detail = detail or {}  # an engine refusal's params (e.g. a reason code), for the sender only
        if status is not None:
            self.status = status


class StaleVersion(ServiceError):
    status = 409
    revision: int | None = None  # the match's revision when it was refused: a board the sender lacks


class NotAllowed(ServiceError):
    status = 403


def engine_message(exc: EngineError) -> str:
    """Translate an engine error (English msgid with %(name)s params)."""
    text = _(exc.message)
    return text % exc.params if exc.params else text


def refusal(exc: EngineError) -> ServiceError:
    """The answer to an action the engine refused."""
    if isinstance(exc, InvalidAction):
        return ServiceError(engine_message(exc), status=400)
    return ServiceError(engine_message(exc), status=422, detail=exc.params)


def stale(match: Match) -> StaleVersion:
    """The answer to an action sent from a board older than ``match``'s version."""
    answer = StaleVersion(_("The board changed before your action arrived; here is the current board."))
    answer.revision = match.revision
    return answer


def not_running() -> ServiceError:
    return ServiceError(_("This match is not in progress."), status=409)
