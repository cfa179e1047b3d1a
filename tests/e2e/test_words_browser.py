"""Words and languages in a real browser (issue 54, items 11 and 13).

- The header's language menu works for a signed-in reader: choosing a language there switches the
  site and their profile (the profile's language used to win silently).
- The create form's heading names the game with the right article ("an Emergency Exit match").
- heist's role cards never hyphenate a word in the middle ("Informa-nt").
"""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from playwright.sync_api import expect

from .accounts import make_accounts, signed_in
from .conftest import LiveSite

pytestmark = pytest.mark.e2e


def test_the_header_language_menu_changes_a_signed_in_readers_language_and_profile(
    live_site: LiveSite, browser: Any
) -> None:
    (email,) = make_accounts(live_site, [f"lin_{secrets.token_hex(3)}"], ["en"])
    context = signed_in(browser, live_site, email, language="en")
    page = context.new_page()
    try:
        page.goto("/how-to-play/")
        expect(page.locator("html")).to_have_attribute("lang", "en")
        page.locator("#lang-select").select_option("zh-hant")  # submits itself (data-autosubmit)
        expect(page.locator("html")).to_have_attribute("lang", "zh-hant")
        expect(page.locator("main h1")).to_contain_text("遊戲說明")
        assert page.url.endswith("/how-to-play/")  # back where the reader was
        page.goto("/profile/")
        expect(page.locator("html")).to_have_attribute("lang", "zh-hant")
        expect(page.locator("#id_language")).to_have_value("zh-hant")
        # A fresh sign-in (a new browser, no language cookie) speaks the chosen language too.
        other = signed_in(browser, live_site, email, language="en")
        try:
            fresh = other.new_page()
            fresh.goto("/how-to-play/")
            expect(fresh.locator("html")).to_have_attribute("lang", "zh-hant")
        finally:
            other.close()
        page.locator("#lang-select").select_option("en")
        expect(page.locator("html")).to_have_attribute("lang", "en")
        expect(page.locator("#id_language")).to_have_value("en")
    finally:
        context.close()


# Each word of a card's name, measured: a word whose letters lie on more than one line was broken.
_BROKEN_WORDS = """() => {
  const broken = [];
  for (const el of document.querySelectorAll('.hcard-name')) {
    if (!el.offsetParent) continue;
    const text = el.firstChild;
    if (!text || text.nodeType !== Node.TEXT_NODE) continue;
    const re = /\\S+/g; let m;
    while ((m = re.exec(text.data))) {
      const range = document.createRange();
      range.setStart(text, m.index); range.setEnd(text, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
      if (tops.size > 1) broken.push(m[0]);
    }
    if (el.scrollWidth > el.clientWidth + 1) broken.push(text.data + ' (overflows)');
  }
  return broken;
}"""


@pytest.mark.parametrize("language", ["en", "zh-hant"])
def test_heist_card_names_break_only_between_words_and_start_buttons_read_right(
    live_site: LiveSite, browser: Any, language: str
) -> None:
    (email,) = make_accounts(live_site, [f"hyp_{secrets.token_hex(3)}"], [language])
    for viewport in ({"width": 1280, "height": 800}, {"width": 390, "height": 844}):
        context = signed_in(browser, live_site, email, language=language, viewport=viewport)
        page = context.new_page()
        try:
            page.goto("/how-to-play/heist/")
            expect(page.locator(".hcard-name").first).to_be_visible()
            assert page.locator(".hcard-name").count() >= 5
            assert page.evaluate(_BROKEN_WORDS) == [], viewport
            page.goto("/how-to-play/exit_memory/")
            button = page.locator("main a.btn.primary[href*='?game=exit_memory']")
            expect(button).to_be_visible()
            assert "a Emergency" not in button.inner_text()
        finally:
            context.close()
