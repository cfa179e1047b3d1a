"""Per-user flood limits, counted in the shared cache (in-memory or Redis alike).

One small fixed-window counter per (limit, user, window): ``cache.add`` starts it, ``cache.incr``
counts atomically on both backends. Views call :func:`enforce`, which raises a
:class:`~games.play.services.ServiceError` (HTTP 429) that they already show; the socket consumer
calls :func:`ahit` and sends the message it returns. A socket's moves are counted in that socket's
own memory instead (:class:`SocketLimit`): a move's hot path takes no cache round trip. Limits
are ``"count/seconds"`` rules, comma-separated, all of which must hold;
``settings.HIDEOUT_RATE_LIMITS`` overrides them by name (an empty rule turns a limit off).
"""

from __future__ import annotations

import logging
import math
import time
from dataclasses import dataclass
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games.play.services import ServiceError

log = logging.getLogger(__name__)

DEFAULT_RULES: dict[str, str] = {
    "create": "5/60,30/3600",  # new matches
    "join": "20/60",  # joining matches
    "chat": "8/10,40/60",  # chat lines, over HTTP or the socket
    "sync": "6/10",  # full-board requests over the socket (each costs a render)
    "socket": "20/60",  # new sockets per user
    # Moves per socket: a police car at its fastest sends one every 150 ms (police_alarm T-6), 13 in
    # 2 s and 400 a minute; its siren and toggles come on top. A flood is answered here, unwritten.
    "move": "30/2,600/60",
}

MESSAGES: dict[str, Promise] = {
    "create": _("You are creating matches too quickly. Try again in %(seconds)s seconds."),
    "join": _("You are joining matches too quickly. Try again in %(seconds)s seconds."),
    "chat": _("You are sending messages too quickly. Try again in %(seconds)s seconds."),
    "sync": _("Too many board refreshes. Try again in %(seconds)s seconds."),
    "socket": _("Too many connections. Try again in %(seconds)s seconds."),
    "move": _("You are sending moves too quickly. Try again in %(seconds)s seconds."),
}


@dataclass(frozen=True)
class Rule:
    count: int
    seconds: int


class RateLimited(ServiceError):
    status = 429

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def rules(name: str) -> list[Rule]:
    spec = {**DEFAULT_RULES, **getattr(settings, "HIDEOUT_RATE_LIMITS", {})}.get(name, "")
    parsed = []
    for part in filter(None, (piece.strip() for piece in spec.split(","))):
        count, seconds = part.split("/")
        parsed.append(Rule(int(count), int(seconds)))
    return parsed


def clock() -> float:
    """The limiter's time; tests pin it so that a burst never straddles a window's edge."""
    return time.time()


class SocketLimit:
    """``name``'s rules counted for one socket, in its memory: fixed windows, as :func:`wait_seconds`."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.rules = rules(name)
        self.windows: list[tuple[int, int]] = [(-1, 0)] * len(self.rules)  # per rule: (window, used)

    def wait(self, now: float | None = None) -> int:
        """Count one action: 0 if allowed, else the seconds until it would be."""
        now = clock() if now is None else now
        wait = 0
        for i, rule in enumerate(self.rules):
            window = int(now // rule.seconds)
            current, used = self.windows[i]
            used = used + 1 if current == window else 1
            self.windows[i] = (window, used)
            if used > rule.count:
                wait = max(wait, math.ceil((window + 1) * rule.seconds - now))
        return wait


def _who(user: Any) -> str:
    return str(getattr(user, "pk", user))


def wait_seconds(name: str, user: Any, now: float | None = None) -> int:
    """Count one ``name`` action of ``user``: 0 if allowed, else the seconds until it would be.

    A cache that cannot count (Redis unreachable) lets the action through: a flood limit that
    is off for a few seconds costs less than refusing, or failing, every action meanwhile.
    """
    now = clock() if now is None else now
    wait = 0
    for rule in rules(name):
        window = int(now // rule.seconds)
        key = f"ratelimit:{name}:{_who(user)}:{rule.seconds}:{window}"
        try:
            used = _count(key, rule.seconds + 1)
        except Exception:
            log.warning("rate limit %s not counted: the cache failed", name, exc_info=True)
            continue
        if used > rule.count:
            wait = max(wait, math.ceil((window + 1) * rule.seconds - now))
    return wait


def _count(key: str, timeout: int) -> int:
    cache.add(key, 0, timeout)
    try:
        return int(cache.incr(key))
    except ValueError:  # expired between add and incr: a fresh window (or a cache that lost it)
        cache.add(key, 1, timeout)
        return 1


def refusal(name: str, wait: int) -> str:
    return str(MESSAGES.get(name, MESSAGES["chat"]) % {"seconds": wait})


def hit(name: str, user: Any) -> str | None:
    """Count one ``name`` action of ``user``; the translated refusal if over a limit, else None."""
    wait = wait_seconds(name, user)
    return refusal(name, wait) if wait else None


async def ahit(name: str, user: Any) -> str | None:
    """:func:`hit` for async code (the socket consumer)."""
    return await sync_to_async(hit, thread_sensitive=False)(name, user)


def enforce(name: str, user: Any) -> None:
    """:func:`hit`, raising :class:`RateLimited` (a 429 ``ServiceError``) when over a limit."""
    wait = wait_seconds(name, user)
    if wait:
        raise RateLimited(refusal(name, wait), retry_after=wait)
