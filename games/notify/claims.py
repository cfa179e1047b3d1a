"""An e-mail that must go once only is claimed first: a row whose unique constraint lets one worker win.

Two workers that sweep at the same moment both try to insert the same (user, kind, key); the
database refuses the second, so only one sends. Nothing here reads before writing, so no timing
between the workers can let both through.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction

from games.models import NotificationClaim


def claim(user: Any, kind: str, key: str) -> bool:
    """Claim the e-mail of ``kind`` named ``key`` for ``user``; whether this call won it."""
    try:
        with transaction.atomic():
            NotificationClaim.objects.create(user=user, kind=kind, key=key)
    except IntegrityError:
        return False
    return True


def release(user: Any, kind: str, key: str) -> None:
    """Give a claim back (its e-mail could not be sent), so a later sweep tries again."""
    NotificationClaim.objects.filter(user=user, kind=kind, key=key).delete()
