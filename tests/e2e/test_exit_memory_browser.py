"""Three people play an Emergency Exit round in three browsers, through the UI only (issue 12).

Player 1 creates the match and shares the invite; everybody places a tile from their own hand
(pre-rotated: one click places it), then whoever is on turn declares the route lost (R-13). The
next holder is asked to join while the third sees who is deciding and the countdown (R-14, R-69);
they join, which leaves one holder and ends the round (R-18). Every page then shows the route
walked tile by tile from the start tile (R-71, R-72): one player watches the whole walk, one skips
it, one asks for reduced motion and gets the route at once. That third player is on a phone-sized
screen and plays with the keyboard only; the page must not scroll sideways there. Everybody presses Ready and round 2 is
dealt (R-44). Before the resolution no page shows more of the pile than its top tile (R-23).
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from .board_page import act, assert_not_reloaded, mark_loaded
from .conftest import LiveSite
from .players import PHONE, TIMEOUT, Player, join, new_players, screenshot, sign_up

pytestmark = pytest.mark.e2e

PILE_AFTER_ROUND = 4  # the start tile and the three placed tiles; the lost tiles are chain markers
PLACE = "#em-me .em-hand form.action-form button[type=submit]"


def create_exit_memory(host: Player, seats: int) -> tuple[str, str]:
    """The host picks Emergency Exit with the longest clocks R-70 allows; returns the page and invite."""
    page = host.page
    page.goto("/matches/new/?game=exit_memory")
    page.locator("#id_game").select_option("exit_memory")
    page.locator("#id_seats").fill(str(seats))
    expect(page.locator("#id_heist__quick")).to_be_hidden()  # only the chosen game's options
    expect(page.locator("#id_time_amount")).to_be_hidden()  # issue 54, item 6: its own clocks only
    page.locator("#id_exit_memory__turn_seconds").select_option("300")
    page.locator("#id_exit_memory__chain_seconds").select_option("120")
    page.get_by_role("button", name="Create").click()
    expect(page).to_have_url(re.compile(r"/m/\d+/$"), timeout=TIMEOUT)
    expect(page.locator("#board .lobby-panel")).to_contain_text(f"1 of {seats} seats taken.")
    return page.url, page.locator("#invite").input_value()


def on_turn(players: list[Player]) -> Player:
    """The one page whose status says it is its turn (every other page names that player)."""
    deadline = time.monotonic() + TIMEOUT / 1000
    while time.monotonic() < deadline:
        mine = [p for p in players if p.page.locator("#em-status .em-next.mine").count()]
        if len(mine) == 1:
            return mine[0]
        time.sleep(0.1)
    raise AssertionError("no page, or more than one, says it is its turn")


def pile_shows_top_only(page: Page) -> None:
    """R-23: the table holds at most the top tile; the pile's list exists only after the round."""
    assert page.locator("#em-table .em-pile .em-tile").count() <= 1
    expect(page.locator(".em-pile-list")).to_have_count(0)


def fits_the_screen(page: Page) -> None:
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"the page scrolls sideways: {width[0]} px wide in a {width[1]} px window"


def walk_cells(page: Page) -> Locator:
    return page.locator(".em-result .em-walk .em-cell")


def test_three_players_play_a_round_through_a_chain_to_the_walk_and_the_next_round(
    live_site: LiveSite, browser: Any
) -> None:
    players = new_players(browser, live_site, "iris", "jonas", "kai")
    p1, p2, p3 = players
    p3.page.emulate_media(reduced_motion="reduce")
    p3.page.set_viewport_size({"width": PHONE["width"], "height": PHONE["height"]})
    try:
        for player in players:
            sign_up(live_site, player)
        match_url, invite = create_exit_memory(p1, 3)
        for taken, joiner in enumerate((p2, p3), start=2):
            join(joiner, invite, match_url, taken, 3)
            mark_loaded(joiner.page)
        start = p1.page.locator("#start-match")
        expect(start).to_be_visible(timeout=TIMEOUT)
        mark_loaded(p1.page)
        start.click()  # the started board takes the lobby's place: no reload
        for player in players:
            expect(player.page.locator("#em-table")).to_contain_text("Round 1", timeout=TIMEOUT)
            expect(player.page.locator("#em-me .em-hand > li")).to_have_count(3)  # three tiles each
            pile_shows_top_only(player.page)
            assert_not_reloaded(player)

        # -- one placement each, by the button of a pre-rotated tile (R-5..R-7) -------------------
        placed: list[str] = []
        for _ in range(3):
            actor = on_turn(players)
            for other in players:
                if other is not actor:
                    expect(other.page.locator("#em-status")).to_contain_text(f"{actor.name} is playing.")
                    expect(other.page.locator(PLACE)).to_have_count(0)
            act(actor, actor.page.locator(PLACE).first, players, keyboard=actor is p3)
            placed.append(actor.name)
            for player in players:
                pile_shows_top_only(player.page)
                assert_not_reloaded(player)
        assert sorted(placed) == sorted(p.name for p in players), f"every player had one turn: {placed}"

        # -- a declaration and its chain (R-13, R-14, R-69) --------------------------------------
        declarer = on_turn(players)
        fits_the_screen(p3.page)
        screenshot(p3.page, "exit_memory-phone")
        act(declarer, declarer.page.get_by_role("button", name="Declare lost", exact=True), players, keyboard=True)
        asked = next(p for p in players if p.page.get_by_role("button", name="Join: play your lost tile too").count())
        watcher = next(p for p in players if p is not declarer and p is not asked)
        expect(watcher.page.locator("#em-status")).to_contain_text(
            f"{declarer.name} declared the route lost; {asked.name} is deciding whether to join."
        )
        expect(watcher.page.locator(".deadlines")).to_contain_text(f"Waiting for {asked.name}")
        expect(watcher.page.locator(".deadlines .countdown")).to_have_text(re.compile(r"\d"))
        expect(watcher.page.locator("#em-players [data-seat]").filter(has_text=asked.name)).to_contain_text("deciding")
        expect(declarer.page.locator("#em-players")).to_contain_text("declared lost")
        act(asked, asked.page.get_by_role("button", name="Join: play your lost tile too"), players, keyboard=True)

        # -- the resolution walked on every page (R-25..R-37, R-71, R-72) -------------------------
        # p2 skips the walk at once, p1 watches it tile by tile (800 ms a step), p3 asked for reduced
        # motion and gets the whole route at once.
        result = p1.page.locator("#em-result .em-result")
        expect(result).to_be_visible(timeout=TIMEOUT)
        steps = len(json.loads(result.get_attribute("data-steps") or "[]"))
        assert steps >= 1, "the walk has no step"
        p2.page.get_by_role("button", name="Skip the walk").click()
        walking = p1.page.locator("#em-result .em-result.walking")
        expect(p3.page.locator("#em-result .em-result")).to_be_visible()
        p1_walking = walking.count()
        assert p3.page.locator("#em-result .em-result.walking, .em-walk .em-cell.hidden").count() == 0, (
            "with reduced motion the route shows whole"
        )
        if steps > 2:
            assert p1_walking, "the walk was over before it could be seen"
        hidden = p1.page.locator(".em-walk .em-cell.hidden")
        seen_hidden = {hidden.count()}
        walk_end = time.monotonic() + steps * 0.8 + TIMEOUT / 1000
        while walking.count() and time.monotonic() < walk_end:
            seen_hidden.add(hidden.count())
            time.sleep(0.05)
        expect(walking).to_have_count(0)
        if steps > 2:
            assert len(seen_hidden - {0}) >= 2, f"tiles did not appear one by one: {sorted(seen_hidden)}"
        for player in players:
            result = player.page.locator("#em-result .em-result")
            expect(result).to_be_visible(timeout=TIMEOUT)
            expect(result.locator(".em-result.walking")).to_have_count(0)
            expect(player.page.locator(".em-walk .em-cell.hidden")).to_have_count(0)
            expect(walk_cells(player.page)).to_have_count(walk_cells(p1.page).count())
            expect(result.locator(".em-headline")).not_to_be_empty()
            expect(result.locator(".em-marker").first).to_contain_text(declarer.name)
            expect(result.locator(".em-marker").first).to_contain_text(asked.name)
            expect(result.locator(".em-pile-list li")).to_have_count(PILE_AFTER_ROUND)
            expect(player.page.locator("#em-status")).to_contain_text("The round is over.")

        fits_the_screen(p3.page)
        screenshot(p3.page, "exit_memory-walk-phone")
        screenshot(p1.page, "exit_memory-walk-desktop")

        # -- Ready, and the next round is dealt (R-44) --------------------------------------------
        for player in players:
            ready = player.page.get_by_role("button", name="Ready for the next round")
            expect(ready).to_be_visible()
            act(player, ready, players, keyboard=player is p3)
        for player in players:
            expect(player.page.locator("#em-table")).to_contain_text("Round 2", timeout=TIMEOUT)
            expect(player.page.locator("#em-result .em-result")).to_have_count(0)
            expect(player.page.locator("#em-me .em-hand > li")).to_have_count(3)
            pile_shows_top_only(player.page)
            assert_not_reloaded(player)
            assert not player.errors, f"{player.name}'s page reported: {player.errors}"
        on_turn(players)
        live_site.check_alive()
    finally:
        for player in players:
            player.context.close()
