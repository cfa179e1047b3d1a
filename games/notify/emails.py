"""Render and send an e-mail of any kind: HTML and plain text, in the player's language.

Every e-mail names the game by its real name, links to the match (when it is about one), links to
the notification settings, and carries the one-click unsubscribe of RFC 8058: a ``List-Unsubscribe``
header with a signed link (``unsubscribe``) and ``List-Unsubscribe-Post: List-Unsubscribe=One-Click``,
so a mail client can turn that kind off with one POST and no log-in.

Each kind has a text and an HTML template, ``templates/games/email/<kind>.txt`` and ``.html``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.models import Match, player_name
from games.notify import preferences
from games.notify.unsubscribe import make_token
from games.play import clock
from games.push.speaking import speaking


def site_link(path: str) -> str:
    """``path`` as an address a mail client can open."""
    return settings.SITE_URL.rstrip("/") + path


def _subject_turn(context: dict[str, Any]) -> str:
    return _("Hideout: it is your turn in %(game)s #%(id)s") % {"game": context["game"], "id": context["match"].pk}


def _subject_low_time(context: dict[str, Any]) -> str:
    return _("Hideout: your time in %(game)s #%(id)s is running out") % {
        "game": context["game"],
        "id": context["match"].pk,
    }


def _subject_invitations(context: dict[str, Any]) -> str:
    return _("Hideout: %(host)s asks for a rematch of %(game)s") % {"host": context["host"], "game": context["game"]}


def _subject_digest(context: dict[str, Any]) -> str:
    count = len(context["waiting"])
    return ngettext(
        "Hideout: %(count)s match is waiting for you", "Hideout: %(count)s matches are waiting for you", count
    ) % {"count": count}


SUBJECTS: dict[str, Callable[[dict[str, Any]], str]] = {
    preferences.TURN: _subject_turn,
    preferences.LOW_TIME: _subject_low_time,
    preferences.INVITATIONS: _subject_invitations,
    preferences.DIGEST: _subject_digest,
}


def language_of(user: Any) -> str:
    profile = getattr(user, "profile", None)
    return getattr(profile, "language", None) or settings.LANGUAGE_CODE


def build(user: Any, kind: str, match: Match | None = None, **context: Any) -> EmailMultiAlternatives:
    """The e-mail of ``kind`` for ``user`` (not sent)."""
    unsubscribe_link = site_link(reverse("notify_unsubscribe", args=[make_token(user, kind)]))
    profile = getattr(user, "profile", None)
    with speaking(language_of(user)):
        full: dict[str, Any] = {
            "name": player_name(user, profile.display_name if profile else ""),
            "match": match,
            "game": match.game_name if match is not None else "",
            "link": site_link(reverse("match", args=[match.pk])) if match is not None else "",
            "settings_link": site_link(reverse("profile") + "#notifications"),
            "unsubscribe_link": unsubscribe_link,
            "kind_label": str(preferences.LABELS[kind]),
            "now": clock.now_datetime(),
            **context,
        }
        subject = SUBJECTS[kind](full)
        text = render_to_string(f"games/email/{kind}.txt", full)
        html = render_to_string(f"games/email/{kind}.html", full)
    message = EmailMultiAlternatives(
        subject,
        text,
        settings.DEFAULT_FROM_EMAIL,
        [user.email],
        headers={
            "List-Unsubscribe": f"<{unsubscribe_link}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )
    message.attach_alternative(html, "text/html")
    return message


def send(user: Any, kind: str, match: Match | None = None, **context: Any) -> None:
    build(user, kind, match, **context).send()
