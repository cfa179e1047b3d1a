"""Issue 55, part 1: a finished match's replay in the browser.

A stored finished match (tests/e2e/data) is opened from its page's "Replay" link; the replay is
stepped back and forth with the keyboard alone (← →, Page Up / Page Down by decision, Home, End),
each step's address is the page's (a link to share), and the page is axe-clean, at 1280×800 and
390×844 (no sideways scroll), in English and Traditional Chinese. A live game's replay plays back
on its server clock and pauses.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .accounts import make_accounts, signed_in
from .conftest import LiveSite
from .players import DESKTOP, PHONE, assert_accessible
from .stored_pages import DATA, imported

pytestmark = pytest.mark.e2e

WORDS = {
    "en": {"replay": "Replay", "back": "Back one step", "count": "Step %s of %s"},
    "zh-hant": {"replay": "重播", "back": "後退一步", "count": "第 %s 步，共 %s 步"},
}


def step_of(page: Page) -> int:
    return int(page.locator("#replay-body").get_attribute("data-step") or "0")


def press_and_wait(page: Page, key: str, expected: int) -> None:
    page.keyboard.press(key)
    expect(page.locator("#replay-body")).to_have_attribute("data-step", str(expected))
    assert re.search(rf"[?&]step={expected}\b", page.url), page.url


@pytest.mark.parametrize(("viewport", "language"), [(DESKTOP, "en"), (PHONE, "zh-hant"), (PHONE, "en")])
def test_a_finished_match_is_replayed_by_keyboard(
    live_site: LiveSite, browser: Any, axe_source: str, viewport: dict[str, int], language: str
) -> None:
    tag = secrets.token_hex(3)
    emails = make_accounts(live_site, [f"rex_{tag}", f"sue_{tag}", f"tom_{tag}", f"uma_{tag}"], [language] * 4)
    url = imported(live_site, DATA / "heist_over.json", emails)
    context = signed_in(browser, live_site, emails[0], viewport=viewport, language=language, axe=True)
    words = WORDS[language]
    try:
        page = context.new_page()
        page.goto(url)
        page.get_by_role("link", name=words["replay"], exact=True).click()
        expect(page.locator("#replay-body")).to_be_visible()
        last = int(page.locator("#replay-body").get_attribute("data-last") or "0")
        assert last > 10 and step_of(page) == last
        expect(page.locator("#replay-count")).to_have_text(words["count"] % (last, last))
        assert_accessible(page, axe_source, f"the replay's last step ({language}, {viewport['width']})")
        # Keys alone: back, back, forward; the first and the last step; by decision.
        press_and_wait(page, "ArrowLeft", last - 1)
        press_and_wait(page, "ArrowLeft", last - 2)
        press_and_wait(page, "ArrowRight", last - 1)
        press_and_wait(page, "Home", 1)
        expect(page.locator("#replay-count")).to_have_text(words["count"] % (1, last))
        page.keyboard.press("PageDown")
        expect(page.locator("#replay-body")).not_to_have_attribute("data-step", "1")
        decided = step_of(page)
        assert 1 < decided <= last
        press_and_wait(page, "End", last)
        page.keyboard.press("PageUp")
        expect(page.locator("#replay-body")).not_to_have_attribute("data-step", str(last))
        # The step's own line is marked in the log; the board has no form that acts.
        press_and_wait(page, "ArrowLeft", step_of(page) - 1)
        assert page.locator("#board form[data-act]").count() == 0
        assert page.locator("#board form:not([hidden])").count() == 0
        # Tab reaches the step buttons, and Enter on one moves a step.
        back = page.locator("#replay-back")
        back.focus()
        before = step_of(page)
        page.keyboard.press("Enter")
        expect(page.locator("#replay-body")).to_have_attribute("data-step", str(before - 1))
        expect(page.locator("#replay-back")).to_be_focused()
        assert page.get_by_role("link", name=words["back"]).count() == 1
        # A step's address opens that step (a link to share).
        shared = page.url
        other = context.new_page()
        other.goto(shared)
        expect(other.locator("#replay-body")).to_have_attribute("data-step", str(before - 1))
        other.close()
        width = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
        assert width[0] <= width[1], f"the replay scrolls sideways: {width}"
        assert_accessible(page, axe_source, f"a replay step ({language}, {viewport['width']})")
    finally:
        context.close()


def test_a_live_match_plays_back_on_its_clock_and_pauses(live_site: LiveSite, browser: Any, axe_source: str) -> None:
    tag = secrets.token_hex(3)
    emails = make_accounts(live_site, [f"vic_{tag}", f"wes_{tag}", f"xia_{tag}"])
    url = imported(live_site, DATA / "police_alarm_over.json", emails)
    context = signed_in(browser, live_site, emails[0], axe=True)
    try:
        page = context.new_page()
        page.goto(url + "replay/?step=1&as=all")
        expect(page.locator("#pa-map")).to_be_visible()
        assert_accessible(page, axe_source, "a live game's replay")
        page.get_by_role("button", name="Play 4×").click()
        expect(page.locator("#replay-body")).not_to_have_attribute("data-step", "1", timeout=20_000)
        page.get_by_role("button", name="Pause").click()
        page.wait_for_timeout(300)
        paused = step_of(page)
        page.wait_for_timeout(2500)
        assert step_of(page) == paused, "the play-back went on after the pause"
        # The slider scrubs: a value set and changed goes to that step.
        page.locator("#replay-step").fill("40")
        expect(page.locator("#replay-body")).to_have_attribute("data-step", "40")
    finally:
        context.close()
