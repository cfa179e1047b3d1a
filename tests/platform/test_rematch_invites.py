"""Issue 54, item 9: a rematch invites the former players; each accepts or declines.

The rematch is created with its host seated (and the old table's bots); every other former player
is invited, sees "Accept rematch"/"Decline" on the old match page and in the lobby, and takes the
seat kept for them only by accepting. The host starts once the table is full, or, when nobody's
answer is awaited any more, with the players who accepted if they are at least the game's minimum.
A player already seated is never offered to join again; a declined invitation is shown to the host.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Match, RematchInvite
from games.play import services

from .helpers import started_match

pytestmark = pytest.mark.django_db


def finished(make_user: Any, players: int = 4) -> tuple[Match, dict[int, Any]]:
    match, users = started_match(make_user, "heist", players)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    match.refresh_from_db()
    return match, users


def page(user: Any, match: Match | int, name: str = "match") -> str:
    client = Client()
    client.force_login(user)
    pk = match if isinstance(match, int) else match.pk
    return client.get(reverse(name, args=[pk]) if name == "match" else reverse(name)).content.decode()


def post(user: Any, name: str, match_id: int, data: dict[str, str] | None = None) -> Any:
    client = Client()
    client.force_login(user)
    return client.post(reverse(name, args=[match_id]), data or {})


@pytest.mark.django_db(transaction=True)
def test_a_rematch_seats_only_its_host_and_invites_the_others(make_user: Any, mailoutbox: list[Any]) -> None:
    match, users = finished(make_user)
    host = users[1]
    response = post(host, "match_rematch", match.pk)
    match.refresh_from_db()
    new = match.rematch
    assert new is not None and response["Location"] == new.get_absolute_url()
    assert [s.user_id for s in new.seats.all()] == [host.pk]
    invited = {i.user_id: i.status for i in RematchInvite.objects.filter(match=new)}
    assert invited == {users[n].pk: RematchInvite.Status.PENDING for n in (0, 2, 3)}
    assert sorted(m.to[0] for m in mailoutbox) == sorted(users[n].email for n in (0, 2, 3))
    assert all(new.get_absolute_url() in m.body and "accept" in m.body.lower() for m in mailoutbox)
    # The host cannot start without them: no button, and the service refuses.
    lobby = page(host, new)
    assert 'id="start-match"' not in lobby
    for n in (0, 2, 3):
        assert users[n].profile.name in lobby
    assert lobby.count("Waiting for an answer") == 3
    post(host, "match_start", new.pk)
    new.refresh_from_db()
    assert new.status == Match.Status.LOBBY
    with pytest.raises(services.ServiceError):
        services.do_start_match(new.pk, host)


def test_the_invited_see_accept_and_decline_on_the_old_page_and_in_the_lobby(make_user: Any) -> None:
    match, users = finished(make_user, 3)
    new = services.do_rematch(match.pk, users[0])
    old = page(users[1], match)
    assert ">Accept rematch<" in old and ">Decline<" in old
    assert "Join the rematch" not in old
    lobby = page(users[1], 0, "lobby")
    assert ">Accept rematch<" in lobby and ">Decline<" in lobby
    assert reverse("match_rematch_answer", args=[new.pk]) in lobby
    own = page(users[0], match)  # the host is already seated: no offer to join again
    assert "Accept rematch" not in own and "Join the rematch" not in own and ">Go to the rematch<" in own
    new_page = page(users[1], new)  # on the rematch's own page too, and no plain "Join"
    assert ">Accept rematch<" in new_page and 'id="join-match"' not in new_page
    stranger = make_user()
    assert 'id="join-match"' not in page(stranger, new), "every free seat is kept for an invited player"


def test_accepting_takes_the_kept_seat_and_the_old_page_stops_offering_it(make_user: Any) -> None:
    match, users = finished(make_user, 3)
    new = services.do_rematch(match.pk, users[2])
    kept = RematchInvite.objects.get(match=new, user=users[0]).number
    response = post(users[0], "match_rematch_answer", new.pk, {"answer": "accept"})
    assert response.status_code == 302 and response["Location"] == new.get_absolute_url()
    assert new.seats.get(user=users[0]).number == kept
    old = page(users[0], match)
    assert "Accept rematch" not in old and "Join the rematch" not in old and ">Go to the rematch<" in old
    assert "Accept rematch" not in page(users[0], 0, "lobby")
    with pytest.raises(services.ServiceError):  # answered already
        services.do_answer_rematch(new.pk, users[0], accept=False)
    with pytest.raises(services.NotAllowed):  # never invited
        services.do_answer_rematch(new.pk, make_user(), accept=True)
    assert services.do_rematch(match.pk, users[1]).pk == new.pk  # asking again: the same rematch
    assert not new.seats.filter(user=users[1]).exists(), "asking is not accepting"
    services.do_answer_rematch(new.pk, users[1], accept=True)
    lobby = page(users[2], new)
    assert 'id="start-match"' in lobby
    services.do_start_match(new.pk, users[2])
    new.refresh_from_db()
    assert new.status == Match.Status.ACTIVE and new.seats.count() == 3


def test_a_declined_invitation_is_shown_to_the_host_who_may_start_with_the_game_minimum(make_user: Any) -> None:
    match, users = finished(make_user, 4)
    new = services.do_rematch(match.pk, users[0])
    services.do_answer_rematch(new.pk, users[1], accept=True)
    services.do_answer_rematch(new.pk, users[2], accept=True)
    post(users[3], "match_rematch_answer", new.pk, {"answer": "decline"})
    assert RematchInvite.objects.get(match=new, user=users[3]).status == RematchInvite.Status.DECLINED
    host_page = page(users[0], new)
    assert f"{users[3].profile.name}" in host_page and "Declined" in host_page
    assert 'id="start-match"' in host_page  # three accepted: heist's minimum
    old = page(users[3], match)
    assert "Accept rematch" not in old and "You declined the rematch." in old
    services.do_start_match(new.pk, users[0])
    new.refresh_from_db()
    assert new.status == Match.Status.ACTIVE and new.seat_count == 3
    assert sorted(s.number for s in new.seats.all()) == [0, 1, 2]
    assert {s.user_id for s in new.seats.all()} == {users[n].pk for n in (0, 1, 2)}


def test_below_the_minimum_a_declined_seat_waits_for_a_bot_or_a_new_player(make_user: Any) -> None:
    match, users = finished(make_user, 3)
    new = services.do_rematch(match.pk, users[0])
    services.do_answer_rematch(new.pk, users[1], accept=True)
    services.do_answer_rematch(new.pk, users[2], accept=False)
    assert 'id="start-match"' not in page(users[0], new)
    with pytest.raises(services.ServiceError):
        services.do_start_match(new.pk, users[0])
    stranger = make_user()
    assert 'id="join-match"' in page(stranger, new)  # the declined seat is free again
    services.do_add_bot(new.pk, users[0])
    services.do_start_match(new.pk, users[0])
    new.refresh_from_db()
    assert new.status == Match.Status.ACTIVE and new.seat_count == 3


def test_the_options_of_a_seat_follow_a_player_who_accepts_late(make_user: Any) -> None:
    """police_alarm's first police and handicaps name lobby seats: the seat kept for an invited
    player is the one the options were written for, whoever accepts first."""
    host, guest, third = make_user(), make_user(), make_user()
    options = {"variant": "young", "first": "2", "step_ms_2": "300"}
    match = services.do_create_match(host, "police_alarm", 3, options, 60)
    services.do_join_match(match.pk, guest)
    services.do_join_match(match.pk, third)
    services.do_start_match(match.pk, host)
    match.refresh_from_db()
    first = int(match.options["first"])
    police = match.seats.get(number=first).user
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    asker = next(u for u in (host, guest, third) if u != police)
    new = services.do_rematch(match.pk, asker)
    other = next(u for u in (host, guest, third) if u not in (police, asker))
    services.do_answer_rematch(new.pk, other, accept=True)  # the other one first
    services.do_answer_rematch(new.pk, police, accept=True)
    new.refresh_from_db()
    assert new.seats.get(user=police).number == int(new.options["first"])
    assert new.options[f"step_ms_{new.options['first']}"] == "300"


def test_the_invitation_speaks_the_players_language(make_user: Any) -> None:
    match, users = finished(make_user, 3)
    new = services.do_rematch(match.pk, users[0])
    users[1].profile.language = "zh-hant"
    users[1].profile.save()
    old = page(users[1], match)
    assert ">接受再戰<" in old and "Accept rematch" not in old
    lobby = page(users[1], 0, "lobby")
    assert "再戰邀請" in lobby and "asks for a rematch" not in lobby
    services.do_answer_rematch(new.pk, users[2], accept=False)
    users[0].profile.language = "zh-hant"
    users[0].profile.save()
    host = page(users[0], new)
    assert "已婉拒" in host and "等待回覆" in host and "Declined" not in host
