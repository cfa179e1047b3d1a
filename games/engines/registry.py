"""Game slug -> rules object. Importable without Django.

``ENGINES`` lists every engine built so far: the conformance tests and benchmarks play them all.
``GAMES`` lists those players can choose on the site (an engine joins it once its board exists).
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from .base import Rules

ENGINES: dict[str, str] = {
    "heist": "games.engines.heist:RULES",
    "bridge_race": "games.engines.bridge_race:RULES",
    "dirty_money": "games.engines.dirty_money:RULES",
    "exit_memory": "games.engines.exit_memory:RULES",
    "police_alarm": "games.engines.police_alarm:RULES",
}

GAMES: tuple[str, ...] = ("heist", "bridge_race", "dirty_money", "exit_memory", "police_alarm")
"""Slugs offered on the site."""


def _importable(slugs: tuple[str, ...] | list[str]) -> list[str]:
    found = []
    for slug in slugs:
        try:
            get_rules(slug)
        except (ImportError, AttributeError):
            continue
        found.append(slug)
    return found


def available() -> list[str]:
    """Slugs of the games offered on the site whose engine can be imported."""
    return _importable(GAMES)


def engines() -> list[str]:
    """Slugs of every engine that can be imported (offered on the site or not yet)."""
    return _importable(list(ENGINES))


@cache
def get_rules(slug: str) -> Rules[Any]:
    if slug not in ENGINES:
        raise KeyError(slug)
    module_name, attr = ENGINES[slug].split(":")
    return getattr(importlib.import_module(module_name), attr)  # type: ignore[no-any-return]
