"""allauth adapter: failed log-ins are counted per client address and account together."""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from django.http import HttpRequest


class AccountAdapter(DefaultAccountAdapter):
    def _get_login_attempts_cache_key(self, request: HttpRequest, **credentials: Any) -> str:
        # Keyed by the login alone, anyone could lock a player out by typing their e-mail with
        # wrong passwords; with the address too, only the one guessing is slowed down.
        return f"{self.get_client_ip(request)}:{super()._get_login_attempts_cache_key(request, **credentials)}"
