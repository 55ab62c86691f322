"""The single tie-break becomes an ordered list: "none" becomes [], any other choice a list of one."""

from typing import Any

from django.db import migrations, models

import tournament.models


def to_list(apps: Any, schema_editor: Any) -> None:
    Tournament = apps.get_model("tournament", "Tournament")
    for pk, tie_break in Tournament.objects.values_list("pk", "tie_break"):
        if tie_break and tie_break != "none":
            Tournament.objects.filter(pk=pk).update(tie_breaks=[tie_break])


def to_single(apps: Any, schema_editor: Any) -> None:
    """Back to one choice: the first tie-break the old field knows, else none."""
    Tournament = apps.get_model("tournament", "Tournament")
    for pk, tie_breaks in Tournament.objects.values_list("pk", "tie_breaks"):
        known = [step for step in tie_breaks or [] if step in ("most_firsts", "best_hanchan")]
        Tournament.objects.filter(pk=pk).update(tie_break=known[0] if known else "none")


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0018_team_standings"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="tie_breaks",
            field=models.JSONField(blank=True, default=list, validators=[tournament.models.validate_tie_breaks]),
        ),
        migrations.RunPython(to_list, to_single),
        migrations.RemoveField(
            model_name="tournament",
            name="tie_break",
        ),
    ]
