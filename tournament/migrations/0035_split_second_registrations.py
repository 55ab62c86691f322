"""One person plays once in a tournament: the rows that break it, split before the constraint is added
(0036, in a transaction of its own: PostgreSQL adds no index to a table with changes pending).

Rows stored before it may break it (a person confirmed for a second registration of one event). Those
are split first: of each person's registrations in one tournament, the one whose EMA id is the person's
stays linked (else the first registered), the others stand alone again, each with a ``person.split``
entry in its tournament's audit saying why, so that the organiser confirms the right one.
"""

from django.db import migrations, models


def split_second_registrations(apps, schema_editor):
    Player = apps.get_model("tournament", "Player")
    AuditEntry = apps.get_model("tournament", "AuditEntry")
    twice = (
        Player.objects.filter(person__isnull=False)
        .values("tournament_id", "person_id")
        .annotate(count=models.Count("pk"))
        .filter(count__gt=1)
    )
    for row in twice:
        registrations = list(
            Player.objects.filter(tournament_id=row["tournament_id"], person_id=row["person_id"])
            .select_related("person")
            .order_by("pk")
        )
        person = registrations[0].person
        stays = next(
            (r for r in registrations if person.ema_id and r.ema_id == person.ema_id), registrations[0]
        )
        for registration in registrations:
            if registration.pk == stays.pk:
                continue
            Player.objects.filter(pk=registration.pk).update(person=None)
            AuditEntry.objects.create(
                tournament_id=registration.tournament_id,
                actor=None,
                action="person.split",
                subject=f"player {registration.name}"[:200],
                changes={
                    "person": [person.pk, None],
                    "removed": {"name": person.name, "ema_id": person.ema_id},
                    "reason": f"one person plays once in a tournament: {stays.name} stays linked",
                },
            )


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0034_rating_snapshots"),
    ]

    operations = [
        migrations.RunPython(split_second_registrations, migrations.RunPython.noop),
    ]
