import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import exports.models


class Migration(migrations.Migration):
    """The export jobs of the tournament app, taken over with their table (renamed in 0002)."""

    initial = True

    dependencies = [
        ("tournament", "0006_export_jobs_move_to_exports"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="ExportJob",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID"),
                        ),
                        ("exporter", models.CharField(max_length=40)),
                        ("requested_at", models.DateTimeField(auto_now_add=True)),
                        (
                            "state",
                            models.CharField(
                                choices=[
                                    ("queued", "Queued"),
                                    ("running", "Running"),
                                    ("done", "Done"),
                                    ("failed", "Failed"),
                                ],
                                default="queued",
                                max_length=16,
                            ),
                        ),
                        ("progress", models.FloatField(default=0.0)),
                        ("file", models.FileField(blank=True, upload_to=exports.models.export_upload_to)),
                        ("filename", models.CharField(blank=True, max_length=200)),
                        ("content_type", models.CharField(blank=True, max_length=120)),
                        ("error", models.TextField(blank=True)),
                        ("finished_at", models.DateTimeField(blank=True, null=True)),
                        ("expires_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "requested_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "tournament",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="export_jobs",
                                to="tournament.tournament",
                            ),
                        ),
                    ],
                    options={"ordering": ["-requested_at"], "db_table": "tournament_exportjob"},
                )
            ],
            database_operations=[],
        )
    ]
