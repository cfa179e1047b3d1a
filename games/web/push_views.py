"""Browser notifications on a device: the service worker, and the profile's switch that saves,
removes or asks about this browser's push subscription (JSON, signed in, CSRF-protected).

The worker is served at the site's root (``/sw.js``) so that its scope covers every page; the
notifications themselves are sent by :mod:`games.notify.webpush`.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.staticfiles import finders
from django.db import transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games.models import PushSubscription
from games.notify import webpush

MAX_BODY = 4096  # a subscription is a few hundred bytes


@cache
def _worker_source() -> bytes:
    found = finders.find("sw.js")
    assert isinstance(found, str), "static/sw.js is missing"
    return Path(found).read_bytes()


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """``static/sw.js`` at ``/sw.js``: a worker's scope is at most the folder it is served from."""
    response = HttpResponse(_worker_source(), content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"  # browsers check for a new worker on each registration
    return response


def _refused(message: str, status: int = 400) -> JsonResponse:
    return JsonResponse({"error": message}, status=status)


def _read(request: HttpRequest) -> dict[str, Any] | None:
    if len(request.body) > MAX_BODY:
        return None
    try:
        data = json.loads(request.body)
    except (ValueError, UnicodeDecodeError):
        return None
    return data if isinstance(data, dict) else None


def _checked(data: dict[str, Any]) -> tuple[str, str, str] | str:
    """(endpoint, p256dh, auth) of a browser's ``PushSubscription.toJSON()``, or what is wrong with it."""
    endpoint, keys = data.get("endpoint"), data.get("keys")
    if not isinstance(endpoint, str) or len(endpoint) > 1000 or not webpush.endpoint_allowed(endpoint):
        return _("This browser's push service is not one this site sends to.")
    p256dh = keys.get("p256dh") if isinstance(keys, dict) else None
    auth = keys.get("auth") if isinstance(keys, dict) else None
    if not isinstance(p256dh, str) or not isinstance(auth, str) or len(p256dh) > 128 or len(auth) > 64:
        return _("The browser sent no usable keys for its notifications.")
    point, secret = webpush.b64_decode(p256dh), webpush.b64_decode(auth)
    if point is None or not webpush.is_p256_point(point) or secret is None or len(secret) != 16:
        return _("The browser sent no usable keys for its notifications.")
    return endpoint, p256dh, auth


def _player(request: HttpRequest) -> User | JsonResponse:
    """The signed-in player, or the answer refusing the request."""
    if not isinstance(request.user, User) or not request.user.is_authenticated:
        return _refused(_("Sign in to turn notifications on."), 403)
    if not webpush.enabled():
        return _refused(_("This site does not send notifications."), 404)
    return request.user


@require_POST
def subscribe(request: HttpRequest) -> JsonResponse:
    """Save this browser's subscription for the signed-in player (a device signed in to another
    account before passes to this one); the oldest of more than ``WEBPUSH_MAX_DEVICES`` goes."""
    user = _player(request)
    if isinstance(user, JsonResponse):
        return user
    data = _read(request)
    if data is None:
        return _refused(_("The browser's answer could not be read."))
    checked = _checked(data)
    if isinstance(checked, str):
        return _refused(checked)
    endpoint, p256dh, auth = checked
    with transaction.atomic():
        PushSubscription.objects.update_or_create(
            endpoint=endpoint, defaults={"user_id": user.pk, "p256dh": p256dh, "auth": auth}
        )
        mine = PushSubscription.objects.filter(user_id=user.pk).order_by("-created_at", "-pk")
        extra = list(mine.values_list("pk", flat=True)[settings.WEBPUSH_MAX_DEVICES :])
        if extra:
            PushSubscription.objects.filter(pk__in=extra).delete()
    request.session[webpush.SESSION_KEY] = endpoint
    return JsonResponse({"subscribed": True})


@require_POST
def unsubscribe(request: HttpRequest) -> JsonResponse:
    """Forget this browser's subscription, if it is the signed-in player's."""
    asked = _player_and_endpoint(request)
    if isinstance(asked, JsonResponse):
        return asked
    user, endpoint = asked
    PushSubscription.objects.filter(user_id=user.pk, endpoint=endpoint).delete()
    if request.session.get(webpush.SESSION_KEY) == endpoint:
        del request.session[webpush.SESSION_KEY]
    return JsonResponse({"subscribed": False})


@require_POST
def status(request: HttpRequest) -> JsonResponse:
    """Whether this browser's subscription (its endpoint, posted) sends the signed-in player's
    notifications: a browser keeps its subscription after a log-out, the server does not."""
    asked = _player_and_endpoint(request)
    if isinstance(asked, JsonResponse):
        return asked
    user, endpoint = asked
    subscribed = PushSubscription.objects.filter(user_id=user.pk, endpoint=endpoint).exists()
    if subscribed:
        request.session[webpush.SESSION_KEY] = endpoint
    return JsonResponse({"subscribed": subscribed})


def _player_and_endpoint(request: HttpRequest) -> tuple[Any, str] | JsonResponse:
    """The signed-in player and the endpoint their browser posted, or the answer refusing the request."""
    user = _player(request)
    if isinstance(user, JsonResponse):
        return user
    data = _read(request)
    endpoint = data.get("endpoint") if data is not None else None
    if not isinstance(endpoint, str):
        return _refused(_("The browser's answer could not be read."))
    return user, endpoint
