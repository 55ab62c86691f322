"""A signed sheet's own ``signed_by`` and ``signed_at`` mended from its history: the author and time of
the entry that signed its current version (a referee's signature, a correction, the four players'
agreement). A correction used to leave them naming the referee who signed the version it replaced."""

from django.db import migrations

SIGNING_ACTIONS = ("signed", "corrected", "confirmed")


def signer_from_history(apps, schema_editor):  # noqa: ANN001, ARG001
    ScoreSheet = apps.get_model("scoring", "ScoreSheet")  # noqa: N806
    SheetVersion = apps.get_model("scoring", "SheetVersion")  # noqa: N806
    signers = {}
    rows = (
        SheetVersion.objects.filter(sheet__status="signed", action__in=SIGNING_ACTIONS)
        .order_by("at", "pk")
        .values_list("sheet_id", "version", "sheet__version", "author_id", "at")
    )
    for sheet_id, version, current, author_id, at in rows.iterator(chunk_size=2000):
        if version == current:  # the latest entry of the current version wins
            signers[sheet_id] = (author_id, at)
    mended = []
    for sheet in ScoreSheet.objects.filter(pk__in=list(signers)).only("pk", "signed_by", "signed_at"):
        if (sheet.signed_by_id, sheet.signed_at) != signers[sheet.pk]:
            sheet.signed_by_id, sheet.signed_at = signers[sheet.pk]
            mended.append(sheet)
    ScoreSheet.objects.bulk_update(mended, ["signed_by", "signed_at"], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0006_seat_result_rank_one_to_four"),
    ]

    operations = [
        migrations.RunPython(signer_from_history, migrations.RunPython.noop),
    ]
