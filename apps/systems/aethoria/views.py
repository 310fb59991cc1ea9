"""Aethoria actions of the encounter console (their routes: ``urls.py``)."""

from __future__ import annotations

from collections.abc import Callable

from django.db import transaction
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
    acting_combatant,
    add_encounter_error,
    answer_console,
    answer_posted_request,
    answer_step,
    get_encounter_for_user,
    load_console_fight,
    lock_fight_for_gm,
    refuse,
    run_fight_step,
    run_step,
    stale_refusal,
)
from apps.encounters.models import Encounter, Event
from apps.systems import get_system

from . import attack, bleeding, effects, fatigue, magic, requests, specials, table_tests
from .answers import answers_light, attack_answer_context
from .forms import (
    AethoriaAttackForm,
    AethoriaCombatantForm,
    AethoriaEffectForm,
    AethoriaSpecialForm,
)
from .panel import fired_combatant
from .roll_forms import (
    AethoriaAttackFatigueForm,
    AethoriaFatigueForm,
    AethoriaSpellForm,
    AethoriaTestForm,
)
from .state import PREPARED_ATTACK, PREPARED_SPELL

ODDS = "systems/aethoria/_odds.html"
ACTIONS = "systems/aethoria/_actions.html"


def _people(encounter: Encounter, *, test_panel: bool = False):
    combatants = load_console_fight(encounter, test_panel=test_panel)
    return combatants, acting_combatant(encounter, combatants)


def _act(
    request,
    encounter: Encounter,
    key: str,
    form,
    call: Callable[[dict], object],
    fight: list | None = None,
    kept: Callable[[object], tuple[dict, list]] | None = None,
):
    """Validate the form, run the step, answer with what it changed (the console with the
    form and its message when refused; 409 when someone acted first). ``fight``: the
    combatants the step was given and updated in place: the answer is built from them
    without loading the fight again. ``kept``: the forms the answer shows as they were
    left, built from the step's event, and the fight they were read on (the answer's rows
    use it too: it is loaded once)."""
    if form is None:
        return refuse(request, encounter, EncounterError(_("Personne n'agit maintenant.")))
    if stale := stale_refusal(request, encounter):
        return refuse(request, encounter, stale)
    if not form.is_valid():
        return answer_console(request, encounter, forms={key: form})

    def refused(error: EncounterError):
        if key in SMALL_FORMS:
            # A button, not a form with fields: the message goes where messages go.
            return refuse(request, encounter, error)
        add_encounter_error(form, error)
        return answer_console(request, encounter, forms={key: form})

    def answer(event):
        forms, combatants = (None, fight) if kept is None else kept(event)
        return answer_step(request, encounter, event, combatants, forms=forms)

    base = {"encounter_id": encounter.pk, "version": form.cleaned_data["version"]}
    return run_step(
        request,
        encounter.pk,
        lambda: call({**base, "by": request.user}),
        answer=answer,
        refused=refused,
    )


SMALL_FORMS = {
    "aethoria_fatigue",
    "aethoria_effect",
    "aethoria_fire",
    "aethoria_aim_lost",
    "aethoria_treat_bleeding",
}


def _odds(request, partial: str, form) -> TemplateResponse:
    valid = form is not None and form.is_valid()
    return TemplateResponse(
        request, f"{ODDS}#{partial}", {"form": form, "plan": form.plan if valid else None}
    )


# --- Attacks ---------------------------------------------------------------------------------


def _attack_form(
    encounter: Encounter, data, refresh: bool = False, with_plan: bool = True
) -> tuple[str, AethoriaAttackForm | None]:
    """The acting combatant's attack form, or the one of a combatant firing its prepared
    action when the data names it."""
    combatants, acting = _people(encounter)
    fired = fired_combatant(encounter, combatants)
    options = {
        "encounter": encounter,
        "combatants": combatants,
        "refresh": refresh,
        "with_plan": with_plan,
    }
    if fired is not None and data is not None and data.get("attacker") == str(fired.pk):
        form = AethoriaAttackForm(data, attacker=fired, fired=True, **options)
        return "aethoria_fired_attack", form
    if acting is None:
        return "aethoria_attack", None
    return "aethoria_attack", AethoriaAttackForm(data, attacker=acting, **options)


@require_GET
def aethoria_attack_odds(request: HtmxHttpRequest, encounter_id: int) -> TemplateResponse:
    """The exact odds of the attack being filled in, before any die is rolled; with
    ``redraw`` (the target changed), the whole form, whose parrying items follow the target."""
    encounter = get_encounter_for_user(request, encounter_id, gm=True)
    redraw = bool(request.GET.get("redraw"))
    _, form = _attack_form(encounter, request.GET, refresh=redraw)
    if not redraw or form is None:
        return _odds(request, "aethoria-attack-odds", form)
    valid = form.is_valid()
    context = {"form": form, "plan": form.plan if valid else None, "encounter": encounter}
    context["house"] = encounter.campaign.house()  # which request buttons come first
    # The page takes the odds box (the parrying items, the request buttons) out of this
    # form: its refusals are said in the box.
    context["odds_only"] = True
    return TemplateResponse(request, f"{ACTIONS}#aethoria-attack-form", context)


@require_POST
def aethoria_attack(request: HtmxHttpRequest, encounter_id: int):
    """Melee, ranged, cibler or attaque double, by the acting (or firing) combatant. As the
    EW attack: the access check, the lock and the two fighters are one query, the posted
    form builds no choice list and plans nothing (the step does, under its lock); a refused
    attack is answered by ``_attack_refused``."""
    form = AethoriaAttackForm(request.POST)
    if not form.is_valid():
        return _attack_refused(request, encounter_id)
    choice = form.choice()

    @transaction.atomic
    def step() -> tuple[Fight, Event]:
        fight = lock_fight_for_gm(
            request,
            encounter_id,
            (choice.attacker_id, choice.target_id),
            system=get_system("aethoria"),
            version=form.cleaned_data["version"],
        )
        return fight, attack.aethoria_attack_step(
            fight, by=request.user, choice=choice, faces=form.faces()
        )

    return run_step(
        request,
        encounter_id,
        step,
        answer=lambda done: _respond_attack(request, *done),
        refused=lambda error: _attack_refused(request, encounter_id, error),
    )


@require_POST
def aethoria_request(request: HtmxHttpRequest, encounter_id: int):
    """The attack set up in the form goes to the target's player for its defence
    ("Défense au joueur")."""
    form = AethoriaAttackForm(request.POST)
    kind = request.POST.get("request_kind", DEFENCE)
    if not form.is_valid() or kind not in (DEFENCE, ATTACK):
        return _attack_refused(request, encounter_id)
    choice = form.choice()
    return run_fight_step(
        request,
        encounter_id,
        (choice.attacker_id, choice.target_id),
        lambda fight: requests.request_defence(fight, by=request.user, choice=choice, kind=kind),
        system=get_system("aethoria"),
        version=form.cleaned_data["version"],
        refused=lambda error: _attack_refused(request, encounter_id, error),
    )


def _respond_attack(request, fight, event):
    """The busiest action of the console answers with only what it changed (its fragments)
    when they say it all; else as any step (the whole actions panel)."""
    if not request.htmx or not answers_light(event, fight):
        return answer_step(request, fight.encounter, event)
    context = attack_answer_context(event, fight)
    return reswap(TemplateResponse(request, f"{ACTIONS}#aethoria-attack-update", context), "none")


def _attack_refused(request, encounter_id: int, error: EncounterError | None = None):
    """A refused attack: the console with the form as posted, built with its lists, each
    refusal next to its field (409 first if someone acted since the form was drawn)."""
    encounter = get_encounter_for_user(request, encounter_id, gm=True)
    key, form = _attack_form(encounter, request.POST, with_plan=False)
    if form is None:
        return refuse(request, encounter, EncounterError(_("Personne n'agit maintenant.")))
    if stale := stale_refusal(request, encounter):
        return refuse(request, encounter, stale)
    if form.is_valid() and error is not None:
        add_encounter_error(form, error)
    return answer_console(request, encounter, forms={key: form})


# --- Special actions, prepared actions, severe effects ---------------------------------------


@require_POST
def aethoria_special(request: HtmxHttpRequest, encounter_id: int):
    """Défense, viser, préparer, se déplacer, autre action."""
    encounter = get_encounter_for_user(request, encounter_id, gm=True)
    combatants, acting = _people(encounter)
    form = (
        AethoriaSpecialForm(request.POST, acting=acting, combatants=combatants) if acting else None
    )

    def call(base):
        data = form.cleaned_data
        return specials.aethoria_special(
            **base,
            combatant_id=data["combatant"],
            action=data["action"],
            target_id=data.get("target"),
            description=data.get("description", ""),
            trigger=data.get("trigger", ""),
            note=data.get("note", ""),
            prepared_kind=data.get("prepared_kind") or PREPARED_ATTACK,
            combatants=combatants,
        )

    return _act(request, encounter, "aethoria_special", form, call, fight=combatants)


def _run_combatant_step(request, encounter_id: int, key: str, service):
    """A button that acts for one combatant: ``service`` is given its id."""
    encounter = get_encounter_for_user(request, encounter_id, gm=True)
    form = AethoriaCombatantForm(request.POST)
    return _act(
        request,
        encounter,
        key,
        form,
        lambda base: service(**base, combatant_id=form.cleaned_data["combatant"]),
    )


@require_POST
def aethoria_aim_lost(request: HtmxHttpRequest, encounter_id: int):
    """Viser: the watched target got out of reach, the aim bonus is lost."""
    return _run_combatant_step(
        request, encounter_id, "aethoria_aim_lost", specials.aethoria_lose_aim
    )


@require_POST
def aethoria_fire(request: HtmxHttpRequest, encounter_id: int):
    """The trigger happened: fire a combatant's prepared action."""
    return _run_combatant_step(request, encounter_id, "aethoria_fire", specials.aethoria_fire)


@require_POST
def aethoria_effect(request: HtmxHttpRequest, encounter_id: int):
    """Confirm or dismiss the severe effect an attack proposed."""
    encounter = get_encounter_for_user(request, encounter_id, gm=True)
    form = AethoriaEffectForm(request.POST)
    return _act(
        request,
        encounter,
        "aethoria_effect",
        form,
        lambda base: effects.aethoria_effect(
            **base,
            event_id=form.cleaned_data["event"],
            blow=form.cleaned_data["blow"],
            confirm=form.cleaned_data["decision"] == "confirm",
        ),
    )


@require_POST
def aethoria_treat_bleeding(request: HtmxHttpRequest, encounter_id: int):
    """Stop a fighter's bleeding (a tool of its row)."""
    encounter = get_encounter_for_user(request, encounter_id, gm=True)
    form = AethoriaCombatantForm(request.POST)
    return _act(
        request,
        encounter,
        "aethoria_treat_bleeding",
        form,
        lambda base: bleeding.aethoria_treat_bleeding(
            **base, combatant_id=form.cleaned_data["combatant"]
        ),
    )


# --- Spells, tests, fatigue after the roll ---------------------------------------------------


def _spell_form(encounter: Encounter, data) -> tuple[str, AethoriaSpellForm | None]:
    """The acting combatant's spell form, or the one of a doué firing its prepared spell
    when the data names it."""
    combatants, acting = _people(encounter)
    fired = fired_combatant(encounter, combatants)
    if (
        fired is not None
        and specials.fired_kind(fired) == PREPARED_SPELL
        and data.get("caster") == str(fired.pk)
    ):
        return "aethoria_fired_spell", AethoriaSpellForm(
            data, encounter=encounter, caster=fired, combatants=combatants, fired=True
        )
    if acting is None:
        return "aethoria_spell", None
    return "aethoria_spell", AethoriaSpellForm(
        data, encounter=encounter, caster=acting, combatants=combatants
    )


@require_GET
def aethoria_spell_odds(request: HtmxHttpRequest, encounter_id: int) -> TemplateResponse:
    """The odds of the spell being filled in, before any die is rolled."""
    encounter = get_encounter_for_user(request, encounter_id, gm=True)
    _, form = _spell_form(encounter, request.GET)
    return _odds(request, "aethoria-spell-odds", form)


@require_POST
def aethoria_spell(request: HtmxHttpRequest, encounter_id: int):
    """A doué casts a spell as its action (or as the prepared action just fired)."""
    encounter = get_encounter_for_user(request, encounter_id, gm=True)
    key, form = _spell_form(encounter, request.POST)
    return _act(
        request,
        encounter,
        key,
        form,
        lambda base: magic.aethoria_spell(
            **base,
            choice=form.choice(),
            faces=form.cleaned_data["faces"],
            fatigue_faces=form.cleaned_data["fatigue_faces"],
        ),
    )


def _test_form(encounter: Encounter, data) -> AethoriaTestForm:
    combatants, acting = _people(encounter, test_panel=True)
    return AethoriaTestForm(data, encounter=encounter, combatants=combatants, acting=acting)


@require_GET
def aethoria_test_odds(request: HtmxHttpRequest, encounter_id: int) -> TemplateResponse:
    """The odds of the test being filled in; when the GM opens the test panel (no test
    named yet), the empty form with its first odds."""
    encounter = get_encounter_for_user(request, encounter_id, gm=True)
    if "combatant" not in request.GET:
        form = _test_form(encounter, None)
        form.initial = {"version": encounter.version}
        context = {
            "form": form,
            "plan": form.initial_plan(),
            "encounter": encounter,
            "house": encounter.campaign.house(),
        }
        return TemplateResponse(request, f"{ACTIONS}#aethoria-test-form", context)
    return _odds(request, "aethoria-test-odds", _test_form(encounter, request.GET))


@require_POST
def aethoria_test(request: HtmxHttpRequest, encounter_id: int):
    """Any test on the table: a skill or a characteristic against a difficulty."""
    encounter = get_encounter_for_user(request, encounter_id, gm=True)
    form = _test_form(encounter, request.POST)
    return _act(
        request,
        encounter,
        "aethoria_test",
        form,
        lambda base: table_tests.aethoria_test(
            **base,
            choice=form.choice(),
            faces=form.cleaned_data["faces"],
            fatigue_faces=form.cleaned_data["fatigue_faces"],
        ),
        kept=lambda event: _test_again(form, event.encounter),
    )


@require_POST
def aethoria_test_request(request: HtmxHttpRequest, encounter_id: int):
    """The test set up in the form goes to its fighter's player ("Test au joueur"): they
    choose their fatigue dice and roll."""
    encounter = get_encounter_for_user(request, encounter_id, gm=True)
    if stale := stale_refusal(request, encounter):
        return refuse(request, encounter, stale)
    form = _test_form(encounter, request.POST)
    if not form.is_valid():
        return answer_console(request, encounter, forms={"aethoria_test": form})
    try:
        event = requests.request_test(
            encounter_id=encounter.pk,
            version=form.cleaned_data["version"],
            by=request.user,
            choice=form.choice(),
        )
    except EncounterError as error:
        return refuse(request, encounter, error, forms={"aethoria_test": form})
    return answer_step(request, encounter, event)


def _test_again(form: AethoriaTestForm, encounter: Encounter) -> tuple[dict, list]:
    """The test panel after a roll: open on the same test, read against the fight as the
    roll left it (which the answer's rows show too)."""
    combatants, _ = _people(encounter, test_panel=True)
    return {"aethoria_test": form.again(encounter, combatants)}, combatants


@require_POST
def aethoria_fatigue(request: HtmxHttpRequest, encounter_id: int):
    """Fatigue dice decided after seeing the last test or spell."""
    encounter = get_encounter_for_user(request, encounter_id, gm=True)
    form = AethoriaFatigueForm(request.POST)
    return _act(
        request,
        encounter,
        "aethoria_fatigue",
        form,
        lambda base: fatigue.aethoria_fatigue_after(
            **base,
            event_id=form.cleaned_data["event"],
            count=form.cleaned_data["count"],
            faces=form.cleaned_data["faces"],
        ),
    )


@require_GET
def aethoria_attack_fatigue_offer(request: HtmxHttpRequest, encounter_id: int):
    """The form of the folded offer of fatigue dice after the last attack, with the odds of
    every choice, loaded when the GM opens it. Without htmx, the console."""
    encounter = get_encounter_for_user(request, encounter_id, gm=True)
    if not request.htmx:
        return redirect("encounters:console", encounter.pk)
    event = fatigue.attack_fatigue_candidate([fatigue.latest_attack_step(encounter)])
    form = None
    if event is not None:
        form = AethoriaAttackFatigueForm(initial={"version": encounter.version}, event=event)
    context = {"encounter": encounter, "form": form if form and form.options else None}
    return TemplateResponse(request, f"{ACTIONS}#aethoria-attack-fatigue-body", context)


@require_POST
def aethoria_attack_fatigue(request: HtmxHttpRequest, encounter_id: int):
    """Fatigue dice decided after seeing a roll of the last attack: it is resolved again."""
    encounter = get_encounter_for_user(request, encounter_id, gm=True)
    event = fatigue.attack_fatigue_candidate([fatigue.latest_attack_step(encounter)])
    if event is None:
        too_late = _("Trop tard : les dés de fatigue s'ajoutent à la dernière attaque.")
        return refuse(request, encounter, EncounterError(too_late))
    form = AethoriaAttackFatigueForm(request.POST, event=event)

    def call(base):
        data = form.cleaned_data
        return fatigue.aethoria_attack_fatigue_after(
            **base,
            event_id=data["event"],
            roll=data["roll"],
            count=data["count"],
            faces=data["faces"],
            damage_faces=data["damage_faces"],
        )

    return _act(request, encounter, "aethoria_attack_fatigue", form, call)


@require_POST
def aethoria_request_answer(request: HtmxHttpRequest, encounter_id: int):
    """The player answers the roll asked of their character (issue #31): one step, or a
    refusal in French that changes nothing."""
    return answer_posted_request(request, encounter_id, requests.answer_posted)
