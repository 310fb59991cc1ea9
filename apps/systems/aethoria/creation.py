"""Aethoria's characters made and rewritten with the creation rules: the choices a wizard
collects (``creation_forms.py``) and the services that save them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from apps.accounts.models import User
from apps.campaigns.models import Campaign
from apps.characters import fights
from apps.characters.models import AethoriaSheet, AethoriaSkillRank, Character, Kind, MagicType
from apps.characters.services import lock_for_edit, log_edit
from apps.core.refusals import rules_message
from apps.rules import aethoria
from apps.rules.checks import Problem
from apps.rules.errors import InvalidCharacteristic, InvalidCreation, InvalidSkillRank

# The characteristics a player chooses (the others are derived from them).
BASE_CHARACTERISTICS = aethoria.CHARACTERISTICS[:6]


@dataclass
class AethoriaChoices:
    """What the Aethoria creation form collected."""

    force: Any
    adresse: Any
    vitalite: Any
    concentration: Any
    intelligence: Any
    esprit: Any
    magic_type: str = MagicType.NONE
    pouvoir: Any = 0
    domain: Any = None
    god: Any = None
    exceptional: bool = False
    skills: list[tuple[Any, int]] = field(default_factory=list)
    weapons: list[Any] = field(default_factory=list)
    shield: Any = None
    armour_pieces: list[Any] = field(default_factory=list)

    def problems(self) -> list[Problem]:
        """Every broken rule, in the engine's Problem shape (field, code, message)."""
        problems: list[Problem] = []
        for name in BASE_CHARACTERISTICS:
            try:
                aethoria.check_characteristic(
                    getattr(self, name), name, exceptional=self.exceptional
                )
            except InvalidCharacteristic as error:
                problems.append(Problem(name, error.code, rules_message(error)))
        problems += self._magic_problems()
        for index, (skill, rank) in enumerate(self.skills):
            try:
                aethoria.check_skill_rank(rank, f"skills.{index}")
            except InvalidSkillRank as error:
                # Said under the skill's own input, which names it.
                problems.append(Problem(f"skill_{skill.pk}", error.code, rules_message(error)))
        return problems

    def _magic_problems(self) -> list[Problem]:
        """A non-mage has no Pouvoir; a mage's is checked, a doué has a domain, a marqué a
        god (whose Pouvoir is theirs)."""
        if self.magic_type == MagicType.NONE:
            if self.pouvoir in (0, None):
                return []
            message = _("Seuls les mages (doués ou marqués) ont une valeur de Pouvoir.")
            return [Problem("pouvoir", "not_a_mage", message)]
        problems: list[Problem] = []
        if self.magic_type == MagicType.MARQUE and self.god is not None:
            self.pouvoir = self.god.pouvoir  # a marqué's Pouvoir is set by the god
        try:
            aethoria.check_characteristic(self.pouvoir, "pouvoir", exceptional=self.exceptional)
        except InvalidCharacteristic as error:
            problems.append(Problem("pouvoir", error.code, rules_message(error)))
        if self.magic_type == MagicType.DOUE and self.domain is None:
            message = _("Un doué a un domaine de magie : choisissez-le.")
            problems.append(Problem("domain", "required", message))
        if self.magic_type == MagicType.MARQUE and self.god is None:
            message = _("Un marqué porte la marque d'un dieu.")
            problems.append(Problem("god", "required", message))
        return problems


@transaction.atomic
def character_create_aethoria(
    *,
    campaign: Campaign,
    name: str,
    choices: AethoriaChoices,
    owner: User | None,
    concept: str = "",
    is_template: bool = False,
) -> Character:
    """Create an Aethoria character from valid choices, pools full; raises InvalidCreation."""
    problems = choices.problems()
    if problems:
        raise InvalidCreation(tuple(problems))
    house = campaign.house()
    character = Character.objects.create(
        campaign=campaign,
        kind=Kind.PC if owner else Kind.NPC,
        owner=owner,
        name=name,
        concept=concept,
        is_template=is_template,
    )
    derived = aethoria.derive(
        choices.force, choices.vitalite, choices.concentration, choices.esprit, house
    )
    mage = choices.magic_type != MagicType.NONE
    sheet = AethoriaSheet.objects.create(
        character=character,
        force=choices.force,
        adresse=choices.adresse,
        vitalite=choices.vitalite,
        concentration=choices.concentration,
        intelligence=choices.intelligence,
        esprit=choices.esprit,
        exceptional=choices.exceptional,
        magic_type=choices.magic_type,
        pouvoir=choices.pouvoir if mage else 0,
        domain=choices.domain if choices.magic_type == MagicType.DOUE else None,
        god=choices.god if choices.magic_type == MagicType.MARQUE else None,
        pv=derived.pv,
        fatigue_physical=derived.physical_fatigue,
        fatigue_mental=derived.mental_fatigue,
        shield=choices.shield,
    )
    AethoriaSkillRank.objects.bulk_create(
        AethoriaSkillRank(sheet=sheet, skill=skill, rank=rank)
        for skill, rank in choices.skills
        if rank > 0
    )
    sheet.weapons.set(choices.weapons)
    sheet.armour_pieces.set(choices.armour_pieces)
    campaign.touch()
    return character


@transaction.atomic
def character_update_aethoria(
    *, character: Character, name: str, concept: str, choices: AethoriaChoices, by: User
) -> Character:
    """The GM rewrites an Aethoria sheet with the creation rules; raises InvalidCreation.

    Current PV and fatigue stay as they are, clamped to the new maxima.
    """
    fights.follow([character.pk])
    problems = choices.problems()
    if problems:
        raise InvalidCreation(tuple(problems))
    sheet = lock_for_edit(character, AethoriaSheet)
    house = character.campaign.house()
    derived = aethoria.derive(
        choices.force, choices.vitalite, choices.concentration, choices.esprit, house
    )
    mage = choices.magic_type != MagicType.NONE
    for name_ in BASE_CHARACTERISTICS:
        setattr(sheet, name_, getattr(choices, name_))
    sheet.exceptional = choices.exceptional
    sheet.magic_type = choices.magic_type
    sheet.pouvoir = choices.pouvoir if mage else 0
    sheet.domain = choices.domain if choices.magic_type == MagicType.DOUE else None
    sheet.god = choices.god if choices.magic_type == MagicType.MARQUE else None
    sheet.pv = min(sheet.pv, derived.pv)
    sheet.fatigue_physical = min(sheet.fatigue_physical, derived.physical_fatigue)
    sheet.fatigue_mental = min(sheet.fatigue_mental, derived.mental_fatigue)
    sheet.shield = choices.shield
    sheet.save()
    sheet.skills.all().delete()
    AethoriaSkillRank.objects.bulk_create(
        AethoriaSkillRank(sheet=sheet, skill=skill, rank=rank)
        for skill, rank in choices.skills
        if rank > 0
    )
    sheet.weapons.set(choices.weapons)
    sheet.armour_pieces.set(choices.armour_pieces)
    character.name, character.concept = name, concept
    character.save(update_fields=["name", "concept", "updated_at"])
    log_edit(character, by)
    character.campaign.touch()
    return character


# --- The wizard's hooks (``GameSystem.character_create`` and ``character_update``) -----------


def character_create(*, campaign: Campaign, form, owner: User | None, is_template: bool):
    """Save the character a valid creation wizard describes."""
    return character_create_aethoria(
        campaign=campaign,
        name=form.cleaned_data["name"],
        concept=form.cleaned_data["concept"],
        choices=form.choices,
        owner=owner,
        is_template=is_template,
    )


def character_update(*, character: Character, form, by: User) -> None:
    """Rewrite a character's sheet from a valid edit wizard."""
    character_update_aethoria(
        character=character,
        name=form.cleaned_data["name"],
        concept=form.cleaned_data["concept"],
        choices=form.choices,
        by=by,
    )
