"""Aethoria roll requests (issue #31): the GM sets up a melee attack on a PC and sends its
defence to the player ("Défense au joueur"). The player chooses to dodge, to parry (and with
what) or not to defend, how many fatigue dice to add (1 to 3, once, from their physical
fatigue), sees the odds of each choice, and rolls their pool — typed from physical d10s or
rolled by the app. The answer resolves the attack through the console's own step
(``attack.aethoria_attack_step``): the request closed, the fatigue paid, the damage and its
effects in one step, which one undo takes back.

A test the GM set up in the console's test panel goes to its fighter's player too ("Test au
joueur"): they see their chance to succeed for each number of fatigue dice they may add (never
the difficulty), and roll their pool; the answer runs the console's own test step
(``table_tests.aethoria_test_step``), the request closed and the fatigue paid in it.

On the player's own attack (``ATTACK``) they may type their weapon's damage dice too, should
the blow land: the bonus dice of extra successes and the hit location stay the app's (the
phone types before knowing them). On a defence, the attacker's dice are the app's. An attaque
double (two defence rolls sharing a malus) and a ranged attack (no defence) stay the GM's to
roll.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from fractions import Fraction

from django import forms
from django.db import transaction
from django.utils.translation import gettext as _

from apps.encounters.kit import (
    ATTACK,
    DEFENCE,
    TEST,
    EncounterError,
    Fight,
    Step,
    check_answerer,
    check_open,
    first_error,
    load_combatants,
    lock_encounter,
    lock_fight,
    open_request,
    require_status,
)
from apps.encounters.models import Combatant, Encounter, Event, Status
from apps.rules import aethoria
from apps.systems import get_system

from .attack import BlowFaces, aethoria_attack_step
from .attack_plan import DOUBLE, AttackChoice, plan_attack
from .defences import DODGE, NO_DEFENCE, PARRY
from .fighters import load_sheets
from .forms import FacesField
from .table_tests import TestChoice, aethoria_test_step, plan_test

MAX_FATIGUE_DICE = 3


def request_defence(fight: Fight, *, by, choice: AttackChoice, kind: str = DEFENCE) -> Event:
    """Open the request of the attack the GM set up: its defence to the target's player
    (``DEFENCE``), or its attack roll to the attacker's (``ATTACK``: a PC attacking, the
    target's defence as the GM chose it). The plan is checked now, so an impossible attack
    is refused to the GM."""
    encounter = fight.encounter
    require_status(encounter, Status.RUNNING)
    if fight.acting is None or fight.acting.pk != choice.attacker_id:
        raise EncounterError(_("Ce n'est pas son tour d'agir."), "attacker")
    combatants = list(fight.fighters.values())
    load_sheets(combatants)
    if kind == DEFENCE:
        choice = replace(choice, defence=NO_DEFENCE, defence_fatigue=0)
    plan = plan_attack(encounter, replace(choice, fatigue=0), combatants)
    if choice.mode == DOUBLE:
        raise EncounterError(_("Une attaque double se joue à la console."), "mode")
    if plan.ranged and kind == DEFENCE:
        raise EncounterError(
            _("La cible d'une attaque à distance ne peut pas se défendre."), "defence"
        )
    target = plan.target
    asked, other = (target, plan.attacker) if kind == DEFENCE else (plan.attacker, target)
    if asked.request:
        raise EncounterError(
            _("Une demande attend déjà %(name)s.") % {"name": asked.character.name}, "target"
        )
    event_kind = f"aethoria_request_{kind}"
    step = Step(encounter, event_kind, by, actor=plan.attacker, target=target)
    step.public = not (plan.attacker.hidden or target.hidden)
    names = {"attacker": plan.attacker.character.name, "target": target.character.name}
    open_request(step, asked, kind, choice=asdict(choice), other=other.pk, **names)
    return step.commit({**names, "kind": kind, "name": asked.character.name})


@transaction.atomic
def request_test(*, encounter_id: int, version: int | None, by, choice: TestChoice) -> Event:
    """Open the request of the test the GM set up, to its fighter's player ("Test au
    joueur"): the plan is checked now, so an impossible test is refused to the GM. The
    fatigue dice are the player's to choose."""
    encounter = lock_encounter(
        encounter_id, version, fighters=False, by=by, system=get_system("aethoria")
    )
    require_status(encounter, Status.RUNNING, Status.PAUSED)
    choice = replace(choice, fatigue=0)
    plan = plan_test(encounter, choice)
    asked = plan.combatant
    if asked.request:
        raise EncounterError(
            _("Une demande attend déjà %(name)s.") % {"name": asked.character.name}, "combatant"
        )
    step = Step(encounter, "aethoria_request_test", by, actor=asked, public=not asked.hidden)
    names = {"name": asked.character.name, "label": choice.label, "what": plan.what}
    open_request(step, asked, TEST, choice=asdict(choice), **names)
    return step.commit({**names, "kind": TEST})


def _choice_of(request: dict) -> AttackChoice:
    values = {k: tuple(v) if isinstance(v, list) else v for k, v in request["choice"].items()}
    return AttackChoice(**values)


def defence_choice(request: dict, value: str, fatigue: int) -> AttackChoice:
    """The attack with the player's defence: "none", "dodge", or "parry:<weapon id|shield>",
    with their fatigue dice."""
    choice = _choice_of(request)
    kind, _sep, item = value.partition(":")
    if kind not in (NO_DEFENCE, DODGE, PARRY) or (kind == PARRY) != bool(item):
        raise EncounterError(_("Choix de défense inconnu."), "choice")
    if not 0 <= fatigue <= MAX_FATIGUE_DICE or (kind == NO_DEFENCE and fatigue):
        raise EncounterError(_("De 0 à 3 dés de fatigue, sur une défense."), "fatigue")
    return replace(choice, defence=kind, parry_with=item, defence_fatigue=fatigue)


@dataclass(frozen=True)
class Option:
    value: str
    label: str
    lands: Fraction | None  # the chance the blow lands
    expected: Fraction | None  # the PV it takes, on average
    dice: int  # the pool rolled (fatigue dice apart)

    @property
    def percent(self) -> str:
        return f"{round(float(self.lands) * 100)} %" if self.lands is not None else ""


def panel(encounter: Encounter, combatant: Combatant, request: dict, params) -> dict:
    """The "À toi" panel of a defence: each defence with its odds at the fatigue dice the
    player is trying, and as many dice fields as the chosen pool has."""
    if request["kind"] == TEST:
        return _test_panel(encounter, combatant, request, params)
    fighters = load_combatants(encounter)
    by_pk = {c.pk: c for c in fighters}
    choice = _choice_of(request)
    attacker, target = by_pk.get(choice.attacker_id), by_pk.get(choice.target_id)
    if attacker is None or target is None:
        return {"template": "systems/aethoria/_request.html", "gone": True}
    fatigue = _int(params.get("fatigue"), 0)
    if request["kind"] == ATTACK:
        return _attack_panel(encounter, request, fighters, attacker, target, fatigue)
    options = _options(encounter, request, fighters, target, fatigue)
    if not options:  # the fatigue dice tried cannot be paid: without them
        fatigue = 0
        options = _options(encounter, request, fighters, target, 0)
    shown = encounter.campaign.house().odds_against_npcs or attacker.character.is_pc
    if not shown:
        options = [replace(o, lands=None, expected=None) for o in options]
    values = {o.value for o in options}
    best = min(options, key=lambda o: o.lands or 0).value if options else NO_DEFENCE
    chosen = params.get("choice") if params.get("choice") in values else best
    pool = next((o.dice for o in options if o.value == chosen), 0)
    sheet = target.character.aethoria
    return {
        "template": "systems/aethoria/_request.html",
        "options": options,
        "chosen": chosen,
        "fatigue": fatigue if chosen != NO_DEFENCE else 0,
        "fatigue_choices": range(MAX_FATIGUE_DICE + 1),
        "fatigue_left": sheet.fatigue_physical,
        "dice_fields": range(pool + (fatigue if chosen != NO_DEFENCE else 0)),
        "odds_shown": shown,
        "attacker_name": attacker.character.name,
    }


def _attack_panel(encounter, request, fighters, attacker, target, fatigue: int) -> dict:
    """The player's own attack roll: the chance to land and the PV it takes on average, for
    each number of fatigue dice they may add (the target's defence as the GM set it, its
    numbers never shown)."""
    choice = _choice_of(request)
    options, weapon_dice = [], 0
    for count in range(MAX_FATIGUE_DICE + 1):
        try:
            plan = plan_attack(encounter, replace(choice, fatigue=count), fighters)
        except EncounterError:
            continue  # more fatigue than they have left
        blow = plan.blows[0]
        label = (
            _("Sans dé de fatigue") if not count else _("+%(n)s dé(s) de fatigue") % {"n": count}
        )
        options.append(
            Option(str(count), label, blow.odds.lands, blow.odds.expected, blow.attack.dice)
        )
        weapon_dice = blow.weapon.dice
    shown = encounter.campaign.house().odds_against_npcs or target.character.is_pc
    if not shown:
        options = [replace(o, lands=None, expected=None) for o in options]
    chosen = str(fatigue) if str(fatigue) in {o.value for o in options} else "0"
    pool = options[0].dice if options else 0
    return {
        "template": "systems/aethoria/_request.html",
        "options": options,
        "chosen": chosen,
        "fatigue": int(chosen),
        "fatigue_left": attacker.character.aethoria.fatigue_physical,
        "dice_fields": range(pool + int(chosen)),
        "damage_fields": range(weapon_dice),
        "odds_shown": shown,
        "attacker_name": attacker.character.name,
        "target_name": target.character.name,
    }


def _test_panel(encounter, combatant, request: dict, params) -> dict:
    """A test: its chance to succeed for each number of fatigue dice the player may add
    (physical or mental, as its characteristic), never the difficulty."""
    choice = TestChoice(**request["choice"])
    options, plan = [], None
    for count in range(MAX_FATIGUE_DICE + 1):
        try:
            tried = plan_test(encounter, replace(choice, fatigue=count), [combatant])
        except EncounterError:
            if count == 0:
                return {"template": "systems/aethoria/_request.html", "gone": True}
            continue  # more fatigue than they have left
        plan = plan or tried
        label = (
            _("Sans dé de fatigue") if not count else _("+%(n)s dé(s) de fatigue") % {"n": count}
        )
        options.append(Option(str(count), label, tried.success, None, tried.spec.dice))
    fatigue = _int(params.get("fatigue"), 0)
    chosen = str(fatigue) if str(fatigue) in {o.value for o in options} else "0"
    sheet = combatant.character.aethoria
    physical = plan.spec.fatigue == aethoria.PHYSICAL
    return {
        "template": "systems/aethoria/_request.html",
        "options": options,
        "chosen": chosen,
        "fatigue": int(chosen),
        "fatigue_physical": physical,
        "fatigue_left": sheet.fatigue_physical if physical else sheet.fatigue_mental,
        "dice_fields": range(plan.spec.dice + int(chosen)),
        "odds_shown": True,
        "label": _test_words(request, plan),
    }


def _test_words(request: dict, plan) -> str:
    """The test in words: "Escalader le mur (Athlétisme, sous Force)"."""
    what = plan.what
    if plan.characteristic and what != aethoria.CHARACTERISTIC_LABELS.get(plan.characteristic):
        under = aethoria.CHARACTERISTIC_LABELS.get(plan.characteristic, plan.characteristic)
        what = _("%(what)s, sous %(c)s") % {"what": what, "c": under}
    label = request.get("label") or ""
    return f"{label} ({what})" if label else what


def _int(value, default: int) -> int:
    return int(value) if str(value).isdigit() else default


def _options(encounter, request, fighters, target, fatigue: int) -> list[Option]:
    sheet = target.character.aethoria
    values = [(NO_DEFENCE, _("Pas de défense")), (DODGE, _("Esquiver"))]
    for weapon in sheet.weapons.all():
        if weapon.parry_value is not None and not weapon.is_ranged:
            values.append((f"{PARRY}:{weapon.pk}", _("Parer avec %(n)s") % {"n": weapon.name}))
    if sheet.shield is not None:
        values.append((f"{PARRY}:shield", _("Parer avec le bouclier")))
    options = []
    for value, label in values:
        try:
            tried = defence_choice(request, value, 0 if value == NO_DEFENCE else fatigue)
            plan = plan_attack(encounter, tried, fighters)
        except EncounterError:
            continue  # not open to them now (no defence left, Force too high, no fatigue)
        blow = plan.blows[0]
        dice = blow.defence.spec.dice if blow.defence else 0
        options.append(Option(value, label, blow.odds.lands, blow.odds.expected, dice))
    return options


class AnswerForm(forms.Form):
    request = forms.CharField(max_length=32)
    other = forms.IntegerField(required=False)
    choice = forms.CharField(max_length=40, required=False)
    fatigue = forms.IntegerField(required=False, min_value=0, max_value=MAX_FATIGUE_DICE)


def answer_posted(*, encounter_id: int, combatant_id: int, data, by, take_over: bool) -> Event:
    """The answer from the posted form: the faces typed one die a field (``face``), the
    pool's first, then the fatigue dice; none typed: the app rolls."""
    form = AnswerForm(data)
    if not form.is_valid():
        raise EncounterError(first_error(form), next(iter(form.errors), None))
    faces = damage = None
    if data.get("dice") != "app":
        faces = _typed(data, "face", _("Tes dés"))
        damage = _typed(data, "damage_face", _("Tes dés de dégâts"))
    values = form.cleaned_data
    return answer(
        encounter_id=encounter_id,
        by=by,
        combatant_id=combatant_id,
        other_id=values["other"],
        request_id=values["request"],
        value=values["choice"],
        fatigue=values["fatigue"] or 0,
        faces=faces,
        damage_faces=damage,
        take_over=take_over,
    )


def _typed(data, name: str, label: str) -> tuple[int, ...] | None:
    """The d10 faces typed one a field (or several in one, the GM's), None if none."""
    typed = [face.strip() for face in data.getlist(name) if face.strip()]
    if not typed:
        return None
    try:
        return FacesField(10, label).clean(" ".join(typed))
    except forms.ValidationError as error:
        raise EncounterError(error.messages[0], name) from error


@transaction.atomic
def answer(
    *,
    encounter_id: int,
    by,
    combatant_id: int,
    other_id: int | None,
    request_id: str,
    value: str,
    fatigue: int,
    faces: tuple[int, ...] | None,
    damage_faces: tuple[int, ...] | None = None,
    take_over: bool = False,
) -> Event:
    """The player's defence (or the GM's in their place): the attack resolves through the
    console's step, the request closed and the fatigue paid in it."""
    ids = [combatant_id] if other_id is None else [combatant_id, other_id]
    fight = lock_fight(encounter_id, ids, system=get_system("aethoria"), member=by)
    if fight is None or combatant_id not in fight.fighters:
        raise EncounterError(_("Ce combattant ne fait pas partie de la rencontre."), "request")
    combatant = fight.fighters[combatant_id]
    check_answerer(fight.encounter, combatant, by, take_over=take_over)
    request = check_open(combatant, request_id)
    if request.get("kind") == TEST:
        if not 0 <= fatigue <= MAX_FATIGUE_DICE:
            raise EncounterError(_("De 0 à 3 dés de fatigue."), "fatigue")
        choice = replace(TestChoice(**request["choice"]), fatigue=fatigue)
        pool, extra = _split_faces(faces, choice.fatigue)
        return aethoria_test_step(
            fight.encounter,
            by=by,
            choice=choice,
            faces=pool,
            fatigue_faces=extra,
            request_of=combatant,
        )
    if request.get("kind") not in (DEFENCE, ATTACK):
        raise EncounterError(_("Cette demande n'est pas un jet d'attaque."), "request")
    attack = request.get("choice", {})
    if {attack.get("attacker_id"), attack.get("target_id")} != {combatant_id, other_id}:
        raise EncounterError(_("Cette demande ne vise pas ces combattants."), "request")
    if request["kind"] == ATTACK:
        # The GM taking over rolls the attack as they set it up, the faces read out the
        # attacker's (never the target's defence).
        choice = _choice_of(request)
        if not (take_over and not value):
            if not 0 <= fatigue <= MAX_FATIGUE_DICE:
                raise EncounterError(_("De 0 à 3 dés de fatigue."), "fatigue")
            choice = replace(choice, fatigue=fatigue)
        return aethoria_attack_step(
            fight,
            by=by,
            choice=choice,
            faces=(_attack_faces(faces, choice.fatigue, damage_faces),),
            request_of=combatant,
        )
    if take_over and not value:
        choice = _choice_of(request)  # as the GM set it up
    else:
        choice = defence_choice(request, value or NO_DEFENCE, fatigue)
    blow = _defence_faces(faces, choice)
    return aethoria_attack_step(fight, by=by, choice=choice, faces=(blow,), request_of=combatant)


def _defence_faces(faces: tuple[int, ...] | None, choice: AttackChoice) -> BlowFaces:
    """The defence pool's typed faces, then its fatigue dice; the attacker's are the app's."""
    if faces is None:
        return BlowFaces()
    if choice.defence == NO_DEFENCE:
        raise EncounterError(_("Pas de défense choisie : pas de dés à taper."), "face")
    split = len(faces) - choice.defence_fatigue
    if split < 1:
        raise EncounterError(_("Tape un dé par dé de ta réserve."), "face")
    return BlowFaces(defence=faces[:split], defence_fatigue=faces[split:] or None)


def _attack_faces(
    faces: tuple[int, ...] | None, fatigue: int, damage: tuple[int, ...] | None = None
) -> BlowFaces:
    """The attack pool's typed faces, then its fatigue dice; the weapon's damage dice typed
    too, should it land (its bonus dice, and the location, are the app's)."""
    typed = BlowFaces(damage=damage, damage_bonus_by_app=True)
    if faces is None:
        return typed
    split = len(faces) - fatigue
    if split < 1:
        raise EncounterError(_("Tape un dé par dé de ta réserve."), "face")
    return replace(typed, attack=faces[:split], fatigue=faces[split:] or None)


def _split_faces(faces: tuple[int, ...] | None, fatigue: int):
    """A test's typed faces: the pool's, then its fatigue dice (``None``: the app rolls)."""
    if faces is None:
        return None, None
    split = len(faces) - fatigue
    if split < 0:
        raise EncounterError(_("Tape un dé par dé de ta réserve."), "face")
    return faces[:split], faces[split:] if fatigue else None
