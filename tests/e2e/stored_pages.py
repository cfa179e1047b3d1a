"""Stored positions (tests/e2e/data) opened by people made directly in the site's database."""

from __future__ import annotations

import json
import re
import secrets
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from .conftest import LiveSite
from .players import TIMEOUT

DATA = Path(__file__).parent / "data"
PASSWORD = "Pw-" + secrets.token_urlsafe(12)
TWENTY_YEARS = str(20 * 365 * 24 * 3600)


def make_accounts(site: LiveSite, names: list[str], languages: list[str]) -> list[str]:
    """Verified accounts made directly in the site's database, each with its profile's language."""
    emails = [f"{name}@example.com" for name in names]
    code = (
        "from allauth.account.models import EmailAddress\n"
        "from django.contrib.auth import get_user_model\n"
        f"for email, language in {list(zip(emails, languages, strict=True))!r}:\n"
        "    u = get_user_model().objects.create_user(username=email.split('@')[0], email=email, "
        f"password={PASSWORD!r})\n"
        "    EmailAddress.objects.create(user=u, email=email, verified=True, primary=True)\n"
        "    u.profile.display_name = email.split('@')[0].split('_')[0].capitalize()\n"
        "    u.profile.language = language\n"
        "    u.profile.save()\n"
    )
    site.manage("shell", "-c", code)
    return emails


def signed_in(browser: Any, site: LiveSite, email: str, viewport: dict[str, int] | None = None, **options: Any) -> Any:
    """A page of ``email``'s, signed in through the login form; ``options`` go to the browser
    context (``bypass_csp`` for axe's script, ``java_script_enabled``)."""
    if viewport is not None:
        options["viewport"] = viewport
    context = browser.new_context(base_url=site.url, **options)
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    page.goto("/accounts/login/")
    form = page.locator("form[action='/accounts/login/']")
    form.locator("input[name='login']").fill(email)
    form.locator("input[name='password']").fill(PASSWORD)
    form.locator("button[type=submit]").click()
    expect(page.locator("header form[action='/accounts/logout/']")).to_have_count(1, timeout=TIMEOUT)
    return page


def imported(site: LiveSite, position: Path, emails: list[str]) -> str:
    seats = json.loads(position.read_text())["seat_count"]
    done = site.manage("import_match", str(position), *emails[:seats], "--time-limit", TWENTY_YEARS)
    found = re.search(r"(/m/\d+/)", done.stdout)
    assert found, f"import_match printed no match URL: {done.stdout!r} {done.stderr!r}"
    return found.group(1)
