"""The third system's writes: a character made, and its console actions, the coup and the
épreuve — written with ``apps.encounters.kit`` alone, as any game system's."""

from __future__ import annotations

import secrets

from django.db import transaction

from apps.characters.models import Character, Kind
from apps.core.refusals import rules_message
from apps.encounters.kit import (
    Condition,
    EncounterError,
    Roll,
    Step,
    acting_combatant,
    add_condition,
    load_combatants,
    lock_encounter,
    require_status,
    situational_values,
)
from apps.encounters.models import DiceSource, Status
from apps.rules.dice import check_face
from apps.rules.errors import RulesError
from apps.systems import system_of

from . import rules
from .models import ThirdSheet

# What a coup rolled on a 6 leaves on its target, until the end of the target's next turn.
SONNE = "sonné"


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


def _face(face: int | None) -> tuple[int, str]:
    """The face typed from a physical d6, or one rolled by the app."""
    if face is None:
        return secrets.randbelow(6) + 1, DiceSource.APP
    try:
        return check_face(face, 6, field="face"), DiceSource.PHYSICAL
    except RulesError as error:
        raise EncounterError(rules_message(error), "face") from error


def sonne(target, acting) -> Condition:
    """Sonné until the end of the target's next turn: −1 to its coups."""
    return Condition(
        label=SONNE,
        key="sonne",
        ends="turn_end",
        turn_of=target.pk,
        skip=1 if target.pk == acting.pk else 0,
        modifiers={Roll.ATTACK: -1},
        placed_by=acting.pk,
    )


@transaction.atomic
def third_coup(*, encounter_id: int, version: int, by, target_id: int, face: int | None = None):
    """The acting fighter strikes: on a d6 + adresse of 6 or more its target loses the
    house rules' souffle; a 6 on the die leaves it sonné."""
    encounter = lock_encounter(encounter_id, version)
    require_status(encounter, Status.RUNNING)
    combatants = load_combatants(encounter)
    actor = acting_combatant(encounter, combatants)
    target = next((c for c in combatants if c.pk == target_id), None)
    if actor is None or target is None or target.pk == actor.pk:
        raise EncounterError("Personne à frapper.", "target")
    system = system_of(encounter.campaign)
    modifiers = situational_values(system, actor, Roll.ATTACK, against=target)
    face, dice = _face(face)
    lands = rules.succeeds(face, actor.character.third.adresse, modifiers, rules.COUP_NEEDS)
    step = Step(encounter, "third_coup", by, actor=actor, target=target, dice=dice)
    sheet = target.character.third
    data = {"actor": actor.character.name, "target": target.character.name, "face": face}
    if lands:
        step.set(sheet, "souffle", max(0, sheet.souffle - encounter.campaign.house().coup))
        data["souffle"] = sheet.souffle
    if lands and face == rules.STUNNING_FACE:
        add_condition(step, target, sonne(target, actor))
        data["sonne"] = True
    return step.commit(data)


@transaction.atomic
def third_epreuve(*, encounter_id: int, version: int, by, face: int | None = None):
    """The acting fighter tries an épreuve of vigueur: a d6 + vigueur of 7 or more."""
    encounter = lock_encounter(encounter_id, version)
    require_status(encounter, Status.RUNNING)
    actor = acting_combatant(encounter, load_combatants(encounter))
    if actor is None:
        raise EncounterError("Personne n'agit maintenant.")
    modifiers = situational_values(system_of(encounter.campaign), actor, Roll.TEST)
    face, dice = _face(face)
    passed = rules.succeeds(face, actor.character.third.vigueur, modifiers, rules.EPREUVE_NEEDS)
    step = Step(encounter, "third_epreuve", by, actor=actor, dice=dice)
    return step.commit({"actor": actor.character.name, "face": face, "passed": passed})
