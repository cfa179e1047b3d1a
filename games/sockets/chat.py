"""A chat line sent over a match socket (``{"type": "chat", "to", "text"}``): read as the chat form
reads it and posted through the same service."""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.utils import translation
from django.utils.translation import gettext_noop

from games.play import payloads, services
from games.push.speaking import speaking

UNREADABLE = gettext_noop("That message could not be read.")
SPECTATORS_CANNOT_CHAT = gettext_noop("Spectators cannot chat.")


async def take(match_id: int, seat: int | None, user_id: int, language: str, content: dict[str, Any]) -> str | None:
    """Post the chat line of ``content`` for ``seat``; the refusal to send back, in ``language``, if any."""
    return await database_sync_to_async(_take)(match_id, seat, user_id, language, content)


def _take(match_id: int, seat: int | None, user_id: int, language: str, content: dict[str, Any]) -> str | None:
    with speaking(language):
        if seat is None:
            return translation.gettext(SPECTATORS_CANNOT_CHAT)
        to_raw, text = content.get("to"), content.get("text", "")
        to_seat = None if to_raw in (None, "") else payloads.small_number(to_raw, None)
        try:
            if (to_raw not in (None, "") and to_seat is None) or not isinstance(text, str):
                # As the form: a private message to nobody is refused, never posted to everyone.
                raise services.ServiceError(translation.gettext("Choose another player for a private message."))
            payloads.clean_text(text, 2000)
            if not get_user_model().objects.filter(pk=user_id, is_active=True).exists():
                raise services.NotAllowed(translation.gettext("Your account cannot act any more."))
            services.do_post_chat(match_id, seat, text, to_seat)
        except payloads.BadPayload:
            return translation.gettext(UNREADABLE)
        except services.ServiceError as exc:
            return exc.message
    return None
