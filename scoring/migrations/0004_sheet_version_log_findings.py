"""A sheet version read from an online game's log keeps the findings of the log beside it."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("scoring", "0003_submission_keys")]

    operations = [
        migrations.AddField(
            model_name="sheetversion",
            name="findings",
            field=models.JSONField(blank=True, null=True),
        ),
    ]
