"""The schema as of 0014 in one migration (``replaces`` marks it applied where 0001-0014 were), and
the moderators group with the permissions it started with."""

import django.db.models.deletion
import games.models
from django.conf import settings
from django.db import migrations, models

from games.migrations._moderators import grant

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
    grant(apps, MODERATOR_PERMISSIONS)


def remove_moderators(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name="moderators").delete()


class Migration(migrations.Migration):
    replaces = [
        ("games", "0001_initial"),
        ("games", "0002_moderators_group"),
        ("games", "0003_receipt_key_per_seat"),
        ("games", "0004_presence"),
        ("games", "0005_match_rematch"),
        ("games", "0006_profile_turn_signals"),
        ("games", "0007_seat_bot_number"),
        ("games", "0008_rematch_invite"),
        ("games", "0009_match_cancelled_by_host"),
        ("games", "0010_match_quiet_writes"),
        ("games", "0011_webpush"),
        ("games", "0012_notifications"),
        ("games", "0013_clocks"),
        ("games", "0014_ratings"),
    ]

    initial = True

    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="Match",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("game", models.CharField(db_index=True, max_length=32, verbose_name="game")),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("lobby", "Waiting for players"),
                            ("active", "In progress"),
                            ("finished", "Finished"),
                            ("aborted", "Aborted"),
                        ],
                        db_index=True,
                        default="lobby",
                        max_length=16,
                        verbose_name="status",
                    ),
                ),
                ("seat_count", models.PositiveSmallIntegerField(verbose_name="seats")),
                ("options", models.JSONField(blank=True, default=dict, verbose_name="options")),
                ("time_limit", models.PositiveIntegerField(default=60, verbose_name="time limit (seconds)")),
                ("invite_code", models.CharField(default=games.models.new_invite_code, max_length=32, unique=True)),
                ("seed", models.CharField(default=games.models.new_seed, editable=False, max_length=64)),
                ("version", models.PositiveIntegerField(default=0)),
                ("chat_version", models.PositiveIntegerField(default=0)),
                ("revision", models.PositiveIntegerField(default=0)),
                ("snapshot", models.JSONField(blank=True, editable=False, null=True)),
                ("snapshot_version", models.PositiveIntegerField(default=0, editable=False)),
                ("next_deadline", models.DateTimeField(blank=True, db_index=True, null=True)),
                ("bot_seats", models.JSONField(blank=True, default=list, editable=False)),
                ("waiting", models.JSONField(blank=True, default=dict, editable=False)),
                ("outcome", models.JSONField(blank=True, null=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("started_at", models.DateTimeField(blank=True, null=True)),
                ("finished_at", models.DateTimeField(blank=True, null=True)),
                (
                    "host",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="hosted_matches",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "rematch",
                    models.OneToOneField(
                        blank=True,
                        editable=False,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="rematch_of",
                        to="games.match",
                    ),
                ),
                ("cancelled_by_host", models.BooleanField(default=False, editable=False)),
                ("quiet_writes", models.JSONField(blank=True, default=list, editable=False)),
                ("clock", models.JSONField(blank=True, default=dict, editable=False)),
            ],
            options={
                "verbose_name": "match",
                "verbose_name_plural": "matches",
                "ordering": ["-created_at"],
            },
        ),
        migrations.CreateModel(
            name="MatchEvent",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("seq", models.PositiveIntegerField()),
                ("actor", models.SmallIntegerField(help_text="seat number, or -1 for the server")),
                ("type", models.CharField(max_length=48)),
                ("data", models.JSONField(default=dict)),
                ("secret", models.JSONField(blank=True, null=True)),
                ("visible_to", models.JSONField(default=list)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "match",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="events", to="games.match"
                    ),
                ),
            ],
            options={
                "verbose_name": "match event",
                "verbose_name_plural": "match events",
                "ordering": ["match", "seq"],
                "constraints": [models.UniqueConstraint(fields=("match", "seq"), name="unique_event_seq")],
            },
        ),
        migrations.CreateModel(
            name="ChatMessage",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("seat", models.SmallIntegerField(help_text="author's seat number")),
                ("to_seat", models.SmallIntegerField(blank=True, help_text="private message to this seat", null=True)),
                ("text", models.CharField(max_length=500, verbose_name="message")),
                ("hidden", models.BooleanField(default=False, verbose_name="hidden by a moderator")),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "match",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="chat", to="games.match"
                    ),
                ),
            ],
            options={
                "verbose_name": "chat message",
                "verbose_name_plural": "chat messages",
                "ordering": ["match", "created_at", "pk"],
            },
        ),
        migrations.CreateModel(
            name="ActionReceipt",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("seat", models.SmallIntegerField()),
                ("key", models.CharField(max_length=64)),
                ("version", models.PositiveIntegerField()),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "match",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="receipts", to="games.match"
                    ),
                ),
                (
                    "action",
                    models.CharField(blank=True, default="", help_text="digest of the action sent", max_length=40),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(fields=("match", "seat", "key"), name="unique_action_key_per_seat")
                ],
            },
        ),
        migrations.CreateModel(
            name="Presence",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("channel_name", models.CharField(max_length=200, unique=True)),
                ("seen_at", models.DateTimeField(db_index=True)),
                (
                    "match",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="presences", to="games.match"
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="RematchInvite",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("number", models.PositiveSmallIntegerField(verbose_name="seat")),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("pending", "Waiting for an answer"),
                            ("accepted", "Accepted"),
                            ("declined", "Declined"),
                        ],
                        db_index=True,
                        default="pending",
                        max_length=16,
                    ),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("answered_at", models.DateTimeField(blank=True, null=True)),
                (
                    "match",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="invites", to="games.match"
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="rematch_invites",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "verbose_name": "rematch invitation",
                "verbose_name_plural": "rematch invitations",
                "ordering": ["match", "number"],
                "constraints": [models.UniqueConstraint(fields=("match", "user"), name="one_invite_per_user")],
            },
        ),
        migrations.CreateModel(
            name="Seat",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("number", models.PositiveSmallIntegerField(verbose_name="seat")),
                ("is_bot", models.BooleanField(default=False, verbose_name="bot")),
                ("resigned", models.BooleanField(default=False, verbose_name="resigned")),
                ("joined_at", models.DateTimeField(auto_now_add=True)),
                ("waiting_key", models.CharField(blank=True, default="", editable=False, max_length=80)),
                ("waiting_since", models.DateTimeField(blank=True, null=True)),
                ("reminded_at", models.DateTimeField(blank=True, null=True)),
                ("open_sockets", models.IntegerField(default=0)),
                ("last_seen", models.DateTimeField(blank=True, null=True)),
                (
                    "match",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="seats", to="games.match"
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="seats",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                ("bot_number", models.PositiveSmallIntegerField(default=0, editable=False)),
                ("turn_pushed_at", models.DateTimeField(blank=True, editable=False, null=True)),
            ],
            options={
                "verbose_name": "seat",
                "verbose_name_plural": "seats",
                "ordering": ["match", "number"],
                "constraints": [
                    models.UniqueConstraint(fields=("match", "number"), name="unique_seat_number"),
                    models.UniqueConstraint(
                        condition=models.Q(("user__isnull", False)), fields=("match", "user"), name="one_seat_per_user"
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="PushSubscription",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("endpoint", models.URLField(max_length=1000, unique=True)),
                ("p256dh", models.CharField(max_length=128)),
                ("auth", models.CharField(max_length=64)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("last_used", models.DateTimeField(blank=True, null=True)),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="push_subscriptions",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "verbose_name": "push subscription",
                "verbose_name_plural": "push subscriptions",
            },
        ),
        migrations.CreateModel(
            name="Profile",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("display_name", models.CharField(blank=True, max_length=40, verbose_name="display name")),
                (
                    "language",
                    models.CharField(
                        choices=[("en", "English"), ("zh-hant", "Traditional Chinese")],
                        default="en",
                        max_length=10,
                        verbose_name="language",
                    ),
                ),
                ("email_reminders", models.BooleanField(default=True, verbose_name="e-mail me when it is my turn")),
                (
                    "user",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE, related_name="profile", to=settings.AUTH_USER_MODEL
                    ),
                ),
                (
                    "turn_notification",
                    models.BooleanField(
                        default=False,
                        verbose_name="show a browser notification when it becomes my turn and the page is in the background",
                    ),
                ),
                ("turn_sound", models.BooleanField(default=False, verbose_name="play a sound when it becomes my turn")),
                (
                    "email_digest",
                    models.CharField(
                        choices=[
                            ("off", "No digest"),
                            ("hourly", "At most one e-mail an hour"),
                            ("daily", "At most one e-mail a day"),
                        ],
                        default="off",
                        max_length=8,
                        verbose_name="digest of the matches waiting for me",
                    ),
                ),
                (
                    "email_invitations",
                    models.BooleanField(default=True, verbose_name="e-mail me invitations to matches and rematches"),
                ),
                (
                    "email_low_time",
                    models.BooleanField(default=True, verbose_name="e-mail me when my time is running out"),
                ),
            ],
            options={
                "verbose_name": "profile",
                "verbose_name_plural": "profiles",
            },
        ),
        migrations.CreateModel(
            name="NotificationClaim",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("kind", models.CharField(max_length=16)),
                ("key", models.CharField(max_length=120)),
                ("claimed_at", models.DateTimeField(auto_now_add=True, db_index=True)),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="notification_claims",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "verbose_name": "notification sent",
                "verbose_name_plural": "notifications sent",
                "constraints": [
                    models.UniqueConstraint(fields=("user", "kind", "key"), name="one_notification_per_claim")
                ],
            },
        ),
        migrations.CreateModel(
            name="Vacation",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("starts_at", models.DateTimeField(verbose_name="starts")),
                ("ends_at", models.DateTimeField(verbose_name="ends")),
                ("days", models.PositiveSmallIntegerField(verbose_name="days")),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="vacations",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "verbose_name": "vacation",
                "verbose_name_plural": "vacations",
                "ordering": ["user", "-starts_at"],
                "indexes": [models.Index(fields=["ends_at"], name="vacation_ends_at")],
            },
        ),
        migrations.CreateModel(
            name="Rating",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("game", models.CharField(max_length=32, verbose_name="game")),
                ("mu", models.FloatField()),
                ("sigma", models.FloatField()),
                ("ordinal", models.FloatField()),
                ("matches", models.PositiveIntegerField(default=0, verbose_name="rated matches")),
                ("updated_at", models.DateTimeField(auto_now=True)),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="ratings", to=settings.AUTH_USER_MODEL
                    ),
                ),
            ],
            options={
                "verbose_name": "rating",
                "verbose_name_plural": "ratings",
                "indexes": [models.Index(fields=["game", "-ordinal"], name="rating_leaderboard")],
                "constraints": [models.UniqueConstraint(fields=("user", "game"), name="one_rating_per_game")],
            },
        ),
        migrations.CreateModel(
            name="RatingChange",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("seat", models.PositiveSmallIntegerField()),
                ("game", models.CharField(max_length=32)),
                ("mu_before", models.FloatField()),
                ("sigma_before", models.FloatField()),
                ("mu_after", models.FloatField()),
                ("sigma_after", models.FloatField()),
                (
                    "match",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="rating_changes", to="games.match"
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="rating_changes",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "verbose_name": "rating change",
                "verbose_name_plural": "rating changes",
                "constraints": [
                    models.UniqueConstraint(fields=("match", "user"), name="one_rating_change_per_player"),
                    models.UniqueConstraint(fields=("match", "seat"), name="one_rating_change_per_seat"),
                ],
            },
        ),
        migrations.RunPython(create_moderators, remove_moderators),
    ]
