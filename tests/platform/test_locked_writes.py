"""The locking write path's writes (games.play.locked_writes): the rows the ORM writes, by one plain
statement each, on SQLite and PostgreSQL alike."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.engines.base import Event
from games.models import ActionReceipt, Match, MatchEvent, Seat
from games.play import locked_writes

from .helpers import started_match

pytestmark = pytest.mark.django_db

EVENTS = [
    Event("dealt", {"cards": [1, 2], "to": {"0": "a"}}, secret={"hand": [3]}, visible_to=(0, 2)),
    Event("passed", {}, secret=None, visible_to=()),
    Event("said", {"text": 'a "quote" & ü 中文', "n": 1.5, "none": None}),
]


def rows(match_id: int, above: int) -> list[tuple[Any, ...]]:
    found = MatchEvent.objects.filter(match_id=match_id, seq__gt=above).order_by("seq")
    return list(found.values_list("seq", "actor", "type", "data", "secret", "visible_to"))


def test_the_events_are_the_rows_the_orm_writes_in_one_statement(make_user: Any) -> None:
    match, _ = started_match(make_user)
    other, _ = started_match(make_user)
    top = match.version
    MatchEvent.objects.bulk_create(
        MatchEvent(
            match=other, seq=top + i, actor=2, type=e.type, data=e.data, secret=e.secret, visible_to=list(e.visible_to)
        )
        for i, e in enumerate(EVENTS, start=1)
    )
    before = timezone.now()
    with CaptureQueriesContext(connection) as queries:
        locked_writes.insert_events(match.pk, 2, top + 1, EVENTS)
    assert len(queries.captured_queries) == 1
    assert rows(match.pk, top) == rows(other.pk, top)
    assert [r[4] for r in rows(match.pk, top)] == [{"hand": [3]}, None, None]  # SQL NULL, as the ORM writes None
    assert MatchEvent.objects.filter(match=match, seq__gt=top, secret__isnull=True).count() == 2
    made = MatchEvent.objects.filter(match=match, seq__gt=top).values_list("created_at", flat=True)
    assert all(before <= t <= timezone.now() and timezone.is_aware(t) for t in made)
    with CaptureQueriesContext(connection) as queries:
        locked_writes.insert_events(match.pk, 2, top + 9, [])
    assert queries.captured_queries == []


def test_an_event_number_taken_is_refused_by_the_database(make_user: Any) -> None:
    match, _ = started_match(make_user)
    locked_writes.insert_events(match.pk, 0, match.version + 1, EVENTS[:1])
    with pytest.raises(IntegrityError), transaction.atomic():
        locked_writes.insert_events(match.pk, 0, match.version + 1, EVENTS[1:])
    assert len(rows(match.pk, match.version)) == 1


def columns(match: Match) -> dict[str, Any]:
    out = {}
    for field in Match._meta.concrete_fields:
        value = getattr(match, field.attname)
        out[field.attname] = (value, value.tzinfo) if isinstance(value, datetime) else value
    return out


def test_the_match_row_is_written_as_save_with_update_fields_writes_it(make_user: Any) -> None:
    by_orm, _ = started_match(make_user)
    by_sql, _ = started_match(make_user)
    changes: dict[str, Any] = {
        "status": Match.Status.FINISHED,
        "version": 41,
        "revision": 12,
        "waiting": {},
        "outcome": {"ranks": [2, 1], "note": "ü"},
        "snapshot": None,
        "quiet_writes": [[11, [0]]],
        "clock": {"bank": {"0": 12.5}},
        "next_deadline": None,
        "finished_at": timezone.now() - timedelta(seconds=3),
    }
    fields = list(changes)
    untouched = columns(Match.objects.get(pk=by_sql.pk))
    for match in (by_orm, by_sql):
        for name, value in changes.items():
            setattr(match, name, value)
    by_orm.save(update_fields=fields)
    with CaptureQueriesContext(connection) as queries:
        locked_writes.update_match(by_sql, [*fields, "version"])  # a field named twice is written once
    assert len(queries.captured_queries) == 1
    written = columns(Match.objects.get(pk=by_sql.pk))
    expected = columns(Match.objects.get(pk=by_orm.pk))
    attnames = {f.attname for f in Match._meta.concrete_fields if f.name in fields}
    assert {k: written[k] for k in attnames} == {k: expected[k] for k in attnames}
    assert {k: v for k, v in written.items() if k not in attnames} == {
        k: v for k, v in untouched.items() if k not in attnames
    }
    assert written["snapshot"] is None and written["outcome"] == {"ranks": [2, 1], "note": "ü"}


def test_a_match_row_gone_is_an_error(make_user: Any) -> None:
    match, _ = started_match(make_user)
    Match.objects.filter(pk=match.pk).delete()
    with pytest.raises(DatabaseError):
        locked_writes.update_match(match, ["version"])


def test_the_receipt_is_the_orms_and_its_key_is_refused_twice(make_user: Any) -> None:
    match, _ = started_match(make_user)
    locked_writes.insert_receipt(match.pk, 1, "k" * 32, "digest", 7)
    receipt = ActionReceipt.objects.get(match=match, seat=1, key="k" * 32)
    assert (receipt.action, receipt.version) == ("digest", 7) and timezone.is_aware(receipt.created_at)
    with pytest.raises(IntegrityError), transaction.atomic():
        locked_writes.insert_receipt(match.pk, 1, "k" * 32, "other", 8)


def test_the_seats_given_one_key_are_marked_in_one_statement_and_no_other_seat(make_user: Any) -> None:
    match, _ = started_match(make_user, players=3)
    since = timezone.now() - timedelta(minutes=5)
    Seat.objects.filter(match=match).update(waiting_key="old", waiting_since=since, reminded_at=since)
    with CaptureQueriesContext(connection) as queries:
        locked_writes.mark_waiting(match.pk, [0, 2], "k7", since)
    assert len(queries.captured_queries) == 1
    locked_writes.mark_waiting(match.pk, [1], "", None)
    seats = {s.number: (s.waiting_key, s.waiting_since, s.reminded_at) for s in Seat.objects.filter(match=match)}
    assert seats == {0: ("k7", since, None), 1: ("", None, None), 2: ("k7", since, None)}
    other, _ = started_match(make_user, players=3)
    assert all(s.reminded_at is None and s.waiting_key != "k7" for s in Seat.objects.filter(match=other))


def test_a_name_that_is_no_column_of_the_match_row_is_refused_before_any_query(make_user: Any) -> None:
    match, _ = started_match(make_user)
    with CaptureQueriesContext(connection) as queries, pytest.raises(ValueError, match="seats"):
        locked_writes.update_match(match, ["version", "seats"])  # a reverse relation, not a column
    assert queries.captured_queries == []
