"""EW-System actions in a running encounter: attack, test, stance, points d'éclat.

Each action has a *plan* (everything known before the dice: modifiers, NA, ND, impact and
the exact odds), shown to the GM as they fill the form, and a service that rolls (or takes
the typed faces), resolves with the rules engine and records the step.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from fractions import Fraction

from django.db import transaction
from django.db.models import Prefetch, prefetch_related_objects
from django.utils.translation import gettext as _

from apps.characters.models import EwSpecialtyRank
from apps.compendium.models import EwWeapon
from apps.core.refusals import rules_message
from apps.encounters.kit import (
    EncounterError,
    Fight,
    Modifier,
    Roll,
    Step,
    close_request,
    combatant_of,
    is_dead,
    is_out,
    lock_encounter,
    lock_fight,
    require_status,
    situational,
)
from apps.encounters.models import Combatant, DiceSource, Encounter, Event, Status
from apps.rules import ew
from apps.rules.dice import SecureDice, check_d10, check_d20
from apps.rules.errors import RulesError
from apps.systems import get_system, system_of

from .state import FighterState


def rules_weapon(weapon) -> ew.EwWeapon:
    """A compendium weapon (or None for bare fists) as the engine's weapon."""
    return ew.BARE_FISTS if weapon is None else weapon.as_rules_weapon()


def protection(combatant: Combatant) -> int:
    armour = combatant.character.ew.armour
    return armour.protection if armour else 0


def round_actions(combatant: Combatant) -> ew.RoundActions:
    return FighterState.of(combatant).actions


def stances_left(combatant: Combatant) -> list[str]:
    """The stances the fighter may still declare this round, as the rules judge them (none
    once one is declared; not total attack after a defence, nor total defence after an
    attack): the console offers only these."""
    actions = round_actions(combatant)
    left = []
    for stance, declare in (
        (ew.TOTAL_ATTACK, actions.declare_total_attack),
        (ew.TOTAL_DEFENCE, actions.declare_total_defence),
    ):
        try:
            declare()
        except RulesError:
            continue
        left.append(stance)
    return left


def specialty_level(combatant: Combatant, specialty_rank_id: int | None) -> tuple[int, str]:
    """Level and name of one of the combatant's specialties (none chosen: 0)."""
    if not specialty_rank_id:
        return 0, ""
    for rank in combatant.character.ew.specialties.all():
        if rank.pk == specialty_rank_id:
            return rank.level, rank.specialty.name
    raise EncounterError(_("Cette spécialité n'est pas sur sa fiche."), "specialty")


def weapon_of(combatant: Combatant, weapon_id: int | None):
    if not weapon_id:
        return None
    for weapon in combatant.character.ew.weapons.all():
        if weapon.pk == weapon_id:
            return weapon
    raise EncounterError(_("Cette arme n'est pas dans son équipement."), "weapon")


@dataclass(frozen=True)
class AttackChoice:
    attacker_id: int
    target_id: int
    weapon_id: int | None = None
    specialty_id: int | None = None
    defence: str = "none"  # "none" or "active"
    defence_specialty_id: int | None = None
    modifier: int = 0


@dataclass(frozen=True)
class AttackPlan:
    """An EW attack before its dice: who, with what, and the exact odds."""

    attacker: Combatant
    target: Combatant
    weapon: ew.EwWeapon
    specialty_name: str
    attacker_com: int
    specialty: int
    attacker_after: ew.RoundActions
    defender_after: ew.RoundActions | None
    modifiers: tuple[int, ...]
    situation: tuple[Modifier, ...]  # what of ``modifiers`` the situation adds, named
    defence_situation: tuple[Modifier, ...]  # the same for the target's active defence
    na: int
    nd: int
    active_defence: ew.EwActiveDefence | None
    impact: int
    protection: int
    target_natural_defence: int
    odds: ew.EwAttackOdds | None

    @property
    def expected_superficial(self) -> Fraction:
        return self.odds.expected_superficial

    @property
    def max_superficial(self) -> int:
        return max(self.odds.superficial)

    @property
    def max_lethal(self) -> int:
        return max(self.odds.lethal)


def _pick(encounter: Encounter, combatants: Sequence[Combatant] | None, pk: int) -> Combatant:
    """A combatant from the ones already loaded (no query), else from the database."""
    if combatants is None:
        return combatant_of(encounter, pk)
    for combatant in combatants:
        if combatant.pk == pk:
            return combatant
    raise EncounterError(_("Ce combattant ne fait pas partie de la rencontre."))


def plan_attack(
    encounter: Encounter,
    choice: AttackChoice,
    combatants: Sequence[Combatant] | None = None,
    *,
    odds: bool = True,
) -> AttackPlan:
    """Everything about an attack that is known before rolling (raises EncounterError);
    without ``odds``, the exact odds are left out (``None``)."""
    house = encounter.campaign.house()
    system = system_of(encounter.campaign)
    attacker = _pick(encounter, combatants, choice.attacker_id)
    target = _pick(encounter, combatants, choice.target_id)
    if attacker.pk == target.pk:
        raise EncounterError(_("Un combattant ne s'attaque pas lui-même."), "target")
    if is_out(attacker, house):
        raise EncounterError(
            _("%(name)s est hors de combat.") % {"name": attacker.character.name}, "attacker"
        )
    if is_dead(target, house):
        raise EncounterError(
            _("%(name)s est déjà mort.") % {"name": target.character.name}, "target"
        )
    try:
        attacker_after, round_modifier = round_actions(attacker).attack(house)
        spec, spec_name = specialty_level(attacker, choice.specialty_id)
        weapon = rules_weapon(weapon_of(attacker, choice.weapon_id))
        a_sheet, t_sheet = attacker.character.ew, target.character.ew
        a_derived = a_sheet.derived(house.rounding)
        t_derived = t_sheet.derived(house.rounding)
        situation = tuple(situational(system, attacker, Roll.ATTACK, against=target))
        modifiers = (
            round_modifier,
            a_sheet.pools().wound_malus,
            choice.modifier,
            *(m.value for m in situation),
        )
        defender_after, active, defence_situation = None, None, ()
        if choice.defence == "active":
            if is_out(target, house):
                raise EncounterError(
                    _("%(name)s est hors de combat : pas de défense active.")
                    % {"name": target.character.name},
                    "defence",
                )
            defender_after, defence_modifier = round_actions(target).defend(house)
            def_spec, _level_name = specialty_level(target, choice.defence_specialty_id)
            defence_situation = tuple(situational(system, target, Roll.DEFENCE, against=attacker))
            active = ew.EwActiveDefence(
                com=t_derived.com,
                specialty=def_spec,
                modifiers=(
                    defence_modifier,
                    t_sheet.pools().wound_malus,
                    *(m.value for m in defence_situation),
                ),
            )
        nd = ew.to_hit_nd(t_derived.natural_defence, active)
        impact = ew.weapon_impact(weapon, a_sheet.phy, house.rounding)
        exact = None
        if odds:
            exact = ew.attack_odds(
                na=a_derived.com + spec,
                nd=nd,
                impact=impact,
                target_natural_defence=t_derived.natural_defence,
                target_protection=protection(target),
                modifiers=modifiers,
                table=house.table,
            )
    except RulesError as error:
        raise EncounterError(rules_message(error), error.field) from error
    return AttackPlan(
        attacker=attacker,
        target=target,
        weapon=weapon,
        specialty_name=spec_name,
        attacker_com=a_derived.com,
        specialty=spec,
        attacker_after=attacker_after,
        defender_after=defender_after,
        modifiers=modifiers,
        situation=situation,
        defence_situation=defence_situation,
        na=a_derived.com + spec,
        nd=nd,
        active_defence=active,
        impact=impact,
        protection=protection(target),
        target_natural_defence=t_derived.natural_defence,
        odds=exact,
    )


def _faces(to_hit: int | None, damage: int | None) -> tuple[int, int, str]:
    """The typed faces (physical dice) or faces rolled by the app."""
    if to_hit is None:
        if damage is not None:
            raise EncounterError(_("Tapez aussi le d20 pour toucher."), "to_hit_face")
        dice = SecureDice()
        return dice.d20(1)[0], dice.d10(1)[0], DiceSource.APP
    try:
        check_d20(to_hit, field="to_hit_face")
        if damage is not None:
            check_d10(damage, field="damage_face")
    except RulesError as error:
        raise EncounterError(rules_message(error), error.field) from error
    return to_hit, damage, DiceSource.PHYSICAL


@transaction.atomic
def ew_attack(
    *,
    encounter_id: int,
    version: int | None,
    by,
    choice: AttackChoice,
    to_hit_face: int | None = None,
    damage_face: int | None = None,
) -> Event:
    """The acting combatant attacks: roll to hit, then damage on both pools if it lands."""
    fight = lock_fight(encounter_id, _fighter_ids(choice), system=get_system("ew"), version=version)
    if fight is None:
        raise EncounterError(_("Ce combattant ne fait pas partie de la rencontre."), "target")
    return ew_attack_step(
        fight, by=by, choice=choice, to_hit_face=to_hit_face, damage_face=damage_face
    )


def _fighter_ids(choice: AttackChoice) -> tuple[int, int]:
    return choice.attacker_id, choice.target_id


def ew_attack_step(
    fight: Fight,
    *,
    by,
    choice: AttackChoice,
    to_hit_face: int | None = None,
    damage_face: int | None = None,
    request_of: Combatant | None = None,
    eclat_if_missed: bool = False,
) -> Event:
    """``ew_attack`` on a fight already locked with its two fighters (``lock_fight``), in
    the caller's transaction: the console's answer then reads the same rows. ``request_of``:
    the fighter whose player answered the request of this attack (its defence, or its roll),
    closed in this step; ``eclat_if_missed``: the attacker's player spends 1 point d'éclat
    should the roll fail (in this step too: one undo gives it back)."""
    encounter = fight.encounter
    require_status(encounter, Status.RUNNING)
    if fight.acting is None or fight.acting.pk != choice.attacker_id:
        raise EncounterError(_("Ce n'est pas son tour d'agir."), "attacker")
    prefetch_posted_gear(fight, choice)
    # Only the chance to hit is stored: the damage distributions are left to the odds shown.
    plan = plan_attack(encounter, choice, list(fight.fighters.values()), odds=False)
    to_hit, damage, source = _faces(to_hit_face, damage_face)
    house = encounter.campaign.house()
    try:
        hit = ew.success_probability(plan.na, plan.nd, plan.modifiers, house.table)
        result = ew.resolve_attack(
            attacker_com=plan.attacker_com,
            attacker_phy=plan.attacker.character.ew.phy,
            weapon=plan.weapon,
            weapon_specialty=plan.specialty,
            target_phy=plan.target.character.ew.phy,
            target_protection=plan.protection,
            to_hit_roll=to_hit,
            damage_roll=damage,
            active_defence=plan.active_defence,
            modifiers=plan.modifiers,
            house=house,
        )
        spend = None
        if eclat_if_missed and not result.to_hit.success:
            result, spend = _rescued(plan, result, damage)
    except RulesError as error:
        raise EncounterError(rules_message(error), error.field) from error
    step = Step(
        encounter,
        "ew_attack",
        by,
        actor=plan.attacker,
        target=plan.target,
        dice=source,
        public=not (plan.attacker.hidden or plan.target.hidden),
    )
    if request_of is not None:
        close_request(step, request_of)
    if spend is not None:
        step.set(plan.attacker.character.ew, "eclat", spend.after)
    step.set(plan.attacker, "state", FighterState(plan.attacker_after).to_json())
    if plan.defender_after is not None:
        step.set(plan.target, "state", FighterState(plan.defender_after).to_json())
    applied = None
    if result.damage is not None:
        applied = apply_ew_damage(
            step, plan.target, result.damage.superficial, result.damage.lethal
        )
    return step.commit(
        {
            "attacker": plan.attacker.character.name,
            "target": plan.target.character.name,
            "weapon": plan.weapon.name or "poings",
            # The weapon's values at the time: editing the compendium later changes no log.
            "weapon_rules": asdict(plan.weapon),
            "specialty": plan.specialty_name,
            "defence": "active" if plan.active_defence else "none",
            "to_hit": asdict(result.to_hit),
            "damage": asdict(result.damage) if result.damage else None,
            "applied": _applied_json(applied),
            "odds": {"hit": str(hit)},
            "rescuable": not result.to_hit.success and plan.attacker.character.is_pc,
            # The fighter's next attack form opens on these choices (a repeat is one tap).
            "choice": asdict(choice),
            "asked": request_of.character.name if request_of is not None else "",
            "eclat_spent": spend is not None,
        }
    )


def _rescued(plan: AttackPlan, result, damage_face: int | None):
    """The failed roll saved by a point d'éclat, and the damage of the blow that now lands
    (its d10 typed, or rolled by the app)."""
    rescued, spend = ew.rescue_with_eclat(result.to_hit, plan.attacker.character.ew.eclat)
    if damage_face is None:
        damage_face = SecureDice().d10(1)[0]
    damage = ew.roll_damage(
        damage_face,
        impact=plan.impact,
        target_natural_defence=plan.target_natural_defence,
        target_protection=plan.protection,
    )
    return replace(result, to_hit=rescued, damage=damage), spend


def prefetch_posted_gear(fight: Fight, choice: AttackChoice) -> None:
    """The gear an attack names, and only it: the posted weapon among the attacker's, the
    posted specialties among each fighter's own (a scoped lookup: one that is not on the
    sheet is not found, and the plan refuses it next to its field). Nothing named, no query."""
    attacker = fight.fighters.get(choice.attacker_id)
    target = fight.fighters.get(choice.target_id)
    if attacker is None or target is None:
        return  # the plan says which one is missing
    sheets = {attacker.pk: attacker.character.ew, target.pk: target.character.ew}
    if choice.weapon_id:
        weapons = EwWeapon.objects.filter(pk=choice.weapon_id)
        prefetch_related_objects([sheets[attacker.pk]], Prefetch("weapons", queryset=weapons))
    ranks = [choice.specialty_id, choice.defence_specialty_id]
    if any(ranks):
        specialties = EwSpecialtyRank.objects.select_related("specialty").filter(pk__in=ranks)
        prefetch_related_objects(
            list(sheets.values()), Prefetch("specialties", queryset=specialties)
        )


def apply_ew_damage(step: Step, target: Combatant, superficial: int, lethal: int):
    sheet = target.character.ew
    applied = ew.apply_damage(sheet.pools(), superficial, lethal)
    step.set(sheet, "superficial_left", applied.after.superficial)
    step.set(sheet, "lethal_left", applied.after.lethal)
    return applied


def _applied_json(applied) -> dict | None:
    if applied is None:
        return None
    return {
        "superficial": applied.from_superficial,
        "overflow": applied.overflow,
        "lethal": applied.from_lethal,
        "unconscious": applied.after.unconscious,
        "dead": applied.after.dead,
        "wound_malus": applied.after.wound_malus,
    }


# --- Stances, tests, éclat -------------------------------------------------------------------


@transaction.atomic
def ew_stance(
    *, encounter_id: int, version: int | None, by, combatant_id: int, stance: str
) -> Event:
    """Declare total attack or total defence for the rest of the round. Only the fighter's
    round state changes (only steps write it, under the encounter's lock): no sheet is
    locked, and the GM is checked in the lock query."""
    encounter = lock_encounter(
        encounter_id, version, fighters=False, by=by, system=get_system("ew")
    )
    require_status(encounter, Status.RUNNING)
    combatant = combatant_of(encounter, combatant_id)
    actions = round_actions(combatant)
    try:
        if stance == ew.TOTAL_ATTACK:
            after = actions.declare_total_attack()
        elif stance == ew.TOTAL_DEFENCE:
            after = actions.declare_total_defence()
        else:
            raise EncounterError(_("Posture inconnue."), "stance")
    except RulesError as error:
        raise EncounterError(rules_message(error), error.field) from error
    step = Step(encounter, "ew_stance", by, actor=combatant, public=not combatant.hidden)
    step.set(combatant, "state", FighterState(after).to_json())
    return step.commit({"name": combatant.character.name, "stance": stance})


@transaction.atomic
def ew_eclat_rescue(
    *, encounter_id: int, version: int | None, by, event_id: int, damage_face: int | None = None
) -> Event:
    """Spend 1 point d'éclat to turn the failed roll of a logged attack or test into a
    success; a rescued attack then deals its damage."""
    encounter = lock_encounter(encounter_id, version)
    require_status(encounter, Status.RUNNING, Status.PAUSED)
    failed = encounter.events.standing().filter(pk=event_id).first()
    if failed is None or not failed.data.get("rescuable"):
        raise EncounterError(_("Ce jet ne peut pas être sauvé par un point d'éclat."), "event")
    if encounter.events.standing().filter(kind="ew_eclat", data__of=failed.sequence).exists():
        raise EncounterError(_("Ce jet a déjà été sauvé."), "event")
    combatant = combatant_of(encounter, failed.actor_id)
    sheet = combatant.character.ew
    key = "to_hit" if failed.kind == "ew_attack" else "result"
    try:
        rescued, spend = ew.rescue_with_eclat(ew.EwTestResult(**failed.data[key]), sheet.eclat)
    except RulesError as error:
        raise EncounterError(rules_message(error), error.field) from error
    step = Step(encounter, "ew_eclat", by, actor=combatant, public=failed.public)
    step.set(sheet, "eclat", spend.after)
    data = {"of": failed.sequence, "name": combatant.character.name, "result": asdict(rescued)}
    if failed.kind == "ew_attack":
        target = combatant_of(encounter, failed.target_id)
        house = encounter.campaign.house()
        if damage_face is None:
            damage_face, step.dice = SecureDice().d10(1)[0], DiceSource.APP
        else:
            step.dice = DiceSource.PHYSICAL
        try:
            damage = ew.roll_damage(
                damage_face,
                impact=ew.weapon_impact(
                    ew.EwWeapon(**failed.data["weapon_rules"]), sheet.phy, house.rounding
                ),
                target_natural_defence=target.character.ew.derived(house.rounding).natural_defence,
                target_protection=protection(target),
            )
        except RulesError as error:
            raise EncounterError(rules_message(error), "damage_face") from error
        step.target = target
        data["target"] = target.character.name
        data["damage"] = asdict(damage)
        data["applied"] = _applied_json(
            apply_ew_damage(step, target, damage.superficial, damage.lethal)
        )
    return step.commit(data)


@transaction.atomic
def ew_coup_de_pouce(
    *, encounter_id: int, version: int | None, by, combatant_id: int, note: str
) -> Event:
    """Spend 1 point d'éclat for a narrative helping hand, with the GM's note."""
    encounter = lock_encounter(encounter_id, version)
    require_status(encounter, Status.RUNNING, Status.PAUSED)
    combatant = combatant_of(encounter, combatant_id)
    sheet = combatant.character.ew
    try:
        spend = ew.spend_coup_de_pouce(sheet.eclat, note)
    except RulesError as error:
        raise EncounterError(rules_message(error), error.field) from error
    step = Step(encounter, "ew_coup_de_pouce", by, actor=combatant, public=not combatant.hidden)
    step.set(sheet, "eclat", spend.after)
    return step.commit({"name": combatant.character.name, "note": spend.note})
