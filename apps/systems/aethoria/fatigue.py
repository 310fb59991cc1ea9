"""Fatigue dice decided after a roll: added to a test or a spell once its faces are known, or to
one of an attack's rolls (attack, defence, damage), which revises the blow and its damage.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from fractions import Fraction

from django.db import transaction
from django.utils.translation import gettext, ngettext

from apps.encounters.kit import EncounterError, Step, combatant_of, lock_encounter, require_status
from apps.encounters.models import Encounter, Event, Status
from apps.rules import aethoria
from apps.rules.dice import D10
from apps.rules.errors import RulesError

from .attack import attack_outcome
from .dice import DiceBag, roll_from_json, roll_json, set_pools, spend_fatigue_dice
from .events import (
    ATTACK_EVENT,
    ATTACK_FATIGUE_EVENT,
    EFFECT_EVENT,
    FATIGUE_EVENT,
    SPELL_EVENT,
    TEST_EVENT,
)
from .fighters import armour_of, load_sheet, rules_refusal


def fatigue_after_candidate(encounter: Encounter, events=None) -> Event | None:
    """The roll that fatigue dice may still be added to: the latest step, if it is a test or
    a spell rolled without fatigue dice (the decision is made once per roll)."""
    if events is None:
        events = encounter.events.standing().exclude(kind__in=("undo", "redo"))
        events = events.order_by("-sequence")[:1]
    latest = next(iter(events), None)
    if latest is None or latest.kind not in (TEST_EVENT, SPELL_EVENT):
        return None
    if latest.data["roll"]["fatigue_faces"]:
        return None
    return latest


@transaction.atomic
def aethoria_fatigue_after(
    *,
    encounter_id: int,
    version: int | None,
    by,
    event_id: int,
    count: int,
    faces: tuple[int, ...] | None = None,
) -> Event:
    """Fatigue dice added after seeing a test or a spell: paid, rolled, and the roll judged
    again (a spell's érys burn too, since it counts every die rolled)."""
    encounter = lock_encounter(encounter_id, version)
    require_status(encounter, Status.RUNNING, Status.PAUSED)
    roll_event = fatigue_after_candidate(encounter)
    if roll_event is None or roll_event.pk != event_id:
        raise EncounterError(
            gettext("Trop tard : les dés de fatigue s'ajoutent au dernier jet, une seule fois."),
            "event",
        )
    combatant = combatant_of(encounter, roll_event.actor_id)
    house = encounter.campaign.house()
    sheet = combatant.character.aethoria
    original = roll_from_json(roll_event.data["roll"])
    bag = DiceBag()
    if not aethoria.FATIGUE_DICE_MIN <= count <= aethoria.FATIGUE_DICE_MAX:
        raise EncounterError(gettext("De 1 à 3 dés de fatigue."), "count")
    extra = bag.take(faces, count, D10, "fatigue_faces", gettext("Dés de fatigue"))
    pools, _ = spend_fatigue_dice(sheet.pools(house), original.spec.fatigue, count)
    try:
        roll = aethoria.add_fatigue_dice(original, extra)
        verdict = aethoria.judge(roll.successes, roll_event.data["difficulty"], house)
    except RulesError as error:
        raise rules_refusal(error) from error
    data = {
        "of": roll_event.sequence,
        # What the log names the roll by: the test's or the spell's label, else its skill.
        "what": roll_event.data.get("label") or roll_event.data.get("what", ""),
        "name": combatant.character.name,
        "count": count,
        "roll": roll_json(roll),
        "successes_before": original.successes,
        "verdict": asdict(verdict),
    }
    if roll_event.kind == SPELL_EVENT:
        burn = aethoria.is_erys_burn(roll.all_faces, roll.spec.threshold)
        was = roll_event.data["burn"]
        burn_pv = house.burn_pv_per_pouvoir * roll_event.data["invested"]
        if burn and not was:
            pools = replace(pools, pv=pools.pv - burn_pv)
        elif was and not burn:
            # The burn came from a roll that is no longer the whole roll.
            pools = replace(pools, pv=min(pools.pv_max, pools.pv + roll_event.data["burn_pv"]))
        data.update(burn=burn, burn_before=was, burn_pv=burn_pv if burn else 0)
    step = Step(
        encounter, FATIGUE_EVENT, by, actor=combatant, dice=bag.source, public=roll_event.public
    )
    set_pools(step, sheet, pools)
    return step.commit(data)


# Fatigue dice decided after an attack's rolls.

ATTACK_ROLL = "attack"
DEFENCE_ROLL = "defence"
DAMAGE_ROLL = "damage"
FATIGUE_COUNTS = tuple(range(aethoria.FATIGUE_DICE_MIN, aethoria.FATIGUE_DICE_MAX + 1))


@dataclass(frozen=True)
class FatigueOption:
    """A roll of the latest attack that fatigue dice may still be added to, with the exact
    odds of what 1, 2 or 3 more dice would change (``gain`` says what they are of)."""

    value: str  # "<blow>:<roll>"
    blow: int
    roll: str
    roller: str
    successes: int
    gain: str = ""  # "lands", "bonus", "avoids", "damage", or "" when nothing is sensible
    odds: tuple[Fraction, ...] = ()  # one per count; expected PV for "damage"
    now: int = 0  # the damage now, next to the expected damage

    @property
    def counted(self) -> list[tuple[str, Fraction]]:
        """Each of ``odds`` with its number of dice in words ("1 dé", "2 dés"): said once
        here rather than by a plural tag for every figure of the offer."""
        return [(dice_words(n), value) for n, value in enumerate(self.odds, start=1)]


def dice_words(count: int) -> str:
    return ngettext("%(n)s dé", "%(n)s dés", count) % {"n": count}


def latest_step(encounter: Encounter, *, but: tuple[str, ...] = ()) -> Event | None:
    """The latest step that holds, undo and redo aside (and the kinds ``but`` names)."""
    skipped = ("undo", "redo", *but)
    return encounter.events.standing().exclude(kind__in=skipped).order_by("-sequence").first()


# The steps that leave an attack's rolls open to fatigue dice: the GM deciding a severe
# effect the attack proposed is part of the same exchange, not the next step.
NOT_THE_NEXT_STEP = (EFFECT_EVENT,)


def latest_attack_step(encounter: Encounter) -> Event | None:
    """The step an attack's fatigue dice would join (``attack_fatigue_candidate``)."""
    return latest_step(encounter, but=NOT_THE_NEXT_STEP)


def attack_fatigue_candidate(steps) -> Event | None:
    """The step whose attack fatigue dice may still join: the latest of ``steps`` (newest
    first) but the severe effects decided since, if it is an attack or a fatigue revision of
    one (each roll of it taking fatigue dice once)."""
    latest = next((e for e in steps if e is not None and e.kind not in NOT_THE_NEXT_STEP), None)
    if latest is None or latest.kind not in (ATTACK_EVENT, ATTACK_FATIGUE_EVENT):
        return None
    return latest


def _at_least(needed: int, roll: dict) -> tuple[Fraction, ...]:
    ones = roll.get("ones_always_succeed", False)
    return tuple(
        aethoria.success_probability(n, roll["threshold"], needed, ones_always_succeed=ones)
        for n in FATIGUE_COUNTS
    )


def _expected_damage(damage: dict) -> tuple[Fraction, ...]:
    """Mean damage after RD once 1, 2 or 3 dice join the damage roll."""
    expected = []
    ones = damage.get("ones_always_succeed", False)
    for count in FATIGUE_COUNTS:
        dist = aethoria.success_distribution(count, damage["threshold"], ones_always_succeed=ones)
        total = damage["total"]
        expected.append(sum(p * max(0, total + x - damage["rd"]) for x, p in dist.items()))
    return tuple(expected)


def _attack_gain(blow: dict, convert: bool) -> dict:
    outcome = blow["outcome"]
    attack = blow["attack"]
    if not outcome["lands"]:
        return {"gain": "lands", "odds": _at_least(1 - outcome["net"], attack)}
    if convert and not outcome["hits_obstacle"]:
        next_die = 1 + aethoria.EXTRA_SUCCESSES_PER_DIE * (outcome["bonus_dice"] + 1)
        return {"gain": "bonus", "odds": _at_least(next_die - outcome["net"], attack)}
    return {}


def _defence_gain(blow: dict) -> dict:
    outcome = blow["outcome"]
    if not outcome["lands"] or outcome["hits_obstacle"]:
        return {}
    return {"gain": "avoids", "odds": _at_least(outcome["net"], blow["defence"])}


def offers_attack_fatigue(data: dict) -> bool:
    """Whether a roll of this attack may still take fatigue dice (``attack_fatigue_options``
    not empty), told without computing their odds: the offer folds until opened."""
    return any(
        rolled and not rolled["fatigue_faces"]
        for blow in data["blows"]
        for rolled in (blow["attack"], blow.get("defence"), blow.get("damage"))
    )


def attack_fatigue_options(data: dict) -> list[FatigueOption]:
    """The rolls of an attack still without fatigue dice (the decision is made once per
    roll), each with the exact odds of the improvement."""
    convert = data.get("convert", True)
    options = []
    for index, blow in enumerate(data["blows"]):
        rolls = [(ATTACK_ROLL, blow["attack"], data["attacker"], _attack_gain(blow, convert))]
        if blow.get("defence"):
            rolls.append((DEFENCE_ROLL, blow["defence"], data["target"], _defence_gain(blow)))
        if blow.get("damage"):
            damage = blow["damage"]
            gain = {"gain": "damage", "odds": _expected_damage(damage), "now": damage["damage"]}
            rolls.append((DAMAGE_ROLL, damage, data["attacker"], gain))
        for roll, rolled, roller, gain in rolls:
            if not rolled["fatigue_faces"]:
                options.append(
                    FatigueOption(
                        f"{index}:{roll}", index, roll, roller, rolled["successes"], **gain
                    )
                )
    return options


@dataclass
class _Revision:
    """What resolving an attack again needs, and the damage dice it used up."""

    data: dict
    house: aethoria.AethoriaHouseRules
    force: int
    vitalite: int
    armour: tuple[aethoria.ArmourPiece, ...]
    bag: DiceBag
    damage_faces: tuple[int, ...] | None
    damage_faces_used: bool = False

    def take_damage_dice(self, count: int, label: str) -> tuple[int, ...]:
        self.damage_faces_used = True
        return self.bag.take(self.damage_faces, count, D10, "damage_faces", label)


def _revise_blow(
    revision: _Revision, index: int, roll: str, extra: tuple[int, ...]
) -> tuple[dict, int]:
    """The blow with fatigue dice added to one of its rolls and resolved again, and the
    change in the attacker's damage fatigue dice paid (negative: given back)."""
    blow = revision.data["blows"][index]
    attack = roll_from_json(blow["attack"])
    defence = roll_from_json(blow["defence"]) if blow["defence"] else None
    damage = roll_from_json(blow["damage"]) if blow["damage"] else None
    if roll == ATTACK_ROLL:
        attack = aethoria.add_fatigue_dice(attack, extra)
    elif roll == DEFENCE_ROLL:
        defence = aethoria.add_fatigue_dice(defence, extra)
    else:
        damage = aethoria.add_fatigue_dice(damage, extra)
    outcome = attack_outcome(
        attack.successes,
        defence.successes if defence else 0,
        location_face=blow["outcome"]["location_face"],
        ranged=revision.data["ranged"],
        covered=revision.data["covered"],
        convert=revision.data.get("convert", True),
        house=revision.house,
    )
    row = {k: v for k, v in blow.items() if k != "pv"}
    row.update(
        attack=roll_json(attack),
        defence={**blow["defence"], **roll_json(defence)} if defence else None,
        outcome=asdict(outcome),
        damage=None,
        severe=aethoria.NO_EFFECT,
    )
    if not outcome.lands or outcome.hits_obstacle:
        # No damage roll any more: its fatigue dice ("if it lands") are not paid.
        return row, -len(damage.fatigue_faces) if damage else 0
    damage, paid = _revised_damage(revision, index, damage, outcome)
    result = aethoria.resolve_damage(
        damage,
        rd=aethoria.location_rd(revision.armour, outcome.location, revision.house),
        target_vitalite=revision.vitalite,
        location=outcome.location,
        house=revision.house,
    )
    row.update(damage={**roll_json(damage), **asdict(result)}, severe=result.severe_effect)
    return row, paid


def _revised_damage(
    revision: _Revision, index: int, old: aethoria.PoolResult | None, outcome
) -> tuple[aethoria.PoolResult, int]:
    """The damage roll with the blow's new bonus dice, and the fatigue dice it newly pays."""
    blow = revision.data["blows"][index]
    if old is None:
        # The blow lands now: its damage is rolled now, with the fatigue dice declared
        # before the attack "if it lands" (first blow only), typed after the others.
        declared = revision.data.get("damage_fatigue", 0) if index == 0 else 0
        weapon = aethoria.AethoriaWeapon(
            dice=blow["weapon"]["damage_dice"], fixed=blow["weapon"]["damage_fixed"]
        )
        spec = aethoria.damage_roll(
            weapon,
            revision.force,
            outcome.bonus_dice,
            second_weapon=blow["second_weapon"],
            house=revision.house,
        )
        label = gettext("Dégâts (dés de l'arme, bonus puis fatigue)")
        faces = revision.take_damage_dice(spec.dice + declared, label)
        return aethoria.roll_pool(spec, faces[: spec.dice], faces[spec.dice :]), declared
    weapon_dice = old.spec.dice - blow["outcome"]["bonus_dice"]
    spec = replace(old.spec, dice=weapon_dice + outcome.bonus_dice)
    # Fewer bonus dice: the last faces go (the bonus dice come after the weapon's).
    faces = old.faces[: spec.dice]
    if len(faces) < spec.dice:
        label = gettext("Dés de dégâts bonus en plus")
        faces += revision.take_damage_dice(spec.dice - len(faces), label)
    timing = old.fatigue_timing or aethoria.BEFORE
    return aethoria.roll_pool(spec, faces, old.fatigue_faces, fatigue_timing=timing), 0


def _pv_chain(blows: list[dict], pv_before_attack: int) -> int:
    """Write each landed blow's PV before and after; the PV after the attack."""
    pv = pv_before_attack
    for blow in blows:
        if blow["damage"]:
            blow["pv"] = {"before": pv, "after": pv - blow["damage"]["damage"]}
            pv -= blow["damage"]["damage"]
    return pv


def _dealt(blows: list[dict]) -> int:
    return sum(blow["damage"]["damage"] for blow in blows if blow["damage"])


@transaction.atomic
def aethoria_attack_fatigue_after(
    *,
    encounter_id: int,
    version: int | None,
    by,
    event_id: int,
    roll: str,
    count: int,
    faces: tuple[int, ...] | None = None,
    damage_faces: tuple[int, ...] | None = None,
) -> Event:
    """Fatigue dice added after seeing one roll of the last attack (attack, defence or
    damage, of either blow): paid by whoever rolled it, and the attack resolved again —
    net successes, landing, bonus damage dice, damage, RD, PV and the severe effect."""
    encounter = lock_encounter(encounter_id, version)
    require_status(encounter, Status.RUNNING, Status.PAUSED)
    latest = attack_fatigue_candidate([latest_attack_step(encounter)])
    if latest is None or latest.pk != event_id:
        raise EncounterError(
            gettext("Trop tard : les dés de fatigue s'ajoutent à la dernière attaque."), "roll"
        )
    option = next((o for o in attack_fatigue_options(latest.data) if o.value == roll), None)
    if option is None:
        raise EncounterError(
            gettext("Ce jet a déjà ses dés de fatigue : ils se décident une seule fois."), "roll"
        )
    if count not in FATIGUE_COUNTS:
        raise EncounterError(gettext("De 1 à 3 dés de fatigue."), "count")
    house = encounter.campaign.house()
    attacker = combatant_of(encounter, latest.actor_id)
    target = combatant_of(encounter, latest.target_id)
    a_sheet, t_sheet = load_sheet(attacker), load_sheet(target)
    bag = DiceBag()
    extra = bag.take(faces, count, D10, "faces", gettext("Dés de fatigue"))
    revision = _Revision(
        latest.data, house, a_sheet.force, t_sheet.vitalite, armour_of(t_sheet), bag, damage_faces
    )
    try:
        row, paid = _revise_blow(revision, option.blow, option.roll, extra)
    except RulesError as error:
        raise rules_refusal(error, "faces") from error
    if damage_faces and not revision.damage_faces_used:
        raise EncounterError(
            gettext("Aucun dé de dégâts à lancer en plus : laissez ce champ vide."),
            "damage_faces",
        )
    blows = [dict(blow) for blow in latest.data["blows"]]
    blows[option.blow] = row
    a_pools, t_pools = _revised_pools(
        a_sheet.pools(house), t_sheet.pools(house), option.roll, count, paid
    )
    pv_before_attack = t_pools.pv + _dealt(latest.data["blows"])
    t_pools = replace(t_pools, pv=_pv_chain(blows, pv_before_attack))
    step = Step(
        encounter,
        ATTACK_FATIGUE_EVENT,
        by,
        actor=attacker,
        target=target,
        dice=bag.source,
        public=latest.public,
    )
    set_pools(step, a_sheet, a_pools)
    set_pools(step, t_sheet, t_pools)
    return step.commit(
        {
            **latest.data,
            "of": latest.data["of"] if latest.kind == ATTACK_FATIGUE_EVENT else latest.sequence,
            "blow": option.blow,
            "roll": option.roll,
            "roller": option.roller,
            "count": count,
            "blows": blows,
            "dead": aethoria.condition(t_pools.pv, t_sheet.vitalite, house) == aethoria.DEAD,
            "out": t_pools.pv <= 0,
        }
    )


def _revised_pools(a_pools, t_pools, roll: str, count: int, paid: int):
    """Whoever rolled pays the fatigue dice (all physical: Adresse, Force, esquive and
    parade); the attacker pays, or gets back, the damage fatigue dice of a changed landing."""
    try:
        if roll == DEFENCE_ROLL:
            t_pools, _delta = aethoria.spend_fatigue(t_pools, aethoria.PHYSICAL, count)
        else:
            a_pools, _delta = aethoria.spend_fatigue(a_pools, aethoria.PHYSICAL, count)
        if paid > 0:
            a_pools, _delta = aethoria.spend_fatigue(a_pools, aethoria.PHYSICAL, paid)
        elif paid < 0:
            a_pools = aethoria.apply_delta(a_pools, aethoria.PoolDelta(physical=-paid))
    except RulesError as error:
        raise rules_refusal(error, "count") from error
    return a_pools, t_pools
