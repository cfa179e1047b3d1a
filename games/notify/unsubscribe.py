"""Signed unsubscribe tokens: a link in an e-mail that turns one kind off with no log-in (RFC 8058).

The token names the user and the kind, signed with the site's secret (``django.core.signing``) under
a salt of its own, so it cannot be forged, and cannot be replayed as any other signed value of the
site. It does not expire: an old e-mail's link still works.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core import signing

from games.notify.preferences import KINDS

SALT = "hideout.notify.unsubscribe"


@dataclass(frozen=True)
class Unsubscribe:
    user_id: int
    kind: str


def make_token(user: Any, kind: str) -> str:
    if kind not in KINDS:
        raise ValueError(f"unknown kind of e-mail: {kind!r}")
    return signing.dumps({"u": user.pk, "k": kind}, salt=SALT, compress=False)


def read_token(token: str) -> Unsubscribe | None:
    """What a token asks, or None for one that was not made here (or was altered)."""
    try:
        data = signing.loads(token, salt=SALT)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict):
        return None
    user_id, kind = data.get("u"), data.get("k")
    if not isinstance(user_id, int) or kind not in KINDS:
        return None
    return Unsubscribe(user_id, kind)
