"""Hardening item 9 (HTTP side): per-user limits on match creation, joins and chat, with a clear
translated message; the same limiter is there for the socket consumer."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import translation

from games.models import ChatMessage, Match
from games.play import services
from games.web import ratelimit

from .helpers import client_for, started_match

pytestmark = pytest.mark.django_db(transaction=True)
CREATE = {"game": "heist", "seats": 4, "time_amount": 2, "time_unit": "days"}


@pytest.fixture(autouse=True)
def _fresh_counters(monkeypatch: pytest.MonkeyPatch) -> Any:
    # A burst must fall inside one fixed window: on a slow machine ten posts can cross a
    # 10-second edge and split into two windows, none of them full.
    monkeypatch.setattr(ratelimit, "clock", lambda: 1_000_020.0)
    cache.clear()
    yield
    cache.clear()


def test_item9_match_creation_is_limited_per_user(make_user: Any) -> None:
    flooder, other = make_user(), make_user()
    client = client_for(flooder)
    codes = [client.post(reverse("match_create"), CREATE).status_code for _ in range(8)]
    assert codes.count(302) == 5 and codes[-1] == 429
    assert Match.objects.filter(host=flooder).count() == 5
    refused = client.post(reverse("match_create"), CREATE)
    assert "You are creating matches too quickly" in refused.content.decode()
    assert client_for(other).post(reverse("match_create"), CREATE).status_code == 302  # per user


def test_item9_joining_is_limited_per_user(make_user: Any) -> None:
    host, flooder = make_user(), make_user()
    matches = [services.do_create_match(host, "heist", 8, {}, 60) for _ in range(22)]
    client = client_for(flooder)
    for match in matches:
        client.post(reverse("match_join", args=[match.pk]))
    assert Match.objects.filter(seats__user=flooder).count() == 20
    page = client.get(reverse("lobby")).content.decode()
    assert "You are joining matches too quickly" in page


def test_item9_chat_over_http_is_limited_per_user(make_user: Any) -> None:
    match, by_seat = started_match(make_user)
    url = reverse("match_chat", args=[match.pk])
    flooder = client_for(by_seat[0])
    codes = [flooder.post(url, {"text": f"line {n}"}, HTTP_HX_REQUEST="true").status_code for n in range(10)]
    assert codes.count(200) == 8 and codes[-1] == 429
    assert ChatMessage.objects.filter(match=match, seat=0).count() == 8
    refused = flooder.post(url, {"text": "more"}, HTTP_HX_REQUEST="true")
    assert "You are sending messages too quickly" in refused.content.decode()
    assert client_for(by_seat[1]).post(url, {"text": "hi"}, HTTP_HX_REQUEST="true").status_code == 200


def test_item9_limiter_windows_reset_and_speak_chinese(make_user: Any, settings: Any) -> None:
    settings.HIDEOUT_RATE_LIMITS = {"sync": "2/10"}
    user = make_user()
    assert ratelimit.wait_seconds("sync", user, now=1000.0) == 0
    assert ratelimit.wait_seconds("sync", user, now=1001.0) == 0
    assert ratelimit.wait_seconds("sync", user, now=1002.0) == 8
    assert ratelimit.wait_seconds("sync", user, now=1010.0) == 0  # the next window
    with translation.override("zh-hant"):
        assert ratelimit.refusal("chat", 5) == "你傳送訊息太快了，請在 5 秒後再試。"


async def test_item9_async_hit_for_the_socket_consumer(make_user: Any, settings: Any) -> None:
    from asgiref.sync import sync_to_async

    settings.HIDEOUT_RATE_LIMITS = {"socket": "1/60"}
    user = await sync_to_async(make_user)()
    assert await ratelimit.ahit("socket", user) is None
    assert "Too many connections" in (await ratelimit.ahit("socket", user) or "")


def test_item9_an_empty_rule_turns_a_limit_off(make_user: Any, settings: Any) -> None:
    settings.HIDEOUT_RATE_LIMITS = {"create": ""}
    user = make_user()
    assert all(ratelimit.wait_seconds("create", user) == 0 for _ in range(50))


def test_the_default_move_limit_lets_the_fastest_police_car_drive_for_minutes() -> None:
    """Issue 54, item 25: the default limit is generous for real play: a police car at its fastest speed
    (one move every 150 ms, police_alarm T-6) for three minutes, with its siren and the odd double
    press, is never limited; a flood is, within a second."""
    limit = ratelimit.SocketLimit("move")
    now, limited = 5_000_000.0, 0
    for step in range(int(180 / 0.15)):
        limited += limit.wait(now) > 0
        if step % 20 == 0:
            limited += limit.wait(now + 0.01) > 0  # a siren, an auto-escape toggle, a repeated key
        now += 0.15
    assert limited == 0
    flood = ratelimit.SocketLimit("move")
    assert any(flood.wait(7_000_000.0 + i / 1000) for i in range(1000))
    assert sum(flood.wait(7_000_000.5) > 0 for _ in range(1000)) == 1000
