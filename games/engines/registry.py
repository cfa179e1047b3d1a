"""Game slug -> rules object. Importable without Django."""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from .base import Rules

GAMES: dict[str, str] = {
    "heist": "games.engines.heist:RULES",
    "bridge_race": "games.engines.bridge_race:RULES",
}


def available() -> list[str]:
    """Slugs of the games whose engine can be imported."""
    found = []
    for slug in GAMES:
        try:
            get_rules(slug)
        except (ImportError, AttributeError):
            continue
        found.append(slug)
    return found


@cache
def get_rules(slug: str) -> Rules[Any]:
    if slug not in GAMES:
        raise KeyError(slug)
    module_name, attr = GAMES[slug].split(":")
    return getattr(importlib.import_module(module_name), attr)  # type: ignore[no-any-return]
