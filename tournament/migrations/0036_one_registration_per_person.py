"""One person plays once in a tournament: a constraint on (tournament, person)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0035_split_second_registrations"),
    ]

    operations = [
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                condition=models.Q(person__isnull=False),
                fields=("tournament", "person"),
                name="one_registration_per_person_per_tournament",
            ),
        ),
    ]
