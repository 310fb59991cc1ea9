"""What a system's demo file (``apps/systems/<code>/demo.py``) builds its campaign with:
compendium rows looked up by name, and a fight ready to start."""

from __future__ import annotations

from django.db import transaction

from apps.encounters import services as encounter_services


def named(model, *names) -> list:
    """The compendium rows with these names that exist (the seeds may not be loaded)."""
    rows = {row.name: row for row in model.objects.filter(name__in=names)}
    return [rows[name] for name in names if name in rows]


def one(model, name):
    """The compendium row of that name, or None when the seeds are not loaded."""
    found = named(model, name)
    return found[0] if found else None


@transaction.atomic
def prepare_encounter(campaign, name: str, pcs: list, npcs: list) -> None:
    """A fight ready to start; the last NPC lurks, hidden from the players until revealed."""
    encounter = encounter_services.encounter_create(campaign=campaign, name=name)
    encounter_services.combatants_add(encounter_id=encounter.pk, characters=[*pcs, *npcs[:-1]])
    encounter_services.combatants_add(encounter_id=encounter.pk, characters=npcs[-1:], hidden=True)
