"""The write path: one event sequence per match, versions, idempotency, replay, lobby rules."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction

from games.engines.base import SYSTEM
from games.models import ActionReceipt, Match, MatchEvent, Seat
from games.play import services, store

from .helpers import choose_all, started_match, state_of

pytestmark = pytest.mark.django_db(transaction=True)


def test_start_seats_players_and_records_the_start(make_user: Any) -> None:
    match, by_seat = started_match(make_user)
    assert match.status == Match.Status.ACTIVE
    assert sorted(by_seat) == [0, 1, 2, 3]
    first = MatchEvent.objects.filter(match=match).first()
    assert first is not None and first.type == "game_started"
    assert match.version == MatchEvent.objects.filter(match=match).count()
    assert state_of(match).phase == "planning"


def test_only_the_host_starts_and_only_when_full(make_user: Any) -> None:
    host, guest = make_user(), make_user()
    match = services.do_create_match(host, "heist", 4, {}, 60)
    services.do_join_match(match.pk, guest)
    with pytest.raises(services.NotAllowed):
        services.do_start_match(match.pk, guest)
    with pytest.raises(services.ServiceError) as info:
        services.do_start_match(match.pk, host)
    assert info.value.status == 409
    services.do_add_bot(match.pk, host)
    services.do_add_bot(match.pk, host)
    with pytest.raises(services.ServiceError):
        services.do_join_match(match.pk, make_user())  # full
    services.do_start_match(match.pk, host)


def test_a_start_the_deadline_sweep_made_first_is_no_error_for_the_host(make_user: Any, monkeypatch: Any) -> None:
    """The beat's sweep may find the match active and waiting for its start between the host's
    commit and the host's start action: the match starts once and the host sees it started."""
    host = make_user()
    match = services.do_create_match(host, "heist", 4, {}, 60)
    for _ in range(3):
        services.do_add_bot(match.pk, host)
    submit = services.do_submit_action

    def sweep_first(match_id: int, seat: int, payload: dict[str, Any], **kwargs: Any) -> Any:
        monkeypatch.setattr(services, "do_submit_action", submit)
        services.do_advance(match_id, limit=1)  # what tasks.sweep_deadlines queues for such a match
        return submit(match_id, seat, payload, **kwargs)

    monkeypatch.setattr(services, "do_submit_action", sweep_first)
    started = services.do_start_match(match.pk, host)
    assert started.status == Match.Status.ACTIVE and started.version >= 1
    assert MatchEvent.objects.filter(match=match, type="game_started").count() == 1


def test_seat_count_is_checked_against_the_game(make_user: Any) -> None:
    with pytest.raises(services.ServiceError):
        services.do_create_match(make_user(), "heist", 9, {}, 60)


def test_leave_before_start_frees_the_seat_and_the_host_leaving_cancels(make_user: Any) -> None:
    host, guest = make_user(), make_user()
    match = services.do_create_match(host, "heist", 4, {}, 60)
    services.do_join_match(match.pk, guest)
    services.do_leave_match(match.pk, guest)
    assert not Seat.objects.filter(match=match, user=guest).exists()
    services.do_leave_match(match.pk, host)
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED


def test_stale_version_is_refused_and_changes_nothing(make_user: Any) -> None:
    match, _ = started_match(make_user)
    choose_all(match)
    match.refresh_from_db()
    before = (match.version, MatchEvent.objects.filter(match=match).count())
    with pytest.raises(services.StaleVersion) as info:
        services.do_submit_action(match.pk, 0, {"type": "commit"}, expected_version=match.version - 1)
    assert info.value.status == 409
    match.refresh_from_db()
    assert (match.version, MatchEvent.objects.filter(match=match).count()) == before


def test_resubmitted_idempotency_key_is_answered_not_applied_twice(make_user: Any) -> None:
    match, _ = started_match(make_user)
    first = services.do_submit_action(
        match.pk, 0, {"type": "choose", "roles": ["THUG"]}, expected_version=match.version, idempotency_key="k1"
    )
    again = services.do_submit_action(
        match.pk, 0, {"type": "choose", "roles": ["THUG"]}, expected_version=match.version, idempotency_key="k1"
    )
    assert again.duplicate and again.version == first.version
    assert MatchEvent.objects.filter(match=match, type="role_chosen").count() == 1
    assert ActionReceipt.objects.filter(match=match, key="k1").count() == 1


@pytest.mark.parametrize(
    ("payload", "status"),
    [
        ({"type": "no-such-action"}, 400),
        ({"type": "choose", "roles": ["NOBODY"]}, 400),
        ({"type": "withdraw", "slot": "one"}, 400),
        ({"type": "choose", "roles": ["MASTERMIND"]}, 422),  # not owned at 4 players (heist spec, section 3)
        ({"type": "commit"}, 422),  # not negotiation yet
    ],
)
def test_bad_input_gets_a_message_and_changes_nothing(make_user: Any, payload: dict[str, Any], status: int) -> None:
    match, _ = started_match(make_user)
    version = match.version
    with pytest.raises(services.ServiceError) as info:
        services.do_submit_action(match.pk, 0, payload)
    assert info.value.status == status
    assert info.value.message
    match.refresh_from_db()
    assert match.version == version


def test_out_of_turn_is_refused(make_user: Any) -> None:
    match, _ = started_match(make_user)
    services.do_submit_action(match.pk, 0, {"type": "choose", "roles": ["THUG"]})
    with pytest.raises(services.ServiceError) as info:
        services.do_submit_action(match.pk, 0, {"type": "choose", "roles": ["GOON"]})
    assert info.value.status == 422


def test_unique_match_seq_is_enforced_by_the_database(make_user: Any) -> None:
    match, _ = started_match(make_user)
    with pytest.raises(IntegrityError), transaction.atomic():
        MatchEvent.objects.create(match=match, seq=1, actor=SYSTEM, type="forged", data={})


def test_replay_with_snapshot_and_cache_equals_full_replay(make_user: Any, monkeypatch: Any) -> None:
    monkeypatch.setattr(store, "SNAPSHOT_EVERY", 5)
    match, _ = started_match(make_user)
    services.do_replace_with_bot(match.pk, 0)
    for seat in (1, 2, 3):
        services.do_replace_with_bot(match.pk, seat)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.snapshot is not None and match.snapshot_version > 0
    live = store.load_state(match)
    store.forget_all()
    from_snapshot = store.load_state(match)
    assert live == from_snapshot == store.rebuild_from_log(match)
    assert match.outcome is not None and match.outcome["winners"]


def test_events_read_by_plain_query_are_the_events_the_orm_reads(make_user: Any) -> None:
    match, _ = started_match(make_user)
    for seat in (0, 1, 2, 3):
        services.do_replace_with_bot(match.pk, seat)
    match.refresh_from_db()
    rows = MatchEvent.objects.filter(match=match).order_by("seq")
    through_orm = [row.to_event() for row in rows]
    assert any(event.secret is not None for event in through_orm)  # secrets and who sees them, decoded alike
    assert any(event.visible_to for event in through_orm)
    assert store.events_between(match, 0, match.version) == through_orm
    assert store.events_between(match, 3, 7) == through_orm[3:7]
    assert store.events_between(match, 7, 7) == []


def test_a_match_of_bots_plays_to_the_end(make_user: Any) -> None:
    host = make_user()
    match = services.do_create_match(host, "heist", 5, {"quick": True}, 60)
    for _ in range(4):
        services.do_add_bot(match.pk, host)
    services.do_start_match(match.pk, host)
    services.do_replace_with_bot(match.pk, match.seats.get(user=host).number)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.outcome is not None and len(match.outcome["scores"]) == 5
    assert not Seat.objects.filter(match=match, waiting_since__isnull=False).exists()


def test_waiting_seats_are_marked_for_your_turn(make_user: Any) -> None:
    match, _ = started_match(make_user)
    assert Seat.objects.filter(match=match, waiting_since__isnull=False).count() == 4
    services.do_submit_action(match.pk, 2, {"type": "choose", "roles": ["THUG"]})
    assert not Seat.objects.get(match=match, number=2).waiting_since


def test_chat_rules(make_user: Any) -> None:
    match, _ = started_match(make_user)
    services.do_post_chat(match.pk, 0, "I am the driver")
    services.do_post_chat(match.pk, 0, "psst", to_seat=1)
    with pytest.raises(services.ServiceError):
        services.do_post_chat(match.pk, 0, "   ")
    with pytest.raises(services.ServiceError):
        services.do_post_chat(match.pk, 0, "me", to_seat=0)
    match.refresh_from_db()
    assert match.chat_version == 2


def test_a_process_reads_a_matchs_chat_once_per_chat_version(make_user: Any) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.push.presenter import chat_rows

    match, _ = started_match(make_user)
    services.do_post_chat(match.pk, 0, "first")
    with CaptureQueriesContext(connection) as queries:
        assert [m.text for m in chat_rows(Match.objects.get(pk=match.pk))] == ["first"]
        assert [m.text for m in chat_rows(Match.objects.get(pk=match.pk))] == ["first"]  # another match object
    assert sum("games_chatmessage" in q["sql"] for q in queries.captured_queries) == 1
    services.do_post_chat(match.pk, 1, "second")
    assert [m.text for m in chat_rows(Match.objects.get(pk=match.pk))] == ["second", "first"]


def test_withdrawn_player_cannot_chat_r22(make_user: Any) -> None:
    match, _ = started_match(make_user)
    choose_all(match)
    services.do_submit_action(match.pk, 0, {"type": "withdraw", "slot": 1})
    with pytest.raises(services.ServiceError) as info:
        services.do_post_chat(match.pk, 0, "hello")
    assert info.value.status == 422


def test_simultaneous_secret_choices_are_not_refused_as_stale_r14(make_user: Any) -> None:
    """Another player's secret choice changes nothing for mine: ``choose`` is a blind action."""
    match, _ = started_match(make_user)
    seen = match.version
    services.do_submit_action(match.pk, 1, {"type": "choose", "roles": ["THUG"]}, expected_version=seen)
    services.do_submit_action(match.pk, 0, {"type": "choose", "roles": ["GOON"]}, expected_version=seen)
    assert MatchEvent.objects.filter(match=match, type="role_chosen").count() == 2


def test_racing_submissions_for_one_version_produce_exactly_one_event(make_user: Any) -> None:
    match, _ = started_match(make_user)
    choose_all(match)
    match.refresh_from_db()
    version = match.version
    results: list[Any] = []
    barrier = threading.Barrier(2)

    def submit(payload: dict[str, Any]) -> None:
        barrier.wait()
        try:
            results.append(services.do_submit_action(match.pk, 0, payload, expected_version=version))
        except services.ServiceError as exc:
            results.append(exc)
        finally:
            connection.close()

    moves = ({"type": "commit"}, {"type": "withdraw", "slot": 1})
    threads = [threading.Thread(target=submit, args=(move,)) for move in moves]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    accepted = [r for r in results if isinstance(r, services.SubmitResult)]
    refused = [r for r in results if isinstance(r, services.ServiceError)]
    assert len(accepted) == 1 and len(refused) == 1
    assert refused[0].status == 409
    decided = MatchEvent.objects.filter(match=match, seq__gt=version, type__in=["hands_committed", "hand_withdrawn"])
    assert decided.filter(data__seat=0).count() == 1


def test_offers_are_not_refused_as_stale_but_decisions_are_r24_r25(make_user: Any) -> None:
    """Negotiation runs in real time: an offer made on a board one move old still counts, and its
    acceptance is checked against the state at that moment; a commit on an old board is refused."""
    match, _ = started_match(make_user)
    choose_all(match)
    match.refresh_from_db()
    seen = match.version
    services.do_submit_action(match.pk, 2, {"type": "withdraw", "slot": 1}, expected_version=seen)
    offer = {"type": "offer", "to_seat": 1, "direction": "pay", "amount": 1}
    services.do_submit_action(match.pk, 0, offer, expected_version=seen)
    created = MatchEvent.objects.get(match=match, type="offer_created")
    match.refresh_from_db()
    accept = {"type": "accept", "offer": created.data["offer"]}
    services.do_submit_action(match.pk, 3, {"type": "commit"}, expected_version=match.version)
    services.do_submit_action(match.pk, 1, accept, expected_version=match.version - 1)
    assert MatchEvent.objects.filter(match=match, type="offer_accepted").count() == 1
    with pytest.raises(services.StaleVersion):
        services.do_submit_action(match.pk, 1, {"type": "commit"}, expected_version=seen)
