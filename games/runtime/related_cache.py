"""A related object set on a model instance as ``select_related`` sets it, through Django's
private per-instance cache (``Model._state.fields_cache``, keyed by the field's name).

:mod:`games.play.seat_rows` builds a seat, its player and the player's profile from one row of its
own query (docs/decisions/0020-seat-rows-plain-query.md), and hands each its related object so that reading
``seat.user`` or ``user.profile`` asks no query, as after ``select_related("user__profile")``.
"""

from __future__ import annotations

from django.db.models import Model


def set_related(instance: Model, name: str, related: Model | None) -> None:
    """``instance.<name>`` is ``related`` from now on, without a query (``None``: there is none)."""
    instance._state.fields_cache[name] = related
