"""NOTIFY at COMMIT for every change of a version that open screens follow (apps/core/push.py).

A trigger rather than a query in each service: a step pays no extra round trip, no writer
(service, admin, import) can forget it, and a rolled-back transaction notifies nobody.
The payload, "<kind>:<id>:<version>", stays far under PostgreSQL's 8000 bytes.
"""

from django.db import migrations

FUNCTION = """
CREATE OR REPLACE FUNCTION tablee_push() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('tablee', TG_ARGV[0] || ':' || NEW.id || ':' || NEW.version);
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
"""

TRIGGER = """
CREATE TRIGGER {name} AFTER UPDATE OF version ON {table}
FOR EACH ROW WHEN (OLD.version IS DISTINCT FROM NEW.version)
EXECUTE FUNCTION tablee_push('{kind}');
"""

FOLLOWED = [
    ("tablee_push_campaign", "campaigns_campaign", "campaign"),
    ("tablee_push_encounter", "encounters_encounter", "encounter"),
]


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0002_table_action_undo"),
        ("encounters", "0002_encounter_last_sequence"),
    ]

    operations = [
        migrations.RunSQL(FUNCTION, "DROP FUNCTION IF EXISTS tablee_push() CASCADE;"),
        *(
            migrations.RunSQL(
                TRIGGER.format(name=name, table=table, kind=kind),
                f"DROP TRIGGER IF EXISTS {name} ON {table};",
            )
            for name, table, kind in FOLLOWED
        ),
    ]
