"""The locking write path's reads (games.play.locked_rows): the ORM's row and answer, by one plain query each."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from django.db import OperationalError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Match
from games.play import guarded, locked_rows, seat_rows

from .helpers import started_match

pytestmark = pytest.mark.django_db


def columns_but_snapshot(match: Match) -> dict[str, Any]:
    out = {}
    for field in Match._meta.concrete_fields:
        if field.name != "snapshot":
            value = getattr(match, field.attname)
            out[field.attname] = (value, value.tzinfo) if isinstance(value, datetime) else value
    return out


def test_the_locked_row_is_the_orms_without_its_snapshot_in_one_locking_query(make_user: Any) -> None:
    match, _ = started_match(make_user)
    # Every kind of column set to something other than its default: JSON lists and dicts, a time, a flag.
    Match.objects.filter(pk=match.pk).update(
        quiet_writes=[[3, [1]]],
        clock={"bank": {"1": 30}},
        next_deadline=timezone.now() + timedelta(hours=2),
        cancelled_by_host=True,
    )
    orm = Match.objects.select_for_update().without_snapshot()
    with transaction.atomic():
        expected = orm.get(pk=match.pk)
        with CaptureQueriesContext(connection) as queries:
            found = locked_rows.locked_match(match.pk)
    assert len(queries.captured_queries) == 1
    sql = queries.captured_queries[0]["sql"]
    assert sql.endswith("FOR UPDATE") == connection.features.has_select_for_update
    assert columns_but_snapshot(found) == columns_but_snapshot(expected)
    assert found.quiet_writes == [[3, [1]]] and found.clock == {"bank": {"1": 30}} and found.cancelled_by_host
    assert found.next_deadline is not None and timezone.is_aware(found.next_deadline)
    assert found.get_deferred_fields() == {"snapshot"} == expected.get_deferred_fields()
    assert not found._state.adding and found._state.db == "default"
    assert found.snapshot == Match.objects.get(pk=match.pk).snapshot  # read when asked for, as the ORM's


def test_no_row_is_the_orms_does_not_exist(make_user: Any) -> None:
    with transaction.atomic(), pytest.raises(Match.DoesNotExist):
        locked_rows.locked_match(987654)


def test_only_an_active_player_holds_their_own_seat(make_user: Any) -> None:
    match, by_seat = started_match(make_user)
    user = by_seat[1]
    seats = seat_rows.seats_of(match.pk)
    assert locked_rows.holds_seat(seats, 1, user.pk)
    assert not locked_rows.holds_seat(seats, 2, user.pk)  # another seat
    assert not locked_rows.holds_seat(seats, 1, by_seat[2].pk)  # another player
    assert not locked_rows.holds_seat(seat_rows.seats_of(match.pk + 1), 1, user.pk)  # another match
    user.is_active = False
    user.save(update_fields=["is_active"])
    assert not locked_rows.holds_seat(seat_rows.seats_of(match.pk), 1, user.pk)  # a closed account


@pytest.mark.django_db(transaction=True)
def test_a_finishing_moves_lock_takes_the_row_only_while_it_is_the_cached_one(make_user: Any) -> None:
    """PostgreSQL's finishing move (write_paths.write_finishing): one query locks the row if it still
    has the cached version and clock and still runs, and reads what the ratings need of its seats."""
    match, by_seat = started_match(make_user, players=3)
    if connection.vendor != "postgresql":
        assert not guarded.enabled()  # SQLite writes every move by the locking path
        return
    cached = Match.objects.get(pk=match.pk)
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        rows = locked_rows.lock_if_current(cached)
        other = connection_elsewhere()
        try:
            with other.cursor() as cursor:  # the row is locked: another connection cannot take it
                cursor.execute("SET lock_timeout = '100ms'")
                with pytest.raises(OperationalError):
                    cursor.execute(f"SELECT 1 FROM {Match._meta.db_table} WHERE id = %s FOR UPDATE", [match.pk])
        finally:
            other.close()
    assert len(queries.captured_queries) == 1
    assert rows == [((number, user.pk, False, False), True) for number, user in sorted(by_seat.items())]
    for moved in ({"version": cached.version + 1}, {"clock": {"banks": {"1": 5.0}}}, {"status": "finished"}):
        Match.objects.filter(pk=match.pk).update(**moved)
        with transaction.atomic():
            assert locked_rows.lock_if_current(cached) == [], moved
        Match.objects.filter(pk=match.pk).update(version=cached.version, clock=cached.clock, status=cached.status)
    type(by_seat[1]).objects.filter(pk=by_seat[1].pk).update(is_active=False)
    with transaction.atomic():
        assert [active for _row, active in locked_rows.lock_if_current(cached)] == [True, False, True]


def connection_elsewhere() -> Any:
    """A second connection to the test database, as another process would have."""
    from django.db import connections

    return connections["default"].copy()
