"""What a player does on a match's board in the browser tests: moves sent and their answers awaited,
and the pushes that must reach the other pages without a reload."""

from __future__ import annotations

from collections.abc import Iterable

from playwright.sync_api import Locator, Page, expect

from .players import TIMEOUT, Player


def board_version(page: Page) -> int:
    return int(page.locator("#board").get_attribute("data-version") or "-1")


def wait_board_version(page: Page, at_least: int) -> None:
    page.wait_for_function(
        "v => { const b = document.getElementById('board'); return !!b && parseInt(b.dataset.version, 10) >= v; }",
        arg=at_least,
        timeout=TIMEOUT,
    )


def mark_loaded(page: Page) -> None:
    """A flag that only survives as long as the page is not reloaded or navigated away from."""
    page.evaluate("window.__e2eSamePage = true")


def open_board(players: Iterable[Player], url: str, ready: str, text: str) -> None:
    """Every player opens the match at ``url`` and waits until ``ready`` shows ``text``; each page is
    then marked loaded (:func:`mark_loaded`)."""
    for player in players:
        player.page.goto(url)
        expect(player.page.locator(ready)).to_contain_text(text, timeout=TIMEOUT)
        mark_loaded(player.page)


def assert_not_reloaded(player: Player) -> None:
    assert player.page.evaluate("window.__e2eSamePage === true"), f"{player.name}'s page was reloaded"


def answers(page: Page) -> int:
    return int(page.locator("#match").get_attribute("data-answers") or "0")


def submit(actor: Player, button: Locator, *, keyboard: bool = False) -> tuple[int, str]:
    """Click an action button and wait until its answer is shown: (HTTP-like status, error shown or "").

    The move goes up the match's socket; the page counts the answers it gets (``data-answers``)
    and keeps the last one's status, so the wait needs no network spying.
    """
    page = actor.page
    before, answered = board_version(page), answers(page)
    if keyboard:  # focus it and press Enter, as a keyboard user does
        button.focus()
        page.keyboard.press("Enter")
    else:
        button.click()
    page.wait_for_function(
        "n => parseInt(document.getElementById('match').dataset.answers || '0', 10) > n",
        arg=answered,
        timeout=TIMEOUT,
    )
    status = int(page.locator("#match").get_attribute("data-last-status") or "0")
    page.wait_for_function(
        "v => { const b = document.getElementById('board');"
        " return !!b && (parseInt(b.dataset.version, 10) > v || !!b.querySelector('.error')); }",
        arg=before,
        timeout=TIMEOUT,
    )
    error = page.locator("#board .error")
    return status, error.first.inner_text() if status != 200 and error.count() else ""


def act(actor: Player, button: Locator, everyone: list[Player], *, keyboard: bool = False) -> int:
    """Click an action button, check it was accepted, and wait until every page shows its result.

    Waiting for the other pages' boards to reach the new version is the live-update check: they
    are never reloaded, so only the WebSocket push can bring it.
    """
    status, error = submit(actor, button, keyboard=keyboard)
    assert status == 200, f"{actor.name}'s action was refused: HTTP {status} {error}"
    version = board_version(actor.page)
    for other in everyone:
        if other is not actor:
            wait_board_version(other.page, version)
    return version


def all_pages_follow(actor: Player, everyone: list[Player], after: str) -> None:
    """Every other page reaches the board version ``actor``'s page shows, by a push, and no page of
    ``everyone`` (each marked loaded) was reloaded; ``after`` names the move in the failure."""
    version = board_version(actor.page)
    for other in everyone:
        if other is not actor:
            try:
                wait_board_version(other.page, version)
            except Exception as exc:
                raise AssertionError(f"{other.name}'s page did not get board {version} after {after}") from exc
    for player in everyone:
        assert_not_reloaded(player)


def assert_final_table(table: Locator, heading: str, rows: str, everyone: list[Player]) -> None:
    """The end-of-game ``table`` shows under ``heading`` one row (``rows``) for each player, by name."""
    expect(table.get_by_role("heading", name=heading)).to_be_visible(timeout=TIMEOUT)
    expect(table.locator(rows)).to_have_count(len(everyone))
    for player in everyone:
        expect(table).to_contain_text(player.name)
