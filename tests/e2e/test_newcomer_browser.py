"""A newcomer's first hour in a real browser (issue 10, "How it is checked").

- How to play pages, the lobby and the create form in English and Traditional Chinese, with an
  automated accessibility check (axe-core from the npm registry, injected into a browser context
  whose Content-Security-Policy is bypassed for the test only): no serious or critical violations.
- The create form shows only the chosen game's options; the 404 page is in the site's layout.
- heist against three bots: the result panel's figures are the money that moved on the table
  (R-29..R-44), then Rematch seats the same players in a new match.
- bridge_race from a stored position: the acting car is in view on a desktop and at 390×844; the tab
  title and icon say "Your turn" and move to the next player with the turn, who hears the chime
  they asked for in their profile.
- Screenshots of both boards at desktop and phone sizes are saved under ``artifacts/screenshots/``
  (named in the README) for a reviewer.
"""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from .accounts import make_accounts, set_profile, signed_in
from .board_page import submit
from .bridge_race_forms import POSITION, action_forms, pick
from .conftest import LiveSite
from .players import DESKTOP, PHONE, ROLE_NAMES, TIMEOUT, Player, assert_accessible, screenshot
from .stored_pages import TWENTY_YEARS, imported_at

pytestmark = pytest.mark.e2e

GUIDES = ("heist", "bridge_race", "dirty_money")


# --- learning the game on the site ---------------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "zh-hant"])
def test_how_to_play_lobby_and_create_form_are_translated_and_accessible(
    live_site: LiveSite, browser: Any, axe_source: str, language: str
) -> None:
    # a signed-in reader's language is their profile's
    (email,) = make_accounts(live_site, [f"ann_{secrets.token_hex(3)}"], [language])
    context = signed_in(browser, live_site, email, language=language, axe=True)
    page = context.new_page()
    heading = "How to play" if language == "en" else "遊戲說明"
    try:
        for path in ["/how-to-play/", *(f"/how-to-play/{slug}/" for slug in GUIDES)]:
            page.goto(path)
            expect(page.locator("html")).to_have_attribute("lang", language)
            expect(page.locator("main h1")).to_contain_text(heading)
            if path != "/how-to-play/":
                expect(page.locator("#goal")).to_be_visible()
                expect(page.locator("#example")).to_be_visible()
            assert_accessible(page, axe_source, f"{path} ({language})")
        page.goto("/")
        assert_accessible(page, axe_source, f"lobby ({language})")
        page.goto("/matches/new/")
        assert_accessible(page, axe_source, f"create form ({language})")
    finally:
        context.close()


def test_create_form_shows_only_the_chosen_games_options(live_site: LiveSite, browser: Any) -> None:
    (email,) = make_accounts(live_site, [f"bea_{secrets.token_hex(3)}"])
    context = signed_in(browser, live_site, email)
    page = context.new_page()
    try:
        page.goto("/matches/new/")
        game = page.locator("#id_game")
        shown = {"heist": "#id_heist__quick", "bridge_race": "#id_bridge_race__mode"}
        for chosen in ("heist", "bridge_race", "heist"):
            game.select_option(chosen)
            for slug, field in shown.items():
                if slug == chosen:
                    expect(page.locator(field)).to_be_visible()
                else:
                    expect(page.locator(field)).to_be_hidden()
            expect(page.locator(f"a[data-guide='{chosen}']")).to_be_visible()
            expect(page.locator("a[data-guide]:visible")).to_have_count(1)
    finally:
        context.close()


@pytest.mark.parametrize(("language", "words"), [("en", "Page not found"), ("zh-hant", "找不到")])
def test_the_404_page_is_in_the_site_layout(live_site: LiveSite, browser: Any, language: str, words: str) -> None:
    context = browser.new_context(base_url=live_site.url)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_site.url}])
    page = context.new_page()
    try:
        response = page.goto("/no-such-page/")
        assert response is not None and response.status == 404
        expect(page.locator("header .brand")).to_have_text("Hideout")
        expect(page.locator("main")).to_contain_text(words)
        expect(page.locator("main a[href='/']")).to_be_visible()
    finally:
        context.close()


# --- heist: the result panel and a rematch ---------------------------------------------------------


def chips(page: Page) -> dict[str, int]:
    out = {}
    for panel in page.locator("#board .seat-panel").all():
        name = panel.locator(".seat-name").inner_text().strip()
        out[name] = int(panel.locator(".chip").get_attribute("data-money") or "0")
    return out


def panel_changes(page: Page) -> dict[str, int]:
    out = {}
    for row in page.locator("#board .result-changes tr").all():
        text = row.locator("td").inner_text().strip().replace("−", "-").removesuffix("M")
        out[row.locator("th").inner_text().strip()] = int(text)
    return out


def test_heist_result_panel_matches_the_money_and_rematch_reseats_the_table(
    live_site: LiveSite, browser: Any, axe_source: str
) -> None:
    (email,) = make_accounts(live_site, [f"cleo_{secrets.token_hex(3)}"])
    context = signed_in(browser, live_site, email, axe=True)
    page = context.new_page()
    try:
        page.goto("/matches/new/?game=heist")
        page.locator("#id_game").select_option("heist")
        page.locator("#id_seats").fill("4")
        page.locator("#id_heist__quick").check()
        page.get_by_role("button", name="Create").click()
        expect(page).to_have_url(re.compile(r"/m/\d+/$"), timeout=TIMEOUT)
        first_url = page.url
        panel = page.locator("#board .lobby-panel")
        for taken in (2, 3, 4):
            with page.expect_navigation():
                panel.get_by_role("button", name="Fill a seat with a bot").click()
            expect(panel).to_contain_text(f"{taken} of 4 seats taken.", timeout=TIMEOUT)
        page.locator("#start-match").click()  # no reload: the started board is swapped in

        standings = page.locator("#board .standings")
        cards = page.locator("#board .card-choices button")
        commit = page.locator("#board .actions").get_by_role("button", name="Commit: I stay", exact=True)
        checked = 0
        before: dict[str, int] = {}
        planned = 0

        def check_result(before: dict[str, int]) -> None:
            """R-29..R-44: every change in the panel is the money that moved on the table."""
            nonlocal checked
            assert panel_changes(page) == {n: chips(page)[n] - before[n] for n in before}
            checked += 1
            if checked == 1:
                expect(page.locator("#board .heist-result .result-hands li")).not_to_have_count(0)
                screenshot(page, "heist-desktop")
                page.set_viewport_size(PHONE)
                screenshot(page, "heist-phone")
                page.set_viewport_size(DESKTOP)
                assert_accessible(page, axe_source, "heist board")

        seen: list[tuple[int, str | None, bool]] = []  # (heist on the board, result panel's heist, money known)
        for _ in range(40):
            expect(standings.or_(cards.first).or_(commit).first).to_be_visible(timeout=TIMEOUT)
            if standings.count():
                break
            if cards.count():
                status_text = page.locator("#board .heist-status").inner_text()
                heist = int(re.findall(r"Heist (\d+) of", status_text)[0])
                result = page.locator("#board .heist-result")
                seen.append((heist, result.get_attribute("data-heist") if result.count() else None, bool(before)))
                if result.count() and before and int(result.get_attribute("data-heist") or 0) == heist - 1:
                    check_result(before)
                before, planned = chips(page), heist
                button = cards.first
                try:
                    expect(button.locator(".hcard-name")).to_have_text(re.compile("|".join(ROLE_NAMES.values())))
                except AssertionError:
                    if cards.count():
                        raise
                    continue  # the board moved on before the card could be read: look again
            else:
                button = commit
            try:
                button.wait_for(state="visible", timeout=2000)
            except PlaywrightTimeoutError:
                continue  # the board moved on (a bot acted) between the look and the click: look again
            try:
                status, error = submit_any(page, button)
            except PlaywrightTimeoutError:
                continue  # the bots' bargaining redrew the button under every try of the click: look again
            assert status in (200, 409), f"HTTP {status} {error}"  # 409: a bot moved first
        else:
            raise AssertionError("no final standings after the longest possible quick game")
        final = page.locator("#board .heist-result")  # the last heist's result stays after the end
        if before and final.count() and int(final.get_attribute("data-heist") or 0) == planned:
            check_result(before)
        assert checked >= 1, f"no heist result was shown: {seen}"

        expect(standings.locator("li")).to_have_count(4)
        players = sorted(n.strip() for n in page.locator("#board .seat-name").all_inner_texts())
        with page.expect_navigation():
            page.locator("#board").get_by_role("button", name="Rematch").click()
        assert page.url != first_url and re.search(r"/m/\d+/$", page.url)
        seated = page.locator("#board .seat-list")
        for name in players:
            expect(seated).to_contain_text(name)
        expect(page.locator("#board .lobby-panel")).to_contain_text("4 of 4 seats taken.")
    finally:
        context.close()


def submit_any(page: Page, button: Any) -> tuple[int, str]:
    """``submit`` for one page (the heist browser tests' helper takes a Player)."""
    return submit(Player(0, "", "", page.context, page, []), button)


# --- bridge_race: the acting car in view, the tab title, the chime ----------------------------------


@pytest.fixture()
def bridge_race_table(live_site: LiveSite) -> Iterator[tuple[str, list[str]]]:
    emails = make_accounts(live_site, [f"{n}_{secrets.token_hex(3)}" for n in ("dora", "eli", "finn")])
    yield imported_at(live_site, POSITION, emails, TWENTY_YEARS)[1], emails


# Counts the chimes a page plays (the oscillators it starts) without changing what it does.
COUNT_CHIMES = (
    "window.__chimes = 0; const Real = window.AudioContext;"
    "window.AudioContext = function () { const c = new Real();"
    " const make = c.createOscillator.bind(c);"
    " c.createOscillator = () => { const o = make(); const s = o.start.bind(o);"
    " o.start = (t) => { window.__chimes += 1; s(t); }; return o; }; return c; };"
)


FOCUS_POINT = """() => {
    const box = document.getElementById("br-scroll"), svg = document.getElementById("br-svg");
    const focus = document.getElementById("br-focus");
    const vb = svg.viewBox.baseVal, rect = svg.getBoundingClientRect(), frame = box.getBoundingClientRect();
    const scale = rect.width / vb.width;
    return { y: rect.top + (+focus.dataset.fy - vb.y) * scale, half: 20 * scale,
             top: frame.top, bottom: frame.bottom, viewport: window.innerHeight };
}"""


def car_in_view(page: Page) -> None:
    """The acting car (the board's focus point, the middle of its cell) lies inside the bridge's
    scroll box and, with that box on screen, inside the viewport."""
    expect(page.locator("#br-focus[data-fy]")).to_have_count(1)
    page.wait_for_timeout(400)  # the first centring runs once the board's stylesheet applies
    at = page.evaluate(FOCUS_POINT)
    assert at["top"] <= at["y"] - at["half"] and at["y"] + at["half"] <= at["bottom"], at
    page.locator("#br-scroll").scroll_into_view_if_needed()
    at = page.evaluate(FOCUS_POINT)
    assert at["y"] - at["half"] >= 0 and at["y"] + at["half"] <= at["viewport"], at


def test_bridge_race_centres_the_acting_car_and_the_tab_follows_the_turn(
    live_site: LiveSite, browser: Any, axe_source: str, bridge_race_table: tuple[str, list[str]]
) -> None:
    url, emails = bridge_race_table
    for email in emails[1:]:
        set_profile(live_site, email, turn_sound=True)  # seat 0 keeps the default: no chime
    contexts = []
    try:
        for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
            context = signed_in(browser, live_site, emails[0], viewport=viewport, axe=size == "desktop")
            contexts.append(context)
            page = context.new_page()
            page.goto(url)
            car_in_view(page)
            screenshot(page, f"bridge_race-{size}")
            if size == "desktop":
                assert_accessible(page, axe_source, "bridge_race board")
            context.close()
        contexts.clear()

        pages = []
        for email in emails:
            context = signed_in(browser, live_site, email)
            context.add_init_script(COUNT_CHIMES)
            contexts.append(context)
            page = context.new_page()
            page.goto(url)
            pages.append(page)
        mover = pages[0]
        expect(mover).to_have_title(re.compile(r"^Your turn · "))
        assert (mover.locator("link[rel=icon]").get_attribute("href") or "").endswith("favicon-turn.svg")
        for other in pages[1:]:
            expect(other).not_to_have_title(re.compile(r"^Your turn"))
            assert (other.locator("link[rel=icon]").get_attribute("href") or "").endswith("favicon.svg")
        # Seat 0 plays its turn through (another seat answers a prompt if one comes up); when the
        # turn moves on, the tabs change without a reload.
        deadline = time.monotonic() + 180
        while mover.locator("#turn .your-turn").count():
            assert time.monotonic() < deadline, "seat 0's turn did not end"
            acted = False
            for page in pages:
                form = pick(action_forms(page)) if page.locator("#turn .your-turn").count() else None
                if form is None:
                    continue
                forms = page.locator("#board form:has(input[name=action])")
                submit_any(page, forms.nth(form["index"]).locator("button[type=submit]").first)
                acted = True
                break
            if not acted:
                mover.wait_for_timeout(200)
        expect(mover).not_to_have_title(re.compile(r"^Your turn"), timeout=TIMEOUT)
        mover.wait_for_function("() => !document.title.startsWith('Your turn')")
        next_up = [p for p in pages[1:] if p.locator("#turn .your-turn").count()]
        assert next_up, "nobody else has the turn"
        for page in next_up:
            expect(page).to_have_title(re.compile(r"^Your turn · "), timeout=TIMEOUT)
            assert page.evaluate("window.__chimes") >= 1  # asked for in the profile
        assert mover.evaluate("window.__chimes") == 0  # the default: no sound
    finally:
        for context in contexts:
            context.close()
