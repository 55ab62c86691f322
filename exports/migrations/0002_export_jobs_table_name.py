from django.db import migrations


class Migration(migrations.Migration):
    """The export jobs' table takes the exports app's name."""

    dependencies = [("exports", "0001_export_jobs_from_tournament")]

    operations = [migrations.AlterModelTable(name="exportjob", table=None)]
