import django.core.validators
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0005_verbose_names_in_six_languages"),
    ]

    operations = [
        migrations.AlterField(
            model_name="seatresult",
            name="rank",
            field=models.PositiveSmallIntegerField(
                validators=[
                    django.core.validators.MinValueValidator(1),
                    django.core.validators.MaxValueValidator(4),
                ]
            ),
        ),
    ]
