"""What the encounter console shows of an EW-System fight: a fighter's row, the actions
panel's forms and offers, and the light answer to an attack."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _

from apps.characters.bars import Bar
from apps.encounters.console import LogLine, fighter_rows
from apps.encounters.log import describe
from apps.encounters.models import Combatant, Encounter, Event, Status
from apps.encounters.services import load_combatants
from apps.encounters.steps import EncounterError, Fight
from apps.rules import ew

from .combat import plan_attack, stances_left
from .defaults import remembered_choice
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
        encounter.events.filter(kind__in=("ew_attack", "ew_test", "ew_eclat"), undone=False)
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
