import functools
import logging
from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_out
from django.db import transaction
from django.db.models import F
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from games.models import ChatMessage, Match, Profile, PushSubscription

log = logging.getLogger(__name__)


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def create_profile(sender: type, instance: Any, created: bool, **kwargs: Any) -> None:
    if created:
        Profile.objects.get_or_create(user=instance)


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def close_sockets_of_deactivated_users(sender: type, instance: Any, created: bool, **kwargs: Any) -> None:
    """A deactivated user's open sockets close at once, on every daphne (their consumers check too)."""
    if not created and not instance.is_active:
        close_sockets_after_commit([instance.pk])


def close_sockets_after_commit(user_ids: list[int]) -> None:
    """Once the transaction deactivating these users commits, close all their sockets everywhere.

    A bulk ``update()`` sends no post_save: whatever deactivates users that way calls this itself.
    """
    for user_id in user_ids:
        transaction.on_commit(functools.partial(_revoke, user_id, None))


@receiver(post_delete, sender=ChatMessage)
def bump_chat_version_of_a_deleted_message(sender: type, instance: ChatMessage, **kwargs: Any) -> None:
    """A message deleted in the admin leaves the chat of every process: the kept chat rows are
    keyed by the match's chat version (games.push.presenter.chat_rows)."""
    Match.objects.filter(pk=instance.match_id).update(chat_version=F("chat_version") + 1)


@receiver(user_logged_out)
def close_sockets_of_the_logged_out_session(sender: type, request: Any, user: Any, **kwargs: Any) -> None:
    """Logging out closes the sockets opened with that session (other sessions keep theirs)."""
    session = getattr(getattr(request, "session", None), "session_key", None)
    if user is not None and session:
        _revoke(user.pk, session)


@receiver(user_logged_out)
def forget_the_logged_out_browsers_pushes(sender: type, request: Any, user: Any, **kwargs: Any) -> None:
    """Logging out turns off the notifications this browser had for that player (the subscription
    its session saved), so that the next person on a shared device does not get them."""
    from games.notify.webpush import SESSION_KEY

    session = getattr(request, "session", None)
    endpoint = session.get(SESSION_KEY) if session is not None else None
    if user is not None and endpoint:
        PushSubscription.objects.filter(user_id=user.pk, endpoint=endpoint).delete()


def _revoke(user_id: int, session: str | None) -> None:
    from games.push import pushes
    from games.sockets.base_consumer import user_group

    try:
        pushes.send(user_group(user_id), {"type": "user.revoked", "session": session})
    except Exception:  # the sockets' own checks still refuse anything the user sends
        log.exception("could not close the sockets of user %s", user_id)
