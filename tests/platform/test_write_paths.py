"""The two write paths: one guarded statement on PostgreSQL, the locking ORM path on SQLite.

The rest of the service tests (races, stale versions, idempotency keys, replay) run on whichever
database the suite uses, so CI runs them against both paths; these pin down which path wrote.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Match, MatchEvent, Profile, RatingChange
from games.play import guarded, services, store, write_paths
from games.push import pushes

from .helpers import as_orm_gives, choose_all, count_calls, started_match, state_of

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_guarded_statement_writes_moves_on_postgresql_only() -> None:
    assert guarded.enabled() == (connection.vendor == "postgresql")


def test_a_move_on_a_warm_cache_is_one_round_trip_on_postgresql(make_user: Any, monkeypatch: Any) -> None:
    match, _ = started_match(make_user)
    monkeypatch.setattr(pushes, "publish", lambda *a, **k: None)  # count the write alone
    monkeypatch.setattr(pushes, "render_ahead", lambda *a, **k: None)  # nor the render meanwhile
    with CaptureQueriesContext(connection) as queries:
        result = services.do_submit_action(
            match.pk, 0, {"type": "choose", "roles": ["GOON"]}, expected_version=match.version, idempotency_key="k1"
        )
    statements = [q["sql"] for q in queries.captured_queries]
    if guarded.enabled():
        assert len(statements) == 1, statements
        assert statements[0].lstrip().startswith("WITH m AS (")
    else:
        assert len(statements) > 1  # the ORM path: lock, events, match, receipt
    assert result.version == match.version + 1
    assert MatchEvent.objects.filter(match=match).count() == result.version
    assert state_of(match) == store.rebuild_from_log(match)


def test_a_move_decided_on_a_stale_cache_is_decided_again_on_the_fresh_state(make_user: Any) -> None:
    """Another process moved the match on: the guard writes nothing and the ORM path decides anew."""
    match, _ = started_match(make_user)
    choose_all(match)
    match.refresh_from_db()
    old = store.cached_move_base(match.pk)
    services.do_submit_action(match.pk, 1, {"type": "commit"}, expected_version=match.version)
    if old is not None:  # pretend this process never saw that move
        store.remember(match.pk, old[0].version, old[1])
        store.remember_row(old[0])
    result = services.do_submit_action(match.pk, 0, {"type": "commit"})
    match.refresh_from_db()
    assert result.version == match.version
    seqs = list(MatchEvent.objects.filter(match=match).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, match.version + 1))
    assert state_of(match) == store.rebuild_from_log(match)


def test_a_stale_expected_version_is_refused_on_both_paths(make_user: Any) -> None:
    match, _ = started_match(make_user)
    choose_all(match)
    match.refresh_from_db()
    services.do_submit_action(match.pk, 1, {"type": "commit"}, expected_version=match.version)
    with pytest.raises(services.StaleVersion):
        services.do_submit_action(match.pk, 0, {"type": "commit"}, expected_version=match.version)


def test_a_stale_move_is_refused_on_a_warm_cache_without_the_lock_on_postgresql(make_user: Any) -> None:
    """A board older than the cached version is out of date whatever the database holds now."""
    match, _ = started_match(make_user)
    choose_all(match)
    match.refresh_from_db()
    services.do_submit_action(match.pk, 1, {"type": "commit"}, expected_version=match.version)
    with CaptureQueriesContext(connection) as queries, pytest.raises(services.StaleVersion):
        services.do_submit_action(match.pk, 0, {"type": "commit"}, expected_version=match.version)
    if guarded.enabled():
        assert queries.captured_queries == []
    assert MatchEvent.objects.filter(match=match).count() == match.version + 1


def test_a_blind_action_on_an_older_board_is_one_round_trip_on_postgresql(make_user: Any, monkeypatch: Any) -> None:
    """heist's secret choice does not depend on the board its sender saw: it is accepted on the
    guarded path too, not sent to the locking one."""
    match, _ = started_match(make_user)
    seen = match.version
    services.do_submit_action(match.pk, 0, {"type": "choose", "roles": ["GOON"]}, expected_version=seen)
    monkeypatch.setattr(pushes, "publish", lambda *a, **k: None)  # count the write alone
    with CaptureQueriesContext(connection) as queries:
        result = services.do_submit_action(match.pk, 1, {"type": "choose", "roles": ["THUG"]}, expected_version=seen)
    assert result.version == seen + 2
    if guarded.enabled():
        assert len(queries.captured_queries) == 1, queries.captured_queries
        assert queries.captured_queries[0]["sql"].lstrip().startswith("WITH m AS (")
    assert MatchEvent.objects.filter(match=match).count() == seen + 2
    match.refresh_from_db()
    assert state_of(match) == store.rebuild_from_log(match)


def test_item10_idempotency_keys_belong_to_their_seat(make_user: Any) -> None:
    """Another seat's move with a key already used is its own move; the same seat reusing a key for
    another action is refused clearly, and a true resubmission is answered, on both write paths."""
    match, _ = started_match(make_user)
    first = services.do_submit_action(match.pk, 0, {"type": "choose", "roles": ["GOON"]}, idempotency_key="same")
    other = services.do_submit_action(match.pk, 1, {"type": "choose", "roles": ["THUG"]}, idempotency_key="same")
    assert not other.duplicate and other.version == first.version + 1
    again = services.do_submit_action(match.pk, 0, {"type": "choose", "roles": ["GOON"]}, idempotency_key="same")
    assert again.duplicate and again.version == first.version
    with pytest.raises(services.ServiceError) as refused:
        services.do_submit_action(match.pk, 0, {"type": "choose", "roles": ["THUG"]}, idempotency_key="same")
    assert refused.value.status == 409 and "another action" in refused.value.message
    assert MatchEvent.objects.filter(match=match).count() == other.version


def test_the_guarded_statement_is_prepared_once_and_planned_once_per_connection(make_user: Any) -> None:
    """Planning the statement for each move cost PostgreSQL more than running it (decision 0002).

    SQLite writes by the ORM path, which prepares nothing (CI's second pass runs this on PostgreSQL).
    The pool may hand this test a connection that other tests wrote live games' moves on, which holds
    the statement's other form (without the seats) too; psycopg prepares a form once for each set of
    parameter types (a key given or not)."""
    match, _ = started_match(make_user)
    services.do_submit_action(match.pk, 0, {"type": "choose", "roles": ["GOON"]}, expected_version=match.version)
    services.do_submit_action(match.pk, 1, {"type": "choose", "roles": ["GOON"]})
    if connection.vendor != "postgresql":
        assert not guarded.enabled()
        return
    profile_table = Profile._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements"
            " WHERE statement LIKE '%%WITH m AS (%%'"
        )
        rows = cursor.fetchall()
    with_seats = [generic for text, generic, _custom in rows if profile_table in text]
    # A board game's moves use the form that returns the seats: prepared at most once for each set of
    # parameter types, and this test's two moves planned on the same generic plan.
    assert 1 <= len(with_seats) <= 2 and max(with_seats) >= 2, rows
    assert all(custom == 0 for _text, _generic, custom in rows)


@pytest.mark.parametrize("guarded_write", [True, False], ids=["guarded where it can", "locking"])
def test_the_write_reads_the_seats_the_pushes_need_as_they_are_after_it(
    make_user: Any, monkeypatch: Any, settings: Any, guarded_write: bool
) -> None:
    """The push after a move asks no query of its own for the seats: the write read them, with the
    waiting marks it wrote, as a fresh read gives them. On PostgreSQL the guarded statement returned
    them (its times read by psycopg's own loader: the same datetimes as Django's, in the same zone
    object); the locking path (SQLite's, PostgreSQL's fallback) read them beside the match row."""
    from games.models import Seat
    from games.play import seat_rows

    settings.HIDEOUT_GUARDED_WRITE = guarded_write
    match, _ = started_match(make_user)
    Seat.objects.filter(match=match, number__in=(1, 3)).update(open_sockets=1)
    handed: list[Any] = []
    monkeypatch.setattr(pushes, "publish", lambda *a, **k: handed.append(k))
    result = services.do_submit_action(
        match.pk, 2, {"type": "choose", "roles": ["THUG"]}, expected_version=match.version, user_id=None
    )
    assert result.version == match.version + 1
    (hints,) = handed
    fresh = seat_rows.seats_of(match.pk)
    assert as_orm_gives(hints["seats"]) == as_orm_gives(fresh)
    assert fresh[2].waiting_since is None and fresh[0].waiting_since is not None  # the write marked seat 2 done
    assert hints["audience"] == [(s.number, s.user_id) for s in fresh if s.number in (1, 3)]
    with CaptureQueriesContext(connection) as queries:
        pushes._publish(match, {}, None, False, True, None, False, hints["seats"])
    assert not any("games_seat" in q["sql"] for q in queries.captured_queries)


def counting_decisions(monkeypatch: Any) -> list[int]:
    """Count the moves the stores decide (each call of ``decision.decide``)."""
    return count_calls(monkeypatch, write_paths, "decide")


def test_a_move_is_decided_once_and_twice_at_most_when_the_cache_was_stale(make_user: Any, monkeypatch: Any) -> None:
    """Both stores write what one decision returned: a move on a current cache (or under the lock)
    is decided once; one decided on a stale cache is decided once more, on the state caught up."""
    match, _ = started_match(make_user)
    choose_all(match)
    match.refresh_from_db()
    old = store.cached_move_base(match.pk)
    made = counting_decisions(monkeypatch)
    services.do_submit_action(match.pk, 1, {"type": "commit"}, expected_version=match.version)
    assert len(made) == 1
    if old is not None:  # pretend this process never saw that move
        store.remember(match.pk, old[0].version, old[1])
        store.remember_row(old[0])
    made.clear()
    result = services.do_submit_action(match.pk, 0, {"type": "commit"})
    assert len(made) == (2 if guarded.enabled() else 1)
    assert result.version == Match.objects.get(pk=match.pk).version


def test_a_finishing_move_is_decided_once_unless_the_locked_row_moved_on(make_user: Any, monkeypatch: Any) -> None:
    """On PostgreSQL the guarded path decides a finishing move, and that decision is written with
    its ratings when the locked row passes the statement's guard (same version and clock): one
    decision. A row whose clock changed meanwhile is decided again, under the lock."""
    for clock_moved in (False, True):
        match, _users = started_match(make_user, "police_alarm", players=3)
        services.do_resign(match.pk, 0)  # not the end, and the cache is warm
        made = counting_decisions(monkeypatch)
        if clock_moved:  # after the guarded path read its cached row, before the lock reads the row
            real = write_paths.lock_if_current

            def moved(cached: Match, real: Any = real) -> Any:
                Match.objects.filter(pk=cached.pk).update(clock={"banks": {"2": 5.0}})
                return real(cached)

            monkeypatch.setattr(write_paths, "lock_if_current", moved)
        services.do_resign(match.pk, 1)  # the end
        monkeypatch.undo()
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED
        assert len(made) == (1 + clock_moved if guarded.enabled() else 1)
        assert RatingChange.objects.filter(match=match).count() == 3


def test_a_move_out_of_turn_on_a_current_cache_is_refused_after_one_query(make_user: Any) -> None:
    """The engine's refusal (here: not the seat's turn) is answered once one query confirms that the
    cached row is the match's current one, as the lock would answer it."""
    match, _ = started_match(make_user)
    choose_all(match)
    match.refresh_from_db()
    services.do_submit_action(match.pk, 1, {"type": "commit"}, expected_version=match.version)
    version = Match.objects.get(pk=match.pk).version
    with CaptureQueriesContext(connection) as queries, pytest.raises(services.ServiceError) as refused:
        services.do_submit_action(match.pk, 1, {"type": "commit"}, expected_version=version)
    assert refused.value.status == 422, refused.value.message
    if guarded.enabled():
        assert len(queries.captured_queries) == 1, queries.captured_queries
    assert Match.objects.get(pk=match.pk).version == version


@pytest.mark.django_db
def test_a_match_row_without_its_snapshot_holds_every_other_column(make_user: Any) -> None:
    """The write path reads the match row with every column but ``snapshot`` (a state's whole JSON):
    a column left out would be read again by a query of its own each time the move used it."""
    match, _ = started_match(make_user)
    with CaptureQueriesContext(connection) as queries:
        row = Match.objects.without_snapshot().get(pk=match.pk)
        others = [field.attname for field in Match._meta.concrete_fields if field.name != "snapshot"]
        values = {name: getattr(row, name) for name in others}
    assert row.get_deferred_fields() == {"snapshot"}
    assert len(queries) == 1, "every column but the snapshot came with the row"
    assert values["version"] == match.version and values["status"] == Match.Status.ACTIVE
