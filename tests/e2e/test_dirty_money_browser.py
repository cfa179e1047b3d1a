"""Three people finish a Dirty Money game from a stored final-round position, through the UI only.

The position (tests/e2e/data/dirty_money_late.json, written by make_dirty_money_late.py) is a
3-player Quick Mode game where somebody owns 6 placements, two short of the end (R-95), and seat 0
opens a round. It is loaded with ``manage.py import_match`` and the seats go to three people who signed
up through the site. Whoever has a decision takes it in the page: a location, action cards, the
Trade's cards, a blacklist choice, and at a region a purchase through the payment picker whenever
one is offered (its submit button must be enabled on the payment it starts with). Every action must
reach the other two pages over the WebSocket without a reload, and the game ends on the scoring
table (section 6) with its chart.

Then what a player does after a game (issue 55), at 1280×800 in English and at 390×844 in
Traditional Chinese: the chart and the rating change on the match page, its replay opened from
there and stepped back and forth by keyboard, the whole game's chart beside it, and the player's
own page with the match among the recent ones and a rating, each page axe-clean and no wider than
the screen.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .accounts import set_profile, signed_in
from .board_page import all_pages_follow, assert_final_table, assert_not_reloaded, board_version, open_board, submit
from .conftest import LiveSite
from .players import DESKTOP, PHONE, TIMEOUT, Player, assert_accessible, new_players, sign_up
from .stored_pages import imported_at

pytestmark = pytest.mark.e2e

POSITION = Path(__file__).parent / "data" / "dirty_money_late.json"
AFTER_WORDS = {
    "en": {"replay": "Replay", "recent": "Recent matches", "rating": "rating", "game": "Dirty Money"},
    "zh-hant": {"replay": "重播", "recent": "最近的對局", "rating": "積分", "game": "洗錢遊戲"},
}
MAX_ACTIONS = 120
MAX_SECONDS = 240.0
ACTION_FORMS = "#board #dm-actions form:has(input[name=action])"
# What a player does, by the action type of the form, in order; a purchase first when one is offered.
PRIORITY = (
    "buy",
    "choose_bear_stock",
    "choose_location",
    "blacklist_cards",
    "resolve_action",
    "trade_swap",
    "gallery_draw",
    "launder",
    "launder_discard",
    "banana_republic",
    "end_location_action",
)


def action_forms(page: Any) -> list[dict[str, Any]]:
    values = page.locator(ACTION_FORMS).evaluate_all(
        "forms => forms.map(f => f.querySelector('input[name=action]').value)"
    )
    return [{"index": i, "payload": json.loads(raw)} for i, raw in enumerate(values)]


def pick(forms: list[dict[str, Any]]) -> dict[str, Any] | None:
    for kind in PRIORITY:
        for form in forms:
            if form["payload"].get("type") == kind:
                return form
    return None


def whose_turn(players: list[Player]) -> tuple[Player, dict[str, Any]] | None:
    versions = [board_version(p.page) for p in players]
    for player, version in zip(players, versions, strict=True):
        if version < max(versions):
            continue
        form = pick(action_forms(player.page))
        if form is not None:
            return player, form
    return None


def load_position(site: LiveSite, players: list[Player]) -> str:
    return imported_at(site, POSITION, (p.email for p in players))[1]


def assert_fits(page: Any, what: str) -> None:
    wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"{what} is {wide} px wider than the screen"


def replay_step(page: Any) -> int:
    return int(page.locator("#replay-body").get_attribute("data-step") or "0")


def press_and_wait(page: Any, key: str, expected: int) -> None:
    page.keyboard.press(key)
    expect(page.locator("#replay-body")).to_have_attribute("data-step", str(expected))
    assert re.search(rf"[?&]step={expected}\b", page.url), page.url  # each step its own address


def after_the_game(
    browser: Any,
    site: LiveSite,
    player: Player,
    match_url: str,
    viewport: dict[str, int],
    language: str,
    axe_source: str,
) -> None:
    """The finished match's page, its replay by keyboard and the player's own page, in a new
    context of ``player``'s (the CSP bypassed for axe) at ``viewport`` in ``language``."""
    words = AFTER_WORDS[language]
    where = f"({language}, {viewport['width']} px)"
    context = signed_in(
        browser, site, player.email, viewport=viewport, language=language, axe=True, password=player.password
    )
    try:
        page = context.new_page()
        page.goto(match_url)
        expect(page.locator("#match-chart svg polyline.chart-line")).to_have_count(3)
        expect(page.locator("#match-status")).to_contain_text(words["rating"])  # the change, on the final screen
        assert_fits(page, f"the finished match {where}")
        assert_accessible(page, axe_source, f"the finished match {where}")

        page.get_by_role("link", name=words["replay"], exact=True).click()
        expect(page.locator("#replay-body")).to_be_visible()
        last = int(page.locator("#replay-body").get_attribute("data-last") or "0")
        assert last > 10 and replay_step(page) == last
        press_and_wait(page, "ArrowLeft", last - 1)
        press_and_wait(page, "ArrowLeft", last - 2)
        press_and_wait(page, "ArrowRight", last - 1)
        press_and_wait(page, "Home", 1)
        press_and_wait(page, "ArrowRight", 2)
        expect(page.locator("#replay-count")).to_contain_text(str(last))
        chart = page.locator(".replay-chart figure.chart")
        expect(chart.locator("polyline.chart-line")).to_have_count(3)  # the whole game's chart beside it
        chart.locator("summary").focus()
        page.keyboard.press("Enter")  # its table, from the keyboard
        expect(chart.locator("table")).to_be_visible()
        assert_fits(page, f"the replay {where}")
        assert_accessible(page, axe_source, f"the replay {where}")

        page.locator("header a[href^='/u/']").click()
        recent = page.get_by_role("heading", name=words["recent"])
        expect(recent).to_be_visible()
        expect(page.locator("main")).to_contain_text(words["game"])
        expect(page.locator(f"main a[href*='{match_url}replay']").first).to_be_attached()
        assert_fits(page, f"the player's page {where}")
        assert_accessible(page, axe_source, f"the player's page {where}")
    finally:
        context.close()


def test_three_players_finish_a_stored_dirty_money_game(live_site: LiveSite, browser: Any, axe_source: str) -> None:
    players = new_players(browser, live_site, "vera", "walt", "xena")
    last, actions, bought = "nothing yet", 0, 0
    clicked: dict[str, int] = {}
    try:
        for player in players:
            sign_up(live_site, player)
        match_url = load_position(live_site, players)
        open_board(players, match_url, "#dm-table", "Round")
        expect(players[0].page.locator("#dm-next")).to_contain_text("Choose a location")
        expect(players[0].page).to_have_title(re.compile(r"^Your turn · Dirty Money"))  # issue 10, item 6
        expect(players[1].page).not_to_have_title(re.compile(r"^Your turn"))
        expect(players[1].page.locator("#dm-next")).to_contain_text(f"{players[0].name} chooses a location")
        # my hand is mine alone: the other pages show only its size
        own = players[0].page.locator("#dm-me [data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
        assert own, "seat 1 sees no hand"
        for other in players[1:]:
            html = other.page.content()
            assert not [card for card in own if f'data-card="{card}"' in html], "another page shows seat 1's hand"

        started = idle_since = time.monotonic()
        while not all(p.page.locator("#dm-final .dm-scores").count() for p in players):
            assert actions < MAX_ACTIONS, f"no final scoring after {actions} actions; last: {last}"
            assert time.monotonic() - started < MAX_SECONDS, f"no final scoring in time; last: {last}"
            turn = whose_turn(players)
            if turn is None:
                if time.monotonic() - idle_since > TIMEOUT / 1000:
                    raise AssertionError(f"no page offers a control for {TIMEOUT / 1000:.0f} s; last: {last}")
                time.sleep(0.1)
                continue
            actor, form = turn
            kind = str(form["payload"]["type"])
            element = actor.page.locator(ACTION_FORMS).nth(form["index"])
            if kind == "blacklist_cards":  # tick exactly as many cards as asked, then the button enables
                need = int(element.get_attribute("data-exact") or "0")
                boxes = element.locator("input[type=checkbox]")
                for i in range(need):
                    boxes.nth(i).check()
            button = element.locator("button[type=submit]").first
            if kind == "buy":
                expect(button).to_be_enabled()  # the picker starts on a legal payment
                summary = element.locator(".dm-paysum").inner_text()
                assert "Paying" in summary, summary
            last = f"{actor.name}: {json.dumps(form['payload'])}"
            status, error = submit(actor, button)
            actions += 1
            clicked[kind] = clicked.get(kind, 0) + 1
            if status == 409:
                idle_since = time.monotonic()
                continue
            assert status == 200, f"{last} was refused: HTTP {status} {error!r}"
            bought += kind == "buy"
            idle_since = time.monotonic()
            all_pages_follow(actor, players, last)

        for player in players:
            assert_final_table(player.page.locator("#dm-final .dm-scores"), "Final scoring", "tbody tr", players)
            expect(player.page.locator("#match-chart svg polyline.chart-line")).to_have_count(3)  # money over rounds
            expect(player.page.locator(ACTION_FORMS)).to_have_count(0)
            expect(player.page).not_to_have_title(re.compile(r"^Your turn"))
            assert_not_reloaded(player)
            assert not player.errors, f"{player.name}'s page reported: {player.errors}"
        print(f"\n[dirty_money e2e] {actions} actions in {time.monotonic() - started:.1f} s: {clicked}")
        assert clicked.get("choose_location", 0) >= 3, clicked
        assert bought >= 1, f"nobody bought through the payment picker: {clicked}"
        set_profile(live_site, players[1].email, language="zh-hant")
        for player, viewport, language in ((players[0], DESKTOP, "en"), (players[1], PHONE, "zh-hant")):
            after_the_game(browser, live_site, player, match_url, viewport, language, axe_source)
        live_site.check_alive()
    except BaseException:
        print(f"\n[dirty_money e2e] failed after {actions} actions; last: {last}")
        raise
    finally:
        for player in players:
            player.context.close()
