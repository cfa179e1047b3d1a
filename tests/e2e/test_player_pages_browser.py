"""A player's page, "My matches" and a leaderboard in a real browser, at 1280×800 and 390×844, in
English and Traditional Chinese: axe-clean, no page wider than the screen, the rating of a
finished match on show, the filters worked from the keyboard."""

from __future__ import annotations

import re
import secrets
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .accounts import make_accounts, signed_in, started_match
from .conftest import LiveSite
from .players import DESKTOP, PHONE, assert_accessible

pytestmark = pytest.mark.e2e

WORDS = {
    "en": {"recent": "Recent matches", "board": "Leaderboard: Police Alarm", "mine": "My matches", "rating": "rating"},
    "zh-hant": {"recent": "最近的對局", "board": "排行榜：", "mine": "我的對局", "rating": "積分"},
}


def assert_fits(page: Page, what: str) -> None:
    wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"{what} is {wide}px wider than the screen"


@pytest.mark.parametrize("language", ["en", "zh-hant"])
def test_a_players_page_and_a_leaderboard_at_both_widths(
    live_site: LiveSite, browser: Any, axe_source: str, language: str
) -> None:
    tag = secrets.token_hex(3)
    names = [f"rhea_{tag}", f"sven_{tag}"]
    # a signed-in player is served in their profile's language
    emails = make_accounts(live_site, names, ["", language])
    match_id = started_match(live_site, emails, "police_alarm", 60, first_resigns=True)  # rated
    words = WORDS[language]
    for viewport in (DESKTOP, PHONE):
        context = signed_in(browser, live_site, emails[1], viewport=viewport, language=language, axe=True)
        try:
            page = context.new_page()
            where = f"{language} {viewport['width']}px"
            # Reached from the header, as a player would.
            page.goto("/")
            page.locator("header nav a[href^='/u/']").click()
            expect(page).to_have_url(re.compile(rf"/u/{names[1]}/$"))
            expect(page.locator("h2#recent-heading")).to_have_text(words["recent"])
            recent = page.locator(".matches li").first
            expect(recent).to_contain_text(f"#{match_id}")
            expect(recent.locator(".rating-change")).to_contain_text(re.compile(rf"{words['rating']} [+−±]\d+"))
            assert_fits(page, f"the player's page ({where})")
            assert_accessible(page, axe_source, f"the player's page ({where})")

            page.goto("/leaderboard/police_alarm/")
            expect(page.locator("h1")).to_contain_text(words["board"])
            ours = page.locator("table.records-table tbody tr").filter(
                has=page.locator(f"a[href='/u/{names[0]}/'], a[href='/u/{names[1]}/']")
            )
            expect(ours).to_have_count(2)  # (other tests' players may be on the board too)
            expect(ours.locator(".badge")).to_have_count(2)  # one match each: provisional
            assert_fits(page, f"the leaderboard ({where})")
            assert_accessible(page, axe_source, f"the leaderboard ({where})")
            # A name on the leaderboard opens that player's page.
            # (display names repeat: another test's "Rhea" may be there too; the address is the username)
            page.locator(f"table.records-table a[href='/u/{names[0]}/']").click()
            expect(page).to_have_url(re.compile(rf"/u/{names[0]}/$"))

            page.goto("/matches/")
            expect(page.locator("h1")).to_have_text(words["mine"])
            # The filters from the keyboard: choose the finished matches and send the form with Enter.
            page.locator("#id_state").focus()
            page.keyboard.press("End")  # the last state: finished
            page.keyboard.press("Tab")  # the "my turn" box
            page.keyboard.press("Tab")  # the button
            expect(page.locator(".filters button[type=submit]")).to_be_focused()
            page.keyboard.press("Enter")
            expect(page).to_have_url(re.compile(r"state=finished"))
            expect(page.locator(".matches li")).to_have_count(1)
            assert_fits(page, f"My matches ({where})")
            assert_accessible(page, axe_source, f"My matches ({where})")

            page.goto(f"/m/{match_id}/")
            standings = page.locator("#match-status .standings")
            expect(standings.locator(".rating-change")).to_have_count(2)
            expect(standings.locator(f"a[href='/u/{names[0]}/']")).to_be_visible()
        finally:
            context.close()
