"""People at the live site, each in a browser of their own, for the browser tests: signing up,
joining a match, screenshots and the accessibility check (what they do on a board:
:mod:`.board_page`)."""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import dataclass
from typing import Any

from playwright.sync_api import BrowserContext, Dialog, Page, expect

from .conftest import BASE_DIR, LiveSite

TIMEOUT = 15_000  # ms, for every wait on a page
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
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


def new_players(browser: Any, site: LiveSite, *names: str) -> list[Player]:
    """A player for each of ``names``, numbered from 1, with e-mails this run alone uses."""
    run = secrets.token_hex(3)
    return [new_player(browser, site, number, f"{name}_{run}@example.com") for number, name in enumerate(names, 1)]


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
