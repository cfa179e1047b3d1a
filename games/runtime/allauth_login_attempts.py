"""allauth's account adapter, counting failed log-ins per client address and account together.

allauth keys its ``login_failed`` rate limit by the login alone, in the private
``DefaultAccountAdapter._get_login_attempts_cache_key`` (its ``pre_authenticate`` and its
password-reset clean-up both call it): keyed so, anyone could lock a player out by typing their
e-mail with wrong passwords. This adapter (``ACCOUNT_ADAPTER``) puts the client's address before
the login. Not a speed patch: a guard test fails when allauth renames or reshapes that method,
which would silently bring back the per-login key.
"""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from django.http import HttpRequest


class AccountAdapter(DefaultAccountAdapter):
    def _get_login_attempts_cache_key(self, request: HttpRequest, **credentials: Any) -> str:
        # Keyed by the login alone, anyone could lock a player out by typing their e-mail with
        # wrong passwords; with the address too, only the one guessing is slowed down.
        return f"{self.get_client_ip(request)}:{super()._get_login_attempts_cache_key(request, **credentials)}"
