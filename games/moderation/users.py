"""The user admin as moderators see it: (de)activate players, nothing more.

The moderators group needs ``auth.change_user`` to deactivate anyone, and the stock ``UserAdmin``
turns that one permission into every privilege field, group, permission and password. Here a
non-superuser edits ``is_active`` of non-staff users only; superusers keep the stock admin.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext_lazy as _

from games.signals import close_sockets_after_commit

MODERATOR_FIELDSETS = (
    (None, {"fields": ("username", "email", "is_active")}),
    (_("Important dates"), {"fields": ("last_login", "date_joined")}),
)
MODERATOR_READONLY = ("username", "email", "last_login", "date_joined")


def is_superuser(request: HttpRequest) -> bool:
    return bool(getattr(request.user, "is_superuser", False))


def is_privileged(user: Any) -> bool:
    return bool(user.is_staff or user.is_superuser)


class ModeratedUserAdmin(UserAdmin):
    actions = ["deactivate_users", "reactivate_users"]

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        if is_superuser(request):
            return super().get_fieldsets(request, obj)
        return MODERATOR_FIELDSETS

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if is_superuser(request):
            return super().get_readonly_fields(request, obj)
        return MODERATOR_READONLY

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if not super().has_change_permission(request, obj):
            return False
        return is_superuser(request) or obj is None or not is_privileged(obj)

    def user_change_password(self, request: HttpRequest, id: str, form_url: str = "") -> HttpResponse:
        if not is_superuser(request):
            raise PermissionDenied
        return super().user_change_password(request, id, form_url)

    def _players(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if is_superuser(request):
            return queryset.exclude(pk=request.user.pk)
        return queryset.filter(is_staff=False, is_superuser=False)

    @admin.action(description=_("Deactivate the selected users"), permissions=["change"])
    def deactivate_users(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        players = self._players(request, queryset)
        user_ids = list(players.values_list("pk", flat=True))
        count = players.update(is_active=False)
        close_sockets_after_commit(user_ids)  # update() sends no post_save
        self.message_user(request, _("Deactivated %(n)s users.") % {"n": count})

    @admin.action(description=_("Reactivate the selected users"), permissions=["change"])
    def reactivate_users(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        count = self._players(request, queryset).update(is_active=True)
        self.message_user(request, _("Reactivated %(n)s users.") % {"n": count})
