"""Whether a player is away: the one question every sweep about waiting decisions asks.

Reminders, the low-time alarm and the digest skip a player who is away (``send.notify`` asks this
for every kind in ``preferences.ABOUT_WAITING``). Vacations answer here when they exist; until then
nobody is away.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any


def is_away(user: Any, now: datetime) -> bool:
    """Whether ``user`` is away at ``now``, so that what waits on them is not e-mailed."""
    return False
