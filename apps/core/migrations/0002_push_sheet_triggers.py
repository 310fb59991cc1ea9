"""NOTIFY at COMMIT for what a sheet shows, so that an open sheet is told only of its own
changes (apps/core/push.py).

A sheet followed its campaign's version, which every step moves: each step of a fight made
every open sheet of the campaign check itself, though most steps touch two fighters. Its
stream now follows two topics:

- ``sheet:<character id>``: the character's row, its sheet's row (any system's) and its XP
  ledger — what its fingerprint reads of it (apps/characters/live.py);
- ``sheets:<campaign id>``: what every sheet of a campaign shows alike, the house rules and
  the fight banner (an encounter's name, status and round, one coming or going).

The payload's last part is the transaction's id: a transaction that writes the same
character twice notifies once (PostgreSQL folds identical notifications of a transaction).
A new system's sheet table needs a trigger like these, in a migration of its own.
"""

from django.db import migrations

FUNCTION = """
CREATE OR REPLACE FUNCTION tablee_push_row() RETURNS trigger AS $$
DECLARE
    changed jsonb := to_jsonb(CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END);
BEGIN
    PERFORM pg_notify(
        'tablee', TG_ARGV[0] || ':' || (changed ->> TG_ARGV[1]) || ':' || txid_current()
    );
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
"""

# (trigger, table, events, condition, topic kind, the column naming the followed row)
ROW_TRIGGERS = [
    ("tablee_push_sheet_character", "characters_character", "UPDATE OR DELETE", "", "sheet", "id"),
    ("tablee_push_sheet_ew", "characters_ewsheet", "UPDATE", "", "sheet", "character_id"),
    (
        "tablee_push_sheet_aethoria",
        "characters_aethoriasheet",
        "UPDATE",
        "",
        "sheet",
        "character_id",
    ),
    (
        "tablee_push_sheet_xp",
        "characters_xpentry",
        "INSERT OR UPDATE OR DELETE",
        "",
        "sheet",
        "character_id",
    ),
    (
        "tablee_push_sheets_rules",
        "campaigns_campaign",
        "UPDATE OF house_rules",
        "OLD.house_rules IS DISTINCT FROM NEW.house_rules",
        "sheets",
        "id",
    ),
    (
        "tablee_push_sheets_banner",
        "encounters_encounter",
        "UPDATE OF name, status, round",
        "(OLD.name, OLD.status, OLD.round) IS DISTINCT FROM (NEW.name, NEW.status, NEW.round)",
        "sheets",
        "campaign_id",
    ),
    (
        "tablee_push_sheets_fights",
        "encounters_encounter",
        "INSERT OR DELETE",
        "",
        "sheets",
        "campaign_id",
    ),
]


def row_trigger(name, table, events, condition, kind, column) -> migrations.RunSQL:
    """A trigger that notifies "<kind>:<row's column>:<transaction id>" at COMMIT."""
    when = f"WHEN ({condition})" if condition else ""
    return migrations.RunSQL(
        f"CREATE TRIGGER {name} AFTER {events} ON {table} FOR EACH ROW {when} "
        f"EXECUTE FUNCTION tablee_push_row('{kind}', '{column}');",
        f"DROP TRIGGER IF EXISTS {name} ON {table};",
    )


class Migration(migrations.Migration):
    dependencies = [
        ("core", "0001_push_triggers"),
        ("characters", "0003_pc_may_have_no_owner"),
        ("campaigns", "0003_system_choices_from_the_registry"),
        ("encounters", "0003_combatant_present"),
    ]

    operations = [
        migrations.RunSQL(FUNCTION, "DROP FUNCTION IF EXISTS tablee_push_row() CASCADE;"),
        *(row_trigger(*trigger) for trigger in ROW_TRIGGERS),
    ]
