"""A move's pushes rendered while its write is on the wire (games.play.render_ahead), on PostgreSQL.

The render is kept only when the write confirms the revision and the seats it was rendered for;
otherwise it is dropped, leaves nothing in the process's caches, and the pushes are rendered after
the write as before. On SQLite (the ORM path, no statement on the wire) nothing is rendered ahead.
test_fragment_pushes checks that the pushes rendered ahead rebuild the boards a full render gives.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Match, Seat
from games.play import guarded, services, store, write_paths
from games.play import render_ahead as speculation
from games.play.bounded_cache import BoundedCache
from games.push import presenter, pushes
from games.push.presenter import forget_log_cache, log_lines

from .helpers import random_move, started_match

pytestmark = pytest.mark.django_db(transaction=True)  # autocommit, as a server writes


def choose(match_id: int, seat: int, **kwargs: Any) -> services.SubmitResult:
    return services.do_submit_action(match_id, seat, {"type": "choose", "roles": ["THUG"]}, **kwargs)


def written_by_another_process(match_id: int, write: Callable[[], services.SubmitResult]) -> services.SubmitResult:
    """``write()``, then this process forgets it made it: its cached row, state, foreseen seats and
    kept log lines are as before, as if another process (another daphne, the Celery worker) had
    written."""
    before = store.cached_move_base(match_id)
    seats_before = guarded._seats_after.get(match_id)
    log_before = list(presenter._log_cache._entries.items())
    assert before is not None or not guarded.enabled()
    result = write()
    presenter._log_cache.clear()
    presenter._log_cache.put_many(log_before)
    if before is not None:
        store.remember(match_id, before[0].version, before[1])
        store.remember_row(before[0])
    if seats_before is not None:
        guarded._seats_after.put(match_id, seats_before)
    return result


class Recorder:
    """What ``publish`` was handed and what reached the channel layer, move by move."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.ahead: list[bool] = []
        self.sent: list[list[tuple[str, dict[str, Any]]]] = []
        real_publish, real_send = pushes.publish, pushes.send_many

        def publish(*args: Any, **hints: Any) -> None:
            self.ahead.append(hints.get("ahead") is not None)
            real_publish(*args, **hints)

        def send_many(messages: list[tuple[str, dict[str, Any]]]) -> None:
            self.sent.append(list(messages))
            real_send(messages)

        monkeypatch.setattr(pushes, "publish", publish)
        monkeypatch.setattr(pushes, "send_many", send_many)

    def seats_sent(self) -> list[int]:
        """The seats whose part the last move's players' message carried."""
        return sorted(part["seat"] for _group, m in self.sent[-1] if m["type"] == "seats.update" for part in m["seats"])


def test_held_entries_reach_a_cache_only_when_committed() -> None:
    cache: BoundedCache[str, int] = BoundedCache(8, revision_keyed=True)
    plain: BoundedCache[str, int] = BoundedCache(8)
    cache.put("kept", 1)
    with speculation.rendering() as held:
        cache.put("kept", 2)
        cache.put("new", 3)
        plain.put("plain", 4)  # not keyed by a revision: stored at once
        assert (cache.get("kept"), cache.get("new")) == (2, 3)  # the render reads what it stored
    assert (cache.get("kept"), cache.get("new"), plain.get("plain")) == (1, None, 4)
    held.commit()
    assert (cache.get("kept"), cache.get("new")) == (2, 3)
    with speculation.rendering():
        cache.put("kept", 5)  # dropped with its render
    assert cache.get("kept") == 2


def test_a_move_is_rendered_ahead_unless_its_seats_changed_meanwhile(make_user: Any, monkeypatch: Any) -> None:
    """A socket that closed in another process since this one's last write changes the seats the
    write returns: the render done for the foreseen seats is dropped, and the push goes to the seats
    as they are."""
    match, _ = started_match(make_user)
    Seat.objects.filter(match=match).update(open_sockets=1)
    recorder = Recorder(monkeypatch)
    choose(match.pk, 0)  # this process writes the match: its seats are foreseen from now on
    choose(match.pk, 1)
    assert recorder.ahead[-1] == guarded.enabled()
    assert recorder.seats_sent() == [0, 1, 2, 3]
    Seat.objects.filter(match=match, number=0).update(open_sockets=0)
    choose(match.pk, 2)
    assert recorder.ahead[-1] is False
    assert recorder.seats_sent() == [1, 2, 3]
    choose(match.pk, 3)
    assert recorder.ahead[-1] == guarded.enabled()  # foreseen again from the write before
    assert recorder.seats_sent() == [1, 2, 3]


def test_a_render_ahead_that_needs_the_database_is_dropped(make_user: Any, monkeypatch: Any) -> None:
    """With no log lines kept, the log's events must be read, but the connection waits for the write:
    the render stops at its first query (none is sent, none is logged) and the push follows the write."""
    match, _ = started_match(make_user)
    Seat.objects.filter(match=match).update(open_sockets=1)
    recorder = Recorder(monkeypatch)
    choose(match.pk, 0)
    forget_log_cache()
    with CaptureQueriesContext(connection) as queries:
        result = choose(match.pk, 1)
    assert recorder.ahead[-1] is False
    assert all(q["sql"] for q in queries.captured_queries), queries.captured_queries
    assert recorder.seats_sent() == [0, 1, 2, 3]
    assert result.version == Match.objects.get(pk=match.pk).version


def test_a_write_the_guard_refuses_keeps_nothing_its_render_ahead_stored(make_user: Any, monkeypatch: Any) -> None:
    """Another process moved the match on: this one's render for the revision it foresaw is dropped
    (the board kept for that revision is still the other move's), and the move is decided again."""
    match, by_seat = started_match(make_user)
    Seat.objects.filter(match=match).update(open_sockets=1)
    choose(match.pk, 0)
    choose(match.pk, 1)
    other = written_by_another_process(match.pk, lambda: choose(match.pk, 2))
    assert other.revision is not None
    board_key = (match.pk, other.revision, by_seat[0].pk, "en", "board")
    others_board = pushes._rendered.get(board_key)
    assert others_board is not None
    real_render_ahead = pushes.render_ahead
    rendered: list[int] = []

    def render_ahead(match: Match, *args: Any, **kwargs: Any) -> pushes.RenderedAhead | None:
        ahead = real_render_ahead(match, *args, **kwargs)
        if ahead is not None:
            rendered.append(match.revision)
        return ahead

    monkeypatch.setattr(pushes, "render_ahead", render_ahead)
    result = choose(match.pk, 3)
    if guarded.enabled():
        # Rendered ahead for the revision the other move took, refused; caught up (the row, the events
        # and the seats in one round trip), decided again and rendered ahead for the next revision.
        assert rendered == [other.revision, other.revision + 1]
    assert pushes._rendered.get(board_key) is others_board
    assert result.revision == other.revision + 1
    assert store.cached_move_base(match.pk) is not None
    state = store.load_state(Match.objects.get(pk=match.pk))
    assert state == store.rebuild_from_log(Match.objects.get(pk=match.pk))


def test_a_blind_move_from_a_newer_board_catches_up_before_it_is_decided(make_user: Any) -> None:
    """A secret choice is decided on what the process holds, whatever board its sender saw; but a
    sender who saw a version newer than the process's (another process wrote it: a timed step the
    worker wrote) shows that what it holds is out of date. Decided on that, the move would only be
    refused by the guard, after its statement was sent and its pushes rendered: the process catches
    up first (the row, the events and the seats, one query), then sends the one statement that is written."""
    match, _ = started_match(make_user)
    Seat.objects.filter(match=match).update(open_sockets=1)
    choose(match.pk, 0)
    choose(match.pk, 1)
    other = written_by_another_process(match.pk, lambda: choose(match.pk, 2))
    with CaptureQueriesContext(connection) as queries:
        result = choose(match.pk, 3, expected_version=other.version)
    assert result.version == Match.objects.get(pk=match.pk).version > other.version
    if guarded.enabled():
        sent = [q["sql"].split()[0] for q in queries.captured_queries]
        assert sent == ["SELECT", "WITH"], sent  # no statement sent on the old state


def test_a_move_after_another_process_write_is_rendered_ahead_with_the_log_a_full_render_gives(
    make_user: Any, monkeypatch: Any
) -> None:
    """Catching up with another process's write reads the seats and the events with the row, in one
    query: the next move foresees its seats, and its log lines take the events read (kept by
    ``store.keep_events``), so its pushes are rendered ahead of its write. What each seat is sent
    is what a render from the database gives."""
    match, by_seat = started_match(make_user)
    Seat.objects.filter(match=match).update(open_sockets=1)
    recorder = Recorder(monkeypatch)
    choose(match.pk, 0)
    choose(match.pk, 1)
    other = written_by_another_process(match.pk, lambda: choose(match.pk, 2))
    with CaptureQueriesContext(connection) as queries:
        result = choose(match.pk, 3, expected_version=other.version)
    if not guarded.enabled():
        assert recorder.ahead[-1] is False  # SQLite: the ORM path renders after its write
        return
    assert [q["sql"].split()[0] for q in queries.captured_queries] == ["SELECT", "WITH"]
    assert recorder.ahead[-1] is True
    pushed = {
        part["seat"]: part for _group, m in recorder.sent[-1] if m["type"] == "seats.update" for part in m["seats"]
    }
    assert sorted(pushed) == [0, 1, 2, 3]
    assert store.kept_events(match.pk).keys() == set(range(other.version - len(other.events) + 1, other.version + 1))
    row = Match.objects.get(pk=match.pk)
    assert row.version == result.version
    kept = {number: log_lines(row, number) for number in by_seat}  # as the render ahead left them
    forget_log_cache()
    for number, user in by_seat.items():
        part = pushed[number]
        assert (part["version"], part["log_after"]) == (row.version, other.version)
        assert kept[number] == log_lines(row, number), number  # read back from the database
        pushes.forget_rendered()
        full = pushes.render_seat(row, user, {"log"})
        assert part["log_add"] and part["log_add"] in full.log_html, (number, part["log_add"])


def test_a_process_that_holds_nothing_of_a_match_reads_it_in_one_query_and_renders_ahead(
    make_user: Any, monkeypatch: Any
) -> None:
    """A process that never saw the match (a daphne's first move in it, or after a restart) reads
    the row, the whole log since the start and the seats in one query: the state is the log's, and
    the move's pushes, log lines included, are rendered ahead of its write."""
    match, _ = started_match(make_user)
    Seat.objects.filter(match=match).update(open_sockets=1)
    choose(match.pk, 0)
    choose(match.pk, 1)
    store.forget_all()
    forget_log_cache()
    before = Match.objects.get(pk=match.pk).version
    recorder = Recorder(monkeypatch)
    with CaptureQueriesContext(connection) as queries:
        choose(match.pk, 2)
    row = Match.objects.get(pk=match.pk)
    assert store.load_state(row) == store.rebuild_from_log(row)
    if guarded.enabled():
        assert [q["sql"].split()[0] for q in queries.captured_queries] == ["SELECT", "WITH"]
        assert recorder.ahead[-1] is True
        assert sorted(store.kept_events(match.pk)) == list(range(1, before + 1))


def test_a_cold_catch_up_starts_from_the_snapshot(make_user: Any) -> None:
    """Past a snapshot, a process that holds nothing of the match replays only the events after it,
    read with the row: the state is still the whole log's."""
    match, _ = started_match(make_user)
    rng = random.Random(7)
    while Match.objects.get(pk=match.pk).snapshot_version == 0 and random_move(match.pk, rng):
        pass
    row = Match.objects.get(pk=match.pk)
    assert row.snapshot_version > 0, "the match ended before its first snapshot"
    store.forget_all()
    if guarded.enabled():
        assert write_paths.refresh_cache(match.pk) is True
        assert sorted(store.kept_events(match.pk)) == list(range(row.snapshot_version + 1, row.version + 1))
        cached = store.cached_move_base(match.pk)
        assert cached is not None and cached[0].version == row.version
        assert cached[1] == store.rebuild_from_log(row)
