"""Whether a player is away: the one question every sweep about waiting decisions asks.

Reminders, the low-time alarm and the digest skip a player on vacation (games.play.vacations): the
sweeps leave their seats out of the query (``waiting.waiting_seats``), so no claim is spent while
they are away, and ``send.notify`` asks again for every kind in ``preferences.ABOUT_WAITING``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from games.play import vacations


def is_away(user: Any, now: datetime) -> bool:
    """Whether ``user`` is away at ``now``, so that what waits on them is not e-mailed."""
    return vacations.current(user, now) is not None
