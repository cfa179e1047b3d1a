"""The server's clock, in one place so tests can move time forward."""

import time
from datetime import UTC, datetime


def now() -> float:
    """Seconds since the epoch."""
    return time.time()


def now_datetime() -> datetime:
    return datetime.fromtimestamp(now(), tz=UTC)
