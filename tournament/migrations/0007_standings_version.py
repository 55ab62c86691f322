from django.db import migrations, models


class Migration(migrations.Migration):
    """A version number of each tournament's standings, part of every cached standings key."""

    dependencies = [("tournament", "0006_export_jobs_move_to_exports")]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="standings_version",
            field=models.PositiveBigIntegerField(default=0, editable=False),
        ),
    ]
