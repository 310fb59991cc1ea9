"""The EW-System actions of the encounter console: attack, test, stance, éclat."""

from __future__ import annotations

from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import reswap

from apps.core.http import HtmxHttpRequest
from apps.encounters.kit import (
    ATTACK,
    DEFENCE,
    EncounterError,
    Fight,
    StaleVersion,
    acting_combatant,
    add_encounter_error,
    answer_console,
    answer_posted_request,
    answer_step,
    ends_the_round_early,
    get_encounter_for_user,
    load_combatants,
    lock_fight_for_gm,
    refuse,
    run_fight_step,
    run_small_step,
    run_step,
    stale_refusal,
)
from apps.encounters.models import Encounter, Event
from apps.systems import get_system

from . import combat, requests, table_tests
from .console import attack_step_context
from .forms import EwAttackForm, EwCoupDePouceForm, EwEclatForm, EwStanceForm, EwTestForm

ACTIONS = "systems/ew/_actions.html"


def _respond_attack(request, fight: Fight, event, form):
    """Answer an attack with only what it changed (out-of-band fragments): the busiest action
    of the console stays light whatever the size of the fight and its log."""
    if not request.htmx:
        return redirect("encounters:console", fight.encounter.pk)
    if ends_the_round_early(fight, event):
        return answer_step(request, fight.encounter, event)
    response = TemplateResponse(
        request, f"{ACTIONS}#attack-update", attack_step_context(request, event, fight, form)
    )
    return reswap(response, "none")


def _ew_attack_form(request, encounter: Encounter, data=None, **options) -> EwAttackForm | None:
    combatants = load_combatants(encounter, gear=False)  # the form loads what it reads
    acting = acting_combatant(encounter, combatants)
    if acting is None:
        return None
    return EwAttackForm(
        data, encounter=encounter, attacker=acting, combatants=combatants, **options
    )


@require_GET
def ew_attack_odds(request: HtmxHttpRequest, encounter_id: int) -> TemplateResponse:
    """The odds of the attack being filled in, before any die is rolled."""
    encounter = get_encounter_for_user(request, encounter_id, gm=True)
    form = _ew_attack_form(request, encounter, request.GET)
    if form is None:
        return HttpResponse(status=204)
    valid = form.is_valid()
    context = {"form": form, "plan": form.plan if valid else None, "encounter": encounter}
    context["house"] = encounter.campaign.house()  # which request buttons come first
    # The page takes the odds box, the defence block and the request buttons out of this
    # form: the refusals of the other fields are said in the box.
    context["odds_only"] = True
    return TemplateResponse(request, f"{ACTIONS}#ew-attack-form", context)


@require_POST
def ew_attack(request: HtmxHttpRequest, encounter_id: int):
    """The acting fighter attacks. The hot path of the console: the access check, the lock
    and the two fighters are one query, the form builds no choice list (the step checks the
    posted ids against the fight); a refused attack is answered by ``_attack_refused``."""
    form = EwAttackForm(request.POST)
    if not form.is_valid():
        return _attack_refused(request, encounter_id)
    choice = form.choice()

    @transaction.atomic
    def step() -> tuple[Fight, Event]:
        fight = lock_fight_for_gm(
            request,
            encounter_id,
            (choice.attacker_id, choice.target_id),
            system=get_system("ew"),
            version=form.cleaned_data["version"],
        )
        event = combat.ew_attack_step(
            fight,
            by=request.user,
            choice=choice,
            to_hit_face=form.cleaned_data["to_hit_face"],
            damage_face=form.cleaned_data["damage_face"],
        )
        return fight, event

    return run_step(
        request,
        encounter_id,
        step,
        answer=lambda done: _respond_attack(request, *done, form),
        refused=lambda error: _attack_refused(request, encounter_id, error),
    )


@require_POST
def ew_request(request: HtmxHttpRequest, encounter_id: int):
    """The attack set up in the form goes to a player: its defence to the target's
    ("Défense au joueur"), or its roll to the attacker's ("Attaque au joueur")."""
    form = EwAttackForm(request.POST)
    kind = request.POST.get("request_kind", "")
    if not form.is_valid() or kind not in (DEFENCE, ATTACK):
        return _attack_refused(request, encounter_id)
    choice = form.choice()
    return run_fight_step(
        request,
        encounter_id,
        (choice.attacker_id, choice.target_id),
        lambda fight: requests.request_attack(fight, by=request.user, choice=choice, kind=kind),
        system=get_system("ew"),
        version=form.cleaned_data["version"],
        refused=lambda error: _attack_refused(request, encounter_id, error),
    )


def _attack_refused(request, encounter_id: int, error: EncounterError | None = None):
    """A refused attack: the console with the form as posted, built with its lists, each
    refusal next to its field (409 first if someone acted since the form was drawn)."""
    encounter = get_encounter_for_user(request, encounter_id, gm=True)
    if stale := stale_refusal(request, encounter):
        return refuse(request, encounter, stale)
    form = _ew_attack_form(request, encounter, request.POST, with_odds=False)
    if form is None:
        return refuse(request, encounter, EncounterError(_("Personne n'agit maintenant.")))
    if form.is_valid() and error is not None:
        add_encounter_error(form, error)
    return answer_console(request, encounter, forms={"ew_attack": form})


def _ew_test_form(request, encounter: Encounter, data=None) -> EwTestForm:
    combatants = load_combatants(encounter)
    return EwTestForm(
        data,
        encounter=encounter,
        combatants=combatants,
        acting=acting_combatant(encounter, combatants),
    )


@require_GET
def ew_test_odds(request: HtmxHttpRequest, encounter_id: int) -> TemplateResponse:
    """The test panel as it opens, then the odds of the test being filled in."""
    encounter = get_encounter_for_user(request, encounter_id, gm=True)
    if "combatant" not in request.GET:  # the panel opens: an empty form with its odds
        form = _ew_test_form(request, encounter)
        form.initial = {"version": encounter.version}
        context = {"form": form, "encounter": encounter, "house": encounter.campaign.house()}
        return TemplateResponse(request, f"{ACTIONS}#ew-test-form", context)
    form = _ew_test_form(request, encounter, request.GET)
    valid = form.is_valid()
    return TemplateResponse(
        request, f"{ACTIONS}#ew-test-odds", {"form": form, "plan": form.plan if valid else None}
    )


@require_POST
def ew_test(request: HtmxHttpRequest, encounter_id: int):
    """A fighter rolls a test on the resolution table (NA against ND)."""
    encounter = get_encounter_for_user(request, encounter_id, gm=True)
    if stale := stale_refusal(request, encounter):
        return refuse(request, encounter, stale)
    form = _ew_test_form(request, encounter, request.POST)
    if not form.is_valid():
        return answer_console(request, encounter, forms={"ew_test": form})
    try:
        event = table_tests.ew_test(
            encounter_id=encounter.pk,
            version=form.cleaned_data["version"],
            by=request.user,
            choice=form.choice(),
            face=form.cleaned_data["face"],
        )
    except EncounterError as error:
        return refuse(request, encounter, error, forms={"ew_test": form})
    # The test panel stays open as the GM set it: the next player often rolls the same test.
    return answer_step(request, encounter, event, keep_actions=True)


@require_POST
def ew_test_request(request: HtmxHttpRequest, encounter_id: int):
    """The test set up in the form goes to its fighter's player ("Test au joueur")."""
    encounter = get_encounter_for_user(request, encounter_id, gm=True)
    if stale := stale_refusal(request, encounter):
        return refuse(request, encounter, stale)
    form = _ew_test_form(request, encounter, request.POST)
    if not form.is_valid():
        return answer_console(request, encounter, forms={"ew_test": form})
    try:
        event = requests.request_test(
            encounter_id=encounter.pk,
            version=form.cleaned_data["version"],
            by=request.user,
            choice=form.choice(),
        )
    except EncounterError as error:
        return refuse(request, encounter, error, forms={"ew_test": form})
    return answer_step(request, encounter, event)


@require_POST
def ew_stance(request: HtmxHttpRequest, encounter_id: int):
    """Total attack or total defence for the rest of the round."""
    return run_small_step(
        request,
        encounter_id,
        EwStanceForm,
        combat.ew_stance,
        gm_in_lock=True,
        combatant_id="combatant",
        stance="stance",
    )


@require_POST
def ew_eclat(request: HtmxHttpRequest, encounter_id: int):
    """A point d'éclat turns a PC's failed roll into a success; a bad die face or a refusal
    comes back in the éclat card, next to its field, nothing changed."""
    encounter = get_encounter_for_user(request, encounter_id, gm=True)
    form = EwEclatForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            event = combat.ew_eclat_rescue(
                encounter_id=encounter.pk,
                version=data["version"],
                by=request.user,
                event_id=data["event"],
                damage_face=data["damage_face"],
            )
        except EncounterError as error:
            if isinstance(error, StaleVersion) or error.field != "damage_face":
                # Said at the top of the actions too: the card may be gone (roll saved).
                add_encounter_error(form, error)
                return refuse(request, encounter, error, forms={"ew_eclat": form})
            add_encounter_error(form, error)
        else:
            return answer_step(request, encounter, event)
    return answer_console(request, encounter, forms={"ew_eclat": form})


@require_POST
def ew_coup_de_pouce(request: HtmxHttpRequest, encounter_id: int):
    """A point d'éclat spent on a coup de pouce du destin, noted in the log."""
    return run_small_step(
        request,
        encounter_id,
        EwCoupDePouceForm,
        combat.ew_coup_de_pouce,
        combatant_id="combatant",
        note="note",
    )


@require_POST
def ew_request_answer(request: HtmxHttpRequest, encounter_id: int):
    """The player answers the roll asked of their character (issue #31): one step, or a
    refusal in French that changes nothing."""
    return answer_posted_request(request, encounter_id, requests.answer_posted)
