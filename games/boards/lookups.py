"""Small lookups the boards make in their views and legal actions, as template filters
(:mod:`games.templatetags.hideout` registers them) and from the panels written in Python."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.engines.kept import KeptByIdentity


def get(mapping: Any, key: Any) -> Any:
    """``{{ dict|get:key }}`` for dict lookups with a variable key (also list indexes)."""
    try:
        return mapping[key]
    except (KeyError, IndexError, TypeError):
        try:
            return mapping[str(key)]
        except (KeyError, IndexError, TypeError):
            return None


def numbered(seats: Any, number: Any) -> Any:
    """The seat of ``seats`` whose ``number`` is ``number``: ``{% with s=seats|numbered:shared_key %}``."""
    return next((s for s in seats or () if s.number == number), None)


def of_type(actions: Any, kind: str) -> list[dict[str, Any]]:
    """The legal actions of one type: ``{% for a in legal|of_type:"withdraw" %}``."""
    return [a for a in actions or () if a.get("type") == kind]


# A legal actions list's types, found by the list itself: a board asks "is there a … ?" of the same
# list a dozen times per render.
_action_types: KeptByIdentity[frozenset[Any]] = KeptByIdentity(256)


def has_type(actions: Any, kind: str) -> bool:
    if not actions:
        return False
    return kind in _action_types.get(actions, lambda listed: frozenset(a.get("type") for a in listed))


def named(table: dict[str, Any]) -> Callable[[Any], Any]:
    """A template filter showing an id by its (translated) name in ``table``, else as it is."""

    def name_of(value: Any) -> Any:
        return table.get(str(value), value)

    return name_of
