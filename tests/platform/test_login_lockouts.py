"""Hardening item 8: log-in lock-outs expire, trust the proxy header only from proxies, and one
person's bad passwords never block another person's correct one."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.core.cache import cache
from django.test import Client

from games.web.clientip import client_address

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "a-long-secret-9"


@pytest.fixture(autouse=True)
def _clean_limits() -> Any:
    cache.clear()
    yield
    cache.clear()


def admin_login(user: Any, password: str, **meta: Any) -> Any:
    client = Client(**meta)
    response: Any = client.post("/admin/login/?next=/admin/", {"username": user.username, "password": password})
    response.logged_in = client.session.get("_auth_user_id") == str(user.pk)
    return response


def site_login(email: str, password: str, **meta: Any) -> bool:
    client = Client(**meta)
    client.post("/accounts/login/", {"login": email, "password": password})
    return "_auth_user_id" in client.session


def test_item8_failures_on_the_public_page_do_not_lock_the_admin_login(make_user: Any) -> None:
    staff = make_user(is_staff=True, is_superuser=True)
    for n in range(12):
        site_login(f"nobody{n}@example.com", "wrong-password", REMOTE_ADDR="203.0.113.7")
    assert admin_login(staff, PASSWORD, REMOTE_ADDR="203.0.113.7").logged_in


def test_item8_admin_lock_out_expires(make_user: Any, settings: Any) -> None:
    staff = make_user(is_staff=True, is_superuser=True)
    for _ in range(settings.AXES_FAILURE_LIMIT):
        admin_login(staff, "wrong-password", REMOTE_ADDR="203.0.113.8")
    assert not admin_login(staff, PASSWORD, REMOTE_ADDR="203.0.113.8").logged_in  # locked now
    assert settings.AXES_COOLOFF_TIME is not None
    AccessAttempt.objects.update(
        attempt_time=AccessAttempt.objects.get().attempt_time - settings.AXES_COOLOFF_TIME - timedelta(seconds=1)
    )
    assert admin_login(staff, PASSWORD, REMOTE_ADDR="203.0.113.8").logged_in


def test_item8_one_admins_bad_passwords_do_not_block_another_admin(make_user: Any, settings: Any) -> None:
    clumsy = make_user(is_staff=True, is_superuser=True)
    careful = make_user(is_staff=True, is_superuser=True)
    for _ in range(settings.AXES_FAILURE_LIMIT + 2):
        admin_login(clumsy, "wrong-password", REMOTE_ADDR="203.0.113.9")
    assert admin_login(careful, PASSWORD, REMOTE_ADDR="203.0.113.9").logged_in


def test_item8_bad_passwords_typed_for_someone_else_do_not_lock_them_out(make_user: Any) -> None:
    victim = make_user()
    for _ in range(8):
        site_login(victim.email, "wrong-password", REMOTE_ADDR="198.51.100.66")
    assert site_login(victim.email, PASSWORD, REMOTE_ADDR="192.0.2.10")


def test_item8_players_behind_the_proxy_do_not_share_one_budget(make_user: Any, settings: Any) -> None:
    settings.TRUSTED_PROXIES = ("127.0.0.1",)
    player = make_user()
    for n in range(4):  # four clumsy players behind the same proxy, four bad passwords each
        for _ in range(4):
            site_login(f"clumsy{n}@example.com", "wrong", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}")
    assert site_login(player.email, PASSWORD, REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.5")


def test_item8_one_players_bad_passwords_do_not_block_another_on_the_same_address(make_user: Any) -> None:
    clumsy = make_user()
    player = make_user()
    for _ in range(12):
        site_login(clumsy.email, "wrong-password", REMOTE_ADDR="192.0.2.77")
    assert site_login(player.email, PASSWORD, REMOTE_ADDR="192.0.2.77")


def test_item8_proxy_header_is_believed_only_from_configured_proxies() -> None:
    proxies = ("127.0.0.1", "10.0.0.0/8")
    assert client_address("127.0.0.1", "198.51.100.5", proxies) == "198.51.100.5"
    assert client_address("127.0.0.1", "6.6.6.6, 198.51.100.5, 10.1.2.3", proxies) == "198.51.100.5"
    assert client_address("203.0.113.1", "198.51.100.5", proxies) == "203.0.113.1"  # not a proxy of ours
    assert client_address("127.0.0.1", "198.51.100.5", ()) == "127.0.0.1"  # no proxies configured
    assert client_address("127.0.0.1", "junk, 198.51.100.5", proxies) == "198.51.100.5"
    assert client_address("127.0.0.1", "198.51.100.5, junk", proxies) == "127.0.0.1"


def test_item8_spoofed_header_from_an_untrusted_peer_is_ignored(make_user: Any, settings: Any) -> None:
    settings.TRUSTED_PROXIES = ("127.0.0.1",)
    staff = make_user(is_staff=True, is_superuser=True)
    for n in range(settings.AXES_FAILURE_LIMIT):  # a new forged address each try
        admin_login(staff, "wrong-password", REMOTE_ADDR="203.0.113.50", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}")
    assert not admin_login(staff, PASSWORD, REMOTE_ADDR="203.0.113.50", HTTP_X_FORWARDED_FOR="192.0.2.200").logged_in
