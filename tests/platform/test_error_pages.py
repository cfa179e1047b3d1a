"""Friendly error pages (issue 10, item 7): in the site's layout, in both languages, with a way home."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("language", "title"), [("en", "Page not found"), ("zh-hant", "找不到頁面")])
def test_a_missing_page_is_shown_in_the_site_layout_with_a_way_home(language: str, title: str, settings: Any) -> None:
    settings.DEBUG = False
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.cookies["django_language"] = language
    response = client.get("/no-such-page/")
    html = response.content.decode()
    assert response.status_code == 404
    assert title in html and 'class="topbar"' in html and 'href="/"' in html


def test_a_refused_form_explains_itself(make_user: Any, settings: Any) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(make_user())
    response = client.post("/matches/new/", {"game": "heist"})
    assert response.status_code == 403
    html = response.content.decode()
    assert "Please try again" in html and 'class="topbar"' in html


def test_the_server_error_page_needs_no_context() -> None:
    from django.template.loader import render_to_string

    html = render_to_string("500.html")
    assert "Something went wrong" in html and 'href="/"' in html
