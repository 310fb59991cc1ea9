"""The seeded gods lose their " (à renommer)" note: players read a god's name on their sheet
("Dieu de la forge", not "Dieu de la forge (à renommer)"). Only the rows as the seed named
them change; a god the GM renamed keeps its name."""

from django.db import migrations

NOTE = " (à renommer)"


def drop_note(apps, schema_editor):
    god = apps.get_model("compendium", "AethoriaGod")
    for row in god.objects.filter(name__endswith=NOTE):
        name = row.name.removesuffix(NOTE)
        if not god.objects.filter(name__iexact=name).exists():
            row.name = name
            row.save(update_fields=["name"])


class Migration(migrations.Migration):
    dependencies = [("compendium", "0002_seeded_row")]

    # Back: the names stay (the note was a hint for the GM, nothing reads it).
    operations = [migrations.RunPython(drop_note, migrations.RunPython.noop)]
