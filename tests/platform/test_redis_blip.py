"""Redis unreachable: pages still load, signed-in users stay signed in, limits fail open.

Sessions are cached in Redis (cached_db) and the flood limits count there; the database holds
every session, so a cache that cannot be reached must cost a page load nothing. Redis here is a
closed port, so every cache call fails at once, as in the first seconds of an outage.
"""

from __future__ import annotations

import socket
import time
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from redis.exceptions import ConnectionError as RedisConnectionError

from config.deployment import caches_for
from games.runtime import redis_cache
from games.runtime.redis_cache import ResilientRedisCache

from .helpers import started_match

pytestmark = pytest.mark.django_db(transaction=True)

UNREACHABLE = "redis://127.0.0.1:1/0"


@pytest.fixture
def redis_down(settings: Any) -> None:
    settings.CACHES = caches_for(UNREACHABLE)


@pytest.fixture(params=["deployed", "raising"])
def any_cache_down(request: Any, settings: Any) -> None:
    """The deployed cache, or one that raises every error: the sessions must not depend on either."""
    settings.CACHES = caches_for(UNREACHABLE)
    if request.param == "raising":
        settings.CACHES["default"]["BACKEND"] = "games.runtime.redis_cache.SharedRedisCache"


def test_signing_in_and_loading_pages_work_while_redis_is_down(redis_down: None, make_user: Any) -> None:
    user = make_user()
    client = Client()
    response = client.post(reverse("account_login"), {"login": user.email, "password": "a-long-secret-9"})
    assert response.status_code == 302, response.status_code
    for name in ("lobby", "profile"):
        page = client.get(reverse(name))
        assert page.status_code == 200, (name, page.status_code)
        assert page.wsgi_request.user == user  # the session was read back from the database


def test_a_signed_in_session_survives_while_redis_is_down(any_cache_down: None, make_user: Any) -> None:
    match, by_seat = started_match(make_user, players=3)
    client = Client()
    client.force_login(by_seat[0])
    key = client.session.session_key
    page = client.get(reverse("match", args=[match.pk]))
    assert page.status_code == 200
    assert page.wsgi_request.user == by_seat[0]
    chat = client.post(reverse("match_chat", args=[match.pk]), {"text": "still here"}, HTTP_HX_REQUEST="true")
    assert chat.status_code == 200  # the flood limit could not count: it lets the line through
    assert client.get(reverse("profile")).status_code == 200
    assert client.session.session_key == key


def test_signing_out_while_redis_is_down_signs_out(redis_down: None, make_user: Any) -> None:
    user = make_user()
    client = Client()
    client.force_login(user)
    assert client.post(reverse("account_logout")).status_code == 302
    assert client.get(reverse("profile")).status_code == 302  # to the sign-in page


def test_a_redis_that_stops_answering_costs_one_call_a_second_at_most() -> None:
    """A port that accepts connections and never answers: the first call gives up, the next ones wait not."""
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    try:
        location = f"redis://127.0.0.1:{silent.getsockname()[1]}/0"
        options = caches_for(location)["default"]["OPTIONS"]
        cache = ResilientRedisCache(location, {"OPTIONS": options})
        started = time.monotonic()
        assert cache.get("a", "missed") == "missed"
        assert time.monotonic() - started < 3
        started = time.monotonic()
        for _ in range(20):
            assert cache.get("a") is None
            cache.set("a", 1)
        assert time.monotonic() - started < 0.5
    finally:
        silent.close()


class FlakyRedis:
    """A Redis client stand-in that a test takes down and brings back."""

    def __init__(self) -> None:
        self.up = True
        self.data: dict[str, Any] = {}
        self.calls = 0

    def _reach(self) -> None:
        self.calls += 1
        if not self.up:
            raise RedisConnectionError("Connection refused.")

    def get(self, key: str, default: Any) -> Any:
        self._reach()
        return self.data.get(key, default)

    def set(self, key: str, value: Any, timeout: Any) -> None:
        self._reach()
        self.data[key] = value

    def delete(self, key: str) -> bool:
        self._reach()
        return self.data.pop(key, None) is not None

    def delete_many(self, keys: list[str]) -> None:
        self._reach()
        for key in keys:
            self.data.pop(key, None)


@pytest.fixture
def flaky(monkeypatch: pytest.MonkeyPatch) -> tuple[ResilientRedisCache, FlakyRedis]:
    cache = ResilientRedisCache(UNREACHABLE, {})
    client = FlakyRedis()
    monkeypatch.setattr(redis_cache, "_clients", {cache._client_key(): client})
    monkeypatch.setattr(redis_cache, "_paused_until", {})
    monkeypatch.setattr(redis_cache, "_stale", {})
    return cache, client


def test_a_value_deleted_during_an_outage_does_not_come_back_with_redis(
    flaky: tuple[ResilientRedisCache, FlakyRedis], monkeypatch: pytest.MonkeyPatch
) -> None:
    cache, client = flaky
    monkeypatch.setattr(redis_cache, "PAUSE_SECONDS", 0.0)
    cache.set("session", "signed in")
    client.up = False
    assert cache.delete("session") is False  # signed out meanwhile: the database forgot it
    assert cache.get("session", "missed") == "missed"
    client.up = True
    assert cache.get("session") is None  # not the value cached before the outage
    assert client.data == {}


def test_after_a_failure_redis_is_left_alone_for_a_moment(
    flaky: tuple[ResilientRedisCache, FlakyRedis], monkeypatch: pytest.MonkeyPatch
) -> None:
    cache, client = flaky
    monkeypatch.setattr(redis_cache, "PAUSE_SECONDS", 60.0)
    client.up = False
    assert cache.get("a") is None
    calls = client.calls
    for _ in range(10):
        assert cache.get("a") is None
        cache.set("a", 1)
        assert cache.add("lock", True) is True  # a lock taken on a cache that keeps nothing
        with pytest.raises(ValueError):
            cache.incr("counter")
    assert client.calls == calls  # answered at once, without waiting on Redis again
