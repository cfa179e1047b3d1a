"""The page an e-mail's unsubscribe link opens, and the one-click POST of RFC 8058 (no log-in).

The signed token in the address is the authority (``games.notify.unsubscribe``): a GET shows what
the link would stop and a button, a POST (the button, or a mail client's one-click
``List-Unsubscribe=One-Click``) turns that kind of e-mail off. Without a session there is no CSRF
token to check; a forged or altered token changes nothing and says so. The page speaks the
language of the e-mail it came from (the player's).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from games.notify import preferences
from games.notify.emails import language_of
from games.notify.unsubscribe import read_token
from games.push.speaking import speaking


@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    asked = read_token(token)
    user = None
    if asked is not None:
        user = get_user_model().objects.filter(pk=asked.user_id).select_related("profile").first()
    if asked is None or user is None or getattr(user, "profile", None) is None:
        return render(request, "games/unsubscribe.html", {"invalid": True}, status=400)
    done = request.method == "POST"
    if done:
        preferences.turn_off(user.profile, asked.kind)
    with speaking(language_of(user)):
        context = {"what": preferences.LABELS[asked.kind], "done": done}
        return render(request, "games/unsubscribe.html", context)
