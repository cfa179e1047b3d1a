"""Three people finish a Bridge Race from a stored late-game position, through the UI only.

The position (tests/e2e/data/bridge_race_late.json, written by make_bridge_race_late.py) is a
3-player standard race in round 13, seat 0 (row 27, 30 mph) about to roll. It is loaded the
way any stored match is, with ``manage.py import_match``, and the three seats go to three people
who signed up through the site. Then whoever's turn it is clicks through it (roll, final dice,
resolve, steps, end of turn; prompts and adventure tiles take the first offer) until the final
standings. Every action must reach the other two pages over the WebSocket without a reload.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from playwright.sync_api import Locator, expect

from .board_page import all_pages_follow, assert_final_table, assert_not_reloaded, board_version, open_board, submit
from .bridge_race_forms import ACTION_FORMS, POSITION, action_forms, pick
from .conftest import LiveSite
from .players import TIMEOUT, Player, new_players, sign_up
from .stored_pages import TWENTY_YEARS, imported_at

pytestmark = pytest.mark.e2e

MAX_ACTIONS = 400
MAX_SECONDS = 240.0
MAX_STALE = 10


def describe(form: dict[str, Any], button: Locator) -> str:
    try:
        label = " ".join(button.inner_text(timeout=1_000).split())
    except Exception:  # only for the message
        label = "?"
    return f"{json.dumps(form['payload'], separators=(',', ':'))} (button {label!r})"


def whose_turn(players: list[Player]) -> tuple[Player, dict[str, Any]] | None:
    """The player whose up-to-date page offers a control, with the control; None when none does."""
    versions = [board_version(p.page) for p in players]
    for player, version in zip(players, versions, strict=True):
        if version < max(versions):
            continue  # its page still waits for a push: it might show a board that is gone
        form = pick(action_forms(player.page))
        if form is not None:
            return player, form
    return None


def finished(players: list[Player]) -> bool:
    return all(p.page.locator("#board .standings").count() for p in players)


def load_position(site: LiveSite, players: list[Player]) -> str:
    version, url = imported_at(site, POSITION, (p.email for p in players), TWENTY_YEARS)
    assert version == len(json.loads(POSITION.read_text())["events"])
    return url


def own_dashboard_marked(players: list[Player]) -> None:
    """Each page shows "you" on its player's own dashboard (seat i for the i-th) and on no other."""
    for number, player in enumerate(players):
        expect(player.page.locator("#board .br-own >> visible=true")).to_have_count(1)
        expect(player.page.locator(f"#board #br-dash-{number} .br-own")).to_be_visible()


def test_three_players_finish_a_stored_bridge_race(live_site: LiveSite, browser: Any) -> None:
    players = new_players(browser, live_site, "gina", "hugo", "ines")
    last = "nothing yet"
    actions = stale = 0
    clicked: dict[str, int] = {}
    try:
        for player in players:
            sign_up(live_site, player)
        open_board(players, load_position(live_site, players), "#board .br-status", "Round 13")
        first = players[0].page
        expect(first.locator("#board .br-status")).to_contain_text("Your turn")
        own_dashboard_marked(players)
        for other in players[1:]:
            expect(other.page.locator("#board .br-status")).to_contain_text(f"{players[0].name}")

        started = idle_since = time.monotonic()
        while not finished(players):
            elapsed = time.monotonic() - started
            assert actions < MAX_ACTIONS, f"no final standings after {actions} actions; last: {last}"
            assert elapsed < MAX_SECONDS, f"no final standings after {elapsed:.0f} s ({actions} actions); last: {last}"
            turn = whose_turn(players)
            if turn is None:  # the server's own steps (end of round) or a push still on its way
                if any(p.page.locator("#board .standings").count() for p in players):
                    for player in players:
                        expect(player.page.locator("#board .standings")).to_be_visible(timeout=TIMEOUT)
                    break
                if time.monotonic() - idle_since > TIMEOUT / 1000:
                    raise AssertionError(f"no page offers a control for {TIMEOUT / 1000:.0f} s; last: {last}")
                time.sleep(0.1)
                continue
            actor, form = turn
            button = actor.page.locator(ACTION_FORMS).nth(form["index"]).locator("button[type=submit]").first
            last = f"{actor.name}: {describe(form, button)}"
            status, error = submit(actor, button)
            actions += 1
            kind = str(form["payload"].get("type"))
            clicked[kind] = clicked.get(kind, 0) + 1
            if status == 409:  # the board moved on before the click arrived: the fresh one is shown
                stale += 1
                idle_since = time.monotonic()
                assert stale <= MAX_STALE, f"{stale} refused (stale) actions; last: {last}"
                continue
            assert status == 200, f"{last} was refused: HTTP {status} {error!r}"
            idle_since = time.monotonic()
            all_pages_follow(actor, players, last)

        for player in players:
            assert_final_table(player.page.locator("#board .standings"), "Final standings", "li", players)
            expect(player.page.locator("#board .br-status")).to_contain_text("The race is over.")
            expect(player.page.locator(ACTION_FORMS)).to_have_count(0)
            assert_not_reloaded(player)
        own_dashboard_marked(players)  # after a race of pushed dashboards, alike for every viewer
        for player in players:
            assert not player.errors, f"{player.name}'s page reported: {player.errors}"
        print(f"\n[bridge_race e2e] {actions} actions ({stale} stale) in {time.monotonic() - started:.1f} s: {clicked}")
        for kind in ("ROLL", "FINALIZE_DICE", "RESOLVE_DICE", "STEP", "END_TURN"):
            assert clicked.get(kind), f"no {kind} was clicked: {clicked}"
        live_site.check_alive()
    except BaseException:
        print(f"\n[bridge_race e2e] failed after {actions} actions; last control clicked: {last}")
        raise
    finally:
        for player in players:
            player.context.close()
