"""Fighters for encounter tests: a campaign of each system with ready-made characters."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import models

from apps.campaigns.models import Campaign, Membership, Role
from apps.characters.models import (
    AethoriaSheet,
    AethoriaSkillRank,
    Character,
    EwSheet,
    EwSpecialtyRank,
    Kind,
)
from apps.compendium.models import AethoriaSkill
from apps.encounters import services
from apps.encounters.models import Encounter
from apps.rules import aethoria
from tests.accounts.factories import UserFactory
from tests.compendium.factories import (
    AethoriaWeaponFactory,
    EwArmourFactory,
    EwSpecialtyFactory,
    EwWeaponFactory,
)


class System(models.TextChoices):
    """The two shipped systems' codes, for tests that name them (the app knows systems only
    through the registry, apps/systems/__init__.py)."""

    EW = "ew", "EW-System"
    AETHORIA = "aethoria", "Aethoria"


def campaign_with_gm(system: str, gm=None) -> Campaign:
    gm = gm or UserFactory()
    campaign = Campaign.objects.create(name=f"Campagne {system}", system=system)
    Membership.objects.create(campaign=campaign, user=gm, role=Role.GM)
    return campaign


def add_player(campaign: Campaign, user=None):
    user = user or UserFactory()
    Membership.objects.create(campaign=campaign, user=user, role=Role.PLAYER)
    return user


def ew_fighter(
    campaign: Campaign,
    name: str,
    *,
    phy: int = 8,
    men: int = 6,
    per: int = 8,
    pre: int = 6,
    owner=None,
    specialty_level: int = 2,
    armour: int | None = None,
    weapon_bonus: int | None = 2,
) -> Character:
    """An EW character with a melee weapon, its specialty, and full pools."""
    character = Character.objects.create(
        campaign=campaign, name=name, kind=Kind.PC if owner else Kind.NPC, owner=owner
    )
    sheet = EwSheet.objects.create(
        character=character,
        phy=phy,
        men=men,
        per=per,
        pre=pre,
        superficial_left=3 * phy,
        lethal_left=3 * phy,
        armour=EwArmourFactory(protection=armour) if armour else None,
    )
    if weapon_bonus is not None:
        weapon = EwWeaponFactory(damage_bonus=weapon_bonus)
        sheet.weapons.add(weapon)
        EwSpecialtyRank.objects.create(
            sheet=sheet, specialty=weapon.specialty, level=specialty_level
        )
    else:
        EwSpecialtyRank.objects.create(
            sheet=sheet, specialty=EwSpecialtyFactory(), level=specialty_level
        )
    return character


def single_skill(kind: str) -> AethoriaSkill:
    """Esquive, Parade, Magie: one skill of each kind exists, shared by everyone."""
    names = {"dodge": "Esquive", "parry": "Parade", "magic": "Magie"}
    characteristic = {"dodge": "adresse", "parry": "adresse", "magic": "pouvoir"}
    skill, _ = AethoriaSkill.objects.get_or_create(
        kind=kind, defaults={"name": names[kind], "characteristic": characteristic[kind]}
    )
    return skill


def aethoria_fighter(
    campaign: Campaign,
    name: str,
    *,
    force: int = 5,
    adresse: int = 6,
    vitalite: int = 5,
    concentration: int = 4,
    intelligence: int = 4,
    esprit: int = 4,
    owner=None,
    weapon_skill: int = 4,
    esquive: int = 3,
    magic_type: str = "none",
    pouvoir: int = 0,
    magie: int = 0,
) -> Character:
    character = Character.objects.create(
        campaign=campaign, name=name, kind=Kind.PC if owner else Kind.NPC, owner=owner
    )
    derived = aethoria.derive(force, vitalite, concentration, esprit)
    sheet = AethoriaSheet.objects.create(
        character=character,
        force=force,
        adresse=adresse,
        vitalite=vitalite,
        concentration=concentration,
        intelligence=intelligence,
        esprit=esprit,
        magic_type=magic_type,
        pouvoir=pouvoir,
        pv=derived.pv,
        fatigue_physical=derived.physical_fatigue,
        fatigue_mental=derived.mental_fatigue,
    )
    weapon = AethoriaWeaponFactory()
    sheet.weapons.add(weapon)
    AethoriaSkillRank.objects.create(sheet=sheet, skill=weapon.skill, rank=weapon_skill)
    if esquive:
        AethoriaSkillRank.objects.create(sheet=sheet, skill=single_skill("dodge"), rank=esquive)
    if magie:
        AethoriaSkillRank.objects.create(sheet=sheet, skill=single_skill("magic"), rank=magie)
    return character


__all__ = ["System", "add_player", "aethoria_fighter", "campaign_with_gm", "ew_fighter"]


@dataclass(frozen=True)
class Duel:
    """A running fight of a player's PC against an NPC (``started_duel``)."""

    encounter: Encounter
    gm: object
    player: object
    pc: Character
    npc: Character


def started_duel(
    pc_name: str = "Brandon",
    npc_name: str = "Garnier",
    *,
    system: str = System.EW,
    first: str | None = None,
    npc_hidden: bool = False,
    name: str = "Rixe",
) -> Duel:
    """A new campaign of ``system`` with its GM and a player, and their fight started: the
    player's PC against an NPC (hidden from the players with ``npc_hidden``). ``first``: "pc"
    or "npc" acts first (typed initiative faces, 10 against 1); None: the app rolls initiative."""
    fighter = aethoria_fighter if system == System.AETHORIA else ew_fighter
    campaign = campaign_with_gm(system)
    gm = campaign.memberships.get().user
    player = add_player(campaign)
    pc = fighter(campaign, pc_name, owner=player)
    npc = fighter(campaign, npc_name)
    encounter = Encounter.objects.create(campaign=campaign, name=name)
    services.combatants_add(encounter_id=encounter.pk, characters=[pc])
    services.combatants_add(encounter_id=encounter.pk, characters=[npc], hidden=npc_hidden)
    faces = None
    if first is not None:
        leader = pc if first == "pc" else npc
        faces = {c.pk: 10 if c.character_id == leader.pk else 1 for c in encounter.combatants.all()}
    services.encounter_start(encounter_id=encounter.pk, version=None, by=gm, initiative=faces)
    encounter.refresh_from_db()
    return Duel(encounter, gm, player, pc, npc)
