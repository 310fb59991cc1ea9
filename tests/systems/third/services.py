"""The third system's writes: a character made, and its console action, the coup."""

from __future__ import annotations

from django.db import transaction

from apps.characters.models import Character, Kind
from apps.encounters.models import Status
from apps.encounters.services import acting_combatant, load_combatants
from apps.encounters.steps import EncounterError, Step, lock_encounter, require_status

from .models import ThirdSheet


@transaction.atomic
def character_create(*, campaign, form, owner, is_template: bool) -> Character:
    data = form.cleaned_data
    character = Character.objects.create(
        campaign=campaign,
        kind=Kind.NPC if owner is None else Kind.PC,
        owner=owner,
        name=data["name"],
        concept=data["concept"],
        is_template=is_template,
    )
    vigueur = data["vigueur"]
    ThirdSheet.objects.create(
        character=character, vigueur=vigueur, adresse=data["adresse"], souffle=vigueur * 2
    )
    campaign.touch()
    return character


@transaction.atomic
def third_coup(*, encounter_id: int, version: int, by, target_id: int):
    """The acting fighter strikes: its target loses the house rules' souffle."""
    encounter = lock_encounter(encounter_id, version)
    require_status(encounter, Status.RUNNING)
    combatants = load_combatants(encounter)
    actor = acting_combatant(encounter, combatants)
    target = next((c for c in combatants if c.pk == target_id), None)
    if actor is None or target is None or target.pk == actor.pk:
        raise EncounterError("Personne à frapper.", "target")
    sheet = target.character.third
    step = Step(encounter, "third_coup", by, actor=actor, target=target)
    step.set(sheet, "souffle", max(0, sheet.souffle - encounter.campaign.house().coup))
    data = {"actor": actor.character.name, "target": target.character.name}
    return step.commit({**data, "souffle": sheet.souffle})
