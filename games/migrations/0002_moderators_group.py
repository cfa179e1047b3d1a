from django.contrib.auth.management import create_permissions
from django.db import migrations

MODERATOR_PERMISSIONS = [
    ("games", "view_match"),
    ("games", "change_match"),
    ("games", "view_seat"),
    ("games", "change_seat"),
    ("games", "view_matchevent"),
    ("games", "view_chatmessage"),
    ("games", "change_chatmessage"),
    ("games", "view_profile"),
    ("auth", "view_user"),
    ("auth", "change_user"),
]


def create_moderators(apps, schema_editor):
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name="moderators")
    for app_label, codename in MODERATOR_PERMISSIONS:
        permission = Permission.objects.get(content_type__app_label=app_label, codename=codename)
        group.permissions.add(permission)


def remove_moderators(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name="moderators").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_moderators, remove_moderators)]
