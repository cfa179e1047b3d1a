"""Three people play a whole heist match in three browsers, through the UI only.

Sign-up with e-mail verification, a match created and shared by its invite link, then a full
quick game (R-62) with two hands each (R-52): every move must reach the other two pages over the
WebSocket without a reload, and no page may show another player's secret role before the heist
reveals it (R-14, R-65, R-66).

The choices make the end certain (R-58 a): in heist 1 player 1 stays with Mastermind and Thug,
player 2 keeps only a Goon and player 3 withdraws; from heist 2 on only player 1 stays, takes the
whole loot plus the Mastermind's 2M and passes the 16M target.
"""

from __future__ import annotations

import re
import secrets
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from .board_page import act, assert_not_reloaded, mark_loaded, submit
from .conftest import LiveSite
from .players import ROLE_NAMES, TIMEOUT, Player, join, new_player, new_players, sign_up
from .stored_pages import imported_at

pytestmark = pytest.mark.e2e

# Nobody names an informant here, so no heist pauses for a lone informant's naming (R-31 b).
ROLES = {1: ("MASTERMIND", "THUG"), 2: ("DRIVER", "GOON"), 3: ("GOON", "DRIVER")}
MAX_HEISTS = 6  # V-QUICK


# --- small helpers -----------------------------------------------------------------------------


def row(page: Page, name: str) -> Locator:
    return page.locator("#board .heist-seats .seat-panel").filter(has_text=name)


def log_lines(page: Page) -> list[str]:
    return [line.strip() for line in page.locator("#log li").all_inner_texts()]


def heist_log(page: Page, heist: int) -> list[str]:
    """The log lines of the running heist, whichever way round the page lists them."""
    lines = log_lines(page)
    starts = [i for i, line in enumerate(lines) if line.startswith(f"Heist {heist}:")]
    assert starts, f"no log line for the start of heist {heist}: {lines}"
    anchor = starts[-1]
    boundary = f"Heist {heist - 1} is over." if heist > 1 else "The game begins"
    before = [i for i, line in enumerate(lines) if line.startswith(boundary)]
    if before and before[0] > anchor:  # newest first
        return lines[: anchor + 1]
    return lines[anchor:]


def choose_form(page: Page) -> Locator:
    return page.locator("#board form").filter(has=page.locator("select[name='roles[]']"))


def fill_choice(player: Player, roles: tuple[str, str]) -> Locator:
    """Select the two roles (R-52); returns the form's submit button."""
    form = choose_form(player.page)
    expect(form).to_be_visible(timeout=TIMEOUT)
    selects = form.locator("select[name='roles[]']")
    selects.nth(0).select_option(roles[0])
    selects.nth(1).select_option(roles[1])
    return form.get_by_role("button", name="Choose")


def choose(player: Player, roles: tuple[str, str], everyone: list[Player]) -> None:
    act(player, fill_choice(player, roles), everyone)


def click_action(player: Player, label: str, everyone: list[Player]) -> None:
    button = player.page.locator("#board .actions").get_by_role("button", name=label, exact=True)
    expect(button).to_be_visible(timeout=TIMEOUT)
    act(player, button, everyone)


def assert_secrets_kept(viewer: Player, everyone: list[Player], chosen: dict[int, tuple[str, ...]], heist: int) -> None:
    """Before the reveal, ``viewer``'s page holds no other player's role (R-14, R-65, R-66).

    Checked against what the board can show (games/engines/heist/view.py): a hand's ``role`` only
    for its owner or once revealed, ``me.roles`` only the viewer's own; and the log.
    """
    page = viewer.page
    mine = set(chosen.get(viewer.number, ()))
    for other in everyone:
        if other is viewer:
            continue
        other_row = row(page, other.name)
        expect(other_row).to_have_count(1)
        text, html = other_row.inner_text(), other_row.inner_html()
        for role_id, role_name in ROLE_NAMES.items():
            assert role_name not in text, f"{viewer.name} sees a role in {other.name}'s row: {text!r}"
            assert role_id not in html, f"{viewer.name}'s board has {role_id} in {other.name}'s row: {html!r}"
        # The private panel ("Your role: …") shows the viewer's roles only.
        panel = page.locator("#board .my-panel")
        panel_text = panel.inner_text() if panel.count() else ""
        for role_id in set(chosen.get(other.number, ())) - mine:
            assert ROLE_NAMES[role_id] not in panel_text, (
                f"{viewer.name}'s panel shows {other.name}'s {ROLE_NAMES[role_id]}: {panel_text!r}"
            )
    for line in heist_log(page, heist):
        if line.startswith("You chose"):
            assert line == f"You chose {', '.join(ROLE_NAMES[r] for r in chosen[viewer.number])}.", line
            continue
        for other in everyone:
            if other is not viewer and other.name in line:
                assert not any(n in line for n in ROLE_NAMES.values()), f"{viewer.name}'s log leaks: {line!r}"


# --- sign-up -----------------------------------------------------------------------------------


# --- lobby -------------------------------------------------------------------------------------


def create_match(host: Player, seats: int, minutes: int, *, quick: bool) -> tuple[str, str]:
    """The host fills in the create form; returns the match page's URL and the invite link."""
    page = host.page
    page.goto("/matches/new/?game=heist")
    page.locator("#id_game").select_option("heist")
    page.locator("#id_seats").fill(str(seats))
    page.locator("#id_time_amount").fill(str(minutes))
    page.locator("#id_time_unit").select_option("minutes")
    if quick:
        page.locator("#id_heist__quick").check()
    page.get_by_role("button", name="Create").click()
    expect(page).to_have_url(re.compile(r"/m/\d+/$"), timeout=TIMEOUT)
    expect(page.locator("#board .lobby-panel")).to_contain_text(f"1 of {seats} seats taken.")
    invite = page.locator("#invite").input_value()
    base = page.url.split("/m/")[0]
    assert re.fullmatch(rf"{re.escape(base)}/invite/[\w-]+/", invite), invite
    return page.url, invite


# --- the tests ---------------------------------------------------------------------------------


def test_three_players_play_a_heist_match_to_the_end(live_site: LiveSite, browser: Any) -> None:
    players = new_players(browser, live_site, "alice", "bruno", "carla")
    p1, p2, p3 = players
    try:
        for player in players:
            sign_up(live_site, player)

        # -- player 1 creates the match; players 2 and 3 join by the invite link -----------------------
        match_url, invite = create_match(p1, 3, 10, quick=True)
        mark_loaded(p1.page)
        for taken, joiner in enumerate((p2, p3), start=2):
            join(joiner, invite, match_url, taken, 3)
            mark_loaded(joiner.page)
        # The lobby is pushed too: the host sees both arrive and the start button, without reloading.
        expect(p1.page.locator("#board .seat-list")).to_contain_text(p2.name, timeout=TIMEOUT)
        expect(p1.page.locator("#board .seat-list")).to_contain_text(p3.name)
        start = p1.page.locator("#start-match")
        expect(start).to_be_visible(timeout=TIMEOUT)
        assert_not_reloaded(p1)

        # -- player 1 starts: the started board takes the lobby's place, no page reloads ------------
        start.click()
        for player in players:
            expect(player.page.locator("#board .heist-status")).to_contain_text("Heist 1 of 6", timeout=TIMEOUT)
            expect(player.page.locator("#board .heist-status")).to_contain_text("Quick game")
        for player in players:
            assert_not_reloaded(player)

        # -- chat reaches the others live --------------------------------------------------------------
        hello = f"good luck {secrets.token_hex(3)}"
        p2.page.locator("#chat-text").fill(hello)
        p2.page.locator("#chat-form").get_by_role("button", name="Send").click()
        for player in players:
            expect(player.page.locator("#chat")).to_contain_text(hello, timeout=TIMEOUT)

        # -- heists until the final standings ----------------------------------------------------------
        heist = 0
        while True:
            heist += 1
            assert heist <= MAX_HEISTS, "the quick game should be over after 6 heists"
            for player in players:
                expect(player.page.locator("#board .heist-status")).to_contain_text(
                    f"Heist {heist} of 6", timeout=TIMEOUT
                )
                expect(player.page.locator("#board .actions")).to_contain_text("Choose your role in secret")
            chosen: dict[int, tuple[str, ...]] = {}

            # Planning: one at a time; the others see "has chosen", never what.
            for chooser in players:
                choose(chooser, ROLES[chooser.number], players)
                chosen[chooser.number] = ROLES[chooser.number]
                names = ", ".join(ROLE_NAMES[r] for r in ROLES[chooser.number])
                expect(chooser.page.locator("#board .my-panel")).to_contain_text(f"Your role: {names}")
                for viewer in players:
                    if chooser.number < 3:  # still planning: "has chosen" is the only trace
                        expect(row(viewer.page, chooser.name)).to_contain_text("has chosen", timeout=TIMEOUT)
                    assert_secrets_kept(viewer, players, chosen, heist)

            # Negotiation: the pool is public (anonymous), the hands are not.
            for viewer in players:
                expect(viewer.page.locator("#board .actions")).to_contain_text("Stay or withdraw", timeout=TIMEOUT)
                expect(viewer.page.locator("#board .pool")).to_contain_text("Face-up pool:")
                for role_id in ROLES[viewer.number]:  # in the viewer's own panel, not the shared table
                    expect(viewer.page.locator("#board .my-panel")).to_contain_text(ROLE_NAMES[role_id])
                assert_secrets_kept(viewer, players, chosen, heist)

            click_action(p1, "Commit: I stay", players)
            for viewer in (p2, p3):
                expect(viewer.page.locator("#log")).to_contain_text(f"{p1.name} committed", timeout=TIMEOUT)
                expect(row(viewer.page, p1.name)).not_to_contain_text("undecided")
                expect(row(viewer.page, p1.name)).to_contain_text("committed")
                assert_secrets_kept(viewer, players, chosen, heist)

            click_action(p2, "Withdraw hand #1", players)
            for viewer in (p1, p3):
                expect(viewer.page.locator("#log")).to_contain_text(f"{p2.name} withdrew and took back")
                expect(row(viewer.page, p2.name)).to_contain_text("withdrawn")
                assert_secrets_kept(viewer, players, chosen, heist)
            if heist == 1:
                click_action(p2, "Commit: I stay", players)  # the Goon (hand #2) stays
            else:
                click_action(p2, "Withdraw hand #2", players)

            click_action(p3, "Withdraw hand #1", players)
            for viewer in (p1, p2):
                assert_secrets_kept(viewer, players, chosen, heist)
            click_action(p3, "Withdraw hand #2", players)  # the last decision: the heist runs

            # The heist's reveals reach every log (R-81); player 1's two hands survive.
            for viewer in players:
                log = viewer.page.locator("#log")
                expect(log).to_contain_text(f"Heist {heist} is over.", timeout=TIMEOUT)
                expect(log).to_contain_text(f"{p1.name} revealed Mastermind")
                expect(log).to_contain_text(f"{p1.name} revealed Thug")
                if heist == 1:
                    expect(log).to_contain_text(f"{p2.name} revealed Goon")
                    expect(log).to_contain_text(f"The Goon {p2.name} takes 2M from the Thug {p1.name}.")
            if p1.page.locator("#board .standings").count():
                break

        # -- the end: everybody sees the final standings without reloading ------------------------------
        for viewer in players:
            standings = viewer.page.locator("#board .standings")
            expect(standings.get_by_role("heading", name="Final standings")).to_be_visible(timeout=TIMEOUT)
            entries = standings.locator("li")
            expect(entries).to_have_count(3)
            expect(entries.first).to_contain_text(p1.name)
            expect(entries.first).to_contain_text("winner")
            expect(viewer.page.locator("#board .heist-status")).to_contain_text("Game over")
            expect(viewer.page.locator("#board .actions")).to_have_count(0)
            expect(viewer.page.locator("#log")).to_contain_text(f"{p1.name} wins with")
            # once the match is over its players see its secrets.
            expect(viewer.page.locator("#board details.final")).to_have_count(1)
            expect(viewer.page.locator("#conn")).to_have_text("")
            assert_not_reloaded(viewer)
            assert not viewer.errors, f"{viewer.name}'s page reported: {viewer.errors}"
        assert heist == 2, f"the game should end after heist 2 (player 1 passes 16M), not {heist}"
        live_site.check_alive()
    finally:
        for player in players:
            player.context.close()


def test_the_host_sees_players_join_without_reloading(live_site: LiveSite, browser: Any) -> None:
    host, guest = new_players(browser, live_site, "dora", "emil")
    try:
        sign_up(live_site, host)
        sign_up(live_site, guest)
        match_url, invite = create_match(host, 3, 10, quick=True)
        mark_loaded(host.page)
        join(guest, invite, match_url, 2, 3)
        expect(host.page.locator("#board .seat-list")).to_contain_text(guest.name, timeout=5_000)
        expect(host.page.locator("#board .lobby-panel")).to_contain_text("2 of 3 seats taken.")
        assert_not_reloaded(host)
    finally:
        host.context.close()
        guest.context.close()


def test_a_player_and_two_bots_play_to_the_end(live_site: LiveSite, browser: Any) -> None:
    """Bots move on the server (a Celery task: the worker with Redis, in-process without); their
    moves reach the page live, through the channel layer, from whichever process made them."""
    host = new_player(browser, live_site, 1, f"fiona_{secrets.token_hex(3)}@example.com")
    page = host.page
    stale = 0
    try:
        sign_up(live_site, host)
        create_match(host, 3, 10, quick=True)
        panel = page.locator("#board .lobby-panel")
        for taken in (2, 3):
            with page.expect_navigation():  # HX-Redirect
                panel.get_by_role("button", name="Fill a seat with a bot").click()
            expect(panel).to_contain_text(f"{taken} of 3 seats taken.", timeout=TIMEOUT)
        mark_loaded(page)
        page.locator("#start-match").click()  # no reload: the started board is swapped in
        expect(page.locator("#board .heist-status")).to_contain_text("Heist 1 of 6", timeout=TIMEOUT)

        standings = page.locator("#board .standings")
        commit = page.locator("#board .actions").get_by_role("button", name="Commit: I stay", exact=True)
        for _ in range(2 * MAX_HEISTS + 10):
            expect(standings.or_(choose_form(page)).or_(commit).first).to_be_visible(timeout=TIMEOUT)
            if standings.count():
                break
            choosing = not commit.count()
            # While the player picks, the bots' moves re-render the board; the picks must survive.
            button = fill_choice(host, ROLES[1]) if choosing else commit
            try:
                button.wait_for(state="visible", timeout=2000)
            except PlaywrightTimeoutError:
                continue  # the board moved on (a bot acted) between the look and the click: look again
            status, error = submit(host, button)
            if status != 200:
                # Bots decide at the same time; a move made on a board a bot just changed is
                # refused with the fresh board (409), and the player simply decides again.
                assert status == 409, f"HTTP {status} {error}"
                stale += 1
            elif choosing:
                expect(page.locator("#board .my-panel")).to_contain_text("Your role: Mastermind, Thug")
        else:
            raise AssertionError("no final standings after the longest possible game")

        expect(standings.get_by_role("heading", name="Final standings")).to_be_visible()
        expect(standings.locator("li")).to_have_count(3)
        log = page.locator("#log")
        expect(log).to_contain_text("Bot")
        expect(log).to_contain_text("wins with")
        assert_not_reloaded(host)
        assert not host.errors, f"the page reported: {host.errors}"
        assert stale <= MAX_HEISTS * 2, f"{stale} refused moves"
        if live_site.redis:
            worker = next(p for p in live_site.procs if p.name == "celery-worker")
            assert "games.background.tasks.advance_match[" in worker.text(), "the worker ran no advance_match task"
    finally:
        host.context.close()


def test_with_javascript_off_a_player_plays_by_plain_form_posts(live_site: LiveSite, browser: Any) -> None:
    """No script runs: every move is a plain form POST answered with a whole page, to the end."""
    run = secrets.token_hex(3)
    context = browser.new_context(base_url=live_site.url, java_script_enabled=False)
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    host = Player(1, f"nojs_{run}@example.com", f"Pw-{secrets.token_urlsafe(12)}", context, page, [])
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" and r.url.endswith("/action/") else None)
    try:
        sign_up(live_site, host)
        create_match(host, 3, 10, quick=True)
        panel = page.locator("#board .lobby-panel")
        for taken in (2, 3):
            panel.get_by_role("button", name="Fill a seat with a bot").click()
            expect(panel).to_contain_text(f"{taken} of 3 seats taken.", timeout=TIMEOUT)
        page.locator("#start-match").click()
        expect(page.locator("#board .heist-status")).to_contain_text("Heist 1 of 6", timeout=TIMEOUT)

        standings = page.locator("#board .standings")
        commit = page.locator("#board .actions").get_by_role("button", name="Commit: I stay", exact=True)
        for _ in range(2 * MAX_HEISTS + 20):
            page.reload()  # nothing is pushed to a page without scripts: the player looks again
            if standings.count():
                break
            if choose_form(page).count():
                fill_choice(host, ROLES[1]).click()
            elif commit.count():
                commit.click()
            else:
                time.sleep(0.3)  # the bots' turn
                continue
            expect(page.locator("#board")).to_be_visible()
        else:
            raise AssertionError("no final standings after the longest possible game")
        expect(standings.get_by_role("heading", name="Final standings")).to_be_visible()
        assert posts, "no move was posted"
    finally:
        context.close()


NAMING = Path(__file__).parent / "data" / "heist_naming.json"


def test_while_the_informant_names_a_role_no_result_and_one_clock_line(live_site: LiveSite, browser: Any) -> None:
    """Issue 54, items 2 and 3, on the stored position heist_naming.json (every hand committed, the
    lone Informant in seat 1 to name a role): no "Result of heist 1" panel yet; the Informant reads
    "It is your turn" with one clock, the others one line "Waiting for <the Informant>" with one clock.
    Once the role is named the result appears on both pages, live."""
    informant, other = new_players(browser, live_site, "carol", "bob")
    try:
        sign_up(live_site, informant)
        sign_up(live_site, other)
        _, url = imported_at(live_site, NAMING, (informant.email, other.email, "bot", "bot", "bot"))
        for player in (informant, other):
            player.page.goto(url)
            expect(player.page.locator("#board .heist-status")).to_contain_text("Heist 1 of 8", timeout=TIMEOUT)
            expect(player.page.locator("#board .heist-result")).to_have_count(0)
            expect(player.page.locator("#board")).not_to_contain_text("Withdrew:")
            mark_loaded(player.page)
        mine = informant.page.locator("#board .countdown")
        expect(mine).to_have_count(1)
        expect(informant.page.locator("#turn")).to_contain_text("It is your turn:")
        expect(informant.page.locator("#board")).not_to_contain_text(f"Waiting for {informant.name}")
        expect(other.page.locator("#board .countdown")).to_have_count(1)
        line = other.page.locator("#turn .deadlines li")
        expect(line).to_have_count(1)
        expect(line).to_have_text(re.compile(rf"^Waiting for {informant.name}: \S+"))

        click_action(informant, "Goon", [informant, other])
        for player in (informant, other):
            result = player.page.locator("#board .heist-result")
            expect(result).to_contain_text("Result of heist 1", timeout=TIMEOUT)
            expect(result).to_contain_text("The Informant named the Goon.")
            expect(result).not_to_contain_text("Withdrew:")
            assert_not_reloaded(player)
            assert not player.errors, f"{player.name}'s page reported: {player.errors}"
    finally:
        informant.context.close()
        other.context.close()
