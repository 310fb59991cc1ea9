"""The handout the GM shows the table is on every sheet of the campaign: a sheet is told when
it changes, on the topic of what every sheet of a campaign shows alike
(``sheets:<campaign id>``, 0002), by the function 0002 made."""

from django.db import migrations

TRIGGER = "tablee_push_sheets_handout"


class Migration(migrations.Migration):
    dependencies = [
        ("core", "0003_push_viewer_triggers"),
        ("campaigns", "0004_handouts"),
    ]

    operations = [
        migrations.RunSQL(
            f"CREATE TRIGGER {TRIGGER} AFTER UPDATE OF shown_handout_id ON campaigns_campaign "
            "FOR EACH ROW WHEN (OLD.shown_handout_id IS DISTINCT FROM NEW.shown_handout_id) "
            "EXECUTE FUNCTION tablee_push_row('sheets', 'id');",
            f"DROP TRIGGER IF EXISTS {TRIGGER} ON campaigns_campaign;",
        )
    ]
