from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("games", "0012_notifications"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="clock",
            field=models.JSONField(blank=True, default=dict, editable=False),
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
                        on_delete=models.deletion.CASCADE, related_name="vacations", to=settings.AUTH_USER_MODEL
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
    ]
