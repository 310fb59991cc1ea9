"""EW-System roll requests (issue #31): the GM sets up an attack on a PC and sends its
defence to the player ("Défense au joueur"), or sends a PC's own attack roll to its player
("Attaque au joueur"). The player's answer resolves the attack through the console's own
step (``combat.ew_attack_step``), the request closed and any point d'éclat spent in the same
step: one undo takes all of it back.

What the phone shows: for each choice the rules give the player (EW: no active defence, or
an active one with one of their specialties; on their own attack, a point d'éclat should the
roll fail), the chance to be hit (or to hit) and the expected damage — never the ND, an
NPC's specialty or its pools.
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
    optional_face,
    require_status,
)
from apps.encounters.models import Combatant, Encounter, Event, Status
from apps.systems import get_system

from .combat import AttackChoice, ew_attack_step, plan_attack, prefetch_posted_gear
from .defaults import defence_ranks, may_defend_with
from .table_tests import TestChoice, ew_test_step, plan_test

NO_DEFENCE = "none"


class AnswerForm(forms.Form):
    """The player's answer: the request it answers, the other fighter of its attack, the
    choice, and the faces of physical dice (empty: the app rolls)."""

    request = forms.CharField(max_length=32)
    other = forms.IntegerField(required=False)
    choice = forms.CharField(max_length=32, required=False)
    to_hit_face = optional_face(20, _("d20 pour toucher"))
    damage_face = optional_face(10, _("d10 des dégâts (si touché)"))


def _read_out(values: dict, text: str) -> dict:
    """The faces the player read out to the GM who rolls in their place ("14 6": the d20,
    then the d10), as the answer's fields."""
    typed = text.split()
    if not typed or values["to_hit_face"] is not None:
        return values
    if len(typed) > 2 or not all(face.isdigit() for face in typed):
        raise EncounterError(_("Tapez le d20 puis le d10 (ex. « 14 6 »)."), "face")
    faces = [int(face) for face in typed] + [None]
    if not 1 <= faces[0] <= 20 or (faces[1] is not None and not 1 <= faces[1] <= 10):
        raise EncounterError(_("Un d20 donne de 1 à 20, un d10 de 1 à 10."), "face")
    return {**values, "to_hit_face": faces[0], "damage_face": faces[1]}


def answer_posted(*, encounter_id: int, combatant_id: int, data, by, take_over: bool) -> Event:
    """``answer`` from a posted ``AnswerForm``: bad faces are refused in words."""
    form = AnswerForm(data)
    if not form.is_valid():
        raise EncounterError(first_error(form), next(iter(form.errors), None))
    values = _read_out(form.cleaned_data, data.get("face", ""))
    if data.get("dice") == "app":  # "Lancer pour moi": the faces typed are not taken
        values = {**values, "to_hit_face": None, "damage_face": None}
    return answer(
        encounter_id=encounter_id,
        by=by,
        combatant_id=combatant_id,
        other_id=values["other"],
        request_id=values["request"],
        value=values["choice"],
        to_hit_face=values["to_hit_face"],
        damage_face=values["damage_face"],
        take_over=take_over,
    )


def request_attack(fight: Fight, *, by, choice: AttackChoice, kind: str) -> Event:
    """Open the request of the attack the GM set up: its defence to the target's player
    (``DEFENCE``), or its roll to the attacker's (``ATTACK``). The plan is checked now, so
    an impossible attack is refused to the GM, not to the player."""
    encounter = fight.encounter
    require_status(encounter, Status.RUNNING)
    if fight.acting is None or fight.acting.pk != choice.attacker_id:
        raise EncounterError(_("Ce n'est pas son tour d'agir."), "attacker")
    prefetch_posted_gear(fight, choice)
    plan = plan_attack(encounter, choice, list(fight.fighters.values()), odds=False)
    asked = plan.target if kind == DEFENCE else plan.attacker
    if asked.request:
        raise EncounterError(
            _("Une demande attend déjà %(name)s.") % {"name": asked.character.name}, "target"
        )
    step = Step(encounter, f"ew_request_{kind}", by, actor=plan.attacker, target=plan.target)
    step.public = not (plan.attacker.hidden or plan.target.hidden)
    names = {"attacker": plan.attacker.character.name, "target": plan.target.character.name}
    other = plan.attacker if asked is plan.target else plan.target
    open_request(step, asked, kind, choice=asdict(choice), other=other.pk, **names)
    return step.commit({**names, "kind": kind, "name": asked.character.name})


@transaction.atomic
def request_test(*, encounter_id: int, version: int | None, by, choice: TestChoice) -> Event:
    """Open the request of the test the GM set up, to its fighter's player ("Test au
    joueur"): the plan is checked now, so an impossible test is refused to the GM."""
    encounter = lock_encounter(
        encounter_id, version, fighters=False, by=by, system=get_system("ew")
    )
    require_status(encounter, Status.RUNNING, Status.PAUSED)
    plan = plan_test(encounter, choice)
    asked = plan.combatant
    if asked.request:
        raise EncounterError(
            _("Une demande attend déjà %(name)s.") % {"name": asked.character.name}, "combatant"
        )
    step = Step(encounter, "ew_request_test", by, actor=asked, public=not asked.hidden)
    names = {"name": asked.character.name, "label": choice.label}
    open_request(step, asked, TEST, choice=asdict(choice), **names)
    return step.commit({**names, "kind": TEST})


@dataclass(frozen=True)
class Option:
    """One choice of the player, with the odds it gives (``None``: not shown)."""

    value: str
    label: str
    chance: Fraction | None
    superficial: Fraction | None
    lethal: Fraction | None

    @property
    def percent(self) -> str:
        return f"{round(float(self.chance) * 100)} %" if self.chance is not None else ""


def _choice_of(request: dict) -> AttackChoice:
    return AttackChoice(**request["choice"])


def defence_choice(request: dict, value: str) -> AttackChoice:
    """The attack with the defence the player chose: "none", or "active" with one of their
    specialties ("active:<rank id>", "active:" for none)."""
    choice = _choice_of(request)
    if value == NO_DEFENCE:
        return replace(choice, defence=NO_DEFENCE, defence_specialty_id=None)
    kind, _sep, rank = value.partition(":")
    if kind != "active" or (rank and not rank.isdigit()):
        raise EncounterError(_("Choix de défense inconnu."), "choice")
    return replace(choice, defence="active", defence_specialty_id=int(rank) if rank else None)


def _odds_shown(encounter: Encounter, other: Combatant) -> bool:
    return encounter.campaign.house().odds_against_npcs or other.character.is_pc


def panel(encounter: Encounter, combatant: Combatant, request: dict, params) -> dict:
    """The "À toi" panel of an EW request: the request in words, each choice with its odds,
    the dice fields."""
    if request["kind"] == TEST:
        return _test_panel(encounter, combatant, request, params)
    fighters = {c.pk: c for c in load_combatants(encounter)}
    choice = _choice_of(request)
    attacker, target = fighters.get(choice.attacker_id), fighters.get(choice.target_id)
    if attacker is None or target is None:
        return {"template": "systems/ew/_request.html", "gone": True}
    if request["kind"] == DEFENCE:
        options = _defence_options(encounter, choice, list(fighters.values()), target)
        shown = _odds_shown(encounter, attacker)
        # The choice that gets them hit the least comes first.
        best = min(options, key=lambda o: o.chance) if options else None
        chosen = params.get("choice") or (best.value if best else NO_DEFENCE)
    else:
        options = _attack_options(encounter, choice, list(fighters.values()), attacker)
        shown = _odds_shown(encounter, target)
        chosen = params.get("choice") or options[0].value
    if not shown:
        options = [replace(o, chance=None, superficial=None, lethal=None) for o in options]
    return {
        "template": "systems/ew/_request.html",
        "options": options,
        "chosen": chosen if chosen in {o.value for o in options} else options[0].value,
        "odds_shown": shown,
        "attacker_name": attacker.character.name,
        "target_name": target.character.name,
        "eclat": combatant.character.ew.eclat,
    }


def _test_panel(encounter, combatant, request: dict, params) -> dict:
    """A test: the chance to succeed (never the ND, a GM's difficulty or an opponent's
    level), and with a point d'éclat should it fail."""
    plan = plan_test(encounter, TestChoice(**request["choice"]))
    eclat = plan.combatant.character.ew.eclat
    options = [Option("roll", _("Sans point d'éclat"), plan.chance, None, None)]
    if eclat > 0 and plan.chance < 1:
        label = _("Dépenser 1 point d'éclat si le jet échoue")
        options.append(Option("eclat", label, Fraction(1), None, None))
    opponent = plan.opponent
    shown = opponent is None or opponent.character.is_pc
    shown = shown or encounter.campaign.house().odds_against_npcs
    if not shown:
        options = [replace(o, chance=None) for o in options]
    chosen = params.get("choice") if params.get("choice") in ("roll", "eclat") else "roll"
    return {
        "template": "systems/ew/_request.html",
        "options": options,
        "chosen": chosen,
        "odds_shown": shown,
        "label": request.get("label") or _("un test"),
        "opponent_name": opponent.character.name if opponent else "",
        "eclat": eclat,
    }


def _defence_options(encounter, choice, fighters, target) -> list[Option]:
    ranks = defence_ranks(target.character.ew)
    values = [NO_DEFENCE, "active:", *(f"active:{rank.pk}" for rank in ranks)]
    labels = {
        NO_DEFENCE: _("Pas de défense active"),
        "active:": _("Défense active, sans spécialité"),
    }
    for rank in ranks:
        labels[f"active:{rank.pk}"] = _("Défense active : %(name)s (%(level)s)") % {
            "name": rank.specialty.name,
            "level": rank.level,
        }
    options = []
    for value in values:
        try:
            plan = plan_attack(
                encounter, defence_choice({"choice": asdict(choice)}, value), fighters
            )
        except EncounterError:
            continue  # not open to them (out of the fight: no active defence)
        odds = plan.odds
        options.append(
            Option(value, labels[value], odds.hit, odds.expected_superficial, odds.expected_lethal)
        )
    return options


def _attack_options(encounter, choice, fighters, attacker) -> list[Option]:
    plan = plan_attack(encounter, choice, fighters)
    odds = plan.odds
    options = [
        Option(
            "roll",
            _("Sans point d'éclat"),
            odds.hit,
            odds.expected_superficial,
            odds.expected_lethal,
        )
    ]
    if attacker.character.ew.eclat > 0 and odds.hit < 1:
        # A failed roll saved by a point d'éclat: every roll lands.
        scale = 1 / odds.hit if odds.hit else Fraction(0)
        options.append(
            Option(
                "eclat",
                _("Dépenser 1 point d'éclat si le jet échoue"),
                Fraction(1),
                odds.expected_superficial * scale if odds.hit else None,
                odds.expected_lethal * scale if odds.hit else None,
            )
        )
    return options


@transaction.atomic
def answer(
    *,
    encounter_id: int,
    by,
    combatant_id: int,
    other_id: int | None,
    request_id: str,
    value: str,
    to_hit_face: int | None,
    damage_face: int | None,
    take_over: bool = False,
) -> Event:
    """The player's answer (or the GM rolling in their place): the attack resolves through
    the console's step, the request closed and any éclat spent in it."""
    fight = _lock(encounter_id, by, combatant_id, other_id)
    combatant = fight.fighters[combatant_id]
    check_answerer(fight.encounter, combatant, by, take_over=take_over)
    request = check_open(combatant, request_id)
    if request.get("kind") == TEST:
        return ew_test_step(
            fight.encounter,
            by=by,
            choice=TestChoice(**request["choice"]),
            face=to_hit_face,
            request_of=combatant,
            eclat_if_failed=value == "eclat",
        )
    if request.get("kind") not in (DEFENCE, ATTACK):
        raise EncounterError(_("Cette demande n'est pas un jet d'attaque."), "request")
    _check_fighters(request, combatant_id, other_id)
    if take_over and not value:
        choice, eclat = _choice_of(request), False  # as the GM set it up
    elif request["kind"] == DEFENCE:
        choice = defence_choice(request, value or NO_DEFENCE)
        _check_defence_rank(choice, combatant)
        eclat = False
    else:
        choice, eclat = _choice_of(request), value == "eclat"
    return ew_attack_step(
        fight,
        by=by,
        choice=choice,
        to_hit_face=to_hit_face,
        damage_face=damage_face,
        request_of=combatant,
        eclat_if_missed=eclat,
    )


def _check_defence_rank(choice: AttackChoice, defender: Combatant) -> None:
    """The player defends with one of the specialties the rules allow (``defence_ranks``).
    The GM's own attack form lists every specialty: there the GM rules."""
    rank_id = choice.defence_specialty_id
    if rank_id is not None and not may_defend_with(defender.character.ew, rank_id):
        raise EncounterError(
            _(
                "Cette spécialité ne sert pas à se défendre : seules celles de tes armes de "
                "contact et du corps à corps comptent."
            ),
            "choice",
        )


def _lock(encounter_id: int, by, combatant_id: int, other_id: int | None) -> Fight:
    """The fight with the asked fighter and the other one of its attack (the answer form
    names it; checked against the locked request), in one query, the membership checked in
    it."""
    ids = [combatant_id] if other_id is None else [combatant_id, other_id]
    fight = lock_fight(encounter_id, ids, system=get_system("ew"), member=by)
    if fight is None or combatant_id not in fight.fighters:
        raise EncounterError(_("Ce combattant ne fait pas partie de la rencontre."), "request")
    return fight


def _check_fighters(request: dict, combatant_id: int, other_id: int | None) -> None:
    choice = request.get("choice", {})
    if {choice.get("attacker_id"), choice.get("target_id")} != {combatant_id, other_id}:
        raise EncounterError(_("Cette demande ne vise pas ces combattants."), "request")
