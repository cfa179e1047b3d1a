"""The profile's notification settings on a 390-px phone (and a 1280-px desktop), by keyboard, in
both languages, axe-clean; and an e-mail's unsubscribe link opened with no session turns that kind off.

The settings are chosen with the keyboard only (Tab to each control, arrows in the digest's radio
group, Space on the boxes), saved, and read back from the database. The e-mail is sent by the site
itself (``games.notify.send.notify`` from ``manage.py shell``) and its link followed in a browser
context that never signed in.
"""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from playwright.sync_api import expect

from .accounts import make_accounts, set_profile, signed_in
from .conftest import LiveSite
from .players import DESKTOP, PHONE, TIMEOUT, assert_accessible

pytestmark = pytest.mark.e2e

NO_SIDEWAYS_SCROLL = "() => document.documentElement.scrollWidth <= window.innerWidth"


def _profile_of(site: LiveSite, email: str) -> dict[str, Any]:
    code = (
        "from games.models import Profile\n"
        f"p = Profile.objects.get(user__email={email!r})\n"
        "print('PROFILE', p.email_reminders, p.email_digest, p.email_low_time, p.email_invitations)\n"
    )
    line = next(x for x in site.manage("shell", "-c", code).stdout.splitlines() if x.startswith("PROFILE "))
    _, reminders, digest, low_time, invitations = line.split()
    return {
        "email_reminders": reminders == "True",
        "email_digest": digest,
        "email_low_time": low_time == "True",
        "email_invitations": invitations == "True",
    }


@pytest.mark.parametrize(("language", "legend", "save"), [("en", "Notifications", "Save"), ("zh-hant", "通知", "儲存")])
def test_the_notification_settings_on_a_phone_by_keyboard(
    browser: Any, live_site: LiveSite, axe_source: str, language: str, legend: str, save: str
) -> None:
    (email,) = make_accounts(live_site, [f"notify_{language.replace('-', '')}_{secrets.token_hex(3)}"], [language])
    context = signed_in(browser, live_site, email, viewport=PHONE, language=language, axe=True)
    page = context.new_page()
    page.goto("/profile/")
    fieldset = page.locator("fieldset#notifications")
    expect(fieldset.locator("legend").first).to_have_text(legend)
    assert page.evaluate(NO_SIDEWAYS_SCROLL), "the profile scrolls sideways at 390 px"
    assert_accessible(page, axe_source, f"profile ({language})")

    # By keyboard only: from the turn box, Tab to the digest, arrows to "a day", Tab on to the others.
    page.locator("#id_email_reminders").focus()
    page.keyboard.press("Space")  # the e-mail for each turn: off
    page.keyboard.press("Tab")
    expect(page.locator("#id_email_digest_0")).to_be_focused()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    expect(page.locator("#id_email_digest_2")).to_be_checked()
    page.keyboard.press("Tab")
    expect(page.locator("#id_email_low_time")).to_be_focused()
    page.keyboard.press("Space")  # low time: off
    page.keyboard.press("Tab")
    expect(page.locator("#id_email_invitations")).to_be_focused()
    page.get_by_role("button", name=save).focus()
    with page.expect_navigation(timeout=TIMEOUT):  # the saved page replaces this one
        page.keyboard.press("Enter")
    expect(page.locator("#id_email_digest_2")).to_be_checked(timeout=TIMEOUT)
    assert _profile_of(live_site, email) == {
        "email_reminders": False,
        "email_digest": "daily",
        "email_low_time": False,
        "email_invitations": True,
    }
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    assert_accessible(page, axe_source, f"profile saved ({language})")
    page.set_viewport_size(DESKTOP)
    expect(page.locator("#id_email_invitations")).to_be_visible()
    assert page.evaluate(NO_SIDEWAYS_SCROLL), "the profile scrolls sideways at 1280 px"
    assert_accessible(page, axe_source, f"profile on a desktop ({language})")
    context.close()


def test_the_unsubscribe_link_of_an_e_mail_works_with_no_session(
    browser: Any, live_site: LiveSite, axe_source: str
) -> None:
    (email,) = make_accounts(live_site, [f"unsub_{secrets.token_hex(3)}"])
    code = (
        "from django.contrib.auth import get_user_model\n"
        "from games.notify.send import notify\n"
        f"user = get_user_model().objects.get(email={email!r})\n"
        "assert notify(user, 'invitations', None, host='Ada')\n"
    )
    live_site.manage("shell", "-c", code)
    link = live_site.link_in_mail(email, r"http://127\.0\.0\.1:\d+/notifications/unsubscribe/[^\s\"<>]+/")
    (message,) = live_site.messages_to(email)
    assert str(message["List-Unsubscribe"]).strip() == f"<{link}>"  # a long header is folded
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    context = browser.new_context(viewport=PHONE, bypass_csp=True)
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    page.goto(link)
    assert _profile_of(live_site, email)["email_invitations"]  # opening the link changes nothing
    assert_accessible(page, axe_source, "unsubscribe page")
    page.get_by_role("button", name="Unsubscribe").click()
    expect(page.get_by_role("status")).to_contain_text("no longer receive invitations")
    assert not _profile_of(live_site, email)["email_invitations"]
    context.close()


NOTIFICATIONS_RECORDED = """
(() => {
    Object.defineProperty(document, "hidden", { get: () => true });  // the page is in the background
    const shown = JSON.parse(sessionStorage.getItem("shown") || "[]");
    window.__shown = shown;
    function Recorded(title, options) {
        shown.push([title, (options || {}).tag || ""]);
        sessionStorage.setItem("shown", JSON.stringify(shown));
    }
    Recorded.permission = "granted";
    Recorded.requestPermission = () => Promise.resolve("granted");
    window.Notification = Recorded;
})();
"""


def test_the_page_warns_once_when_a_tenth_of_the_time_is_left(browser: Any, live_site: LiveSite) -> None:
    names = [f"low_{n}_{secrets.token_hex(3)}" for n in range(4)]
    emails = make_accounts(live_site, names)
    set_profile(live_site, emails[0], turn_notification=True)
    # A started heist of 50-minute turns (every seat decides at once); the first player's decision is
    # made to have begun 550 minutes before its deadline, so a tenth of its time (55 minutes) is more
    # than the 50 minutes left: the warning is due.
    code = (
        "from datetime import timedelta\n"
        "from django.contrib.auth import get_user_model\n"
        "from games.models import Seat\n"
        "from games.notify.waiting import due_of\n"
        "from games.play import services\n"
        f"users = [get_user_model().objects.get(email=e) for e in {emails!r}]\n"
        "m = services.do_create_match(users[0], 'heist', 4, {}, 3000)\n"
        "for u in users[1:]:\n"
        "    services.do_join_match(m.pk, u)\n"
        "services.do_start_match(m.pk, users[0])\n"
        "seat = Seat.objects.get(match=m, user=users[0])\n"
        "due = due_of(seat.waiting_key)\n"
        "Seat.objects.filter(pk=seat.pk).update(waiting_since=due - timedelta(minutes=550))\n"
        "print('MATCH', m.get_absolute_url())\n"
    )
    done = live_site.manage("shell", "-c", code)
    url = next(line.split()[1] for line in done.stdout.splitlines() if line.startswith("MATCH "))
    context = signed_in(browser, live_site, emails[0], viewport=PHONE)
    context.grant_permissions(["notifications"])
    context.add_init_script(NOTIFICATIONS_RECORDED)
    page = context.new_page()
    page.goto(url)
    expect(page.locator("#turn .your-turn .countdown[data-since]")).to_have_count(1)
    page.wait_for_function("() => window.__shown.length > 0", timeout=TIMEOUT)
    assert page.evaluate("window.__shown") == [["Your time is running out", f"hideout-low-{url.split('/')[2]}"]]
    page.reload()  # and a second tab, or the same page later: never again for this decision
    page.wait_for_timeout(2500)
    assert len(page.evaluate("window.__shown")) == 1
    context.close()
