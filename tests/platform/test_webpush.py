"""Browser push notifications (games.notify.webpush, games.web.push_views, the beat's turn sweep).

The push service is a stand-in: a small HTTP server started here that records what it is sent
and answers with the status a test sets. Each push is decrypted with the receiving browser's keys
made here (RFC 8291, aes128gcm), and its VAPID signature checked against the site's public key.
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from io import StringIO
from pathlib import Path
from typing import Any

import http_ece
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from py_vapid import Vapid, Vapid01

from games.background import tasks
from games.models import Match, PushSubscription, RematchInvite, Seat
from games.notify import webpush
from games.play import clock, services

from .helpers import client_for, started_match

pytestmark = pytest.mark.django_db(transaction=True)


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


class PushService:
    """The stand-in push service: its address, what it was sent, and the status it answers with."""

    def __init__(self) -> None:
        self.url = ""
        self.requests: list[tuple[str, dict[str, str], bytes]] = []
        self.status = 201


@pytest.fixture
def push_service() -> Iterator[PushService]:
    """A local HTTP server standing in for a browser vendor's push service."""
    service = PushService()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            service.requests.append((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
            self.send_response(service.status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    old_no_proxy = os.environ.get("NO_PROXY")
    os.environ["NO_PROXY"] = "127.0.0.1,localhost"  # requests must not send it to a proxy
    try:
        service.url = f"http://127.0.0.1:{server.server_address[1]}"
        yield service
    finally:
        if old_no_proxy is None:
            os.environ.pop("NO_PROXY", None)
        else:
            os.environ["NO_PROXY"] = old_no_proxy
        server.shutdown()
        server.server_close()


@pytest.fixture
def vapid(settings: Any) -> str:
    """The site's VAPID keys set; returns the public one."""
    public, private = webpush.new_key_pair()
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = public, private
    settings.VAPID_SUBJECT = "mailto:admin@hideout.test"
    return public


class Browser:
    """A browser's push keys: what it gives the site (p256dh, auth) and what decrypts its pushes."""

    def __init__(self) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.secret = os.urandom(16)
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.p256dh, self.auth = b64(point), b64(self.secret)

    def subscribe(self, user: Any, endpoint: str) -> PushSubscription:
        return PushSubscription.objects.create(user=user, endpoint=endpoint, p256dh=self.p256dh, auth=self.auth)

    def read(self, body: bytes) -> dict[str, Any]:
        plain = http_ece.decrypt(body, private_key=self.key, auth_secret=self.secret, version="aes128gcm")
        message: dict[str, Any] = json.loads(plain)
        return message


def subscribed(user: Any, endpoint: str) -> Browser:
    """A browser whose push subscription for ``user`` at ``endpoint`` is stored."""
    browser = Browser()
    browser.subscribe(user, endpoint)
    return browser


def waiting_seat(match: Match, user: Any) -> Seat:
    seat = Seat.objects.get(match=match, user=user)
    assert seat.waiting_since is not None  # a heist starts with every seat choosing its role
    return seat


def test_your_turn_reaches_the_push_service_encrypted_and_signed_once_a_turn(
    make_user: Any, vapid: str, push_service: PushService
) -> None:
    match, users = started_match(make_user)
    browser = subscribed(users[2], f"{push_service.url}/push/device-1")
    waiting_seat(match, users[2])

    assert tasks.sweep_turn_pushes() == 1  # the one waited-on player with a device; the others have none
    assert len(push_service.requests) == 1
    path, headers, body = push_service.requests[0]
    assert path == "/push/device-1"
    assert headers["content-encoding"] == "aes128gcm"
    assert int(headers["ttl"]) == webpush.TTL["turn"]
    assert headers["urgency"] == "high"
    # VAPID (RFC 8292): "vapid t=<JWT signed by the site's key>, k=<the site's public key>"
    assert headers["authorization"].startswith("vapid t=")
    token, key = headers["authorization"].removeprefix("vapid t=").split(",k=")
    assert key == vapid
    assert Vapid01.verify(vapid, f"vapid {token}")  # signed by the site's private key
    claims = json.loads(base64.urlsafe_b64decode(token.split(".")[1] + "=="))
    assert claims["aud"] == push_service.url and claims["sub"] == "mailto:admin@hideout.test"

    message = browser.read(body)
    assert message["title"] == "Your turn"
    assert message["body"] == f"It is your turn in Heist #{match.pk}."
    assert message["url"] == f"/m/{match.pk}/"
    # Only these words reach the device: no board, no other player's anything.
    assert set(message) == {"title", "body", "url", "tag", "icon", "lang"}
    plain = json.dumps(message)
    for other in (users[0], users[1], users[3]):
        assert other.username not in plain and other.profile.name not in plain
    assert PushSubscription.objects.get().last_used is not None

    assert tasks.sweep_turn_pushes() == 0  # the same turn is not pushed twice
    assert len(push_service.requests) == 1


def test_no_turn_push_for_a_page_that_is_or_was_open_or_a_turn_long_begun(
    make_user: Any, vapid: str, push_service: PushService
) -> None:
    match, users = started_match(make_user)
    Browser().subscribe(users[1], f"{push_service.url}/push/a")
    seat = waiting_seat(match, users[1])
    assert seat.waiting_since is not None

    Seat.objects.filter(pk=seat.pk).update(open_sockets=1)  # the match's page is open
    assert tasks.sweep_turn_pushes() == 0
    # closed after the turn began: the player saw it start
    Seat.objects.filter(pk=seat.pk).update(open_sockets=0, last_seen=seat.waiting_since + timedelta(seconds=1))
    assert tasks.sweep_turn_pushes() == 0
    # a turn begun longer ago than the window (a worker that was down) is not pushed
    Seat.objects.filter(pk=seat.pk).update(last_seen=None, waiting_since=clock.now_datetime() - timedelta(hours=1))
    assert tasks.sweep_turn_pushes() == 0
    assert push_service.requests == []

    # a page open only before the turn began does not count
    began = clock.now_datetime() - timedelta(seconds=5)
    Seat.objects.filter(pk=seat.pk).update(waiting_since=began, last_seen=began - timedelta(seconds=30))
    assert tasks.sweep_turn_pushes() == 1
    # the next turn is pushed again
    Seat.objects.filter(pk=seat.pk).update(waiting_since=clock.now_datetime() + timedelta(seconds=1))
    assert tasks.sweep_turn_pushes() == 1
    assert len(push_service.requests) == 2


def test_the_move_itself_sends_nothing(make_user: Any, vapid: str, push_service: PushService) -> None:
    """A move's own path never waits on a push service: only the beat's sweep sends (in a task)."""
    match, users = started_match(make_user)
    for n in range(4):
        Browser().subscribe(users[n], f"{push_service.url}/push/{n}")
    for n in range(4):
        services.do_submit_action(match.pk, n, {"type": "choose", "roles": ["THUG"]})
    match.refresh_from_db()
    assert push_service.requests == []
    assert tasks.sweep_turn_pushes() >= 1


@pytest.mark.parametrize("status", [404, 410])
def test_a_subscription_the_push_service_says_is_gone_is_deleted(
    make_user: Any, vapid: str, push_service: PushService, status: int
) -> None:
    match, users = started_match(make_user)
    gone = Browser().subscribe(users[0], f"{push_service.url}/push/gone")
    push_service.status = status
    assert webpush.send_push(users[0], "turn", match) == 0
    assert len(push_service.requests) == 1
    assert not PushSubscription.objects.filter(pk=gone.pk).exists()


def test_a_push_service_failing_otherwise_keeps_the_subscription_and_the_other_devices_get_theirs(
    make_user: Any, vapid: str, push_service: PushService
) -> None:
    match, users = started_match(make_user)
    Browser().subscribe(users[0], "http://127.0.0.1:9/push/unreachable")
    Browser().subscribe(users[0], f"{push_service.url}/push/phone")
    push_service.status = 500
    assert webpush.send_push(users[0], "turn", match) == 0
    assert PushSubscription.objects.filter(user=users[0]).count() == 2
    push_service.status = 201
    assert webpush.send_push(users[0], "turn", match) == 1


def test_the_push_speaks_the_players_language(make_user: Any, vapid: str, push_service: PushService) -> None:
    match, users = started_match(make_user)
    users[0].profile.language = "zh-hant"
    users[0].profile.save()
    browser = subscribed(users[0], f"{push_service.url}/push/zh")
    assert tasks.push_to_user(users[0].pk, "low_time", match.pk, seconds_left=30) == 1
    message = browser.read(push_service.requests[0][2])
    assert message["title"] == "時間快到了"
    assert message["body"] == f"你在 搶劫 #{match.pk} 的這一步還剩 30 秒。"
    assert message["lang"] == "zh-hant"


def test_low_time_in_english_names_the_time_left(make_user: Any, vapid: str, push_service: PushService) -> None:
    match, users = started_match(make_user)
    browser = subscribed(users[0], f"{push_service.url}/push/en")
    tasks.push_to_user(users[0].pk, "low_time", match.pk, seconds_left=180)
    tasks.push_to_user(users[0].pk, "low_time", match.pk)
    first, second = (browser.read(body) for _, _, body in push_service.requests)
    assert first["body"] == f"3 minutes left for your move in Heist #{match.pk}."
    assert second["body"] == f"Your time for this move in Heist #{match.pk} is running out."
    assert first["tag"] == f"hideout-low_time-{match.pk}"


def test_the_rematch_invitation_is_pushed_to_the_invited(
    make_user: Any, vapid: str, push_service: PushService, mailoutbox: list[Any]
) -> None:
    match, users = started_match(make_user, players=3)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    invited = subscribed(users[1], f"{push_service.url}/push/invited")
    Browser().subscribe(users[0], f"{push_service.url}/push/host")
    client_for(users[0]).post(reverse("match_rematch", args=[match.pk]))
    match.refresh_from_db()
    assert match.rematch is not None
    assert RematchInvite.objects.filter(match=match.rematch, user=users[1]).exists()
    assert [path for path, _, _ in push_service.requests] == ["/push/invited"]  # not the host who asked, nor seat 2
    message = invited.read(push_service.requests[0][2])
    assert message["title"] == "Rematch invitation"
    assert message["body"] == f"{users[0].profile.name} asks for a rematch of Heist."
    assert message["url"] == f"/m/{match.rematch.pk}/"
    assert len(mailoutbox) == 2  # the e-mails still go too


def test_without_vapid_keys_nothing_is_sent_or_queued(make_user: Any, push_service: PushService, settings: Any) -> None:
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    match, users = started_match(make_user)
    Browser().subscribe(users[0], f"{push_service.url}/push/x")
    assert tasks.sweep_turn_pushes() == 0
    assert webpush.send_push(users[0], "turn", match) == 0
    assert push_service.requests == []


# --- the profile's switch ------------------------------------------------------------------------

FCM = "https://fcm.googleapis.com/fcm/send/abc:def"


def subscription_json(browser: Browser, endpoint: str = FCM) -> str:
    return json.dumps(
        {"endpoint": endpoint, "expirationTime": None, "keys": {"p256dh": browser.p256dh, "auth": browser.auth}}
    )


def test_the_profile_shows_the_switch_only_with_vapid_keys(make_user: Any, settings: Any) -> None:
    client = client_for(make_user())
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    page = client.get(reverse("profile")).content.decode()
    assert 'id="webpush"' not in page and "webpush.js" not in page
    public, private = webpush.new_key_pair()
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = public, private
    page = client.get(reverse("profile")).content.decode()
    assert 'id="webpush"' in page and f'data-key="{public}"' in page and "webpush.js" in page
    assert private not in page


def test_the_service_worker_is_served_at_the_root(client: Client) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert b'addEventListener("push"' in response.content


def test_subscribe_saves_this_device_and_unsubscribe_forgets_it(make_user: Any, vapid: str) -> None:
    user, other = make_user(), make_user()
    browser = Browser()
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    client.get(reverse("profile"))
    token = client.cookies["csrftoken"].value
    answer = client.post(
        reverse("push_subscribe"), subscription_json(browser), content_type="application/json", HTTP_X_CSRFTOKEN=token
    )
    assert answer.status_code == 200 and answer.json() == {"subscribed": True}
    saved = PushSubscription.objects.get()
    assert (saved.user, saved.endpoint, saved.p256dh, saved.auth) == (user, FCM, browser.p256dh, browser.auth)
    # the same device signed in to another account passes to it
    client_for(other).post(reverse("push_subscribe"), subscription_json(browser), content_type="application/json")
    assert PushSubscription.objects.get().user == other
    # only its own player can remove it
    client.post(
        reverse("push_unsubscribe"),
        json.dumps({"endpoint": FCM}),
        content_type="application/json",
        HTTP_X_CSRFTOKEN=token,
    )
    assert PushSubscription.objects.count() == 1
    answer = client_for(other).post(
        reverse("push_unsubscribe"), json.dumps({"endpoint": FCM}), content_type="application/json"
    )
    assert answer.json() == {"subscribed": False} and PushSubscription.objects.count() == 0


def test_a_player_keeps_at_most_the_newest_devices(make_user: Any, vapid: str, settings: Any) -> None:
    settings.WEBPUSH_MAX_DEVICES = 2
    client = client_for(make_user())
    for n in range(3):
        client.post(
            reverse("push_subscribe"), subscription_json(Browser(), f"{FCM}{n}"), content_type="application/json"
        )
    assert sorted(PushSubscription.objects.values_list("endpoint", flat=True)) == [f"{FCM}1", f"{FCM}2"]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (lambda b: subscription_json(b, "http://fcm.googleapis.com/fcm/send/x"), "push service is not one"),
        (lambda b: subscription_json(b, "https://127.0.0.1/push"), "push service is not one"),
        (lambda b: subscription_json(b, "https://fcm.googleapis.com.evil.test/x"), "push service is not one"),
        (lambda b: subscription_json(b, "https://user@fcm.googleapis.com/x"), "push service is not one"),
        (lambda b: json.dumps({"endpoint": FCM, "keys": {"p256dh": "AAAA", "auth": b.auth}}), "no usable keys"),
        (
            lambda b: json.dumps({"endpoint": FCM, "keys": {"p256dh": b64(b"\x04" + b"\x01" * 64), "auth": b.auth}}),
            "no usable keys",
        ),
        (lambda b: json.dumps({"endpoint": FCM, "keys": {"p256dh": b.p256dh, "auth": "!!"}}), "no usable keys"),
        (lambda b: json.dumps({"endpoint": FCM}), "no usable keys"),
        (lambda b: "not json", "could not be read"),
        (lambda b: json.dumps([FCM]), "could not be read"),
    ],
)
def test_subscribe_refuses_bad_input_with_a_message_and_saves_nothing(
    make_user: Any, vapid: str, body: Any, words: str
) -> None:
    answer = client_for(make_user()).post(reverse("push_subscribe"), body(Browser()), content_type="application/json")
    assert answer.status_code == 400
    assert words in answer.json()["error"]
    assert PushSubscription.objects.count() == 0


def test_subscribe_needs_a_signed_in_player_the_csrf_token_and_the_keys(make_user: Any, settings: Any) -> None:
    public, private = webpush.new_key_pair()
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = public, private
    body = subscription_json(Browser())
    anonymous = Client().post(reverse("push_subscribe"), body, content_type="application/json")
    assert anonymous.status_code == 403 and "Sign in" in anonymous.json()["error"]
    no_token = Client(enforce_csrf_checks=True)
    no_token.force_login(make_user())
    assert no_token.post(reverse("push_subscribe"), body, content_type="application/json").status_code == 403
    assert no_token.get(reverse("push_subscribe")).status_code == 405
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    off = client_for(make_user()).post(reverse("push_subscribe"), body, content_type="application/json")
    assert off.status_code == 404
    assert PushSubscription.objects.count() == 0


def test_vapid_keys_prints_a_pair_that_signs_and_verifies() -> None:
    out = StringIO()
    call_command("vapid_keys", stdout=out)
    lines = dict(line.split("=", 1) for line in out.getvalue().split())
    public, private = lines["VAPID_PUBLIC_KEY"], lines["VAPID_PRIVATE_KEY"]
    assert len(base64.urlsafe_b64decode(public + "=")) == 65
    headers = Vapid.from_string(private).sign({"sub": "mailto:a@b.test", "aud": "https://fcm.googleapis.com"})
    token = headers["Authorization"].removeprefix("vapid t=").split(",k=")[0]
    assert Vapid01.verify(public, f"vapid {token}")


def test_status_says_whether_this_browser_sends_the_signed_in_players_notifications(make_user: Any, vapid: str) -> None:
    user, other = make_user(), make_user()
    client_for(user).post(reverse("push_subscribe"), subscription_json(Browser()), content_type="application/json")
    asked = json.dumps({"endpoint": FCM})
    mine = client_for(user).post(reverse("push_status"), asked, content_type="application/json")
    assert mine.json() == {"subscribed": True}
    theirs = client_for(other).post(reverse("push_status"), asked, content_type="application/json")
    assert theirs.json() == {"subscribed": False}
    bad = client_for(other).post(reverse("push_status"), "[]", content_type="application/json")
    assert bad.status_code == 400


def test_logging_out_turns_this_browsers_notifications_off_but_not_the_players_other_devices(
    make_user: Any, vapid: str
) -> None:
    user = make_user()
    phone, laptop = client_for(user), client_for(user)
    phone.post(reverse("push_subscribe"), subscription_json(Browser(), f"{FCM}phone"), content_type="application/json")
    laptop.post(
        reverse("push_subscribe"), subscription_json(Browser(), f"{FCM}laptop"), content_type="application/json"
    )
    phone.post(reverse("account_logout"))
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [f"{FCM}laptop"]


@pytest.mark.parametrize("keys", [True, False])
def test_beat_sweeps_for_turn_pushes_only_when_the_keys_are_set(keys: bool) -> None:
    public, private = webpush.new_key_pair() if keys else ("", "")
    env = {**os.environ, "HIDEOUT_LOCAL_KEY": "1", "VAPID_PUBLIC_KEY": public, "VAPID_PRIVATE_KEY": private}
    code = "from django.conf import settings; print(sorted(settings.CELERY_BEAT_SCHEDULE))"
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=Path(__file__).resolve().parents[2],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert ("sweep-turn-pushes" in done.stdout) is keys
    assert "sweep-deadlines" in done.stdout


def test_the_low_time_alarm_pushes_once_to_the_players_devices(
    make_user: Any, vapid: str, push_service: PushService, monkeypatch: Any
) -> None:
    """Issue 56, item 3: one browser notification with the alarm's e-mail, not repeated."""
    from games.notify import lowtime

    match, users = started_match(make_user, time_limit=24 * 3600)
    browser = subscribed(users[0], f"{push_service.url}/low")
    due = float(waiting_seat(match, users[0]).waiting_key.rsplit(":", 1)[1])  # "kind:due" (decision keys)
    real = clock.now
    monkeypatch.setattr(clock, "now", lambda: due - 600)  # ten minutes left
    assert lowtime.send_alarms() >= 1
    assert lowtime.send_alarms() == 0, "not repeated"
    monkeypatch.setattr(clock, "now", real)
    pushed = [browser.read(body) for path, _headers, body in push_service.requests if path == "/low"]
    assert len(pushed) == 1 and pushed[0]["tag"] == f"hideout-low_time-{match.pk}"
