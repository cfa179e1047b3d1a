"""The moderators group's permissions, for the migrations that grant them.

Django's migration loader passes over modules whose names start with ``_``, so this module is
shared code, not a migration. Its functions take the migration's historical ``apps``.
"""

from typing import Any

from django.contrib.auth.management import create_permissions


def grant(apps: Any, permissions: list[tuple[str, str]]) -> None:
    """Creates the moderators group if needed and gives it ``(app_label, codename)`` permissions."""
    for app_config in apps.get_app_configs():
        # The permissions of models made earlier in this same migrate run do not exist yet.
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    group, _ = apps.get_model("auth", "Group").objects.get_or_create(name="moderators")
    Permission = apps.get_model("auth", "Permission")
    for app_label, codename in permissions:
        group.permissions.add(Permission.objects.get(content_type__app_label=app_label, codename=codename))


def revoke(apps: Any, permissions: list[tuple[str, str]]) -> None:
    """Takes ``permissions`` back from the moderators group, if it exists."""
    group = apps.get_model("auth", "Group").objects.filter(name="moderators").first()
    if group is None:
        return
    Permission = apps.get_model("auth", "Permission")
    for app_label, codename in permissions:
        group.permissions.remove(*Permission.objects.filter(content_type__app_label=app_label, codename=codename))
