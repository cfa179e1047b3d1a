"""People at the live site, each in a browser of their own, for the browser tests: signing up,
joining a match, moves sent and their answers awaited, the pushes that must reach the other pages
without a reload, screenshots and the accessibility check."""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import dataclass
from typing import Any

from playwright.sync_api import BrowserContext, Dialog, Locator, Page, expect

from .conftest import BASE_DIR, LiveSite

TIMEOUT = 15_000  # ms, for every wait on a page
PHONE = {"width": 390, "height": 844}
SCREENSHOTS = BASE_DIR / "artifacts" / "screenshots"
ROLE_NAMES = {
    "INFORMANT": "Informant",
    "THUG": "Thug",
    "DRIVER": "Driver",
    "GOON": "Goon",
    "MASTERMIND": "Mastermind",
}


@dataclass
class Player:
    number: int
    email: str
    password: str
    context: BrowserContext
    page: Page
    errors: list[str]

    @property
    def name(self) -> str:  # the profile's name: the e-mail's local part
        return self.email.split("@")[0]


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


def sign_up(site: LiveSite, player: Player) -> None:
    page = player.page
    page.goto("/accounts/signup/")
    form = page.locator("form[action='/accounts/signup/']")
    form.locator("input[name='email']").fill(player.email)
    form.locator("input[name='password1']").fill(player.password)
    form.locator("input[name='password2']").fill(player.password)
    form.get_by_role("button", name="Sign Up").click()
    expect(page).to_have_url(re.compile(r"/accounts/confirm-email/$"), timeout=TIMEOUT)

    link = site.link_in_mail(player.email, r"https?://[^\s\"'<>]+/accounts/confirm-email/[^\s\"'<>]+")
    assert link.startswith(site.url), f"verification link {link} does not point at {site.url}"
    page.goto(link)
    # ACCOUNT_CONFIRM_EMAIL_ON_GET + ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION: confirmed and signed in.
    expect(page).to_have_url(f"{site.url}/", timeout=TIMEOUT)
    expect(page.locator("header").get_by_role("button", name="Log out")).to_be_visible(timeout=TIMEOUT)


def new_player(browser: Any, site: LiveSite, number: int, email: str) -> Player:
    context = browser.new_context(base_url=site.url)
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    def on_dialog(dialog: Dialog) -> None:
        errors.append(f"dialog: {dialog.message}")
        dialog.dismiss()

    page.on("dialog", on_dialog)
    return Player(number, email, f"Pw-{secrets.token_urlsafe(12)}", context, page, errors)


def join(player: Player, invite: str, match_url: str, seats_taken: int, seats: int) -> None:
    page = player.page
    page.goto(invite)
    expect(page).to_have_url(match_url)
    with page.expect_navigation():  # HX-Redirect
        page.locator("#join-match").click()
    panel = page.locator("#board .lobby-panel")
    expect(panel).to_contain_text(f"{seats_taken} of {seats} seats taken.", timeout=TIMEOUT)
    expect(panel.get_by_role("button", name="Leave")).to_be_visible()


def screenshot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_timeout(1500)  # let the reveal and money animations finish
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def serious_violations(page: Page, axe_source: str) -> list[dict[str, Any]]:
    page.add_script_tag(content=axe_source)
    found: list[dict[str, Any]] = page.evaluate(
        """async () => {
            const r = await axe.run(document, { resultTypes: ["violations"] });
            return r.violations.map(v => ({ id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.slice(0, 4).map(n => n.target.join(" ") + " :: " + (n.failureSummary || "")) }));
        }"""
    )
    return [v for v in found if v["impact"] in ("serious", "critical")]


def assert_accessible(page: Page, axe_source: str, what: str) -> None:
    bad = serious_violations(page, axe_source)
    assert not bad, f"{what}: axe found {json.dumps(bad, indent=1, ensure_ascii=False)}"
