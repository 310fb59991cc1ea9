"""Characters made, copied and rewritten by the GM, with the creation rules of their
system (the EW and Aethoria choices a wizard collects)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from apps.accounts.models import User
from apps.campaigns.models import Campaign
from apps.core.refusals import rules_message
from apps.rules import aethoria, ew
from apps.rules.errors import (
    InvalidCharacteristic,
    InvalidCreation,
    InvalidSkillRank,
)
from apps.systems import system_of

from .. import fights
from ..models import (
    AethoriaSheet,
    AethoriaSkillRank,
    Character,
    EwPowerRank,
    EwSheet,
    EwSpecialtyRank,
    Kind,
    MagicType,
)
from .journal import log_line

# --- Creation -------------------------------------------------------------------------------


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

    def problems(self) -> list[ew.Problem]:
        """Every broken rule, in the engine's Problem shape (field, code, message)."""
        problems: list[ew.Problem] = []
        for name in AETHORIA_BASE_CHARACTERISTICS:
            try:
                aethoria.check_characteristic(
                    getattr(self, name), name, exceptional=self.exceptional
                )
            except InvalidCharacteristic as error:
                problems.append(ew.Problem(name, error.code, rules_message(error)))
        problems += self._magic_problems()
        for index, (skill, rank) in enumerate(self.skills):
            try:
                aethoria.check_skill_rank(rank, f"skills.{index}")
            except InvalidSkillRank as error:
                problems.append(
                    ew.Problem(
                        f"skill_{skill.pk}", error.code, f"{skill.name} : {rules_message(error)}"
                    )
                )
        return problems

    def _magic_problems(self) -> list[ew.Problem]:
        """A non-mage has no Pouvoir; a mage's is checked, a doué has a domain, a marqué a
        god (whose Pouvoir is theirs)."""
        if self.magic_type == MagicType.NONE:
            if self.pouvoir in (0, None):
                return []
            message = _("Seuls les mages (doués ou marqués) ont une valeur de Pouvoir.")
            return [ew.Problem("pouvoir", "not_a_mage", message)]
        problems: list[ew.Problem] = []
        if self.magic_type == MagicType.MARQUE and self.god is not None:
            self.pouvoir = self.god.pouvoir  # a marqué's Pouvoir is set by the god
        try:
            aethoria.check_characteristic(self.pouvoir, "pouvoir", exceptional=self.exceptional)
        except InvalidCharacteristic as error:
            problems.append(ew.Problem("pouvoir", error.code, rules_message(error)))
        if self.magic_type == MagicType.DOUE and self.domain is None:
            message = _("Un doué a un domaine de magie : choisissez-le.")
            problems.append(ew.Problem("domain", "required", message))
        if self.magic_type == MagicType.MARQUE and self.god is None:
            message = _("Un marqué porte la marque d'un dieu.")
            problems.append(ew.Problem("god", "required", message))
        return problems


AETHORIA_BASE_CHARACTERISTICS = aethoria.CHARACTERISTICS[:6]


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
def npc_copy(*, template: Character, count: int = 1, name: str = "") -> list[Character]:
    """Copy an NPC (typically a template) ``count`` times, sheet, ranks and gear included."""
    if template.is_pc:
        raise ValueError("Only NPCs are copied.")
    base = name or template.name
    system = system_of(template.campaign)
    source = getattr(template, system.sheet_name)
    existing = Character.objects.filter(
        campaign=template.campaign, name__startswith=base, is_template=False
    ).count()
    copies = []
    for number in range(existing + 1, existing + 1 + count):
        copy = Character.objects.create(
            campaign=template.campaign,
            kind=Kind.NPC,
            name=f"{base} {number}",
            concept=template.concept,
            equipment_notes=template.equipment_notes,
            gm_notes=template.gm_notes,
        )
        sheet = type(source).objects.get(pk=source.pk)
        sheet.pk = None
        sheet.character = copy
        sheet._state.adding = True
        sheet.save()
        system.copy_gear(source, sheet)
        copies.append(copy)
    template.campaign.touch()
    return copies


# --- Editing (the GM) -------------------------------------------------------------------------


def _lock_for_edit(character: Character, sheet_model: type) -> Any:
    """Lock the character and its sheet: the GM's edit must not interleave with a spend."""
    Character.objects.select_for_update().filter(pk=character.pk).first()
    return sheet_model.objects.select_for_update().get(pk=character.pk)


def _log_edit(character: Character, by: User) -> None:
    log_line(
        character.campaign,
        _("Fiche de %(name)s modifiée par le MJ") % {"name": character.name},
        by,
    )


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
    sheet = _lock_for_edit(character, EwSheet)
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
    _log_edit(character, by)
    character.campaign.touch()
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
    sheet = _lock_for_edit(character, AethoriaSheet)
    house = character.campaign.house()
    derived = aethoria.derive(
        choices.force, choices.vitalite, choices.concentration, choices.esprit, house
    )
    mage = choices.magic_type != MagicType.NONE
    for name_ in AETHORIA_BASE_CHARACTERISTICS:
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
    _log_edit(character, by)
    character.campaign.touch()
    return character
