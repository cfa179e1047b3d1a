from django.contrib.auth.management import create_permissions
from django.db import migrations

# What moderators get of the models added since 0002: vacations (and ending one), ratings and rating
# changes (read only: recomputable), push subscriptions (read, and delete a device's).
PERMISSIONS = [
    "view_vacation",
    "change_vacation",
    "view_rating",
    "view_ratingchange",
    "view_pushsubscription",
    "delete_pushsubscription",
]


def grant(apps, schema_editor):
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name="moderators")
    group.permissions.add(*Permission.objects.filter(content_type__app_label="games", codename__in=PERMISSIONS))


def revoke(apps, schema_editor):
    Permission = apps.get_model("auth", "Permission")
    group = apps.get_model("auth", "Group").objects.filter(name="moderators").first()
    if group is not None:
        group.permissions.remove(*Permission.objects.filter(content_type__app_label="games", codename__in=PERMISSIONS))


class Migration(migrations.Migration):
    dependencies = [("games", "0015_replay_index")]

    operations = [migrations.RunPython(grant, revoke)]
