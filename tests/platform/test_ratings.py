"""Ratings: written with the move that finishes a rated match, once, and equal to a recomputation."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

from games.models import Match, MatchEvent, Rating, RatingChange
from games.play import guarded, services, write_paths
from games.play.archive import export_match, import_match
from games.play.seat_rows import seats_of
from games.ratings import scale
from games.ratings.record import rate_finished, seat_rows_of

from .helpers import count_calls, random_move, started_match

pytestmark = pytest.mark.django_db(transaction=True)


def finished_by_resigning(make_user: Any, players: int = 2, resigning: tuple[int, ...] = (0,)) -> Match:
    match, _users = started_match(make_user, "police_alarm", players=players)
    for seat in resigning:
        services.do_resign(match.pk, seat)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


def skills() -> dict[tuple[int, str], tuple[float, float, int]]:
    return {(r.user_id, r.game): (r.mu, r.sigma, r.matches) for r in Rating.objects.all()}


def test_a_finished_match_of_people_changes_every_players_rating_once(make_user: Any) -> None:
    match = finished_by_resigning(make_user, players=3, resigning=(0, 1))
    changes = {c.seat: c for c in RatingChange.objects.filter(match=match)}
    assert sorted(changes) == [0, 1, 2]
    assert match.outcome is not None
    from games.ratings.rated import ranks_of

    # The two who resigned rank after the one who stayed, whatever the points say.
    ranks = ranks_of(match.outcome, [(seat, 0) for seat in range(3)], resigned=(0, 1))
    assert ranks[2] == 1 and min(ranks[0], ranks[1]) == 2
    expected = scale.rate([scale.initial()] * 3, ranks)
    assert scale.shown_change(scale.initial(), expected[2]) > 0 > scale.shown_change(scale.initial(), expected[0])
    for seat, change in changes.items():
        assert (change.mu_before, change.sigma_before) == scale.initial()
        assert (change.mu_after, change.sigma_after) == expected[seat]
        rating = Rating.objects.get(user_id=change.user_id, game="police_alarm")
        assert (rating.mu, rating.sigma, rating.matches) == (*expected[seat], 1)
        assert rating.ordinal == scale.ordinal(expected[seat])
    assert all(c.sigma_after < c.sigma_before for c in changes.values())  # every result teaches something


def test_ranks_order_the_changes_and_a_second_match_starts_from_the_first(make_user: Any) -> None:
    first = finished_by_resigning(make_user, players=2, resigning=(0,))
    assert first.outcome is not None
    winner = first.outcome["ranks"].index(min(first.outcome["ranks"]))
    change = {c.seat: c for c in RatingChange.objects.filter(match=first)}
    if len(set(first.outcome["ranks"])) == 2:
        assert scale.shown_change(*_skills(change[winner])) > 0 > scale.shown_change(*_skills(change[1 - winner]))
    # The same two play again: the second match's "before" is the first one's "after".
    users = {c.seat: c.user for c in change.values()}
    second = services.do_create_match(users[0], "police_alarm", 2, {}, 60)
    services.do_join_match(second.pk, users[1])
    services.do_start_match(second.pk, users[0])
    services.do_resign(second.pk, 0)
    for c in RatingChange.objects.filter(match=second):
        previous = RatingChange.objects.get(match=first, user=c.user)
        assert (c.mu_before, c.sigma_before) == (previous.mu_after, previous.sigma_after)
        assert Rating.objects.get(user=c.user, game="police_alarm").matches == 2


def _skills(change: RatingChange) -> tuple[scale.Skill, scale.Skill]:
    return (change.mu_before, change.sigma_before), (change.mu_after, change.sigma_after)


def test_a_recomputation_from_scratch_equals_the_stored_ratings(make_user: Any) -> None:
    for players, resigning in ((2, (0,)), (3, (0, 1)), (2, (1,)), (3, (2, 0))):
        finished_by_resigning(make_user, players, resigning)
    stored = skills()
    changes = sorted(RatingChange.objects.values_list("match_id", "user_id", "mu_after", "sigma_after"))
    assert len(stored) == 10
    call_command("recompute_ratings", "--check")  # raises CommandError on any difference
    call_command("recompute_ratings")
    assert skills() == stored
    assert sorted(RatingChange.objects.values_list("match_id", "user_id", "mu_after", "sigma_after")) == changes


def test_the_check_names_a_stored_rating_that_differs(make_user: Any) -> None:
    finished_by_resigning(make_user)
    Rating.objects.filter(pk=Rating.objects.first().pk).update(mu=30.0)  # type: ignore[union-attr]
    with pytest.raises(CommandError, match="1 differences"):
        call_command("recompute_ratings", "--check")
    call_command("recompute_ratings")
    call_command("recompute_ratings", "--check")


def test_a_match_with_a_bot_or_aborted_changes_no_rating(make_user: Any) -> None:
    host = make_user()
    with_bot = services.do_create_match(host, "police_alarm", 2, {}, 60)
    services.do_add_bot(with_bot.pk, host)
    services.do_start_match(with_bot.pk, host)
    human = with_bot.seats.get(is_bot=False).number
    services.do_resign(with_bot.pk, human)
    with_bot.refresh_from_db()
    assert with_bot.status == Match.Status.FINISHED

    aborted, _users = started_match(make_user, "police_alarm", players=2)
    services.do_abort_match(aborted.pk)

    replaced, _users = started_match(make_user, "police_alarm", players=3)
    services.do_replace_with_bot(replaced.pk, 2)
    services.do_resign(replaced.pk, 0)
    services.do_resign(replaced.pk, 1)
    replaced.refresh_from_db()
    assert replaced.status == Match.Status.FINISHED

    assert not RatingChange.objects.exists()
    assert not Rating.objects.exists()
    call_command("recompute_ratings", "--check")  # and a recomputation agrees: none


def test_two_finishing_moves_at_once_make_one_event_and_one_rating_update(make_user: Any) -> None:
    match, _users = started_match(make_user, "police_alarm", players=2)
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def resign(seat: int) -> None:
        barrier.wait()
        try:
            services.do_resign(match.pk, seat)
            outcomes.append("written")
        except services.ServiceError:
            outcomes.append("refused")
        finally:
            connection.close()

    threads = [threading.Thread(target=resign, args=(seat,)) for seat in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(outcomes) == ["refused", "written"]
    assert MatchEvent.objects.filter(match=match, type="resigned").count() == 1
    assert RatingChange.objects.filter(match=match).count() == 2
    assert sorted(r.matches for r in Rating.objects.all()) == [1, 1]


def test_matches_with_players_in_common_finishing_at_once_are_both_rated(make_user: Any) -> None:
    """Two finishing moves of matches with the same three players: each takes the players' ratings
    in user order, so one waits for the other (no deadlock) and the second counts from the first."""
    users = [make_user() for _ in range(3)]
    matches = []
    for order in (users, users[::-1]):
        match = services.do_create_match(order[0], "police_alarm", 3, {}, 60)
        for user in order[1:]:
            services.do_join_match(match.pk, user)
        services.do_start_match(match.pk, order[0])
        services.do_resign(match.pk, 0)  # two of three left: the next resignation finishes it
        matches.append(match)
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def finish(match: Match) -> None:
        barrier.wait()
        try:
            services.do_resign(match.pk, 1)
        except BaseException as exc:  # a deadlock would surface here
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=finish, args=(match,)) for match in matches]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert errors == []
    assert all(Match.objects.get(pk=m.pk).status == Match.Status.FINISHED for m in matches)
    assert RatingChange.objects.count() == 6
    assert sorted(r.matches for r in Rating.objects.all()) == [2, 2, 2]
    call_command("recompute_ratings", "--check")  # the second match counted from the first's ratings


def test_the_same_match_is_refused_a_second_rating_by_the_database(make_user: Any) -> None:
    match = finished_by_resigning(make_user)
    before = skills()
    with pytest.raises(IntegrityError), transaction.atomic():
        rate_finished(match, match.outcome or {}, seat_rows_of(seats_of(match.pk)))
    assert skills() == before
    assert RatingChange.objects.filter(match=match).count() == 2


def test_a_move_that_does_not_finish_the_match_reads_no_rating(make_user: Any) -> None:
    match, _users = started_match(make_user, "heist", players=3)
    import random

    rng = random.Random(4)
    for _ in range(6):
        with CaptureQueriesContext(connection) as queries:
            random_move(match.pk, rng)
        assert not [q for q in queries.captured_queries if "rating" in q["sql"].lower()]
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE


def test_a_finishing_move_is_written_by_the_row_lock_with_its_ratings(make_user: Any, monkeypatch: Any) -> None:
    """On PostgreSQL the guarded path hands a finishing move on before sending anything: the row is
    locked and the ratings written in one transaction, then the move by the same statement as any
    other (SQLite: the locking path, which writes every move); any other move stays one statement."""
    match, _users = started_match(make_user, "police_alarm", players=3)
    services.do_resign(match.pk, 0)  # not the end: written as any move (and the cache is warm)
    assert not RatingChange.objects.exists()
    locked = count_calls(monkeypatch, write_paths, "write_finishing" if guarded.enabled() else "write_locked")
    rated_when_sent: list[int] = []
    real_send = guarded.send

    def send(*args: Any, **kwargs: Any) -> Any:
        rated_when_sent.append(RatingChange.objects.filter(match=match).count())  # in the same transaction
        return real_send(*args, **kwargs)

    monkeypatch.setattr(guarded, "send", send)
    services.do_resign(match.pk, 1)  # the end
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert len(locked) == 1
    # Sent once, under the lock with the ratings written: never before, on the cached row.
    assert rated_when_sent == ([3] if guarded.enabled() else [])
    assert RatingChange.objects.filter(match=match).count() == 3


def test_a_loaded_finished_match_is_rated_as_one_played_here(make_user: Any) -> None:
    played = finished_by_resigning(make_user, players=2, resigning=(1,))
    players = [make_user(), make_user()]
    loaded = import_match(export_match(played), players)
    assert loaded.status == Match.Status.FINISHED
    assert sorted(RatingChange.objects.filter(match=loaded).values_list("user_id", flat=True)) == sorted(
        u.pk for u in players
    )
    assert not import_match(export_match(played), [make_user(), None]).rating_changes.exists()  # a bot's
    call_command("recompute_ratings", "--check")


def test_a_player_who_resigned_ranks_below_every_player_who_did_not() -> None:
    """police_alarm ranks by points alone, so a resignation can leave a tie (or the leaver ahead):
    the rating never rewards leaving."""
    from games.ratings.rated import ranks_of

    players = [(0, 10), (1, 11), (2, 12)]
    assert ranks_of({"ranks": [1, 1, 3]}, players) == [1, 1, 2]
    assert ranks_of({"ranks": [1, 1, 3]}, players, resigned=[0]) == [3, 1, 2]
    assert ranks_of({"ranks": [1, 2, 2]}, players, resigned=[0, 1]) == [2, 3, 1]
