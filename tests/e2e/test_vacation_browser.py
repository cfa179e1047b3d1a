"""Vacations and time banks in a real browser (issue 56, parts 5 and 6), at a phone's 390×844.

A player starts a vacation from the profile page (the allowance shown, a request over it refused
with the error beside the field); another player of their correspondence match then reads
"<name> is on vacation until <date>." on the match page, and sees it go, live, when the player ends
the vacation early. A host creates a Bridge Race on a time bank; once it runs, its page lists each
player's time left. Each page is axe-clean and as wide as the screen.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .accounts import make_accounts, signed_in, started_match
from .conftest import LiveSite
from .players import DESKTOP, PHONE, TIMEOUT, assert_accessible

pytestmark = pytest.mark.e2e


def fits_the_screen(page: Page) -> None:
    width, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width <= inner, f"{page.url}: {width}px wide on a {inner}px screen"


def test_a_vacation_from_the_profile_page_is_shown_to_the_other_players(
    live_site: LiveSite, browser: Any, axe_source: str
) -> None:
    tag = secrets.token_hex(3)
    emails = make_accounts(live_site, [f"vera_{tag}", f"walt_{tag}", f"xena_{tag}", f"yuri_{tag}"])
    match_id = started_match(live_site, emails, "heist", 86400)  # a day a decision: correspondence
    away = signed_in(browser, live_site, emails[0], viewport=PHONE, axe=True)
    other = signed_in(browser, live_site, emails[1], viewport=PHONE, axe=True)
    try:
        profile = away.new_page()
        profile.goto("/profile/")
        panel = profile.locator("#vacation")
        expect(panel).to_contain_text("You have 30 days of vacation left this year.")
        assert_accessible(profile, axe_source, "the profile page with its vacation form")
        fits_the_screen(profile)

        days = panel.get_by_label("Days away")
        days.fill("31")  # over the allowance: refused beside the field, nothing started
        days.press("Enter")
        expect(panel.get_by_role("alert")).to_contain_text(
            "You have 30 days of vacation left this year; choose at most that many."
        )
        expect(panel.get_by_label("Days away")).to_have_attribute("aria-invalid", "true")
        assert_accessible(profile, axe_source, "the vacation form with its error")

        board = other.new_page()
        board.goto(f"/m/{match_id}/")
        expect(board.locator("#turn")).not_to_contain_text("on vacation")

        panel.get_by_label("Days away").fill("5")
        panel.get_by_role("button", name="Start my vacation").click()
        expect(profile).to_have_url(re.compile(r"/profile/$"))
        expect(profile.locator("#vacation")).to_contain_text(re.compile(r"You are on vacation until \w+"))
        assert_accessible(profile, axe_source, "the profile page during a vacation")
        fits_the_screen(profile)

        label = board.locator("#turn .away")
        expect(label).to_contain_text(re.compile(r"^Vera is on vacation until .*\d{4}"), timeout=TIMEOUT)
        assert_accessible(board, axe_source, "the match page naming a player on vacation")
        fits_the_screen(board)
        own = away.new_page()
        own.goto(f"/m/{match_id}/")
        expect(own.locator("#turn")).to_be_visible()
        expect(own.locator("#turn .away")).to_have_count(0)  # never said of oneself

        profile.locator("#vacation").get_by_role("button", name="End my vacation now").focus()
        profile.keyboard.press("Enter")  # by keyboard
        expect(profile.locator("#vacation")).to_contain_text("days of vacation left this year.")
        expect(board.locator("#turn .away")).to_have_count(0, timeout=TIMEOUT)  # gone, live
        for page in (profile, board):
            page.set_viewport_size(DESKTOP)
            page.reload()
            assert_accessible(page, axe_source, f"{page.url} at 1280x800")
            fits_the_screen(page)
    finally:
        away.close()
        other.close()


def test_a_race_on_a_time_bank_shows_each_players_time_left(live_site: LiveSite, browser: Any, axe_source: str) -> None:
    tag = secrets.token_hex(3)
    emails = make_accounts(live_site, [f"zora_{tag}", f"abel_{tag}", f"bess_{tag}"])
    host = signed_in(browser, live_site, emails[0], viewport=PHONE, axe=True)
    try:
        page = host.new_page()
        page.goto("/matches/new/?game=bridge_race")
        page.locator("#id_game").select_option("bridge_race")
        page.locator("#id_seats").fill("3")
        expect(page.get_by_label("Time limit per decision")).to_be_visible()
        page.get_by_label("Clock").select_option(label="A reserve of 3 days, plus 1 day a decision")
        expect(page.get_by_label("Time limit per decision")).to_be_hidden()  # the bank's increment stands in
        assert_accessible(page, axe_source, "the create form with a time bank chosen")
        page.get_by_role("button", name="Create").click()
        expect(page).to_have_url(re.compile(r"/m/\d+/$"))
        match_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
        code = (
            "from django.contrib.auth import get_user_model\n"
            "from games.play import services\n"
            f"for e in {emails[1:]!r}:\n"
            f"    services.do_join_match({match_id}, get_user_model().objects.get(email=e))\n"
            f"services.do_start_match({match_id}, get_user_model().objects.get(email={emails[0]!r}))\n"
        )
        live_site.manage("shell", "-c", code)
        page.reload()
        clocks = page.locator("#turn .clocks")
        expect(clocks.get_by_role("heading", name="Time bank")).to_be_visible()
        expect(clocks.locator("li")).to_have_count(3)
        expect(clocks.locator(".countdown")).to_have_count(1)  # the player deciding now: running
        expect(clocks.locator(".bank-left")).to_have_text(["3d 0h", "3d 0h"])  # the others: at rest
        expect(clocks.locator(".countdown")).to_have_text(re.compile(r"^2d 23h$"))
        assert_accessible(page, axe_source, "a race on a time bank")
        fits_the_screen(page)
    finally:
        host.close()
