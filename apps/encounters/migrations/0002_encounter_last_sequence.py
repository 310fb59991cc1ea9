from django.db import migrations, models
from django.db.models import Max, OuterRef, Subquery
from django.db.models.functions import Coalesce


def count_existing_events(apps, schema_editor):
    """Encounters that already have a log start numbering after their newest event."""
    Encounter = apps.get_model("encounters", "Encounter")
    Event = apps.get_model("encounters", "Event")
    newest = (
        Event.objects.filter(encounter=OuterRef("pk"))
        .values("encounter")
        .annotate(last=Max("sequence"))
        .values("last")
    )
    Encounter.objects.update(last_sequence=Coalesce(Subquery(newest), 0))


class Migration(migrations.Migration):
    dependencies = [("encounters", "0001_initial")]

    operations = [
        migrations.AddField(
            model_name="encounter",
            name="last_sequence",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(count_existing_events, migrations.RunPython.noop),
    ]
