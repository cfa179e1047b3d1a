"""Authentication backends that load the profile with the user, and the admin-only axes handler."""

from __future__ import annotations

from typing import Any

from allauth.account.auth_backends import AuthenticationBackend as AllauthBackend
from axes.handlers.database import AxesDatabaseHandler
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend


def _user_with_profile(user_id: Any) -> Any:
    user = get_user_model()._default_manager.select_related("profile").filter(pk=user_id).first()
    return user if user is not None and user.is_active else None


class ProfileModelBackend(ModelBackend):
    def get_user(self, user_id: Any) -> Any:
        return _user_with_profile(user_id)


class ProfileAllauthBackend(AllauthBackend):
    def get_user(self, user_id: Any) -> Any:
        return _user_with_profile(user_id)


class AdminLoginAxesHandler(AxesDatabaseHandler):
    """Axes guards the admin login only, so only failures there count towards its lock-outs."""

    def user_login_failed(self, sender: Any, credentials: dict[str, Any], request: Any = None, **kwargs: Any) -> None:
        if request is None or not self.is_admin_request(request):
            return
        super().user_login_failed(sender, credentials, request=request, **kwargs)
