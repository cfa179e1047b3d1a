"""Browser notifications in Chromium: the profile's switch, the service worker, a push shown.

The shared site runs without VAPID keys: its profile has no switch. A second daphne on the same
database runs with keys made by ``manage.py vapid_keys``: its profile shows the switch, registers
the service worker at the site's root, and (with the browser's push subscription stood in for,
since subscribing needs a real push service on the network) saves and removes this device's
subscription. A push delivered through the DevTools protocol to the registered worker is shown as
a notification, as a push service's would be with no Hideout page open.
"""

from __future__ import annotations

import base64
import os
import secrets
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .accounts import log_in, make_accounts, signed_in
from .conftest import LiveSite, _bin, _free_port, _spawn, _wait_http
from .players import DESKTOP, PHONE, TIMEOUT, assert_accessible

pytestmark = pytest.mark.e2e


# pushManager.subscribe asks the browser vendor's push service over the network, which a test
# machine does not reach: it is replaced by one that answers with a subscription as Chromium's
# looks (an FCM endpoint, a P-256 point and a 16-byte secret), which the browser keeps (in
# localStorage here) across pages and log-outs until it is unsubscribed.
STAND_IN_SUBSCRIBE = """
(() => {
  const b64 = (bytes) =>
    btoa(String.fromCharCode(...bytes)).replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
  const kept = () => {
    const json = localStorage.getItem("standInSubscription");
    if (!json) return null;
    const saved = JSON.parse(json);
    return {
      endpoint: saved.endpoint,
      toJSON() { return saved; },
      unsubscribe() { localStorage.removeItem("standInSubscription"); return Promise.resolve(true); },
    };
  };
  PushManager.prototype.getSubscription = function () { return Promise.resolve(kept()); };
  PushManager.prototype.subscribe = async function (options) {
    window.__subscribedWith = options && options.applicationServerKey ? options.applicationServerKey.byteLength : 0;
    if (kept()) return kept();
    const pair = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"]);
    const point = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
    const endpoint = "https://fcm.googleapis.com/fcm/send/e2e-" + Math.random().toString(36).slice(2);
    const keys = { p256dh: b64(point), auth: b64(crypto.getRandomValues(new Uint8Array(16))) };
    localStorage.setItem("standInSubscription", JSON.stringify({ endpoint, expirationTime: null, keys }));
    return kept();
  };
})();
"""


@pytest.fixture(scope="module")
def keyed_site(live_site: LiveSite) -> Iterator[LiveSite]:
    """A second server of the same site, with VAPID keys set."""
    keys = dict(line.split("=", 1) for line in live_site.manage("vapid_keys").stdout.split())
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    env = {**live_site.env, **keys, "SITE_URL": url, "VAPID_SUBJECT": "mailto:e2e@example.com"}
    site = LiveSite(url=url, mail_dir=live_site.mail_dir, database=live_site.database, redis=live_site.redis, env=env)
    tmp = Path(tempfile.mkdtemp(prefix="hideout-e2e-webpush-"))
    daphne = [_bin("daphne"), "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"]
    site.procs.append(_spawn("daphne-vapid", daphne, env, tmp))
    try:
        _wait_http(url + "/", site)
        yield site
    finally:
        for proc in site.procs:
            proc.stop()


def accounts(site: LiveSite, language: str = "en") -> str:
    (email,) = make_accounts(site, [f"push_{secrets.token_hex(4)}"], [language if language != "en" else ""])
    return email


def subscriptions(site: LiveSite, email: str) -> list[str]:
    code = (
        "from games.models import PushSubscription\n"
        f"for s in PushSubscription.objects.filter(user__email={email!r}): print('ENDPOINT', s.endpoint)\n"
    )
    lines = site.manage("shell", "-c", code).stdout.splitlines()
    return [line.split()[1] for line in lines if line.startswith("ENDPOINT ")]


@contextmanager
def profile_page(
    browser: Any, site: LiveSite, email: str, *, granted: bool = False, init_script: str = "", **options: Any
) -> Iterator[Page]:
    """``email``'s profile page, in a browser context of theirs (``options`` go to ``signed_in``) that
    closes when the test is through; ``granted``: the site may show notifications; ``init_script``:
    run in every page before its own scripts."""
    context = signed_in(browser, site, email, **options)
    try:
        if granted:
            context.grant_permissions(["notifications"], origin=site.url)
        if init_script:
            context.add_init_script(init_script)
        page = context.pages[0]
        page.goto("/profile/")
        yield page
    finally:
        context.close()


def worker_scope(page: Page) -> str | None:
    scope: str | None = page.evaluate(
        "async () => { const r = await navigator.serviceWorker.getRegistration('/'); return r ? r.scope : null; }"
    )
    return scope


def test_without_vapid_keys_the_profile_has_no_switch(live_site: LiveSite, browser: Any) -> None:
    with profile_page(browser, live_site, accounts(live_site)) as page:
        expect(page.get_by_role("heading", name="Profile")).to_be_visible()
        expect(page.locator("#webpush")).to_have_count(0)
        expect(page.get_by_role("button", name="Turn on notifications on this device")).to_have_count(0)
        assert worker_scope(page) is None  # nothing registered a worker


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_with_keys_the_switch_registers_the_worker_and_turns_this_device_on_and_off(
    keyed_site: LiveSite, browser: Any, axe_source: str, viewport: dict[str, int]
) -> None:
    email = accounts(keyed_site)
    with profile_page(
        browser, keyed_site, email, viewport=viewport, axe=True, granted=True, init_script=STAND_IN_SUBSCRIBE
    ) as page:
        section = page.locator("#webpush")
        expect(section).to_have_attribute("data-worker-ready", "1")
        assert worker_scope(page) == keyed_site.url + "/"  # the worker's scope is the whole site
        button = section.get_by_role("button", name="Turn on notifications on this device")
        expect(button).to_be_visible()
        expect(section.get_by_role("status")).to_have_text("Notifications are off for this device.")
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        assert_accessible(page, axe_source, f"profile with notifications, {viewport['width']} px")

        button.focus()
        page.keyboard.press("Enter")  # keyboard alone turns it on
        expect(section.get_by_role("status")).to_have_text("Notifications are on for this device.")
        assert page.evaluate("window.__subscribedWith") == 65  # the site's VAPID public key, as bytes
        (endpoint,) = subscriptions(keyed_site, email)
        assert endpoint.startswith("https://fcm.googleapis.com/fcm/send/e2e-")

        page.reload()  # the server knows this browser's subscription as the player's
        expect(section.get_by_role("status")).to_have_text("Notifications are on for this device.")
        off = section.get_by_role("button", name="Turn off notifications on this device")
        expect(off).to_have_attribute("aria-pressed", "true")
        off.click()
        expect(section.get_by_role("status")).to_have_text("Notifications are off for this device.")
        assert subscriptions(keyed_site, email) == []


def test_the_switch_speaks_traditional_chinese(keyed_site: LiveSite, browser: Any) -> None:
    email = accounts(keyed_site, "zh-hant")
    with profile_page(browser, keyed_site, email, language="zh-hant") as page:
        section = page.locator("#webpush")
        expect(section.get_by_role("heading")).to_have_text("這台裝置的通知")
        expect(section.get_by_role("button", name="在這台裝置上開啟通知")).to_be_visible()


def test_a_push_to_the_registered_worker_is_shown_as_a_notification(keyed_site: LiveSite, browser: Any) -> None:
    with profile_page(browser, keyed_site, accounts(keyed_site), granted=True) as page:
        expect(page.locator("#webpush")).to_have_attribute("data-worker-ready", "1")
        cdp = page.context.new_cdp_session(page)
        registrations: list[str] = []
        cdp.on(
            "ServiceWorker.workerRegistrationUpdated",
            lambda event: registrations.extend(r["registrationId"] for r in event["registrations"]),
        )
        cdp.send("ServiceWorker.enable")
        page.wait_for_function("() => true")  # let the events of the enable arrive
        deadline = 50
        while not registrations and deadline:
            page.wait_for_timeout(100)
            deadline -= 1
        assert registrations, "the DevTools protocol reported no service worker registration"
        data = '{"title": "Your turn", "body": "It is your turn in Heist #7.", "url": "/m/7/", "tag": "hideout-turn-7"}'
        cdp.send(
            "ServiceWorker.deliverPushMessage",
            {"origin": keyed_site.url, "registrationId": registrations[-1], "data": data},
        )
        page.wait_for_function(
            """async () => {
                const r = await navigator.serviceWorker.getRegistration('/');
                const shown = await r.getNotifications();
                return shown.length === 1 && shown[0].title === "Your turn" && shown[0].tag === "hideout-turn-7"
                    && shown[0].body === "It is your turn in Heist #7." && shown[0].data.url === "/m/7/";
            }""",
            timeout=TIMEOUT,
        )


def test_the_vapid_private_key_never_reaches_a_page(keyed_site: LiveSite, browser: Any) -> None:
    with profile_page(browser, keyed_site, accounts(keyed_site)) as page:
        private = keyed_site.env["VAPID_PRIVATE_KEY"]
        public = keyed_site.env["VAPID_PUBLIC_KEY"]
        assert len(base64.urlsafe_b64decode(public + "=")) == 65
        assert public in page.content() and private not in page.content()
        worker = page.request.get("/sw.js")
        assert worker.ok and private not in worker.text()
        assert os.environ.get("VAPID_PRIVATE_KEY", "") != private


def test_a_browser_that_blocks_notifications_is_told_how_to_allow_them(keyed_site: LiveSite, browser: Any) -> None:
    email = accounts(keyed_site)
    with profile_page(
        browser,
        keyed_site,
        email,
        init_script=STAND_IN_SUBSCRIBE + "Notification.requestPermission = () => Promise.resolve('denied');",
    ) as page:
        section = page.locator("#webpush")
        section.get_by_role("button", name="Turn on notifications on this device").click()
        expect(section.get_by_role("status")).to_have_text(
            "This browser blocks notifications from this site: allow them in its site settings, then try again."
        )
        expect(section.get_by_role("button", name="Turn on notifications on this device")).to_be_enabled()
        assert subscriptions(keyed_site, email) == []


def test_after_a_log_out_the_device_is_off_until_turned_on_again(keyed_site: LiveSite, browser: Any) -> None:
    email = accounts(keyed_site)
    with profile_page(browser, keyed_site, email, granted=True, init_script=STAND_IN_SUBSCRIBE) as page:
        section = page.locator("#webpush")
        section.get_by_role("button", name="Turn on notifications on this device").click()
        expect(section.get_by_role("status")).to_have_text("Notifications are on for this device.")
        (endpoint,) = subscriptions(keyed_site, email)

        page.locator("header form[action='/accounts/logout/'] button").click()
        expect(page.locator("header form[action='/accounts/logout/']")).to_have_count(0)
        assert subscriptions(keyed_site, email) == []  # the next person here gets none of this player's

        log_in(page, email)
        page.goto("/profile/")
        expect(section.get_by_role("status")).to_have_text("Notifications are off for this device.")
        section.get_by_role("button", name="Turn on notifications on this device").click()
        expect(section.get_by_role("status")).to_have_text("Notifications are on for this device.")
        assert subscriptions(keyed_site, email) == [endpoint]  # the browser's kept subscription, again
