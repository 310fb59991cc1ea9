"""NOTIFY at COMMIT when a third-system sheet changes, as every system's sheet does
(apps/core/migrations/0002_push_sheet_triggers.py): an open sheet follows its own changes."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("third", "0001_initial"), ("core", "0002_push_sheet_triggers")]

    operations = [
        migrations.RunSQL(
            "CREATE TRIGGER tablee_push_sheet_third AFTER UPDATE ON third_thirdsheet "
            "FOR EACH ROW EXECUTE FUNCTION tablee_push_row('sheet', 'character_id');",
            "DROP TRIGGER IF EXISTS tablee_push_sheet_third ON third_thirdsheet;",
        )
    ]
