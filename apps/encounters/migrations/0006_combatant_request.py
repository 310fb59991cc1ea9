"""A fighter's open roll request (issue #31), and its push: NOTIFY at COMMIT when it changes,
on the topic ``request:<character id>`` that only the phones of that character's player
follow (apps/encounters/request_views.py), so a request reaches its player's panel at once
and nobody else's page."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("encounters", "0005_push_combatant_conditions"),
        ("core", "0002_push_sheet_triggers"),
    ]

    operations = [
        migrations.AddField(
            model_name="combatant",
            name="request",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.RunSQL(
            "CREATE TRIGGER tablee_push_request AFTER UPDATE OF request "
            "ON encounters_combatant FOR EACH ROW "
            "WHEN (OLD.request IS DISTINCT FROM NEW.request) "
            "EXECUTE FUNCTION tablee_push_row('request', 'character_id');",
            "DROP TRIGGER IF EXISTS tablee_push_request ON encounters_combatant;",
        ),
    ]
