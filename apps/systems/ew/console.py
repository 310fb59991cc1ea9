"""What the encounter console shows of an EW-System fight: a fighter's row, the actions
panel's forms and offers, and the light answer to an attack."""

from __future__ import annotations

import copy
from types import SimpleNamespace

from django.urls import reverse
from django.utils.translation import gettext as _

from apps.characters.bars import Bar
from apps.encounters.kit import (
    EncounterError,
    Fight,
    LogLine,
    attack_target,
    describe,
    fighter_rows,
    is_out,
    load_combatants,
    prefetch_gear,
)
from apps.encounters.models import Combatant, Encounter, Event, Status
from apps.rules import ew

from .combat import AttackChoice, plan_attack, stances_left
from .defaults import defence_refusal, opening_choice, remembered_choice
from .forms import EwAttackForm, EwTestForm
from .state import FighterState


def fighter_row(combatant: Combatant, house: ew.EwHouseRules) -> tuple[list[Bar], list[str]]:
    sheet = combatant.character.ew
    pools = sheet.pools()
    bars = [
        Bar("superficial", _("Superficiels"), pools.superficial, pools.pv),
        Bar("lethal", _("Létaux"), pools.lethal, pools.pv),
        Bar("eclat", _("Éclat"), sheet.eclat, sheet.eclat_max),
    ]
    notes = []
    if pools.wound_malus:
        notes.append(_("malus %(malus)s") % {"malus": pools.wound_malus})
    actions = FighterState.of(combatant).actions
    if actions.stance == ew.TOTAL_ATTACK:
        notes.append(_("attaque totale"))
    elif actions.stance == ew.TOTAL_DEFENCE:
        notes.append(_("défense totale"))
    if actions.attacks or actions.defences:
        notes.append(
            _("%(a)s att. / %(d)s déf. ce round") % {"a": actions.attacks, "d": actions.defences}
        )
    return bars, notes


def load_console_fight(encounter: Encounter, *, test_panel: bool) -> list[Combatant]:
    """The attack form loads the gear of its two fighters itself; the test form lists any
    fighter's specialties, read only when the test panel is open."""
    return load_combatants(encounter, gear=test_panel)


def console_forms(encounter, combatants, acting, forms: dict, *, test_panel: bool) -> None:
    initial = {"version": encounter.version}
    if acting is not None and "ew_attack" not in forms:
        forms["ew_attack"] = EwAttackForm(
            initial=initial,
            encounter=encounter,
            attacker=acting,
            combatants=combatants,
            remembered=remembered_choice(encounter, acting),
        )
    if test_panel:
        forms.setdefault(
            "ew_test",
            EwTestForm(initial=initial, encounter=encounter, combatants=combatants, acting=acting),
        )


def console_extras(encounter: Encounter, acting, forms: dict, *, actions: bool) -> dict:
    """The odds of the attack form as first shown, the stances still allowed, and the
    failed roll a point d'éclat could still save."""
    attack_plan = attack_plan_error = None
    attack_form = forms.get("ew_attack")
    if attack_form is not None and not attack_form.is_bound and len(attack_form.combatants) > 1:
        attack_plan, attack_plan_error = default_attack_plan(attack_form)
    latest = latest_roll(encounter)
    return {
        "attack_plan": attack_plan,
        "attack_plan_error": attack_plan_error,
        "stances_left": running_stances_left(encounter, acting) if actions else [],
        "rescuable": latest if _rescuable(latest) else None,
        # The roll just made shows under its button until the next step.
        **roll_result(latest if latest and latest.sequence == encounter.last_sequence else None),
    }


VERDICTS = {
    "ew_attack": (("hit", _("Touché")), ("miss", _("Raté"))),
    "ew_test": (("hit", _("Réussi")), ("miss", _("Échoué"))),
    "ew_eclat": (("hit", _("Réussi grâce à un point d'éclat")),) * 2,
}


def roll_result(event: Event | None) -> dict:
    """The outcome of a roll in words, for the box under the button that made it."""
    if event is None or event.kind not in VERDICTS:
        return {"last_roll": None}
    result = event.data.get("to_hit") or event.data.get("result") or {}
    hit, miss = VERDICTS[event.kind]
    return {
        "last_roll": event,
        # A rescued attack names its target; a rescued test does not.
        "roll_at": "attack" if "target" in event.data else "test",
        "last_roll_verdict": hit if result.get("success", True) else miss,
        "last_roll_text": describe(event),
    }


def running_stances_left(encounter: Encounter, acting: Combatant | None) -> list[str]:
    if acting is None or encounter.status != Status.RUNNING:
        return []
    return stances_left(acting)


def latest_roll(encounter: Encounter) -> Event | None:
    """The latest roll not undone (attack, test or point d'éclat). One query."""
    if encounter.status != Status.RUNNING:
        return None
    return (
        encounter.events.standing()
        .of_kind("ew_attack", "ew_test", "ew_eclat")
        .select_related("actor__character__ew")  # the éclat left, for the rescue offer
        .order_by("-sequence")
        .first()
    )


def _rescuable(latest: Event | None, actor: Combatant | None = None) -> bool:
    """A PC's failed roll a point d'éclat could still turn around: only the latest roll is
    offered, a rescue comes after the roll it saved, and never at 0 éclat (offer only what
    is possible). ``actor``: the roller as already loaded (else the event's)."""
    if latest is None or latest.kind == "ew_eclat" or not latest.data.get("rescuable"):
        return False
    return (actor or latest.actor).character.ew.eclat > 0


def _by_pk(combatants: list[Combatant], pk: int | None) -> Combatant | None:
    return next((c for c in combatants if c.pk == pk), None)


def default_attack_plan(form) -> tuple[object | None, str | None]:
    """The odds of the attack form as first shown (its opening choices), or why that attack
    cannot be made (an attacker in total defence...)."""
    try:
        return plan_attack(form.encounter, form.opening_choice(), form.combatants), None
    except EncounterError as error:
        return None, error.message


# What a step's changes may touch that the actions panel's forms show beyond the odds: who
# acts (the turn, the round) — then the panel is drawn again for the fighter acting now.
PANEL_SHAPING = {("encounters.encounter", "turn"), ("encounters.encounter", "round")}


def kept_panel(encounter: Encounter, step, acting, combatants) -> dict | None:
    """Undo of the acting fighter's own attack, the turn unchanged: the attack form
    still shows that attack's choices (an attack's answer leaves the form as the GM set it).
    When a console loaded now would open its form on the same choices, with the same
    defence offered, the answer is the attack's — the odds of the same attack again, the
    stances still allowed, the offers — and the form stays. Anything else draws the panel
    again, as a reload would."""
    reverted = step.reverted
    # Only an undo: before a redo the form shows what the undo's answer left in it.
    if acting is None or step.event.kind != "undo" or reverted.kind != "ew_attack":
        return None
    if reverted.actor_id != acting.pk or "choice" not in reverted.data:
        return None
    if any((change["model"], change["field"]) in PANEL_SHAPING for change in step.changes):
        return None
    choice = AttackChoice(**reverted.data["choice"])
    target = _by_pk(combatants, choice.target_id)
    house = encounter.campaign.house()
    if target is None or not _same_defence_offered(step, reverted, target, house):
        return None
    if not _opens_on(encounter, acting, target, combatants, choice, house):
        return None
    try:
        plan, plan_error = plan_attack(encounter, choice, combatants), None
    except EncounterError as error:
        plan, plan_error = None, error.message
    return {
        "kept_attack_odds": True,
        "plan": plan,
        "plan_error": plan_error,
        "stances_left": running_stances_left(encounter, acting),
    }


def _same_defence_offered(step, reverted: Event, target: Combatant, house) -> bool:
    """Whether the form's defence block reads the same on both sides of the step: the
    target standing before and after it, its active defence allowed or refused alike with
    its round state as the step left it (the page) and as it is now (a reload)."""
    applied = reverted.data.get("applied") or {}
    if applied.get("unconscious") or applied.get("dead") or is_out(target, house):
        return False
    states = [
        change["after"]
        for change in step.changes
        if (change["model"], change["pk"], change["field"])
        == ("encounters.combatant", target.pk, "state")
    ]
    if not states:
        return True
    shown = copy.copy(target)  # the target as the page drew it: as the attack left it
    shown.state = states[-1]
    return defence_refusal(shown, house) == defence_refusal(target, house)


def _opens_on(encounter, acting, target, combatants, choice: AttackChoice, house) -> bool:
    """Whether the attack form a reload draws opens on ``choice``: the same target, weapon,
    specialties, defence and modifier (read as ``console_forms`` reads them)."""
    remembered = remembered_choice(encounter, acting)
    others = [c for c in combatants if c.pk != acting.pk]
    unbound = SimpleNamespace(is_bound=False)
    if attack_target(unbound, acting, others, house, remembered.get("target_id")) != target:
        return False
    prefetch_gear(encounter, [acting, target])
    opening = opening_choice(acting, target, remembered, house)
    return (
        opening.get("weapon"),
        opening.get("specialty"),
        opening.get("modifier", 0),
        opening.get("defence"),
        opening.get("defence_specialty"),
    ) == (
        choice.weapon_id,
        choice.specialty_id,
        choice.modifier,
        choice.defence,
        choice.defence_specialty_id,
    )


def attack_step_context(request, event: Event, fight: Fight, form) -> dict:
    """What an attack changed, for its out-of-band answer, built from the step's own
    fighters (up to date in memory) without reading anything more: the two rows, the new
    log line, undo and redo, and the odds of the same attack again. The attack form itself
    stays as the GM left it (an attack never changes who acts)."""
    encounter = fight.encounter  # the step's locked instance: version, round, turn are new
    fighters = sorted(fight.fighters.values(), key=lambda c: (c.position, c.pk))
    house = encounter.campaign.house()
    try:
        plan, plan_error = plan_attack(encounter, form.choice(), fighters), None
    except EncounterError as error:
        plan, plan_error = None, error.message
    acting = fight.acting
    return {
        "encounter": encounter,
        "campaign": encounter.campaign,
        "house": house,
        "rows": fighter_rows(encounter, fighters, house, acting),
        "acting": acting,
        "log": [LogLine(event, describe(event))],
        # The step just made can be undone; a new step leaves nothing to redo.
        "can_undo": True,
        "can_redo": False,
        # The attack is the latest roll: it is the one a point d'éclat could save.
        "rescuable": event if _rescuable(event, _by_pk(fighters, event.actor_id)) else None,
        **roll_result(event),
        "stances_left": running_stances_left(encounter, acting),
        "plan": plan,
        "plan_error": plan_error,
        "live_url": reverse("encounters:changes", args=[encounter.pk]),
    }
