"""Hardening item 14: a Content-Security-Policy the pages keep to, and a running match's hidden
information in the admin only through the logged "reveal for moderation" view."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.admin.models import LogEntry
from django.test import Client
from django.urls import reverse

from games.models import MatchEvent
from games.play import services

from .helpers import client_for, moderators_group, started_match

pytestmark = pytest.mark.django_db(transaction=True)

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>", re.I)
HANDLER = re.compile(r"<[^>]+\son[a-z]+\s*=", re.I)


def assert_keeps_to_the_policy(response: Any) -> None:
    policy = response.headers.get("Content-Security-Policy", "")
    directives = {part.split()[0]: part.split()[1:] for part in policy.split(";") if part.strip()}
    assert directives.get("script-src") == ["'self'"], policy
    assert directives.get("style-src") == ["'self'"], policy
    assert directives.get("object-src") == ["'none'"], policy
    html = response.content.decode()
    assert not INLINE_SCRIPT.search(html), INLINE_SCRIPT.search(html)
    assert not HANDLER.search(html), HANDLER.search(html)
    assert "<style" not in html and "hx-on" not in html and '"js:' not in html


def test_item14_pages_send_a_csp_and_have_nothing_inline(make_user: Any) -> None:
    match, by_seat = started_match(make_user)
    lobby_match = services.do_create_match(by_seat[0], "bridge_race", 3, {"mode": "standard"}, 60)
    player = client_for(by_seat[0])
    pages = [
        Client().get(reverse("lobby")),
        Client().get(reverse("account_login")),
        player.get(reverse("lobby")),
        player.get(reverse("match_create")),
        player.get(reverse("profile")),
        player.get(reverse("match", args=[match.pk])),
        player.get(reverse("match", args=[lobby_match.pk])),
        client_for(make_user()).get(reverse("match", args=[match.pk])),
    ]
    for response in pages:
        assert response.status_code == 200
        assert_keeps_to_the_policy(response)
    base = pages[2].content.decode()
    assert '"includeIndicatorStyles":false' in base and "css/htmx-indicator.css" in base


def test_item14_admin_pages_keep_to_the_policy(make_user: Any, moderator: Any) -> None:
    match, event = secret_event(make_user)
    client = client_for(moderator)
    for url in (
        reverse("admin:index"),
        reverse("admin:games_match_changelist"),
        reverse("admin:games_match_change", args=[match.pk]),
        reverse("admin:games_matchevent_change", args=[event.pk]),
        reverse("admin:auth_user_changelist"),
        reverse("admin:games_match_reveal", args=[match.pk]),
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        assert_keeps_to_the_policy(response)


def test_item14_bridge_race_board_keeps_to_the_policy(make_user: Any) -> None:
    host = make_user()
    match = services.do_create_match(host, "bridge_race", 3, {"mode": "standard"}, 60)
    services.do_add_bot(match.pk, host)
    services.do_add_bot(match.pk, host)
    services.do_start_match(match.pk, host)
    assert_keeps_to_the_policy(client_for(host).get(reverse("match", args=[match.pk])))


@pytest.fixture
def moderator(make_user: Any) -> Any:
    user = make_user(is_staff=True)
    user.groups.add(moderators_group())
    return user


def secret_event(make_user: Any) -> tuple[Any, MatchEvent]:
    match, _ = started_match(make_user)
    services.do_submit_action(match.pk, 0, {"type": "choose", "roles": ["GOON"]})
    event = MatchEvent.objects.filter(match=match, secret__isnull=False).order_by("-seq").first()
    assert event is not None
    return match, event


def test_item14_admin_hides_a_running_matchs_secrets(make_user: Any, moderator: Any) -> None:
    match, event = secret_event(make_user)
    client = client_for(moderator)
    page = client.get(reverse("admin:games_matchevent_change", args=[event.pk])).content.decode()
    assert "field-secret" not in page and "GOON" not in page
    match_page = client.get(reverse("admin:games_match_change", args=[match.pk])).content.decode()
    assert reverse("admin:games_match_reveal", args=[match.pk]) in match_page


def test_item14_reveal_asks_for_a_reason_and_is_logged(make_user: Any, moderator: Any) -> None:
    match, _ = secret_event(make_user)
    client = client_for(moderator)
    url = reverse("admin:games_match_reveal", args=[match.pk])
    confirm = client.get(url).content.decode()
    assert "GOON" not in confirm and 'name="reason"' in confirm
    assert not LogEntry.objects.exists()
    refused = client.post(url, {"reason": ""}).content.decode()
    assert "GOON" not in refused
    shown = client.post(url, {"reason": "cheating report #12"}).content.decode()
    assert "GOON" in shown
    entry = LogEntry.objects.get()
    assert entry.user_id == moderator.pk and entry.object_id == str(match.pk)
    assert "cheating report #12" in entry.get_change_message()


def test_item14_a_finished_matchs_secrets_are_plain_to_see(make_user: Any, moderator: Any) -> None:
    match, event = secret_event(make_user)
    services.do_abort_match(match.pk)
    page = client_for(moderator).get(reverse("admin:games_matchevent_change", args=[event.pk])).content.decode()
    assert "field-secret" in page and "GOON" in page


def test_item14_players_cannot_open_the_reveal_view(make_user: Any) -> None:
    match, _ = secret_event(make_user)
    staff_without_group = make_user(is_staff=True)
    response = client_for(staff_without_group).get(reverse("admin:games_match_reveal", args=[match.pk]))
    assert response.status_code == 403
