"""Hardening item 1: moderators may (de)activate players and nothing more on users."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from .helpers import moderators_group, started_match
from .socket_clients import connect

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def moderator_user(make_user: Any) -> Any:
    user = make_user("moderator", is_staff=True)
    user.groups.add(moderators_group())
    return user


@pytest.fixture
def moderator(moderator_user: Any) -> Client:
    client = Client()
    client.force_login(moderator_user)
    return client


def change_user(client: Client, user: Any, **fields: Any) -> Any:
    # A complete stock form, so that only the admin's own limits can refuse it.
    data = {
        "username": user.username,
        "email": user.email,
        "date_joined_0": "2026-01-01",
        "date_joined_1": "12:00:00",
        **fields,
    }
    return client.post(reverse("admin:auth_user_change", args=[user.pk]), data)


def test_item1_moderator_cannot_make_anyone_superuser_or_grant_groups(
    moderator: Client, moderator_user: Any, make_user: Any
) -> None:
    player = make_user()
    group = moderators_group()
    permission = Permission.objects.get(codename="delete_user")
    for target in (player, moderator_user):
        change_user(
            moderator,
            target,
            is_active="on",
            is_staff="on",
            is_superuser="on",
            groups=[group.pk],
            user_permissions=[permission.pk],
            username="renamed",
        )
        target.refresh_from_db()
        assert not target.is_superuser
        assert not target.user_permissions.exists()
        assert target.username != "renamed"
    player.refresh_from_db()
    assert not player.is_staff and not player.groups.exists()


def test_item1_moderator_change_form_shows_no_privilege_or_password_fields(moderator: Client, make_user: Any) -> None:
    player = make_user()
    page = moderator.get(reverse("admin:auth_user_change", args=[player.pk])).content.decode()
    assert 'name="is_active"' in page
    for field in ("is_superuser", "is_staff", "groups", "user_permissions", "password"):
        assert f'name="{field}"' not in page
    assert "../password/" not in page


def test_item1_moderator_deactivates_and_reactivates_a_player(moderator: Client, make_user: Any) -> None:
    player = make_user()
    change_user(moderator, player)  # is_active unchecked
    player.refresh_from_db()
    assert not player.is_active
    change_user(moderator, player, is_active="on")
    player.refresh_from_db()
    assert player.is_active
    url = reverse("admin:auth_user_changelist")
    moderator.post(url, {"action": "deactivate_users", "_selected_action": [str(player.pk)]})
    player.refresh_from_db()
    assert not player.is_active
    moderator.post(url, {"action": "reactivate_users", "_selected_action": [str(player.pk)]})
    player.refresh_from_db()
    assert player.is_active


def test_item1_moderator_cannot_change_passwords(moderator: Client, make_user: Any) -> None:
    player = make_user()
    url = reverse("admin:auth_user_password_change", args=[player.pk])
    assert moderator.get(url).status_code == 403
    response = moderator.post(url, {"password1": "taken-over-12345", "password2": "taken-over-12345"})
    assert response.status_code == 403
    player.refresh_from_db()
    assert not player.check_password("taken-over-12345")


def test_item1_moderator_cannot_edit_or_deactivate_staff_or_superusers(moderator: Client, make_user: Any) -> None:
    staff = make_user(is_staff=True)
    boss = make_user(is_staff=True, is_superuser=True)
    for target in (staff, boss):
        assert change_user(moderator, target).status_code == 403
        moderator.post(
            reverse("admin:auth_user_changelist"), {"action": "deactivate_users", "_selected_action": [str(target.pk)]}
        )
        target.refresh_from_db()
        assert target.is_active


def test_item1_superuser_keeps_the_full_user_admin(make_user: Any) -> None:
    boss = make_user(is_staff=True, is_superuser=True)
    player = make_user()
    client = Client()
    client.force_login(boss)
    page = client.get(reverse("admin:auth_user_change", args=[player.pk])).content.decode()
    assert 'name="is_superuser"' in page
    assert client.get(reverse("admin:auth_user_password_change", args=[player.pk])).status_code == 200


async def closed_within_a_second(socket: WebsocketCommunicator) -> int:
    async def close_code() -> int:
        while True:
            message = await socket.receive_output(timeout=1)
            if message["type"] == "websocket.close":
                return int(message.get("code", 1000))

    return await asyncio.wait_for(close_code(), timeout=1)


def deactivate_with_the_admin_action(moderator: Client, player: Any) -> None:
    url = reverse("admin:auth_user_changelist")
    moderator.post(url, {"action": "deactivate_users", "_selected_action": [str(player.pk)]})


def deactivate_with_the_change_form(moderator: Client, player: Any) -> None:
    change_user(moderator, player)  # is_active unchecked


@pytest.mark.asyncio
@pytest.mark.parametrize("deactivate", [deactivate_with_the_admin_action, deactivate_with_the_change_form])
async def test_every_admin_deactivation_closes_the_players_open_sockets(
    moderator: Client, make_user: Any, deactivate: Any
) -> None:
    match, by_seat = await sync_to_async(started_match)(make_user, players=3)
    player, bystander = by_seat[0], by_seat[1]
    socket = await connect(player, match.pk)
    other = await connect(bystander, match.pk)
    await sync_to_async(deactivate)(moderator, player)
    await sync_to_async(player.refresh_from_db)()
    assert not player.is_active
    assert await closed_within_a_second(socket) == 4401
    assert await other.receive_nothing(timeout=0.3)  # only the deactivated user's sockets close
    await other.disconnect()


@pytest.mark.asyncio
async def test_the_admin_action_closes_only_the_sockets_of_users_it_deactivated(
    moderator: Client, make_user: Any
) -> None:
    match, by_seat = await sync_to_async(started_match)(make_user, players=3)
    staff = await sync_to_async(make_user)(is_staff=True)
    sockets = [await connect(by_seat[seat], match.pk) for seat in (0, 1)]
    url = reverse("admin:auth_user_changelist")
    selected = [str(by_seat[0].pk), str(staff.pk)]  # a moderator may not deactivate staff
    await sync_to_async(moderator.post)(url, {"action": "deactivate_users", "_selected_action": selected})
    assert await closed_within_a_second(sockets[0]) == 4401
    assert await sockets[1].receive_nothing(timeout=0.3)
    await sync_to_async(staff.refresh_from_db)()
    assert staff.is_active
    await sockets[1].disconnect()
