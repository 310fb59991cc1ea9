"""NOTIFY at COMMIT when a fighter's conditions change, on its character's sheet topic
(apps/core/push.py): an open sheet shows the conditions of the fight its character is in."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("encounters", "0004_combatant_conditions"),
        ("core", "0002_push_sheet_triggers"),
    ]

    operations = [
        migrations.RunSQL(
            "CREATE TRIGGER tablee_push_sheet_conditions AFTER UPDATE OF conditions "
            "ON encounters_combatant FOR EACH ROW "
            "WHEN (OLD.conditions IS DISTINCT FROM NEW.conditions) "
            "EXECUTE FUNCTION tablee_push_row('sheet', 'character_id');",
            "DROP TRIGGER IF EXISTS tablee_push_sheet_conditions ON encounters_combatant;",
        )
    ]
