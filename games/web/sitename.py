"""The Sites framework's site follows ``SITE_URL``: e-mails say "Hideout" and link to this host."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.conf import settings

SITE_NAME = "Hideout"


def sync_site(**_: Any) -> None:
    """After ``migrate``: site 1 is named Hideout and its domain is ``SITE_URL``'s host (and port)."""
    from django.contrib.sites.models import Site

    domain = urlsplit(settings.SITE_URL).netloc or "127.0.0.1:8000"
    Site.objects.update_or_create(pk=settings.SITE_ID, defaults={"domain": domain, "name": SITE_NAME})
    Site.objects.clear_cache()
