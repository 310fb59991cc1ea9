"""EW-System's characters made and rewritten with the creation rules: the choices a wizard
collects (``creation_forms.py``) and the services that save them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from apps.accounts.models import User
from apps.campaigns.models import Campaign
from apps.characters import fights
from apps.characters.models import Character, EwPowerRank, EwSheet, EwSpecialtyRank, Kind
from apps.characters.services import lock_for_edit, log_edit
from apps.rules import ew
from apps.rules.errors import InvalidCreation


def archetype_factors(archetype: Any) -> ew.FieldFactors:
    """The archetype's specialty cost factor per field (1 for every field without archetype)."""
    if archetype is None:
        return ew.FieldFactors()
    return archetype.field_factors()


@dataclass
class EwChoices:
    """What the EW creation form collected, as compendium rows and numbers."""

    phy: Any
    men: Any
    per: Any
    pre: Any
    archetype: Any = None
    specialties: list[tuple[Any, int]] = field(default_factory=list)
    traits: list[Any] = field(default_factory=list)
    aptitudes: list[Any] = field(default_factory=list)
    powers: list[tuple[Any, int]] = field(default_factory=list)
    weapons: list[Any] = field(default_factory=list)
    armour: Any = None

    def as_creation(self) -> ew.EwCreation:
        """The rules engine's view of these choices."""
        return ew.EwCreation(
            phy=self.phy,
            men=self.men,
            per=self.per,
            pre=self.pre,
            factors=archetype_factors(self.archetype),
            specialties=tuple(
                ew.SpecialtyChoice(s.name, s.field, level) for s, level in self.specialties
            ),
            traits=tuple(ew.TraitChoice(t.name, t.cost) for t in self.traits),
            powers=tuple(
                ew.PowerChoice(p.name, level, p.cost_per_level) for p, level in self.powers
            ),
            aptitudes=tuple(ew.AptitudeChoice(a.name, a.cost) for a in self.aptitudes),
        )

    def problems(self, house: ew.EwHouseRules) -> list[ew.Problem]:
        """Every broken creation rule (the engine's list)."""
        return ew.validate_creation(self.as_creation(), house)

    def edit_problems(self, house: ew.EwHouseRules) -> list[ew.Problem]:
        """The rules a GM's edit of an existing sheet must keep: every range, but not the
        creation budgets (28 characteristic points, generation points), which experience
        legitimately takes a character past."""
        return [p for p in self.problems(house) if p.code not in CREATION_BUDGET_CODES]


# The engine's codes for the creation budgets; see EwChoices.edit_problems.
CREATION_BUDGET_CODES = frozenset({"wrong_total", "over_budget"})


@transaction.atomic
def character_create_ew(
    *,
    campaign: Campaign,
    name: str,
    choices: EwChoices,
    owner: User | None,
    concept: str = "",
    is_template: bool = False,
) -> Character:
    """Create an EW character from valid choices, pools full; raises InvalidCreation."""
    house = campaign.house()
    problems = choices.problems(house)
    if problems:
        raise InvalidCreation(tuple(problems))
    character = Character.objects.create(
        campaign=campaign,
        kind=Kind.PC if owner else Kind.NPC,
        owner=owner,
        name=name,
        concept=concept,
        is_template=is_template,
    )
    pv = ew.hit_points(choices.phy)
    sheet = EwSheet.objects.create(
        character=character,
        archetype=choices.archetype,
        phy=choices.phy,
        men=choices.men,
        per=choices.per,
        pre=choices.pre,
        superficial_left=pv,
        lethal_left=pv,
        armour=choices.armour,
    )
    EwSpecialtyRank.objects.bulk_create(
        EwSpecialtyRank(sheet=sheet, specialty=s, level=level) for s, level in choices.specialties
    )
    EwPowerRank.objects.bulk_create(
        EwPowerRank(sheet=sheet, power=p, level=level) for p, level in choices.powers
    )
    sheet.traits.set(choices.traits)
    sheet.aptitudes.set(choices.aptitudes)
    sheet.weapons.set(choices.weapons)
    campaign.touch()
    return character


@transaction.atomic
def character_update_ew(
    *, character: Character, name: str, concept: str, choices: EwChoices, by: User
) -> Character:
    """The GM rewrites an EW sheet with the creation rules; raises InvalidCreation.

    Current PV points follow PHY like an XP purchase (both move by 3 per point), but when PHY
    drops they are only clamped to the new maxima: an edit is not a wound.
    """
    fights.follow([character.pk])
    problems = choices.edit_problems(character.campaign.house())
    if problems:
        raise InvalidCreation(tuple(problems))
    sheet = lock_for_edit(character, EwSheet)
    old_pools, new_pv = sheet.pools(), ew.hit_points(choices.phy)
    if choices.phy >= sheet.phy:
        pools = ew.pools_after_phy_change(old_pools, sheet.phy, choices.phy)
    else:
        pools = ew.EwPools(
            new_pv, min(old_pools.superficial, new_pv), min(old_pools.lethal, new_pv)
        )
    sheet.archetype = choices.archetype
    sheet.phy, sheet.men, sheet.per, sheet.pre = choices.phy, choices.men, choices.per, choices.pre
    sheet.superficial_left, sheet.lethal_left = pools.superficial, pools.lethal
    sheet.armour = choices.armour
    sheet.save()
    sheet.specialties.all().delete()
    EwSpecialtyRank.objects.bulk_create(
        EwSpecialtyRank(sheet=sheet, specialty=s, level=level) for s, level in choices.specialties
    )
    sheet.powers.all().delete()
    EwPowerRank.objects.bulk_create(
        EwPowerRank(sheet=sheet, power=p, level=level) for p, level in choices.powers
    )
    sheet.traits.set(choices.traits)
    sheet.aptitudes.set(choices.aptitudes)
    sheet.weapons.set(choices.weapons)
    character.name, character.concept = name, concept
    character.save(update_fields=["name", "concept", "updated_at"])
    log_edit(character, by)
    character.campaign.touch()
    return character


# --- The wizard's hooks (``GameSystem.character_create`` and ``character_update``) -----------


def character_create(*, campaign: Campaign, form, owner: User | None, is_template: bool):
    """Save the character a valid creation wizard describes."""
    return character_create_ew(
        campaign=campaign,
        name=form.cleaned_data["name"],
        concept=form.cleaned_data["concept"],
        choices=form.choices,
        owner=owner,
        is_template=is_template,
    )


def character_update(*, character: Character, form, by: User) -> None:
    """Rewrite a character's sheet from a valid edit wizard."""
    character_update_ew(
        character=character,
        name=form.cleaned_data["name"],
        concept=form.cleaned_data["concept"],
        choices=form.choices,
        by=by,
    )
