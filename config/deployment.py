"""What differs per deployment: where SECRET_KEY comes from, the cache, the channel-layer prefix.

The key signs sessions, password-reset and e-mail confirmation links, so a key anyone can read
(the development one in this repository) lets anyone forge them. Production must set
``SECRET_KEY``. On one's own machine (``make run``, the test suite) a random key is generated
once and kept in a local file instead, shared by the processes started from there.
"""

from __future__ import annotations

import os
import secrets
import sys
from pathlib import Path
from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured

DEVELOPMENT_KEY = "django-insecure-hideout-dev-only-key-change-me-in-production"

# A production key shorter than this is refused; generated keys (token_urlsafe(50)) have 67 characters.
MINIMUM_KEY_LENGTH = 40

# Parts of keys published in this repository, in Django's templates and in common tutorials: a key
# containing one was copied from somewhere public, not generated.
PLACEHOLDER_MARKERS = (
    "django-insecure",
    "replace-with",
    "change-me",
    "changeme",
    "change-this",
    "your-secret-key",
    "secret-key-here",
    "placeholder",
    "hideout-dev-only",
)

MISSING_KEY = (
    "SECRET_KEY is not set and DEBUG is off. Refusing to start on a key that is not secret: set the "
    "SECRET_KEY environment variable to a long random value (for example the output of "
    '`python -c "import secrets; print(secrets.token_urlsafe(50))"`), the same in every process '
    "of one deployment. On your own machine, HIDEOUT_LOCAL_KEY=1 (which `make` sets) keeps a generated "
    "key in .secret_key instead, and DEBUG=true uses the development key."
)


PLACEHOLDER_KEY = (
    "SECRET_KEY is a placeholder copied from an example or the development settings (it contains "
    "{marker!r}), so anyone can read it. Refusing to start: set SECRET_KEY to a long random value, for "
    'example the output of `python -c "import secrets; print(secrets.token_urlsafe(50))"`.'
)

SHORT_KEY = (
    "SECRET_KEY is too short ({length} characters; at least {minimum} are needed) to keep sessions and "
    "signed links from being forged. Refusing to start: set it to a long random value, for example the "
    'output of `python -c "import secrets; print(secrets.token_urlsafe(50))"`.'
)


def refuse_weak_key(key: str) -> None:
    """Raise ImproperlyConfigured if ``key`` is a known placeholder or too short to be secret."""
    lowered = key.lower()
    for marker in PLACEHOLDER_MARKERS:
        if marker in lowered:
            raise ImproperlyConfigured(PLACEHOLDER_KEY.format(marker=marker))
    if len(key) < MINIMUM_KEY_LENGTH:
        raise ImproperlyConfigured(SHORT_KEY.format(length=len(key), minimum=MINIMUM_KEY_LENGTH))


def local_key(path: Path) -> str:
    """The key kept in ``path``, created (readable by its owner only) on first use."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        key = path.read_text().strip()
        if key:
            return key
        raise ImproperlyConfigured(f"{path} is empty; delete it to have a new local key generated.") from None
    key = secrets.token_urlsafe(50)
    with os.fdopen(fd, "w") as handle:
        handle.write(key + "\n")
    return key


def secret_key(configured: str, debug: bool, local: bool, local_path: Path) -> str:
    """The configured key; with DEBUG the development key; locally a kept random one; else refuse.

    Without DEBUG a configured key must not be a known placeholder nor short.
    """
    if configured:
        if not debug:
            refuse_weak_key(configured)
        return configured
    if debug:
        return DEVELOPMENT_KEY
    if local or "pytest" in sys.modules:
        key = local_key(local_path)
        # Processes this one starts (the tests' daphne and Celery workers) must sign alike.
        os.environ["SECRET_KEY"] = key
        return key
    raise ImproperlyConfigured(MISSING_KEY)


# A cache call answers in well under a millisecond; one that waits this long (a Redis that no
# longer answers, a network cut) is given up and answered as a miss (games.runtime.redis_cache).
REDIS_CACHE_TIMEOUT_SECONDS = 1.0


def caches_for(redis_url: str) -> dict[str, dict[str, object]]:
    """The CACHES setting: Redis shared by the processes of a deployment, else in-process memory."""
    if redis_url:
        return {
            "default": {
                "BACKEND": "games.runtime.redis_cache.ResilientRedisCache",
                "LOCATION": redis_url,
                "OPTIONS": {
                    "socket_connect_timeout": REDIS_CACHE_TIMEOUT_SECONDS,
                    "socket_timeout": REDIS_CACHE_TIMEOUT_SECONDS,
                },
            }
        }
    return {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}


def redis_prefix(redis_url: str) -> str:
    """A channel-layer prefix per Redis DB number: ``hideout-db5`` for ``redis://host:6379/5``."""
    database = urlsplit(redis_url).path.strip("/") or "0"
    return f"hideout-db{database}"
