"""Accounts for the browser tests: made directly in the live site's database, and signed in through
the login form in a browser context of their own."""

from __future__ import annotations

import secrets
from typing import Any

from playwright.sync_api import Page, expect

from .conftest import LiveSite
from .players import DESKTOP, TIMEOUT

PASSWORD = "Pw-" + secrets.token_urlsafe(12)


def make_accounts(site: LiveSite, names: list[str], languages: list[str] | None = None) -> list[str]:
    """Verified accounts made directly in the site's database (sign-up itself is tested elsewhere),
    each with the profile's language of ``languages`` where given."""
    emails = [f"{name}@example.com" for name in names]
    chosen = languages or [""] * len(names)
    code = (
        "from allauth.account.models import EmailAddress\n"
        "from django.contrib.auth import get_user_model\n"
        f"for email, language in {list(zip(emails, chosen, strict=True))!r}:\n"
        "    name = email.split('@')[0]\n"
        f"    u = get_user_model().objects.create_user(username=name, email=email, password={PASSWORD!r})\n"
        "    EmailAddress.objects.create(user=u, email=email, verified=True, primary=True)\n"
        "    u.profile.display_name = email.split('@')[0].split('_')[0].capitalize()\n"
        "    if language:\n"
        "        u.profile.language = language\n"
        "    u.profile.save()\n"
    )
    site.manage("shell", "-c", code)
    return emails


def started_match(site: LiveSite, emails: list[str], game: str, time_limit: int, *, first_resigns: bool = False) -> int:
    """A match of ``game`` of these accounts (the first hosts, ``time_limit`` s a decision), made and
    started through the services; with ``first_resigns``, finished by the host's resignation. Its id."""
    code = (
        "from django.contrib.auth import get_user_model\n"
        "from games.play import services\n"
        f"users = [get_user_model().objects.get(email=e) for e in {emails!r}]\n"
        f"match = services.do_create_match(users[0], {game!r}, len(users), {{}}, {time_limit})\n"
        "for u in users[1:]:\n"
        "    services.do_join_match(match.pk, u)\n"
        "services.do_start_match(match.pk, users[0])\n"
    )
    if first_resigns:
        code += "services.do_resign(match.pk, match.seats.get(user=users[0]).number)\n"
    return int(site.manage("shell", "-c", code + "print(match.pk)\n").stdout.strip().splitlines()[-1])


def set_profile(site: LiveSite, email: str, **fields: Any) -> None:
    code = f"from games.models import Profile\nProfile.objects.filter(user__email={email!r}).update(**{fields!r})\n"
    site.manage("shell", "-c", code)


def signed_in(
    browser: Any,
    site: LiveSite,
    email: str,
    *,
    viewport: dict[str, int] = DESKTOP,
    language: str = "en",
    axe: bool = False,
    password: str = PASSWORD,
) -> Any:
    """A browser context of ``email``'s (whose password is ``password``: the accounts made here
    share one), signed in through the login form."""
    context = browser.new_context(base_url=site.url, viewport=viewport, bypass_csp=axe)
    context.set_default_timeout(TIMEOUT)
    context.add_cookies([{"name": "django_language", "value": language, "url": site.url}])
    log_in(context.new_page(), email, password)
    return context


def log_in(page: Page, email: str, password: str = PASSWORD) -> None:
    """Sign ``email`` in on ``page`` through the login form."""
    page.goto("/accounts/login/")
    form = page.locator("form[action='/accounts/login/']")
    form.locator("input[name='login']").fill(email)
    form.locator("input[name='password']").fill(password)
    form.locator("button[type=submit]").click()
    expect(page.locator("header form[action='/accounts/logout/']")).to_have_count(1, timeout=TIMEOUT)
