"""Emergency Exit from stored positions (tests/e2e/data, make_exit_memory_positions.py).

A tile that may face any way (a roundabout) offers one button per direction, and each shows and
names its direction. A round's walk is scrolled into view on a phone and its result is printed only
once the walk has ended.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

import pytest
from playwright.sync_api import expect

from .accounts import make_accounts
from .conftest import LiveSite
from .players import PHONE
from .stored_pages import DATA, imported, signed_in

pytestmark = pytest.mark.e2e

DIRECTIONS = {"↑": "up", "→": "right", "↓": "down", "←": "left"}


def test_the_facing_buttons_of_a_roundabout_show_and_name_their_direction(live_site: LiveSite, browser: Any) -> None:
    tag = secrets.token_hex(3)
    emails = make_accounts(live_site, [f"fay_{tag}", f"gus_{tag}", f"hal_{tag}"], ["en", "en", "en"])
    url = imported(live_site, DATA / "exit_memory_facing.json", emails)
    page = signed_in(browser, live_site, emails[0], PHONE)
    try:
        page.goto(url)
        group = page.locator("#board .em-turns").first
        expect(group).to_be_visible()
        buttons = group.locator("button.em-facing")
        expect(buttons).to_have_count(4)
        texts = [" ".join(b.inner_text().split()) for b in buttons.all()]
        labels = [b.get_attribute("aria-label") or "" for b in buttons.all()]
        assert len(set(texts)) == 4, f"the four buttons look alike: {texts}"
        for text, label in zip(texts, labels, strict=True):
            arrow = next((a for a in DIRECTIONS if a in text), None)
            assert arrow is not None, f"no arrow on the button: {text!r}"
            word = DIRECTIONS[arrow]
            assert word in text.lower(), f"the button {text!r} does not say {word!r}"
            assert label.endswith(f"facing {word}"), f"the button's name {label!r} does not say {word!r}"
        assert {label.rsplit(" ", 1)[1] for label in labels} == set(DIRECTIONS.values())
    finally:
        page.context.close()


def test_the_walk_is_scrolled_into_view_and_its_result_printed_when_it_ends(live_site: LiveSite, browser: Any) -> None:
    tag = secrets.token_hex(3)
    emails = make_accounts(live_site, [f"ivy_{tag}", f"jon_{tag}", f"kim_{tag}"], ["en", "en", "en"])
    position = DATA / "exit_memory_summary.json"
    assert json.loads(position.read_text())["events"]
    url = imported(live_site, position, emails)
    page = signed_in(browser, live_site, emails[0], PHONE)
    try:
        page.goto(url)
        section = page.locator("#board section.em-result")
        expect(section).to_have_class("em-result walking")
        headline = section.locator(".em-headline")
        expect(headline).to_be_hidden()  # while the route is walked
        expect(section.locator(".em-reasons, .em-pile-list").first).to_be_hidden()
        page.wait_for_timeout(400)  # the smooth scroll
        box = page.evaluate(
            "() => { const r = document.querySelector('.em-walk').getBoundingClientRect();"
            " return {top: r.top, bottom: r.bottom, height: innerHeight}; }"
        )
        assert box["top"] >= 0 and box["top"] < box["height"] / 2, f"the walk is not in view: {box}"
        steps = len(json.loads(section.get_attribute("data-steps") or "[]"))
        assert steps >= 2
        expect(headline).to_be_visible(timeout=steps * 800 + 5_000)
        expect(section).not_to_have_class("em-result walking")
    finally:
        page.context.close()
