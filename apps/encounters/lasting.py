"""Conditions that outlive their fight: when it ends the GM keeps each one still running on
its character (the sheet shows it) or drops it; the character's next fight starts with
those kept; reopening the fight takes them back (its end will ask again).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils.translation import gettext as _

from apps.characters.models import Character

from . import conditions
from .models import Combatant, Encounter, Status
from .steps import EncounterError, Step, bump_version, lock_encounter, require_status


def bring_kept_conditions(step: Step, combatants: Sequence[Combatant]) -> None:
    """The conditions the GM kept on the characters when their last fight ended come into
    this one (and leave the characters: this fight's end decides again). One query."""
    kept = dict(
        Character.objects.filter(pk__in=[c.character_id for c in combatants])
        .exclude(conditions=[])
        .values_list("pk", "conditions")
    )
    for combatant in combatants:
        if lasting := kept.get(combatant.character_id):
            brought = [
                conditions.from_lasting(data, combatant.pk, number).to_json()
                for number, data in enumerate(lasting, start=1)
            ]
            step.set(combatant, "conditions", brought)
    if kept:
        Character.objects.filter(pk__in=kept).update(conditions=[])


@transaction.atomic
def encounter_condition_after(
    *, encounter_id: int, by, combatant_id: int, condition_id: int, keep: bool
) -> None:
    """After the fight, the GM keeps one of the conditions still running on its character
    (the sheet shows it, the next fight starts with it) or drops it: once each."""
    encounter = lock_encounter(encounter_id, fighters=False)
    require_status(encounter, Status.FINISHED)
    summary = encounter.summary
    entry = next(
        (
            e
            for e in summary.get("conditions", [])
            if e["combatant"] == combatant_id and e["condition"]["id"] == condition_id
        ),
        None,
    )
    if entry is None:
        raise EncounterError(_("Cet état ne fait pas partie du bilan."), "condition")
    decided = summary.get("conditions_decided", {})
    key = f"{combatant_id}:{condition_id}"
    if key in decided:
        raise EncounterError(_("Cet état a déjà été gardé ou laissé."), "condition")
    if keep:
        character = Character.objects.select_for_update().get(pk=entry["character"])
        condition = conditions.Condition.from_json(entry["condition"])
        lasting = conditions.to_lasting(condition, encounter.round, encounter.pk)
        character.conditions = [*character.conditions, lasting]
        character.save(update_fields=["conditions"])
    encounter.summary = {**summary, "conditions_decided": {**decided, key: keep}}
    encounter.save(update_fields=["summary"])
    bump_version(encounter)


def take_back_kept_conditions(encounter: Encounter) -> None:
    """A fight reopened will end again and offer its conditions again: those kept on the
    characters when it ended leave them."""
    for character in Character.objects.select_for_update().filter(
        combatants__encounter=encounter, conditions__contains=[{"from_encounter": encounter.pk}]
    ):
        character.conditions = [
            c for c in character.conditions if c.get("from_encounter") != encounter.pk
        ]
        character.save(update_fields=["conditions"])
