"""A model instance built from a row of values as ``Model.from_db`` builds it, without
``Model.__init__``, through Django's private ``ModelState`` and the instance's ``__dict__``.

``from_db`` calls ``Model.__init__``, which sets each field through its descriptor and sends the
``pre_init`` and ``post_init`` signals. :mod:`games.play.seat_rows` builds a match's seats, their
players and profiles from one row each for every push (decision 0020): built plainly they cost
about a quarter of that, on every push of every move. Only models whose building does nothing
more than set the fields are built so (:func:`plainly_built`); the others take ``from_db``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.models import Model, signals
from django.db.models.base import ModelState


def plainly_built(model: type[Model]) -> bool:
    """Whether ``model.from_db`` is ``Model``'s and its ``__init__`` does nothing but set the fields:
    no override of either, and no receiver of ``pre_init`` or ``post_init`` (a ``post_init``
    receiver is how fields such as ``ImageField`` hook in)."""
    return (
        model.from_db.__func__ is Model.from_db.__func__  # type: ignore[attr-defined]
        and model.__init__ is Model.__init__
        and not signals.pre_init.has_listeners(model)
        and not signals.post_init.has_listeners(model)
    )


def build_plainly(model: type[Model], attnames: Sequence[str], values: Sequence[Any], alias: str) -> Model:
    """What ``model.from_db(alias, attnames, values)`` gives when every concrete field is read
    (none deferred) and :func:`plainly_built` holds."""
    instance = model.__new__(model)
    state = instance._state = ModelState()
    state.adding, state.db = False, alias
    instance.__dict__.update(zip(attnames, values, strict=True))
    return instance
