"""Authentication backends that load the user's profile with the user (one query per request)."""

from __future__ import annotations

from typing import Any

from allauth.account.auth_backends import AuthenticationBackend as AllauthBackend
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
