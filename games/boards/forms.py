"""The action forms every board draws: a form that posts a payload as the seat's action.

``{% action_button payload label %}`` (:mod:`games.templatetags.hideout`) is a one-button form; a
form with inputs is ``<form {% action_form_attrs %}>`` with ``{% action_fields payload %}`` inside
it, its inputs named after payload keys (their values are merged into the payload). The boards
whose panels are written in Python call these functions directly.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from django import template
from django.middleware.csrf import get_token
from django.utils.html import format_html
from django.utils.safestring import SafeString

from games.boards.common import escape_text, shown


def action_form_attrs(context: template.Context) -> SafeString:
    if context.get("replay"):
        # A replay (games.replay) draws the board as it was: its forms are shown nowhere and post nothing.
        return SafeString("hidden inert data-replay-form")
    # No hx-post: match.js sends a ``data-act`` form over the match's socket (or, with the socket
    # down, posts it as HTMX would); without JavaScript it is a plain form POST. Never both.
    return SafeString(f'method="post" action="{shown(context["action_url"])}" data-act')


def action_fields(context: template.Context, payload: dict[str, Any] | str) -> SafeString:
    """Hidden inputs for an action form; ``payload`` may be just the action type.

    A page rendered for a request carries the board version and an idempotency key in each form,
    for a plain POST without JavaScript. A push (no request) leaves them out: only match.js reads
    pushed boards, and it sends the version of the board it shows and a fresh key with each move,
    so an unchanged form renders byte for byte the same and is not pushed again.
    """
    if isinstance(payload, str):
        payload = {"type": payload}
    if context.get("replay"):
        return SafeString("")  # nothing to send from a replay
    action = json.dumps(payload, separators=(",", ":"))
    request = context.get("request")
    if request is None:
        return SafeString(f'<input type="hidden" name="action" value="{escape_text(action)}">')
    return format_html(
        '<input type="hidden" name="csrfmiddlewaretoken" value="{}">'
        '<input type="hidden" name="version" value="{}">'
        '<input type="hidden" name="key" value="{}">'
        '<input type="hidden" name="action" value="{}">',
        get_token(request),
        context.get("version", ""),
        uuid.uuid4().hex,
        action,
    )


def action_button(context: template.Context, payload: dict[str, Any], label: str, css: str = "") -> SafeString:
    """A one-button form posting ``payload`` (built in Python: boards have many of these)."""
    return SafeString(
        f'<form {action_form_attrs(context)} class="action-form">{action_fields(context, payload)}'
        f'<button type="submit" class="{shown(css or "btn")}">{shown(label)}</button></form>'
    )
