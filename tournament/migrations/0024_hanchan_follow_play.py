"""Hanchan follow their score sheets, with or without the clock: one with a sheet submitted or signed is
being played; one whose every table is signed is finished. Brings the hanchan of existing tournaments
(whose clock was never started, or never finished by hand) to where their sheets say they are."""

from django.db import migrations


def follow_play(apps, schema_editor):
    Round = apps.get_model("tournament", "Round")
    Table = apps.get_model("tournament", "Table")
    ScoreSheet = apps.get_model("scoring", "ScoreSheet")
    played = ScoreSheet.objects.filter(status__in=["submitted", "disputed", "signed"]).values("table__round")
    Round.objects.filter(pk__in=played, status__in=["planned", "seated"]).update(status="started")
    unsigned = Table.objects.exclude(sheet__status="signed").values("round")
    seated = Table.objects.values("round")
    Round.objects.filter(pk__in=seated).exclude(pk__in=unsigned).exclude(status="finished").update(
        status="finished"
    )


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0023_account_language"),
        ("scoring", "0005_verbose_names_in_six_languages"),
    ]

    operations = [migrations.RunPython(follow_play, migrations.RunPython.noop)]
