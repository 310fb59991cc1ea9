"""The defender's side of an Aethoria attack: dodge, or parry with a held weapon or a shield,
and the roll each one makes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.translation import gettext

from apps.core.refusals import rules_message
from apps.encounters.kit import EncounterError
from apps.rules import aethoria
from apps.rules.errors import RulesError

from .fighters import rank_of, skill_of, weapon_of

if TYPE_CHECKING:  # the choice only types a parameter: attack_plan imports this module
    from .attack_plan import AttackChoice


NO_DEFENCE = "none"
DODGE = aethoria.DODGE_DEFENCE
PARRY = aethoria.PARRY_DEFENCE
SHIELD = "shield"


@dataclass(frozen=True)
class DefencePlan:
    kind: str  # dodge or parry
    item: str  # what parries ("" for a dodge)
    spec: aethoria.RollSpec
    skill: str = ""  # the skill a parry rolls (Parade, or the weapon's with the house rule)
    rank: int = 0


def _parry_item(
    sheet, parry_with: str, field: str, house
) -> tuple[aethoria.AethoriaWeapon, str, tuple[str, int]]:
    """What the defender parries with: the weapon's or shield's rules values, its name, and
    the skill and rank rolled (Parade; with the house rule, the better of Parade and the
    weapon's own skill)."""
    parade_name, parade = skill_of(sheet, kind="parry")
    parade_name = parade_name or gettext("Parade")
    if parry_with == SHIELD:
        if sheet.shield is None:
            raise EncounterError(gettext("Le défenseur n'a pas de bouclier."), field)
        return sheet.shield.as_rules_weapon(), sheet.shield.name, (parade_name, parade)
    try:
        weapon = weapon_of(sheet, int(parry_with), field)
    except (TypeError, ValueError):
        raise EncounterError(gettext("Choisissez l'arme ou le bouclier qui pare."), field) from None
    if weapon.parry_value is None:
        raise EncounterError(
            gettext("%(name)s ne permet pas de parer.") % {"name": weapon.name}, field
        )
    weapon_skill, weapon_rank = skill_of(sheet, skill_id=weapon.skill_id)
    rolled = aethoria.parry_rank(parade, weapon_rank, house)
    skill = weapon_skill if rolled.skill == aethoria.WEAPON_SKILL else parade_name
    return weapon.as_rules_weapon(), weapon.name, (skill, rolled.rank)


def held_items(sheet) -> list[aethoria.AethoriaWeapon]:
    items = [w.as_rules_weapon() for w in sheet.weapons.all() if not w.is_ranged]
    if sheet.shield is not None:
        items.append(sheet.shield.as_rules_weapon())
    return items


def plan_defence(
    kind: str,
    parry_with: str,
    modifiers: list[int],
    *,
    attacker_sheet,
    target_sheet,
    choice: AttackChoice,
    house,
    field: str,
    encumbered: bool = False,
) -> DefencePlan:
    """A defence's roll. ``encumbered``: the defender bears the rules' "encombré" (its dodge
    takes the malus as if the GM had ticked it on the form)."""
    try:
        return _defence_roll(
            kind,
            parry_with,
            modifiers,
            attacker_sheet=attacker_sheet,
            target_sheet=target_sheet,
            choice=choice,
            house=house,
            field=field,
            encumbered=encumbered or choice.encumbered,
        )
    except RulesError as error:
        message = rules_message(error)
        if error.field == "rank":
            message = gettext("Défense : %(message)s") % {"message": message}
        raise EncounterError(message, "defence" if field == "parry_with" else "defence2") from error


def _defence_roll(
    kind, parry_with, modifiers, *, attacker_sheet, target_sheet, choice, house, field, encumbered
) -> DefencePlan:
    if kind == DODGE:
        spec = aethoria.dodge_roll(
            rank_of(target_sheet, kind="dodge"),
            encumbered=encumbered,
            modifiers=modifiers,
            rank_zero_allowed=choice.rank_zero_allowed,
            house=house,
        )
        return DefencePlan(DODGE, "", spec)
    aethoria.check_parry_allowed(attacker_sheet.force, target_sheet.force, house)
    item, name, (skill, rank) = _parry_item(target_sheet, parry_with, field, house)
    spec = aethoria.parry_roll(
        rank,
        item.parry,
        attacker_force=attacker_sheet.force,
        defender_force=target_sheet.force,
        modifiers=modifiers,
        rank_zero_allowed=choice.rank_zero_allowed,
        house=house,
    )
    return DefencePlan(PARRY, name, spec, skill, rank)
