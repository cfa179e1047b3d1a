from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0009_match_cancelled_by_host"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="quiet_writes",
            field=models.JSONField(blank=True, default=list, editable=False),
        ),
    ]
