from django.db import migrations


class Migration(migrations.Migration):
    """Export jobs belong to the exports app now (exports.0001 takes the table over as it is)."""

    dependencies = [("tournament", "0005_export_jobs")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="ExportJob")], database_operations=[]
        )
    ]
