"""The waiting room in a real browser (issue 54, items 1, 5, 8 and 17).

- A reader of the invite page keeps its "Join this match" button while others join (the live
  update of the waiting panel), and can still join.
- The host's "Cancel the match" asks first, on a page of its own that works without JavaScript;
  the players still on the match's page are told, live, that the host cancelled it, by name.
- "Match created. Send the invite link" is said only while the match waits for players.
- The create form's seats follow the chosen game's range.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .accounts import log_in, make_accounts
from .board_page import mark_loaded
from .conftest import LiveSite
from .players import TIMEOUT

pytestmark = pytest.mark.e2e

CREATED = "Match created. Send the invite link to your friends."


def signed_in(browser: Any, site: LiveSite, email: str, *, javascript: bool = True) -> Page:
    """A page of ``email``'s own browser context, signed in through the login form."""
    context = browser.new_context(base_url=site.url, java_script_enabled=javascript)
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    log_in(page, email)
    return page


def create_match(page: Page, game: str, seats: int) -> str:
    page.goto(f"/matches/new/?game={game}")
    page.locator("#id_game").select_option(game)
    page.locator("#id_seats").fill(str(seats))
    page.get_by_role("button", name="Create").click()
    expect(page).to_have_url(re.compile(r"/m/\d+/$"))
    return page.url


def assert_not_reloaded(page: Page) -> None:
    assert page.evaluate("window.__e2eSamePage === true"), "the page was reloaded"


def close_all(*pages: Page) -> None:
    for page in pages:
        page.context.close()


def test_the_invite_page_keeps_its_join_button_while_others_join(live_site: LiveSite, browser: Any) -> None:
    tag = secrets.token_hex(3)
    host_email, first_email, reader_email = make_accounts(live_site, [f"hana_{tag}", f"ivo_{tag}", f"jun_{tag}"])
    host = signed_in(browser, live_site, host_email)
    first = signed_in(browser, live_site, first_email)
    reader = signed_in(browser, live_site, reader_email)
    try:
        url = create_match(host, "heist", 4)
        invite = host.locator("#invite").input_value()
        assert invite.startswith(live_site.url + "/invite/")
        reader.goto(invite)
        panel = reader.locator("#board .lobby-panel")
        expect(panel).to_contain_text("1 of 4 seats taken.")
        expect(reader.locator("#join-match")).to_be_visible()
        expect(reader.locator("#conn")).to_be_empty()  # connected (a lost socket says so here)
        mark_loaded(reader)

        first.goto(invite)
        first.locator("#join-match").click()
        expect(first.locator("#board .lobby-panel")).to_contain_text("2 of 4 seats taken.")

        # The reader's panel is updated live, and its button stays.
        expect(panel).to_contain_text("2 of 4 seats taken.")
        expect(panel).to_contain_text("Ivo")
        assert_not_reloaded(reader)
        expect(reader.locator("#join-match")).to_be_visible()
        expect(reader.locator("#invite")).to_have_count(0)  # not a member: no invite link of its own
        reader.locator("#join-match").click()
        expect(panel).to_contain_text("3 of 4 seats taken.")
        expect(reader.locator("#join-match")).to_have_count(0)
        expect(panel.get_by_role("button", name="Leave")).to_be_visible()
        assert reader.url == url
    finally:
        close_all(host, first, reader)


def test_the_host_confirms_a_cancel_and_the_players_are_told_who_cancelled(live_site: LiveSite, browser: Any) -> None:
    tag = secrets.token_hex(3)
    host_email, guest_email = make_accounts(live_site, [f"kim_{tag}", f"lou_{tag}"])
    host = signed_in(browser, live_site, host_email, javascript=False)  # the question works without JavaScript
    guest = signed_in(browser, live_site, guest_email)
    try:
        url = create_match(host, "heist", 3)
        guest.goto(host.locator("#invite").input_value())
        with guest.expect_navigation():  # joining takes the guest to the match's page (HX-Redirect)
            guest.locator("#join-match").click()
        expect(guest.locator("#board .lobby-panel")).to_contain_text("2 of 3 seats taken.")
        mark_loaded(guest)

        host.goto(url)
        host.get_by_role("link", name="Cancel the match").click()
        expect(host.locator("main h1")).to_have_text("Cancel this match?")
        expect(host.locator("main")).to_contain_text("Lou")
        host.get_by_role("link", name="No, keep the match").click()  # changes nothing
        expect(host).to_have_url(url)
        expect(host.locator("#board .lobby-panel")).to_contain_text("2 of 3 seats taken.")

        host.get_by_role("link", name="Cancel the match").click()
        host.get_by_role("button", name="Yes, cancel the match").click()
        expect(host).to_have_url(live_site.url + "/")
        expect(host.locator(".messages")).to_contain_text("You cancelled the match.")

        # The guest, still on the match's page, is told live: the host cancelled it, by name.
        notice = guest.locator("#board .notice").first
        expect(notice).to_have_text("Kim, the host, cancelled this match.")
        assert_not_reloaded(guest)
        board = guest.locator("#board")
        expect(board).not_to_contain_text("moderator")
        expect(board).not_to_contain_text("You are watching this match")

        host.goto(url)  # the host's own view of it says the same
        expect(host.locator("#board")).to_contain_text("Kim, the host, cancelled this match.")
        expect(host.locator("#board")).not_to_contain_text("You are watching this match")
    finally:
        close_all(host, guest)


def test_match_created_is_said_only_while_the_match_waits_for_players(live_site: LiveSite, browser: Any) -> None:
    tag = secrets.token_hex(3)
    emails = make_accounts(live_site, [f"max_{tag}", f"noa_{tag}", f"oli_{tag}"])
    host, *guests = (signed_in(browser, live_site, email) for email in emails)
    try:
        create_match(host, "heist", 3)
        expect(host.get_by_text(CREATED)).to_have_count(1)
        mark_loaded(host)
        invite = host.locator("#invite").input_value()
        panel = host.locator("#board .lobby-panel")
        for taken, guest in enumerate(guests, start=2):  # they join by the link; the host's page is live
            guest.goto(invite)
            guest.locator("#join-match").click()
            expect(panel).to_contain_text(f"{taken} of 3 seats taken.")
        expect(host.get_by_text(CREATED)).to_have_count(0)  # nobody left to invite
        host.locator("#start-match").click()  # the started board is swapped in, without a reload
        expect(host.locator("#board .lobby-panel")).to_have_count(0)
        expect(host.locator("#board #turn")).to_have_count(1)
        assert_not_reloaded(host)
        expect(host.get_by_text(CREATED)).to_have_count(0)
    finally:
        close_all(host, *guests)


def test_the_create_forms_seats_follow_the_chosen_game(live_site: LiveSite, browser: Any) -> None:
    (email,) = make_accounts(live_site, [f"ned_{secrets.token_hex(3)}"])
    page = signed_in(browser, live_site, email)
    try:
        page.goto("/matches/new/?game=heist")
        seats = page.locator("#id_seats")
        expect(seats).to_have_attribute("min", "3")
        expect(seats).to_have_attribute("max", "8")
        seats.fill("7")
        page.locator("#id_game").select_option("police_alarm")
        expect(seats).to_have_attribute("min", "2")
        expect(seats).to_have_attribute("max", "4")
        expect(seats).to_have_value("4")  # kept inside the game's range
        expect(page.locator("#id_seats_helptext")).to_have_text("Police Alarm: 2 to 4 players.")
        page.locator("#id_game").select_option("bridge_race")
        expect(seats).to_have_attribute("min", "3")
        expect(page.locator("#id_seats_helptext")).to_have_text("Bridge Race: 3 to 5 players.")
    finally:
        close_all(page)
