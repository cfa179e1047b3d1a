"""The end-of-game chart of every game, in a browser: a finished match (tests/e2e/data/*_over.json)
shows its chart on a 390-px phone without sideways scroll, in English and in Chinese; its table
opens from the keyboard and still fits; on a 1280-px desktop the chart keeps a readable size; axe
finds nothing serious in it."""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .accounts import make_accounts
from .conftest import LiveSite
from .players import DESKTOP, PHONE
from .stored_pages import DATA, imported_all, signed_in

pytestmark = pytest.mark.e2e

GAMES = ("heist", "bridge_race", "dirty_money", "exit_memory", "police_alarm")
SUMMARY = {"en": "The chart's numbers as a table", "zh-hant": "圖表數字一覽表"}


def reader(browser: Any, site: LiveSite, email: str, viewport: dict[str, int]) -> Page:
    """A signed-in page (the CSP bypassed, so that axe's script may be added)."""
    page: Page = signed_in(browser, site, email, viewport, bypass_csp=True)
    return page


def chart_violations(page: Page, axe_source: str) -> list[str]:
    page.add_script_tag(content=axe_source)
    found: list[str] = page.evaluate(
        """async () => {
            const r = await axe.run("#match-chart", { resultTypes: ["violations"] });
            return r.violations.filter(v => v.impact === "serious" || v.impact === "critical")
                .map(v => v.id + ": " + v.nodes.slice(0, 3).map(n => n.target.join(" ")).join(", "));
        }"""
    )
    return found


def test_every_finished_game_shows_its_chart_on_a_phone_and_a_desktop(
    live_site: LiveSite, browser: Any, axe_source: str
) -> None:
    tag = secrets.token_hex(3)
    names = [f"eve_{tag}", f"zhu_{tag}", f"sam_{tag}", f"tia_{tag}", f"uma_{tag}"]
    emails = make_accounts(live_site, names, ["en", "zh-hant", "en", "en", "en"])
    found = imported_all(live_site, [DATA / f"{game}_over.json" for game in GAMES], emails)
    pages = {path.name.removesuffix("_over.json"): url for path, url in found.items()}
    readers = {
        "en": reader(browser, live_site, emails[0], PHONE),
        "zh-hant": reader(browser, live_site, emails[1], PHONE),
    }
    problems: list[str] = []
    try:
        for game, url in pages.items():
            for language, page in readers.items():
                page.goto(url)
                chart = page.locator("#match-chart figure.chart")
                expect(chart).to_be_visible()
                svg = chart.locator("svg.chart-svg")
                box = svg.bounding_box()
                assert box is not None and box["height"] > 100, f"{game} ({language}): the chart is not drawn"
                if box["x"] + box["width"] > PHONE["width"]:
                    problems.append(f"{game} ({language}): the chart ends at {box['x'] + box['width']} px")
                lines = chart.locator("polyline.chart-line")
                assert lines.count() >= 2, f"{game}: no line per seat"
                summary = chart.locator("summary")
                expect(summary).to_have_text(SUMMARY[language])
                summary.focus()
                page.keyboard.press("Enter")  # the table opens from the keyboard
                table = chart.locator("table")
                expect(table).to_be_visible()
                assert table.locator("tbody tr").count() >= 2
                page.wait_for_timeout(100)
                width = page.evaluate("document.scrollingElement.scrollWidth")
                if width > PHONE["width"]:
                    problems.append(f"{game} ({language}): the page is {width} px wide with the table open")
                bad = chart_violations(page, axe_source)
                if bad:
                    problems.append(f"{game} ({language}): axe: {bad}")
        assert not problems, "\n".join(problems)

        desktop = reader(browser, live_site, emails[0], DESKTOP)
        for game, url in pages.items():
            desktop.goto(url)
            svg = desktop.locator("#match-chart svg.chart-svg")
            expect(svg).to_be_visible()
            box = svg.bounding_box()
            assert box is not None and 300 <= box["width"] <= 560, f"{game}: the chart is {box} on a desktop"
            assert desktop.evaluate("document.scrollingElement.scrollWidth") <= DESKTOP["width"]
        desktop.context.close()
    finally:
        for page in readers.values():
            page.context.close()
