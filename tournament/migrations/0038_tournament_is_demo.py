from django.db import migrations, models


def mark_the_demo(apps, schema_editor):  # noqa: ANN001, ARG001
    """The demonstration tournament load_demo made before the flag existed."""
    apps.get_model("tournament", "Tournament").objects.filter(slug="demo-open", name="Demo Riichi Open").update(
        is_demo=True
    )


class Migration(migrations.Migration):

    dependencies = [
        ("tournament", "0037_rating_runs"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="is_demo",
            field=models.BooleanField(default=False, editable=False, verbose_name="demonstration"),
        ),
        migrations.RunPython(mark_the_demo, migrations.RunPython.noop),
    ]
