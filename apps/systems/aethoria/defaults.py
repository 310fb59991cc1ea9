"""The Aethoria attack form as it opens: the target the fighter struck last (else the first
living foe), its first weapon, and the defender's best defence — dodge or parry, whichever
leaves the blow less chance to land, "Pare avec" set when only one item can parry."""

from __future__ import annotations

from dataclasses import replace

from apps.encounters.kit import EncounterError, is_out

from .attack_plan import AttackChoice, plan_attack
from .defences import DODGE, NO_DEFENCE, PARRY
from .events import ATTACK_EVENT
from .turns import aethoria_turn_state


def last_target(recent: list, attacker) -> int | None:
    """Whom the fighter attacked last among the recent steps (already read: no query)."""
    return next(
        (e.target_id for e in recent if e.kind == ATTACK_EVENT and e.actor_id == attacker.pk),
        None,
    )


def remembered_choice(recent: list, attacker) -> dict:
    """The choices of the fighter's latest attack among the recent steps (already read: no
    query); an older attack stored none ({})."""
    event = next((e for e in recent if e.kind == ATTACK_EVENT and e.actor_id == attacker.pk), None)
    return dict(event.data.get("choice") or {}) if event else {}


def remembered_initial(form, remembered: dict, weapon_ids: list) -> dict:
    """The remembered choices that still hold for this form (a weapon still carried, a mode
    still offered, a range band of the campaign), as initial values."""
    initial = {}
    if remembered.get("weapon_id") in weapon_ids:
        initial["weapon"] = remembered["weapon_id"]
    if remembered.get("second_weapon_id") in weapon_ids:
        initial["second_weapon"] = remembered["second_weapon_id"]
    for name in ("mode", "range_band", "extra_successes"):
        offered = {str(value) for value, _label in form.fields[name].choices}
        if remembered.get(name) and remembered[name] in offered:
            initial[name] = remembered[name]
    if isinstance(remembered.get("modifier"), int):
        initial["modifier"] = remembered["modifier"]
    return initial


def remembered_defence(remembered: dict, target_id: int | None, parry_items: list) -> dict:
    """The defence chosen last time against the same target, while its item still parries."""
    if remembered.get("target_id") != target_id or target_id is None:
        return {}
    defence = remembered.get("defence")
    if defence == PARRY:
        items = {value for value, _label in parry_items if value}
        parry_with = remembered.get("parry_with")
        return {"defence": PARRY, "parry_with": parry_with} if parry_with in items else {}
    return {"defence": defence} if defence in (NO_DEFENCE, DODGE) else {}


def one_handed_pair(sheet) -> bool:
    """An attaque double needs two one-handed weapons."""
    return sum(1 for w in sheet.weapons.all() if w.hands == 1) >= 2


def other_one_handed(sheet, weapon_id: int | None) -> int | None:
    """The second weapon an attaque double would take: another one-handed weapon."""
    return next((w.pk for w in sheet.weapons.all() if w.hands == 1 and w.pk != weapon_id), None)


def _lands(encounter, choice: AttackChoice, combatants) -> object | None:
    try:
        plan = plan_attack(encounter, choice, combatants)
    except EncounterError:
        return None  # that defence is not allowed (no defence left, no skill...)
    return plan.blows[0].odds.lands


def best_defence(form, weapon_id: int | None, parry_items: list) -> dict:
    """The defender's best defence for the form's opening attack, as initial values."""
    if form.target_id is None or weapon_id is None:
        return {}
    base = AttackChoice(attacker_id=form.acting.pk, target_id=form.target_id, weapon_id=weapon_id)
    items = [value for value, _label in parry_items if value]
    options = [({"defence": DODGE}, replace(base, defence=DODGE))]
    if len(items) == 1:
        parry = {"defence": PARRY, "parry_with": items[0]}
        options.append((parry, replace(base, defence=PARRY, parry_with=items[0])))
    odds = [
        (initial, _lands(form.encounter, choice, form.combatants)) for initial, choice in options
    ]
    allowed = [(initial, lands) for initial, lands in odds if lands is not None]
    if not allowed:
        return {"defence": NO_DEFENCE}
    initial, _lands_chance = min(allowed, key=lambda pair: pair[1])
    if len(items) == 1:
        initial = {"parry_with": items[0], **initial}
    return initial


def could_not_defend(former, house) -> bool:
    """Whether the target a form was drawn for could not defend at all (out of the fight, no
    defence left this turn): its "aucune" defence was forced, not chosen, and a new target
    gets its own best defence."""
    return is_out(former, house) or aethoria_turn_state(former).defences <= 0


def defence_for_new_target(form, target, former, weapon_id, parry_items: list, house) -> dict:
    """A posted form's defence redrawn for a new target: none when it cannot defend, its best
    when the former one could not (its "aucune" was forced); {} otherwise (the GM's choice
    stands, and the rules say if it does not hold)."""
    if could_not_defend(target, house):
        return {"defence": NO_DEFENCE}
    if former is None or not could_not_defend(former, house):
        return {}
    return best_defence(form, weapon_id, parry_items)
