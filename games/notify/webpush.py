"""Browser push notifications (Web Push with VAPID) to every device where a player turned them on.

A browser that subscribes (the profile page, :mod:`games.web.push_views`) gives an endpoint at its
push service and the keys to encrypt for it; :func:`send_push` encrypts a small JSON message (title,
body, the match's address, in the player's language) for each of the player's subscriptions and
posts it there, signed with the site's VAPID key. The browser's service worker (``static/sw.js``)
shows it even when no Hideout page is open. A subscription the push service answers is gone (404,
410) is deleted.

Sending waits on the network, so it runs in Celery tasks only (:mod:`games.background.tasks`),
never in a request. Without both VAPID keys in the settings nothing is sent and the profile hides
the option.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
from email.utils import parseaddr
from functools import cache
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from py_vapid import Vapid
from pywebpush import WebPushException, webpush

from games.models import Match, PushSubscription
from games.push.speaking import speaking

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

log = logging.getLogger(__name__)

Kind = Literal["turn", "low_time", "invitation"]
KINDS: tuple[Kind, ...] = ("turn", "low_time", "invitation")
# The session's note of the subscription its browser saved: logging out of that session deletes it
# (games.signals), so the next person on a shared device does not get the previous player's pushes.
SESSION_KEY = "webpush_endpoint"
GONE = frozenset({404, 410})  # the push service no longer knows the subscription
TIMEOUT = 10.0  # seconds to wait on a push service
# How long a push service keeps a message for a device that is offline: a turn or a clock is stale
# after a while, an invitation less so.
TTL: dict[Kind, int] = {"turn": 15 * 60, "low_time": 5 * 60, "invitation": 24 * 3600}
URGENCY: dict[Kind, str] = {"turn": "high", "low_time": "high", "invitation": "normal"}


def enabled() -> bool:
    """Whether the site sends pushes: both VAPID keys are set."""
    return bool(settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY)


@cache
def _signer(private_key: str) -> Vapid:
    return Vapid.from_string(private_key)


def subject() -> str:
    """Whom push services may contact about our pushes: ``VAPID_SUBJECT``, else the sender address."""
    return settings.VAPID_SUBJECT or "mailto:" + (parseaddr(settings.DEFAULT_FROM_EMAIL)[1] or "noreply@localhost")


def new_key_pair() -> tuple[str, str]:
    """A new (public, private) VAPID key pair, each base64url without padding, as the settings take them:
    the public key as the uncompressed point browsers take, the private key as its 32 raw bytes."""
    from cryptography.hazmat.primitives import serialization

    vapid = Vapid()
    vapid.generate_keys()
    public = vapid.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    private = vapid.private_key.private_numbers().private_value.to_bytes(32, "big")
    return _b64(public), _b64(private)


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def b64_decode(text: str) -> bytes | None:
    """``text`` decoded as base64url (with or without padding), or ``None`` if it is not."""
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        return None


def is_p256_point(raw: bytes) -> bool:
    """Whether ``raw`` is a point of the P-256 curve, uncompressed (a browser's ``p256dh`` key):
    pushes for any other key could never be encrypted."""
    if len(raw) != 65 or raw[0] != 4:
        return False
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)
    except ValueError:
        return False
    return True


def endpoint_allowed(endpoint: str) -> bool:
    """Whether ``endpoint`` is an https address at one of the push services of
    ``WEBPUSH_ENDPOINT_HOSTS``: the server posts there, so a browser may not name any address."""
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError:
        return False
    host = (parts.hostname or "").lower()
    if parts.scheme != "https" or not host or parts.username or parts.password or port not in (None, 443):
        return False
    for allowed in settings.WEBPUSH_ENDPOINT_HOSTS:
        allowed = allowed.lower()
        if host == allowed.lstrip(".") or (allowed.startswith(".") and host.endswith(allowed)):
            return True
    return False


def _language(user: AbstractBaseUser) -> str:
    profile = getattr(user, "profile", None)
    return getattr(profile, "language", "") or settings.LANGUAGE_CODE


def _host_name(match: Match) -> str:
    profile = getattr(match.host, "profile", None)
    return profile.name if profile is not None else match.host.get_username()


def _time_left(seconds: int) -> str:
    if seconds >= 120:
        minutes = seconds // 60
        return ngettext("%(n)s minute", "%(n)s minutes", minutes) % {"n": minutes}
    return ngettext("%(n)s second", "%(n)s seconds", seconds) % {"n": seconds}


def message(user: AbstractBaseUser, kind: Kind, match: Match, *, seconds_left: int | None = None) -> dict[str, str]:
    """What the notification says, in ``user``'s language: its title, body, the match's address
    (relative: the service worker opens it on its own site) and a tag, so that a newer notification
    of the same kind and match replaces the older one on the device."""
    language = _language(user)
    with speaking(language):
        names = {"game": match.game_name, "id": match.pk}
        if kind == "turn":
            title = _("Your turn")
            body = _("It is your turn in %(game)s #%(id)s.") % names
        elif kind == "low_time":
            title = _("Time is running out")
            if seconds_left is None:
                body = _("Your time for this move in %(game)s #%(id)s is running out.") % names
            else:
                body = _("%(time)s left for your move in %(game)s #%(id)s.") % {
                    **names,
                    "time": _time_left(max(0, seconds_left)),
                }
        else:
            title = _("Rematch invitation")
            body = _("%(host)s asks for a rematch of %(game)s.") % {**names, "host": _host_name(match)}
        return {
            "title": str(title),
            "body": str(body),
            "url": reverse("match", args=[match.pk]),
            "tag": f"hideout-{kind}-{match.pk}",
            "icon": static("img/favicon.svg"),
            "lang": language,
        }


def send_push(user: AbstractBaseUser, kind: Kind, match: Match, *, seconds_left: int | None = None) -> int:
    """Push a ``kind`` notification about ``match`` to each device of ``user``'s; returns how many
    push services took it. Blocks on the network: call it from a Celery task (``push_to_user``)."""
    if not enabled():
        return 0
    subscriptions = list(PushSubscription.objects.filter(user_id=user.pk))
    if not subscriptions:
        return 0
    data = json.dumps(message(user, kind, match, seconds_left=seconds_left), ensure_ascii=False)
    return sum(deliver(subscription, data, kind) for subscription in subscriptions)


def deliver(subscription: PushSubscription, data: str, kind: Kind) -> bool:
    """Encrypt ``data`` for ``subscription`` and post it to its push service; whether it was taken.
    A subscription the service says is gone is deleted; any other failure is logged and kept."""
    info: dict[str, Any] = {
        "endpoint": subscription.endpoint,
        "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
    }
    try:
        webpush(
            info,
            data,
            vapid_private_key=_signer(settings.VAPID_PRIVATE_KEY),
            vapid_claims={"sub": subject()},  # a new dict each time: webpush adds this endpoint's audience
            ttl=TTL[kind],
            timeout=TIMEOUT,
            headers={"Urgency": URGENCY[kind]},
        )
    except WebPushException as exc:
        status = exc.response.status_code if exc.response is not None else None
        if status in GONE:
            log.info("push subscription %s is gone (%s): deleted", subscription.pk, status)
            PushSubscription.objects.filter(pk=subscription.pk).delete()
        else:
            log.warning("push to subscription %s failed: %s", subscription.pk, status or exc)
        return False
    except Exception:  # an unreachable service, a key that cannot encrypt: the next device still gets its push
        log.warning("push to subscription %s failed", subscription.pk, exc_info=True)
        return False
    PushSubscription.objects.filter(pk=subscription.pk).update(last_used=timezone.now())
    return True
