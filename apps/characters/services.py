"""Writes of the characters app (C5): creation, copies, pools spent and restored, XP.

Every function is keyword-only, atomic, locks the rows two people could change at once
(a player's phone and the GM's laptop), and touches the campaign version so that open
screens refresh.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.accounts.models import User
from apps.campaigns.models import Campaign, LogEntry, LogKind
from apps.core.changes import changed_since, write_back
from apps.core.refusals import rules_message
from apps.encounters.models import Encounter, Status
from apps.rules import aethoria, ew
from apps.rules.errors import (
    InvalidCharacteristic,
    InvalidCreation,
    InvalidImprovement,
    InvalidSkillRank,
    RulesError,
)
from apps.systems import all_systems, system_of

from .models import (
    AethoriaSheet,
    AethoriaSkillRank,
    Character,
    EwPowerRank,
    EwSheet,
    EwSpecialtyRank,
    Kind,
    MagicType,
    XpEntry,
    XpKind,
)

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
    _log(
        character.campaign,
        _("Fiche de %(name)s modifiée par le MJ") % {"name": character.name},
        by,
    )


def _fights_follow(character_ids: Iterable[int]) -> None:
    """The running or paused fights these characters are in follow their sheets: their
    version moves, so their console and table view refresh within 2 s, and a GM's form made
    on the older pools is refused as stale (its odds were read on them). Called before the
    sheets are locked: a step locks its encounter, then the sheets — the same order."""
    Encounter.objects.filter(
        status__in=(Status.RUNNING, Status.PAUSED), combatants__character_id__in=list(character_ids)
    ).update(version=F("version") + 1)


@transaction.atomic
def character_update_ew(
    *, character: Character, name: str, concept: str, choices: EwChoices, by: User
) -> Character:
    """The GM rewrites an EW sheet with the creation rules; raises InvalidCreation.

    Current PV points follow PHY like an XP purchase (both move by 3 per point), but when PHY
    drops they are only clamped to the new maxima: an edit is not a wound.
    """
    _fights_follow([character.pk])
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
    _fights_follow([character.pk])
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


# --- Pools ------------------------------------------------------------------------------------


class CharacterInUse(Exception):
    """The character took part in a fight: deleting it would erase that fight's history."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def fights_of(character: Character) -> list[str]:
    """The names of the encounters the character takes or took part in."""
    return list(
        character.combatants.order_by("encounter__created_at").values_list(
            "encounter__name", flat=True
        )
    )


@transaction.atomic
def character_delete(*, character: Character, by: User) -> None:
    """Delete a character with its sheet and XP ledger (the GM's mistaken NPC, an unused
    template, a PC to start again). Refused for one that fought: an encounter's log and undo
    history name it, and nothing of a fight may be lost."""
    fights = fights_of(character)
    if fights:
        raise CharacterInUse(
            _(
                "%(name)s a pris part à un combat (%(fights)s) : le supprimer effacerait "
                "l'histoire de ce combat."
            )
            % {"name": character.name, "fights": ", ".join(f"« {f} »" for f in fights)}
        )
    campaign, name = character.campaign, character.name
    character.delete()
    _log(campaign, _("Personnage %(name)s supprimé par le MJ.") % {"name": name}, by)
    campaign.touch()


def _log(
    campaign: Campaign,
    text: str,
    by: User | None,
    kind: str = LogKind.NOTE,
    changes: list[dict] | None = None,
) -> None:
    LogEntry.objects.create(
        campaign=campaign, text=text, author=by, kind=kind, changes=changes or []
    )


def _pool_fields() -> dict[type, tuple[str, ...]]:
    """The sheet values a table action outside a fight may change, and its undo writes back:
    the pools a fight's summary compares (health, and éclat or fatigue), by sheet model."""
    return {system.sheet_model(): system.summary_pool_fields for system in all_systems()}


def _pools_of(sheet) -> dict[str, int]:
    return {name: getattr(sheet, name) for name in _pool_fields()[type(sheet)]}


def _changes(sheet: EwSheet | AethoriaSheet, before: dict[str, int]) -> list[dict]:
    """What an action changed on the sheet since ``before``, recorded as an encounter step
    records its changes, for the GM's undo from the session log."""
    return [
        {
            "model": sheet._meta.label_lower,
            "pk": sheet.pk,
            "field": name,
            "before": value,
            "after": getattr(sheet, name),
        }
        for name, value in before.items()
        if getattr(sheet, name) != value
    ]


@transaction.atomic
def eclat_spend(*, character: Character, by: User, note: str = "") -> int:
    """Spend 1 point d'éclat (a "coup de pouce du destin"); returns the points left.

    Raises InvalidEclatSpend when none is left. A rescue of a failed roll is spent from the
    encounter console, where the roll is.
    """
    _fights_follow([character.pk])
    sheet = EwSheet.objects.select_for_update().get(pk=character.pk)
    before = _pools_of(sheet)
    spend = ew.spend_coup_de_pouce(sheet.eclat, note)
    sheet.eclat = spend.after
    sheet.save(update_fields=["eclat"])
    text = _("%(name)s dépense un point d'éclat") % {"name": character.name}
    text = f"{text}{' : ' + spend.note if spend.note else ''}."
    _log(character.campaign, text, by, changes=_changes(sheet, before))
    character.campaign.touch()
    return sheet.eclat


@transaction.atomic
def fatigue_spend(*, character: Character, kind: str, count: int, by: User) -> AethoriaSheet:
    """Pay 1 to 3 fatigue points for as many extra dice on a roll made at the table."""
    _fights_follow([character.pk])
    sheet = AethoriaSheet.objects.select_for_update().get(pk=character.pk)
    before = _pools_of(sheet)
    house = character.campaign.house()
    pools, _delta = aethoria.spend_fatigue(sheet.pools(house), kind, count)
    sheet.set_pools(pools)
    word = _("physique") if kind == aethoria.PHYSICAL else _("mentale")
    _log(
        character.campaign,
        _("%(name)s dépense %(count)s point(s) de fatigue %(kind)s.")
        % {"name": character.name, "count": count, "kind": word},
        by,
        changes=_changes(sheet, before),
    )
    character.campaign.touch()
    return sheet


@transaction.atomic
def character_rest(
    *, character: Character, by: User, health: bool = True, resources: bool = True
) -> None:
    """The GM restores a character: PV pools to full (health) and éclat or fatigue (resources)."""
    _fights_follow([character.pk])
    house = character.campaign.house()
    system = system_of(character.campaign)
    sheet = system.sheet_model().objects.select_for_update().get(pk=character.pk)
    before = _pools_of(sheet)
    system.rest(sheet, house, health=health, resources=resources)
    text = _("%(name)s se repose.") % {"name": character.name}
    _log(character.campaign, text, by, changes=_changes(sheet, before))
    character.campaign.touch()


class UndoRefused(Exception):
    """A table action that cannot be undone (nothing was changed); ``message`` says why."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


# How long the author of a spend or a rest may take it back from the sheet (a mis-tap);
# later, only the GM can, from the session log.
OWN_UNDO_WINDOW = datetime.timedelta(minutes=15)


def own_undoable(character: Character, user: User) -> LogEntry | None:
    """The latest table action on this character's sheet, when ``user`` made it in the last
    minutes and it is not undone: what its author may take back from the sheet."""
    latest = character.campaign.log_entries.filter(changes__contains=[{"pk": character.pk}]).first()
    if (
        latest is None
        or latest.undone
        or latest.author_id != user.pk
        or latest.created_at < timezone.now() - OWN_UNDO_WINDOW
    ):
        return None
    return latest


@transaction.atomic
def table_action_undo(*, entry: LogEntry, by: User) -> None:
    """Undo a table action of the session log (a spend, a rest) — the GM from the log, its
    author from the sheet (``own_undoable``): the sheet values it changed go back, unless
    something changed them since — then nothing is written, as a later action would be
    lost. The line stays, marked undone, and a new one says who undid it."""
    entry = LogEntry.objects.select_for_update().get(pk=entry.pk)
    if entry.undone:
        raise UndoRefused(_("Cette action est déjà annulée."))
    if not entry.changes:
        raise UndoRefused(_("Cette ligne du journal n'est pas une action à annuler."))
    pool_fields = {model._meta.label_lower: fields for model, fields in _pool_fields().items()}
    for change in entry.changes:
        if change["field"] not in pool_fields.get(change["model"], ()):
            raise UndoRefused(_("Cette ligne du journal n'est pas une action à annuler."))
    _fights_follow(change["pk"] for change in entry.changes)
    stale = changed_since(entry.changes, "before", lock=True)  # the sheets stay locked
    if stale:
        _row, sheet = stale[0]
        if sheet is None:
            raise UndoRefused(_("Ce personnage n'existe plus."))
        raise UndoRefused(
            _(
                "La fiche a changé depuis (un combat, une autre dépense) : l'annuler "
                "effacerait ce qui a suivi."
            )
        )
    write_back(entry.changes, "before")
    entry.undone = True
    entry.save(update_fields=["undone"])
    who = by.display_name if by is not None else "?"
    _log(entry.campaign, _("Annulé par %(who)s : %(text)s") % {"who": who, "text": entry.text}, by)
    entry.campaign.touch()


# --- Experience -------------------------------------------------------------------------------


@transaction.atomic
def xp_award(
    *, campaign: Campaign, characters: Iterable[Character], amount: int, reason: str, by: User
) -> list[XpEntry]:
    """Give XP to several characters at once: one ledger line each, one line in the log."""
    if amount <= 0:
        raise InvalidImprovement(_("Un gain d'XP est un nombre positif."), field="amount")
    characters = list(characters)
    if any(c.campaign_id != campaign.pk for c in characters):
        raise ValueError("Characters of another campaign.")
    entries = XpEntry.objects.bulk_create(
        XpEntry(character=c, kind=XpKind.AWARD, amount=amount, reason=reason, created_by=by)
        for c in characters
    )
    names = ", ".join(c.name for c in characters)
    _log(
        campaign,
        _("%(amount)s XP à %(names)s : %(reason)s")
        % {"amount": amount, "names": names, "reason": reason},
        by,
        LogKind.XP,
    )
    campaign.touch()
    return entries


@dataclass(frozen=True)
class Improvement:
    """An XP purchase: what (characteristic, specialty, power, eclat) and which one."""

    kind: str
    name: str = ""  # characteristic name
    target_id: int | None = None  # specialty or power id
    count: int = 1  # points d'éclat bought back


IMPROVEMENT_KINDS = ("characteristic", "specialty", "power", "eclat")


def xp_cost(sheet: EwSheet, improvement: Improvement, house: ew.EwHouseRules) -> tuple[int, dict]:
    """XP cost of an improvement and the record needed to undo it; raises RulesError."""
    kind = improvement.kind
    if kind == "characteristic":
        if improvement.name not in ew.CHARACTERISTICS:
            raise InvalidImprovement(_("Caractéristique inconnue."), field="improvement")
        current = getattr(sheet, improvement.name)
        cost = ew.characteristic_xp_cost(current, house)
        label = ew.CHARACTERISTIC_LABELS[improvement.name]
        return cost, {"kind": kind, "name": improvement.name, "label": label, "from": current}
    if kind == "specialty":
        rank = (
            sheet.specialties.select_related("specialty")
            .filter(specialty_id=improvement.target_id)
            .first()
        )
        from apps.compendium.models import EwSpecialty

        specialty = (
            rank.specialty if rank else EwSpecialty.objects.filter(pk=improvement.target_id).first()
        )
        if specialty is None:
            raise InvalidImprovement(_("Spécialité inconnue."), field="improvement")
        current = rank.level if rank else 0
        factor = archetype_factors(sheet.archetype).factor(specialty.field)
        cost = ew.specialty_xp_cost(current, factor, house)
        return cost, {
            "kind": kind,
            "id": specialty.pk,
            "label": specialty.name,
            "from": current,
            "created": rank is None,
        }
    if kind == "power":
        rank = sheet.powers.select_related("power").filter(power_id=improvement.target_id).first()
        if rank is None:
            raise InvalidImprovement(
                _("Seul un pouvoir déjà acquis progresse avec l'XP."), field="improvement"
            )
        cost = ew.power_xp_cost(rank.level, house)
        return cost, {
            "kind": kind,
            "id": rank.power_id,
            "label": rank.power.name,
            "from": rank.level,
        }
    if kind == "eclat":
        cost = ew.eclat_xp_cost(sheet.eclat, sheet.eclat_max, improvement.count, house)
        return cost, {
            "kind": kind,
            "label": _("points d'éclat"),
            "from": sheet.eclat,
            "count": improvement.count,
        }
    raise InvalidImprovement(_("Amélioration inconnue."), field="improvement")


def _apply(sheet: EwSheet, record: dict, direction: int) -> None:
    """Apply (+1) or revert (-1) a recorded improvement on the sheet."""
    kind = record["kind"]
    if kind == "characteristic":
        name = record["name"]
        old = getattr(sheet, name)
        new = old + direction
        if name == "phy":
            pools = ew.pools_after_phy_change(sheet.pools(), old, new)
            sheet.superficial_left, sheet.lethal_left = pools.superficial, pools.lethal
        setattr(sheet, name, new)
        sheet.save(update_fields=[name, "superficial_left", "lethal_left"])
    elif kind == "specialty":
        if direction > 0:
            rank, _created = EwSpecialtyRank.objects.get_or_create(
                sheet=sheet, specialty_id=record["id"], defaults={"level": 0}
            )
            rank.level += 1
            rank.save(update_fields=["level"])
        else:
            rank = EwSpecialtyRank.objects.get(sheet=sheet, specialty_id=record["id"])
            if record.get("created") and rank.level == 1:
                rank.delete()
            else:
                rank.level -= 1
                rank.save(update_fields=["level"])
    elif kind == "power":
        rank = EwPowerRank.objects.get(sheet=sheet, power_id=record["id"])
        rank.level += direction
        rank.save(update_fields=["level"])
    elif kind == "eclat":
        sheet.eclat += direction * record["count"]
        sheet.save(update_fields=["eclat"])


def _current_value(sheet: EwSheet, record: dict) -> int:
    kind = record["kind"]
    if kind == "characteristic":
        return getattr(sheet, record["name"])
    if kind == "specialty":
        rank = EwSpecialtyRank.objects.filter(sheet=sheet, specialty_id=record["id"]).first()
        return rank.level if rank else 0
    if kind == "power":
        rank = EwPowerRank.objects.filter(sheet=sheet, power_id=record["id"]).first()
        return rank.level if rank else 0
    return sheet.eclat


def _balance(character: Character) -> int:
    from django.db.models import Sum

    return XpEntry.objects.filter(character=character).aggregate(t=Sum("amount"))["t"] or 0


@transaction.atomic
def xp_spend(*, character: Character, improvement: Improvement, by: User) -> XpEntry:
    """Buy an improvement with XP at the campaign's costs; raises NotEnoughXp/InvalidImprovement.

    The character row is locked first, so two spends pressed at once are paid one after the
    other against the same ledger.
    """
    _fights_follow([character.pk])
    if not system_of(character.campaign).spends_xp:
        raise InvalidImprovement(
            _("Les règles d'Aethoria ne fixent pas de coûts en XP : voyez avec le MJ."),
            field="improvement",
        )
    Character.objects.select_for_update().filter(pk=character.pk).first()
    sheet = (
        EwSheet.objects.select_for_update(of=("self",))
        .select_related("archetype")
        .get(pk=character.pk)
    )
    house = character.campaign.house()
    cost, record = xp_cost(sheet, improvement, house)
    ew.check_xp_affordable(_balance(character), cost)
    _apply(sheet, record, +1)
    record["to"] = _current_value(sheet, record)
    entry = XpEntry.objects.create(
        character=character,
        kind=XpKind.SPEND,
        amount=-cost,
        reason=_("%(what)s : %(old)s → %(new)s")
        % {"what": record["label"], "old": record["from"], "new": record["to"]},
        improvement=record,
        created_by=by,
    )
    character.campaign.touch()
    return entry


@transaction.atomic
def xp_award_cancel(*, entry: XpEntry, by: User) -> XpEntry:
    """The GM takes back an award (a wrong amount, the wrong character): a refund line of
    the opposite amount, unless the XP is already spent."""
    character = entry.character
    Character.objects.select_for_update().filter(pk=character.pk).first()
    entry = XpEntry.objects.select_for_update().get(pk=entry.pk)
    if entry.kind != XpKind.AWARD or XpEntry.objects.filter(cancels=entry).exists():
        raise InvalidImprovement(_("Ce gain est déjà annulé."), field="entry")
    if _balance(character) < entry.amount:
        raise InvalidImprovement(
            _("%(name)s a déjà dépensé ces XP : annulez d'abord ses dépenses.")
            % {"name": character.name},
            field="entry",
        )
    cancel = _refund(entry, by)
    _log(
        character.campaign,
        _("Gain de %(amount)s XP de %(name)s annulé : %(reason)s")
        % {"amount": entry.amount, "name": character.name, "reason": entry.reason},
        by,
        LogKind.XP,
    )
    character.campaign.touch()
    return cancel


@transaction.atomic
def xp_spend_undo(*, entry: XpEntry, by: User) -> XpEntry:
    """The GM cancels a spend: the improvement is reverted and the XP given back."""
    character = entry.character
    _fights_follow([character.pk])
    Character.objects.select_for_update().filter(pk=character.pk).first()
    entry = XpEntry.objects.select_for_update().get(pk=entry.pk)
    if entry.kind != XpKind.SPEND or XpEntry.objects.filter(cancels=entry).exists():
        raise InvalidImprovement(_("Cette dépense est déjà annulée."), field="entry")
    sheet = EwSheet.objects.select_for_update().get(pk=character.pk)
    record = entry.improvement
    if _current_value(sheet, record) != record["to"]:
        raise InvalidImprovement(
            _("La fiche a changé depuis cette dépense : annulez d'abord les plus récentes."),
            field="entry",
        )
    try:
        _apply(sheet, record, -1)
    except RulesError as error:
        raise InvalidImprovement(error.template, field="entry", params=error.params) from error
    refund = _refund(entry, by)
    character.campaign.touch()
    return refund


def _refund(entry: XpEntry, by: User) -> XpEntry:
    """The ledger line that cancels ``entry``: the opposite amount, pointing at it."""
    return XpEntry.objects.create(
        character_id=entry.character_id,
        kind=XpKind.REFUND,
        amount=-entry.amount,
        reason=_("Annulation : %(reason)s") % {"reason": entry.reason},
        cancels=entry,
        created_by=by,
    )
