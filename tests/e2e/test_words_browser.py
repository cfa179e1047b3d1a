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

from .conftest import LiveSite, browser_unavailable

_why_not = browser_unavailable()
if _why_not:
    pytest.skip(_why_not, allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402

from .test_newcomer_browser import make_accounts, set_profile, signed_in  # noqa: E402

pytestmark = pytest.mark.e2e


def test_the_header_language_menu_changes_a_signed_in_readers_language_and_profile(
    live_site: LiveSite, browser: Any
) -> None:
    (email,) = make_accounts(live_site, [f"lin_{secrets.token_hex(3)}"])
    set_profile(live_site, email, language="en")
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
