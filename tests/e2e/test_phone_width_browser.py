"""No page of any game scrolls sideways on a 390-px phone, in any phase, in either language.

Every stored position of tests/e2e/data (mid-game, late, at a summary, finished; written by the
make_*.py generators there) is loaded with ``manage.py import_match``; seat 0 goes to a reader of
English, seat 1 to a reader of Traditional Chinese, the other seats to people who never act (the
decision time is twenty years). Each game's lobby is made too. Both readers open every page at
390x844 and the document must be no wider than the screen. On a 1280-px desktop, the finished Dirty
Money page shows its whole scoring table: nothing in the board hides columns behind an inner scroll.
"""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from playwright.sync_api import expect

from .accounts import make_accounts
from .conftest import LiveSite
from .players import DESKTOP, PHONE
from .stored_pages import DATA, imported_all, signed_in

pytestmark = pytest.mark.e2e

GAMES = {"heist": 4, "bridge_race": 3, "dirty_money": 3, "exit_memory": 3, "police_alarm": 3}

# What sticks out past the right edge, deepest first: "tag.class (right edge px)".
WIDEST = """(limit) => {
    const out = [];
    for (const el of document.querySelectorAll("body *")) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.right <= limit + 1) continue;
        if ([...el.children].some(c => c.getBoundingClientRect().right > limit + 1)) continue;
        const cls = typeof el.className === "string" ? el.className.trim().split(/\\s+/).join(".") : "";
        out.push(`${el.tagName.toLowerCase()}${cls ? "." + cls : ""} (${Math.round(r.right)})`);
    }
    return out.slice(0, 6);
}"""
# Elements of the board that hide part of their content behind a horizontal scroll bar.
INNER_SCROLLS = """() => [...document.querySelectorAll("#board *")].filter(el => {
    const x = getComputedStyle(el).overflowX;
    return (x === "auto" || x === "scroll") && el.scrollWidth > el.clientWidth + 1;
}).map(el => `${el.tagName.toLowerCase()}.${String(el.className).trim().split(/\\s+/).join(".")}`
    + ` (${el.scrollWidth} > ${el.clientWidth})`)"""


def lobbies(site: LiveSite, host: str, guest: str) -> dict[str, str]:
    """A lobby of every game, made by ``host`` and joined by ``guest``: {game: match URL}."""
    code = (
        "from django.contrib.auth import get_user_model\n"
        "from games.play import services\n"
        "User = get_user_model()\n"
        f"host, guest = User.objects.get(email={host!r}), User.objects.get(email={guest!r})\n"
        f"for game, seats in {GAMES!r}.items():\n"
        "    m = services.do_create_match(host, game, seats, {}, 86400)\n"
        "    services.do_join_match(m.pk, guest)\n"
        "    print('LOBBY', game, m.get_absolute_url())\n"
    )
    done = site.manage("shell", "-c", code)
    rows = [line.split() for line in done.stdout.splitlines() if line.startswith("LOBBY ")]
    return {game: url for _lobby, game, url in rows}


def test_no_page_of_any_game_scrolls_sideways_on_a_phone(live_site: LiveSite, browser: Any) -> None:
    tag = secrets.token_hex(3)
    names = [f"eve_{tag}", f"zhu_{tag}", f"sam_{tag}", f"tia_{tag}", f"uma_{tag}"]
    emails = make_accounts(live_site, names, ["en", "zh-hant", "en", "en", "en"])
    positions = sorted(DATA.glob("*.json"))
    assert {p.name.split("_")[0] for p in positions} >= {"heist", "bridge", "dirty", "exit", "police"}
    assert {p.name for p in positions} >= {f"{g}_over.json" for g in GAMES}  # every game, finished
    pages = {f"{game} lobby": url for game, url in lobbies(live_site, emails[0], emails[1]).items()}
    pages |= {path.stem: url for path, url in imported_all(live_site, positions, emails).items()}
    readers = {
        "en": signed_in(browser, live_site, emails[0], PHONE),
        "zh-Hant": signed_in(browser, live_site, emails[1], PHONE),
    }
    wide = []
    try:
        for what, url in pages.items():
            for language, page in readers.items():
                page.goto(url)
                expect(page.locator("#board")).to_be_visible()
                page.wait_for_timeout(300)
                width = page.evaluate("document.scrollingElement.scrollWidth")
                if width > PHONE["width"]:
                    wide.append(f"{what} ({language}): {width} px: {page.evaluate(WIDEST, PHONE['width'])}")
        assert not wide, "pages wider than a 390-px phone:\n" + "\n".join(wide)

        desktop = signed_in(browser, live_site, emails[0], DESKTOP)
        desktop.goto(pages["dirty_money_over"])
        expect(desktop.locator("#board")).to_be_visible()
        desktop.wait_for_timeout(300)
        hidden = desktop.evaluate(INNER_SCROLLS)
        assert not hidden, f"the finished Dirty Money page hides part of its board at 1280 px: {hidden}"
        assert desktop.evaluate("document.scrollingElement.scrollWidth") <= DESKTOP["width"]
        desktop.context.close()
    finally:
        for page in readers.values():
            page.context.close()
