"""Untrusted action payloads, from a form POST or a socket message, made into one engine payload.

Both transports send the same thing: the form's ``action`` field (the canonical action as JSON),
its other fields (named after payload keys; ``name[]`` or a repeated name is a list), the board
``version`` the player saw and the form's idempotency ``key``. Everything here refuses what no form
sends (deep nesting, huge numbers, control characters, over-long keys) with :class:`BadPayload`
before an engine or the database sees it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

MAX_ACTION_CHARS = 4000
MAX_FIELDS = 40
MAX_FIELD_CHARS = 400
MAX_DEPTH = 6
MAX_KEY_CHARS = 64  # ActionReceipt.key
MAX_VERSION = 2**31 - 1
IGNORED_FIELDS = frozenset({"action", "version", "key", "csrfmiddlewaretoken"})


class BadPayload(ValueError):
    """The request could not be read as an action (HTTP 400); ``message`` is shown to the player."""

    def __init__(self, message: str | None = None) -> None:
        self.message = message or _("That action could not be read.")
        super().__init__(self.message)


@dataclass(frozen=True)
class Submission:
    """One action as a player sent it: the engine payload, the version it was decided on, its key."""

    payload: dict[str, Any]
    expected_version: int | None
    key: str | None


def clean_text(value: Any, limit: int = MAX_FIELD_CHARS) -> str:
    """A string a person could have typed: no NUL or other control characters, no lone surrogates."""
    if not isinstance(value, str) or len(value) > limit or not typeable(value):
        raise BadPayload()
    return value


# A control character but tab and line breaks, or a surrogate (in a str, always a lone one).
_UNTYPEABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff]")


def typeable(text: str) -> bool:
    """No NUL or other control character (tab and line breaks aside) and no lone surrogate."""
    return _UNTYPEABLE.search(text) is None


def _check_depth(value: Any, depth: int = 0) -> None:
    if depth > MAX_DEPTH:
        raise BadPayload()
    if isinstance(value, dict):
        for k, v in value.items():
            clean_text(k)
            _check_depth(v, depth + 1)
    elif isinstance(value, list):
        for item in value:
            _check_depth(item, depth + 1)
    elif isinstance(value, str):
        clean_text(value)
    elif isinstance(value, float) or (isinstance(value, int) and abs(value) > MAX_VERSION):
        raise BadPayload()


def _decode_action(raw: Any) -> dict[str, Any]:
    if raw in (None, ""):
        return {}
    if isinstance(raw, dict):
        action = raw
    else:
        text = clean_text(raw, MAX_ACTION_CHARS)
        try:
            action = json.loads(text)
        except (ValueError, RecursionError) as exc:  # also Python's 4300-digit cap on ints
            raise BadPayload() from exc
    if not isinstance(action, dict):
        raise BadPayload()
    _check_depth(action)
    return dict(action)


def _version(raw: Any) -> int | None:
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    if isinstance(raw, bool):
        raise BadPayload()
    if isinstance(raw, int):
        value = raw
    else:
        text = clean_text(raw, 12).strip()
        if not text.isascii() or not text.isdigit():  # "²".isdigit() is True; isascii() rules it out
            raise BadPayload()
        value = int(text)
    if not 0 <= value <= MAX_VERSION:
        raise BadPayload()
    return value


def _key(raw: Any) -> str | None:
    if raw in (None, ""):
        return None
    return clean_text(raw, MAX_KEY_CHARS)


def submission(action: Any, fields: Mapping[str, list[Any]], version: Any, key: Any) -> Submission:
    """The engine payload: ``action`` merged with the other form ``fields`` (lists of values)."""
    payload = _decode_action(action)
    if len(fields) > MAX_FIELDS:
        raise BadPayload()
    for name, values in fields.items():
        clean_text(name)
        if name in IGNORED_FIELDS:
            continue
        if not isinstance(values, list) or len(values) > MAX_FIELDS:
            raise BadPayload()
        cleaned = [clean_text(v) for v in values]
        if not cleaned:
            continue
        payload[name] = cleaned if len(cleaned) > 1 or name.endswith("[]") else cleaned[0]
    payload = {k.removesuffix("[]"): v for k, v in payload.items()}
    return Submission(payload=payload, expected_version=_version(version), key=_key(key))


def from_post(post: Any) -> Submission:
    """A submission from a form POST (a ``QueryDict``)."""
    fields = {name: post.getlist(name) for name in post if name not in IGNORED_FIELDS}
    return submission(post.get("action", ""), fields, post.get("version"), post.get("key"))


def from_socket(message: Mapping[str, Any]) -> Submission:
    """A submission from a socket message ``{"type": "act", "action", "fields", "version", "key"}``."""
    fields = message.get("fields") or {}
    if not isinstance(fields, dict):
        raise BadPayload()
    return submission(message.get("action"), fields, message.get("version"), message.get("key"))


def small_number(value: Any, default: Any = -1) -> Any:
    """A small non-negative int from untrusted input (a version, a seat), else ``default``."""
    if isinstance(value, bool):
        return default
    if isinstance(value, int):
        return value if 0 <= value < 2**31 else default
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 10:
        return int(value)
    return default
