from django.db import migrations

from games.migrations._moderators import grant, revoke

# What moderators get of the models the first grant did not cover: vacations (and ending one), ratings and rating
# changes (read only: recomputable), push subscriptions (read, and delete a device's).
PERMISSIONS = [
    ("games", "view_vacation"),
    ("games", "change_vacation"),
    ("games", "view_rating"),
    ("games", "view_ratingchange"),
    ("games", "view_pushsubscription"),
    ("games", "delete_pushsubscription"),
]


def grant_them(apps, schema_editor):
    grant(apps, PERMISSIONS)


def revoke_them(apps, schema_editor):
    revoke(apps, PERMISSIONS)


class Migration(migrations.Migration):
    dependencies = [("games", "0015_replay_index")]

    operations = [migrations.RunPython(grant_them, revoke_them)]
