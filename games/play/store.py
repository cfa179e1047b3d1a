"""Loading a match's engine state: snapshot + events after it, with a version-checked cache.

The cache only ever answers for the exact version it holds, so it cannot disagree with the log;
any process that misses rebuilds from the snapshot.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from datetime import UTC, datetime
from functools import cache
from typing import Any

from django.db import connection
from django.db.models import JSONField, Model

from games.engines.base import Event, Rules, replay
from games.engines.registry import get_rules
from games.models import Match, MatchEvent
from games.play.bounded_cache import BoundedCache

SNAPSHOT_EVERY = 50
_cache: BoundedCache[int, tuple[int, Any]] = BoundedCache(2048, revision_keyed=True)  # match id -> (version, state)


def rules_for(match: Match) -> Rules[Any]:
    return get_rules(match.game)


def engine_options(match: Match) -> dict[str, Any]:
    return {**match.options, "time_limit": match.time_limit}


def initial_state(match: Match) -> Any:
    return rules_for(match).initial(match.seat_count, engine_options(match))


def remember(match_id: int, version: int, state: Any) -> None:
    _cache.put(match_id, (version, state))


def forget_all() -> None:
    _cache.clear()
    _rows.clear()
    _events_read.clear()


# match id -> the events (by seq) this process last read to catch up with another process's write.
# Only the match's next push here needs them (up to SNAPSHOT_EVERY events after a cold read): fewer
# matches than the states' cache, so that at most some megabytes are held.
_events_read: BoundedCache[int, dict[int, Event]] = BoundedCache(512)


def keep_events(match_id: int, events: dict[int, Event]) -> None:
    """Keep the events a catch-up read: the next push's log lines need them, and the log only grows."""
    _events_read.put(match_id, events)


def kept_events(match_id: int) -> dict[int, Event]:
    """The events :func:`keep_events` kept for ``match_id`` (none if it dropped them)."""
    return _events_read.get(match_id) or {}


_rows: BoundedCache[int, Match] = BoundedCache(2048, revision_keyed=True)


def remember_row(match: Match) -> None:
    """Keep a copy of ``match``'s row as this process last wrote it (for the guarded write)."""
    row = copy.copy(match)
    for attr in (
        "_seat_cache",
        "_log_events",
        "_public_context",
        "_public_view",
        "_match_constants",
        "_worded_events",
        "_names_kept",
    ):
        row.__dict__.pop(attr, None)
    _rows.put(match.pk, row)


def cached_move_base(match_id: int) -> tuple[Match, Any] | None:
    """A copy of the match row and its state at the same version, if this process holds both."""
    row = _rows.get(match_id)
    hit = _cache.get(match_id)
    if row is None or hit is None or hit[0] != row.version:
        return None
    return copy.copy(row), hit[1]


def cached_state(match_id: int) -> tuple[int, Any] | None:
    """The (version, state) of ``match_id`` this process holds, if any."""
    return _cache.get(match_id)


def load_state(match: Match, *, use_cache: bool = True) -> Any:
    """The state of ``match`` at ``match.version``."""
    rules = rules_for(match)
    if use_cache:
        hit = _cache.get(match.pk)
        if hit is not None and hit[0] == match.version:
            return hit[1]
        if hit is not None and hit[0] < match.version:
            base_version, state = hit
        else:
            base_version, state = _from_snapshot(match, rules)
    else:
        base_version, state = _from_snapshot(match, rules)
    state = replay(rules, state, events_between(match, base_version, match.version))
    if use_cache:
        remember(match.pk, match.version, state)
    return state


def snapshot_state(match: Match) -> tuple[int, Any]:
    """The version and state that replaying ``match``'s log starts from: its snapshot's, else the initial one."""
    return _from_snapshot(match, rules_for(match))


def _from_snapshot(match: Match, rules: Rules[Any]) -> tuple[int, Any]:
    if match.snapshot is not None and match.snapshot_version <= match.version:
        return match.snapshot_version, rules.state_from_json(match.snapshot)
    return 0, initial_state(match)


def events_between(match: Match, after: int, upto: int) -> list[Event]:
    """The events ``after < seq <= upto`` of ``match``, in order.

    A plain query whose JSON columns are decoded by their fields, as the ORM decodes them: building
    a queryset and a model per row cost more than the replay when a process catches up on another's move.
    """
    if upto <= after:
        return []
    data, secret, visible_to = event_json_fields()
    with connection.cursor() as cursor:
        cursor.execute(_events_sql(connection.vendor), [match.pk, after, upto])
        rows = cursor.fetchall()
    return [
        Event(
            type=row[0],
            data=data.from_db_value(row[1], data.cached_col, connection),
            secret=secret.from_db_value(row[2], secret.cached_col, connection),
            visible_to=tuple(visible_to.from_db_value(row[3], visible_to.cached_col, connection)),
        )
        for row in rows
    ]


@cache
def event_json_fields() -> tuple[JSONField[Any], ...]:
    """``MatchEvent``'s JSON fields ``data``, ``secret`` and ``visible_to``: each converts its own
    column to and from the database (the log's plain reads and writes)."""
    fields = tuple(MatchEvent._meta.get_field(name) for name in ("data", "secret", "visible_to"))
    assert all(isinstance(field, JSONField) for field in fields)
    return fields  # type: ignore[return-value]  # checked just above


def quoted_columns(model: type[Model]) -> dict[str, str]:
    """``model``'s columns by field name, quoted for the current database (plain queries)."""
    q = connection.ops.quote_name
    return {f.name: q(f.column or f.name) for f in model._meta.concrete_fields}


def select_sql(model: type[Model], fields: Sequence[str], where: Sequence[str], order_by: str | None = None) -> str:
    """A plain ``SELECT`` of ``model``'s ``fields``, for the current database: each of ``where`` is a
    field and a comparison with the next ``%s`` parameter (``"seq >"``), all of them met; ordered by
    the field ``order_by``, if any."""
    column = quoted_columns(model)
    table = connection.ops.quote_name(model._meta.db_table)
    conditions = (f"{column[name]} {compare} %s" for name, compare in (condition.split() for condition in where))
    sql = f"SELECT {', '.join(column[name] for name in fields)} FROM {table} WHERE {' AND '.join(conditions)}"
    return f"{sql} ORDER BY {column[order_by]}" if order_by else sql


def insert_sql(model: type[Model], fields: Sequence[str], rows: int = 1) -> str:
    """A plain ``INSERT`` of ``rows`` rows of ``model``'s ``fields`` (one ``%s`` per value, row by
    row), for the current database."""
    column = quoted_columns(model)
    table = connection.ops.quote_name(model._meta.db_table)
    row = f"({', '.join(['%s'] * len(fields))})"
    return f"INSERT INTO {table} ({', '.join(column[name] for name in fields)}) VALUES {', '.join([row] * rows)}"


@cache
def _events_sql(vendor: str) -> str:
    return select_sql(MatchEvent, ("type", "data", "secret", "visible_to"), ("match =", "seq >", "seq <="), "seq")


def rebuild_from_log(match: Match) -> Any:
    """Replay the whole log from the initial state, ignoring snapshot and cache (for checks)."""
    rules = rules_for(match)
    return replay(rules, initial_state(match), events_between(match, 0, match.version))


def snapshot_due(old_version: int, new_version: int) -> bool:
    return new_version // SNAPSHOT_EVERY > old_version // SNAPSHOT_EVERY


def to_datetime(epoch: float | None) -> datetime | None:
    if epoch is None:
        return None
    return datetime.fromtimestamp(max(epoch, 0), tz=UTC)
