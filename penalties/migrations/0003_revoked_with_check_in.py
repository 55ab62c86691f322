from django.conf import settings
from django.db import migrations, models
from django.utils import translation
from django.utils.translation import gettext


def mark_revoked_with_check_in(apps, schema_editor):
    """Missed-hanchan penalties revoked by an undone check-in before this field existed carry the
    reason that undo wrote, in the tournament's record language: mark them."""
    Penalty = apps.get_model("penalties", "Penalty")
    reasons = set()
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            reasons.add(gettext("check-in taken back: the player never started"))
    Penalty.objects.filter(kind="missed_hanchan", revoked_at__isnull=False, revoke_reason__in=reasons).update(
        revoked_with_check_in=True
    )


class Migration(migrations.Migration):
    dependencies = [
        ("penalties", "0002_verbose_names_in_six_languages"),
    ]

    operations = [
        migrations.AddField(
            model_name="penalty",
            name="revoked_with_check_in",
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(mark_revoked_with_check_in, migrations.RunPython.noop),
    ]
