"""Stored positions (tests/e2e/data) opened by people made directly in the site's database."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .accounts import log_in
from .conftest import LiveSite
from .players import TIMEOUT

DATA = Path(__file__).parent / "data"
TWENTY_YEARS = 20 * 365 * 24 * 3600  # seconds per decision: the stored clock values never time out


def signed_in(browser: Any, site: LiveSite, email: str, viewport: dict[str, int] | None = None, **options: Any) -> Any:
    """A page of ``email``'s, signed in through the login form; ``options`` go to the browser
    context (``bypass_csp`` for axe's script, ``java_script_enabled``)."""
    if viewport is not None:
        options["viewport"] = viewport
    context = browser.new_context(base_url=site.url, **options)
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    log_in(page, email)
    return page


def imported_all(site: LiveSite, positions: list[Path], emails: list[str]) -> dict[Path, str]:
    """Every position imported as ``import_match`` does (each seat to the next of ``emails``, twenty
    years a decision), in one ``manage.py`` process: {position: match URL}."""
    code = (
        "import json\n"
        "from django.contrib.auth import get_user_model\n"
        "from games.play.archive import import_match\n"
        f"for path in {[str(p) for p in positions]!r}:\n"
        "    with open(path) as handle:\n"
        "        document = json.load(handle)\n"
        f"    emails = {emails!r}[: document['seat_count']]\n"
        "    users = [get_user_model().objects.get(email__iexact=e) for e in emails]\n"
        f"    match = import_match(document, users, time_limit={TWENTY_YEARS})\n"
        "    print('IMPORTED', path, match.get_absolute_url())\n"
    )
    done = site.manage("shell", "-c", code)
    found = dict(line.split()[1:] for line in done.stdout.splitlines() if line.startswith("IMPORTED "))
    assert len(found) == len(positions), f"not every position was imported: {done.stdout!r} {done.stderr!r}"
    return {Path(path): url for path, url in found.items()}


def imported_at(site: LiveSite, position: Path, seats: Iterable[str], time_limit: int | None = None) -> tuple[int, str]:
    """``position`` imported with ``manage.py import_match``, each seat to the next of ``seats`` (an
    e-mail or ``bot``), with ``time_limit`` seconds a decision where given: (its version, its URL)."""
    limit = ("--time-limit", str(time_limit)) if time_limit is not None else ()
    done = site.manage("import_match", str(position), *seats, *limit)
    found = re.search(r"at version (\d+): (/m/\d+/)", done.stdout)
    assert found, f"import_match printed no match URL: {done.stdout!r} {done.stderr!r}"
    return int(found.group(1)), found.group(2)


def imported(site: LiveSite, position: Path, emails: list[str]) -> str:
    seats = json.loads(position.read_text())["seat_count"]
    return imported_at(site, position, emails[:seats], TWENTY_YEARS)[1]
