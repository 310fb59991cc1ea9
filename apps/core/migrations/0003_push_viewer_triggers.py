"""Streams that end with their viewer's right to them, and events that tell nothing of the
server (apps/core/push.py, issue 28).

- ``viewer:<user id>``: a user's password, session salt (logout, "log out everywhere") or
  active flag changed, the user was deleted, or one of their memberships went or changed.
  The hub then makes that user's open streams check their session and their page's check
  again, and end when those no longer hold: within the COMMIT, not at the next keep-alive.
- The row triggers' payload no longer ends with the transaction's id: it told every viewer
  of a sheet how many transactions the whole database runs. PostgreSQL folds identical
  notifications of one transaction without it, and a sheet's page needs no version from the
  event (its own check says whether what it shows changed).
"""

from django.db import migrations

ROW_FUNCTION = """
CREATE OR REPLACE FUNCTION tablee_push_row() RETURNS trigger AS $$
DECLARE
    changed jsonb := to_jsonb(CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END);
BEGIN
    PERFORM pg_notify('tablee', TG_ARGV[0] || ':' || (changed ->> TG_ARGV[1]) || ':');
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
"""

# What 0002 defined, for going back.
OLD_ROW_FUNCTION = ROW_FUNCTION.replace("|| ':');", "|| ':' || txid_current());")

# (trigger, table, events, condition, the column naming the user)
VIEWER_TRIGGERS = [
    (
        "tablee_push_viewer_user",
        "accounts_user",
        "UPDATE OF password, session_salt, is_active",
        "(OLD.password, OLD.session_salt, OLD.is_active)"
        " IS DISTINCT FROM (NEW.password, NEW.session_salt, NEW.is_active)",
        "id",
    ),
    ("tablee_push_viewer_user_gone", "accounts_user", "DELETE", "", "id"),
    ("tablee_push_viewer_membership", "campaigns_membership", "UPDATE OR DELETE", "", "user_id"),
]


def viewer_trigger(name, table, events, condition, column) -> migrations.RunSQL:
    """A trigger that notifies "viewer:<the row's user>:" at COMMIT."""
    when = f"WHEN ({condition})" if condition else ""
    return migrations.RunSQL(
        f"CREATE TRIGGER {name} AFTER {events} ON {table} FOR EACH ROW {when} "
        f"EXECUTE FUNCTION tablee_push_row('viewer', '{column}');",
        f"DROP TRIGGER IF EXISTS {name} ON {table};",
    )


class Migration(migrations.Migration):
    dependencies = [
        ("core", "0002_push_sheet_triggers"),
        ("accounts", "0002_account_side"),
        ("campaigns", "0003_system_choices_from_the_registry"),
    ]

    operations = [
        migrations.RunSQL(ROW_FUNCTION, OLD_ROW_FUNCTION),
        *(viewer_trigger(*trigger) for trigger in VIEWER_TRIGGERS),
    ]
