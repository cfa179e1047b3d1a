"""The waiting room's pages: the lobby's open matches, the create form's seats, cancelling a match
and the waiting panel as a live update renders it (issue 54, items 1, 5, 8, 10, 17)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.engines.registry import available, get_rules
from games.models import Match
from games.play import services
from games.push import pushes
from games.push.speaking import speaking

pytestmark = pytest.mark.django_db(transaction=True)


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def open_section(page: str) -> str:
    return page.split('id="open"')[1].split("</section>")[0]


# --- item 10: a full match is not open ------------------------------------------------------------


def test_the_lobby_lists_only_matches_with_a_free_seat(make_user: Any) -> None:
    host = make_user()
    full = services.do_create_match(host, "heist", 3, {}, 60)
    for _ in range(2):
        services.do_join_match(full.pk, make_user())
    open_one = services.do_create_match(host, "heist", 3, {}, 60)
    services.do_join_match(open_one.pk, make_user())
    for client in (Client(), client_for(make_user())):
        listed = open_section(client.get(reverse("lobby")).content.decode())
        assert f"#{open_one.pk}<" in listed
        assert "2 of 3 seats taken" in listed
        assert f"#{full.pk}<" not in listed


# --- item 8: each game's own seat range on the create form ----------------------------------------


def seats_input(page: str) -> str:
    found = re.search(r"<input[^>]*id=\"id_seats\"[^>]*>", page)
    assert found, "no seats field"
    return found.group(0)


@pytest.mark.parametrize("slug", available())
def test_the_create_form_offers_the_games_own_seat_range(make_user: Any, slug: str) -> None:
    rules = get_rules(slug)
    client = client_for(make_user())
    field = seats_input(client.get(reverse("match_create"), {"game": slug}).content.decode())
    assert f'min="{rules.min_players}"' in field
    assert f'max="{rules.max_players}"' in field
    value = int(re.search(r'value="(\d+)"', field).group(1))  # type: ignore[union-attr]
    assert rules.min_players <= value <= rules.max_players
    ranges = json.loads(re.search(r"data-ranges=\"([^\"]+)\"", field).group(1).replace("&quot;", '"'))  # type: ignore[union-attr]
    assert ranges == {s: [get_rules(s).min_players, get_rules(s).max_players] for s in available()}


def test_the_create_form_refuses_seats_outside_the_games_range_and_keeps_its_range(make_user: Any) -> None:
    rules = get_rules("police_alarm")
    client = client_for(make_user())
    data = {"game": "police_alarm", "seats": str(rules.max_players + 1), "time_amount": "60", "time_unit": "seconds"}
    response = client.post(reverse("match_create"), data)
    assert response.status_code == 400
    page = response.content.decode()
    assert f"needs {rules.min_players} to {rules.max_players} players" in page
    field = seats_input(page)
    assert f'max="{rules.max_players}"' in field
    assert not Match.objects.exists()


# --- item 5: the host confirms a cancel, and the page says who cancelled --------------------------


def test_the_hosts_cancel_asks_first_then_names_the_host(make_user: Any) -> None:
    host, guest = make_user("hosta"), make_user()
    match = services.do_create_match(host, "heist", 3, {}, 60)
    services.do_join_match(match.pk, guest)
    host_client = client_for(host)
    lobby_panel = host_client.get(reverse("match", args=[match.pk])).content.decode()
    cancel_url = reverse("match_cancel", args=[match.pk])
    assert f'href="{cancel_url}"' in lobby_panel  # a step of its own, not a form that cancels at once
    # A POST to leave is no cancel for the host: it leads to the question.
    response = host_client.post(reverse("match_leave", args=[match.pk]))
    assert response.status_code == 302 and response["Location"] == cancel_url
    match.refresh_from_db()
    assert match.status == Match.Status.LOBBY
    question = host_client.get(cancel_url).content.decode()
    assert "Cancel this match?" in question
    assert f'action="{cancel_url}"' in question
    assert f'href="{reverse("match", args=[match.pk])}"' in question  # and a way back
    match.refresh_from_db()
    assert match.status == Match.Status.LOBBY  # asking changed nothing
    # Only the host is asked: anybody else is sent back to the match.
    assert client_for(guest).get(cancel_url).status_code == 302
    assert client_for(guest).post(cancel_url).status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.LOBBY
    response = host_client.post(cancel_url)
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED
    for client in (host_client, client_for(guest)):
        page = client.get(reverse("match", args=[match.pk])).content.decode()
        assert "Hosta, the host, cancelled this match." in page
        assert "moderator" not in page
        assert "You are watching this match" not in page


def test_a_moderators_abort_still_says_so(make_user: Any) -> None:
    host = make_user()
    match = services.do_create_match(host, "heist", 3, {}, 60)
    services.do_abort_match(match.pk)
    page = client_for(host).get(reverse("match", args=[match.pk])).content.decode()
    assert "This match was aborted by a moderator." in page
    assert "cancelled" not in page


# --- items 1 and 17: the waiting panel as a push renders it ---------------------------------------


def test_a_pushed_waiting_panel_keeps_the_join_button_and_the_invite_link(make_user: Any, settings: Any) -> None:
    settings.SITE_URL = "https://hideout.example"
    host, first, reader = make_user(), make_user(), make_user()
    match = services.do_create_match(host, "heist", 4, {}, 60)
    services.do_join_match(match.pk, first)
    match.refresh_from_db()
    with speaking("en"):
        outsider = pushes.render_seat(match, reader, {"board"}).shell
        member = pushes.render_seat(match, first, {"board"}).shell
        signed_out = pushes.render_seat(match, None, {"board"}).shell
    assert 'id="join-match"' in outsider
    assert 'id="join-match"' not in member and 'id="join-match"' not in signed_out
    assert f'value="https://hideout.example{match.invite_url()}"' in member


def test_match_created_is_said_only_while_the_match_waits_for_players(make_user: Any) -> None:
    host = make_user()
    client = client_for(host)
    data = {"game": "heist", "seats": "3", "time_amount": "60", "time_unit": "seconds"}
    response = client.post(reverse("match_create"), data, follow=True)
    banner = "Match created. Send the invite link to your friends."
    assert response.content.decode().count(banner) == 1
    match = Match.objects.get()
    for _ in range(2):
        services.do_add_bot(match.pk, host)
    match.refresh_from_db()
    with speaking("en"):
        full = pushes.render_seat(match, host, {"board"}).shell
    assert banner not in full  # every seat taken: nobody left to invite
    services.do_start_match(match.pk, host)
    match.refresh_from_db()
    with speaking("en"):
        started = pushes.render_seat(match, host, {"board"}).shell
    assert banner not in started
    assert banner not in client.get(reverse("match", args=[match.pk])).content.decode()
