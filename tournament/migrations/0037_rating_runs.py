import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournament', '0036_one_registration_per_person'),
    ]

    operations = [
        migrations.AddField(
            model_name='ratingsnapshot',
            name='left_out',
            field=models.JSONField(default=list),
        ),
        migrations.AddField(
            model_name='ratingsnapshot',
            name='left_out_count',
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.CreateModel(
            name='RatingRun',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('scope', models.CharField(max_length=40, unique=True)),
                ('heartbeat_at', models.DateTimeField(blank=True, null=True)),
                ('started_at', models.DateTimeField(blank=True, null=True)),
                ('finished_at', models.DateTimeField(blank=True, null=True)),
                ('succeeded_at', models.DateTimeField(blank=True, null=True)),
                ('failures', models.PositiveIntegerField(default=0)),
                ('failed_at', models.DateTimeField(blank=True, null=True)),
                ('error', models.TextField(blank=True)),
                ('retry_at', models.DateTimeField(blank=True, null=True)),
                ('series', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='rating_runs', to='tournament.series')),
            ],
        ),
    ]
