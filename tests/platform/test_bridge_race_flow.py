"""bridge_race on the platform: end-of-round steps as SYSTEM actions via Celery, bots, replay."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Match, MatchEvent, Seat
from games.play import services, store

pytestmark = pytest.mark.django_db(transaction=True)


def bot_race(make_user: Any, players: int, mode: str) -> Match:
    host = make_user()
    match = services.do_create_match(host, "bridge_race", players, {"mode": mode}, 60)
    for _ in range(players - 1):
        services.do_add_bot(match.pk, host)
    Seat.objects.filter(match=match, user=host).update(user=None, is_bot=True)
    services.do_start_match(match.pk, None)
    match.refresh_from_db()
    return match


@pytest.mark.parametrize(("players", "mode"), [(3, "standard"), (4, "first_game"), (5, "closed_border")])
def test_bots_race_to_the_finish_with_round_end_steps_by_system(make_user: Any, players: int, mode: str) -> None:
    """R-24 / R-96: police fire, crane and the next round are separate SYSTEM steps in the log."""
    match = bot_race(make_user, players, mode)
    assert match.status == Match.Status.FINISHED, match.version
    system = list(MatchEvent.objects.filter(match=match, actor=-1).values_list("type", flat=True))
    assert "POLICE_FIRE" in system and "CRANE" in system and "NEXT_ROUND" in system
    assert match.outcome is not None and len(match.outcome["scores"]) == players
    assert store.rebuild_from_log(match) == store.load_state(match)


def human_race(make_user: Any, players: int = 3) -> Match:
    """A started standard race of ``players`` users."""
    users = [make_user() for _ in range(players)]
    match = services.do_create_match(users[0], "bridge_race", players, {"mode": "standard"}, 60)
    for user in users[1:]:
        services.do_join_match(match.pk, user)
    services.do_start_match(match.pk, users[0])
    return Match.objects.get(pk=match.pk)


def test_a_human_turn_waits_and_is_marked_your_turn(make_user: Any) -> None:
    match = human_race(make_user)
    waiting = Seat.objects.filter(match=match, waiting_since__isnull=False)
    assert waiting.count() == 1  # CHOOSE_CAR goes in seat order (R-18 step 7)
    assert waiting.get().number == 0


def test_r89_the_seats_that_wait_share_the_spectators_view_and_the_seat_to_act_has_its_own(make_user: Any) -> None:
    """The views are public (R-89): a push builds the spectator's view once for the seats that wait."""
    from games.play.store import rules_for
    from games.push.presenter import match_context

    match = human_race(make_user)
    spectator = match_context(match, None)["view"]
    views = {seat.number: match_context(match, seat.user)["view"] for seat in Seat.objects.filter(match=match)}
    state = store.load_state(match)
    (acting,) = rules_for(match).actors(state)
    assert "legal_actions" in views[acting] and views[acting] is not spectator
    waiting = [seat for seat in views if seat != acting]
    assert len(waiting) == 2 and all(views[seat] is spectator for seat in waiting)  # built once, shared
    assert all(views[seat] == rules_for(match).view(state, seat) for seat in waiting)  # as the engine gives
