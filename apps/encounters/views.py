"""The encounter console (GM), the table view (players), and the actions they post."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from apps.campaigns.access import get_campaign_for_user
from apps.campaigns.models import Role
from apps.core.http import HtmxHttpRequest, replaces_messages
from apps.core.live import answer_check
from apps.core.once import SubmissionRefused, once_per_submission
from apps.core.push import open_stream, topic
from apps.systems import system_of

from . import lasting, services, tools
from .access import get_encounter_for_user
from .answers import (
    CONSOLE,
    answer_console,
    answer_step,
    first_error,
    refuse,
    run_row_step,
    run_small_step,
)
from .condition_words import condition_form, panel_target
from .console import (
    console_context,
    correction_form,
    correction_target,
    tools_row,
)
from .forms import (
    AddCombatantsForm,
    AwardXpForm,
    ConditionAfterForm,
    ConditionRemoveForm,
    EncounterForm,
    FromTemplateForm,
    InitiativeForm,
    ReinforcementForm,
    VersionForm,
    VisibilityForm,
    add_encounter_error,
)
from .models import Encounter, Status
from .request_views import my_turn_context
from .services import load_combatants
from .steps import EncounterError, StaleVersion
from .table import players_table_body, table_context

TABLE = "encounters/table.html"
CONDITIONS = "encounters/_conditions.html"
ROW_TOOLS = "encounters/_row_tools.html"


# --- Pages -----------------------------------------------------------------------------------


@require_GET
def encounter_console(request: HtmxHttpRequest, encounter_id: int) -> TemplateResponse:
    """The GM's console: order, acting combatant, actions with their odds, log."""
    encounter = get_encounter_for_user(request, encounter_id, gm=True)
    if not request.htmx or request.htmx.boosted:
        return TemplateResponse(request, CONSOLE, console_context(request, encounter))
    # The console refreshing itself: someone acted since, and the bar's words (a stale
    # click's "Quelqu'un a agi avant vous") speak of the state it no longer shows.
    region = TemplateResponse(request, f"{CONSOLE}#console", console_context(request, encounter))
    return replaces_messages(region)


@require_GET
def encounter_table(request: HtmxHttpRequest, encounter_id: int) -> HttpResponse:
    """Read-only view for players and a shared screen: only what players may see."""
    encounter = get_encounter_for_user(request, encounter_id)
    is_gm = encounter.role == Role.GM
    if not request.htmx or request.htmx.boosted:
        context = table_context(request, encounter)
        if not is_gm:
            # The viewer's own "À toi" panel, beside the region every phone shares.
            context["my_turn"] = my_turn_context(request, encounter)
        return TemplateResponse(request, TABLE, context)
    if not is_gm:
        # The region every phone fetches after a step: one render per version (C11 holds:
        # the access check above ran for this viewer first).
        return HttpResponse(players_table_body(request, encounter, _shown(request)))
    return TemplateResponse(request, f"{TABLE}#table-body", table_context(request, encounter))


def _shown(request: HtmxHttpRequest) -> int | None:
    """The version the asking region shows (its own URL carries it), if it says."""
    shown = request.GET.get("shown", "")
    return int(shown) if shown.isdigit() else None


def _followed_version(request: HtmxHttpRequest, encounter_id: int) -> int | None:
    """The version of the encounter for a viewer who may follow it, else None."""
    return (
        # Players follow a fight in preparation too: their table view waits for its start
        # (showing nothing of it) and turns into the fight then.
        Encounter.objects.filter(pk=encounter_id, campaign__memberships__user=request.user)
        .values_list("version", flat=True)
        .first()
    )


@require_GET
def encounter_changes(request: HtmxHttpRequest, encounter_id: int) -> HttpResponse:
    """The idle check of open screens: 204 while nothing changed (two queries in all)."""
    return answer_check(request, _followed_version(request, encounter_id), "encounter-changed")


@require_GET
async def encounter_stream(request: HtmxHttpRequest, encounter_id: int) -> HttpResponse:
    """The pushed changes of an encounter (console, table view), for whoever may check it."""

    def allowed() -> list[str] | None:
        found = _followed_version(request, encounter_id) is not None
        return [topic("encounter", encounter_id)] if found else None

    return await open_stream(request, allowed)


def _create_refused(request: HtmxHttpRequest, error: SubmissionRefused, campaign_id: int):
    """A new fight's form sent twice: said on the campaign page, which lists the first."""
    campaign = get_campaign_for_user(request, campaign_id, gm=True)
    messages.error(request, error.message)
    return redirect("campaigns:detail", campaign.pk)


@once_per_submission(_create_refused)
def encounter_create(request: HtmxHttpRequest, campaign_id: int):
    """The GM names a new fight of the campaign, then prepares it in its console."""
    campaign = get_campaign_for_user(request, campaign_id, gm=True)
    form = EncounterForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        encounter = services.encounter_create(campaign=campaign, name=form.cleaned_data["name"])
        return redirect("encounters:console", encounter.pk)
    return TemplateResponse(request, "encounters/create.html", {"form": form, "campaign": campaign})


# --- Actions ---------------------------------------------------------------------------------


@require_POST
def encounter_pause(request: HtmxHttpRequest, encounter_id: int):
    """Pause the fight: it resumes at the same round and turn, even a week later."""
    return run_small_step(
        request, encounter_id, VersionForm, services.encounter_pause, gm_in_lock=True
    )


@require_POST
def encounter_resume(request: HtmxHttpRequest, encounter_id: int):
    """Resume a paused fight where it stopped."""
    return run_small_step(
        request, encounter_id, VersionForm, services.encounter_resume, gm_in_lock=True
    )


@require_POST
def encounter_undo(request: HtmxHttpRequest, encounter_id: int):
    """Revert the latest step not yet undone."""
    return run_small_step(
        request, encounter_id, VersionForm, services.encounter_undo, gm_in_lock=True
    )


@require_POST
def encounter_redo(request: HtmxHttpRequest, encounter_id: int):
    """Re-apply the step the latest undo reverted."""
    return run_small_step(
        request, encounter_id, VersionForm, services.encounter_redo, gm_in_lock=True
    )


@require_POST
def encounter_reopen(request: HtmxHttpRequest, encounter_id: int):
    """Run again a fight ended too soon."""
    return run_small_step(
        request, encounter_id, VersionForm, services.encounter_reopen, gm_in_lock=True
    )


@require_POST
def encounter_end(request: HtmxHttpRequest, encounter_id: int):
    """The GM closes the fight: its summary is written and a line goes to the session log."""
    encounter = get_encounter_for_user(request, encounter_id, gm=True)
    form = VersionForm(request.POST)
    if not form.is_valid():
        return refuse(request, encounter, EncounterError(form.version_refused()))
    try:
        services.encounter_end(
            encounter_id=encounter.pk, version=form.cleaned_data["version"], by=request.user
        )
    except EncounterError as error:
        return refuse(request, encounter, error)
    messages.success(request, _("Combat terminé : voici le bilan."))
    return answer_console(request, encounter)


def _run_initiative_step(request, encounter_id: int, service):
    """A step that may roll initiative, with faces typed from physical dice where given."""
    encounter = get_encounter_for_user(request, encounter_id, gm=True)
    # One face field a fighter, read only when faces are posted (the start, or a new round
    # rolled with physical dice): a plain "next turn" reads the fight once, in its step.
    typed = any(key.startswith("face_") for key in request.POST)
    combatants = (
        list(encounter.combatants.filter(present=True).select_related("character")) if typed else []
    )
    # The faces come back next to their field: the start's, or the new round's.
    name = "initiative" if encounter.status == Status.PREPARING else "new_round"
    form = InitiativeForm(
        request.POST,
        combatants=combatants,
        sides=system_of(encounter.campaign).initiative_sides,
        auto_id="id_%s" if name == "initiative" else "id_round_%s",
    )
    # A form built without its face fields is not drawn again: the console builds its own.
    kept = {name: form} if typed else None
    if refusal := form.version_refused():
        return refuse(request, encounter, EncounterError(refusal), forms=kept)
    if not form.is_valid():
        return answer_console(request, encounter, forms=kept)
    try:
        event = service(
            encounter_id=encounter.pk,
            version=form.cleaned_data["version"],
            by=request.user,
            initiative=form.faces(),
        )
    except EncounterError as error:
        return refuse(request, encounter, error, forms=kept)
    return answer_step(request, encounter, event, getattr(event, "fight", None))


@require_POST
def encounter_start(request: HtmxHttpRequest, encounter_id: int):
    """Roll initiative and open round 1."""
    return _run_initiative_step(request, encounter_id, services.encounter_start)


@require_POST
def encounter_next_turn(request: HtmxHttpRequest, encounter_id: int):
    """Pass the turn; after the last fighter a new round begins (initiative if the system
    rolls it again)."""
    return _run_initiative_step(request, encounter_id, services.encounter_next_turn)


@require_POST
def combatants_add(request: HtmxHttpRequest, encounter_id: int):
    """The GM brings characters of the campaign into the fight being prepared."""
    encounter = get_encounter_for_user(request, encounter_id, gm=True)
    form = AddCombatantsForm(request.POST, encounter=encounter)
    if refusal := form.version_refused():
        return refuse(request, encounter, EncounterError(refusal), forms={"add": form})
    if not form.is_valid():
        return answer_console(request, encounter, forms={"add": form})
    try:
        services.combatants_add(
            encounter_id=encounter.pk,
            version=form.cleaned_data["version"],
            characters=list(form.cleaned_data["characters"]),
            hidden=form.cleaned_data["hidden"],
        )
    except EncounterError as error:
        return refuse(request, encounter, error, forms={"add": form})
    return answer_console(request, encounter)


@require_POST
def combatants_from_template(request: HtmxHttpRequest, encounter_id: int):
    """The GM adds copies of an NPC template to the fight being prepared."""
    encounter = get_encounter_for_user(request, encounter_id, gm=True)
    form = FromTemplateForm(request.POST, encounter=encounter)
    if refusal := form.version_refused():
        return refuse(request, encounter, EncounterError(refusal), forms={"from_template": form})
    if not form.is_valid():
        return answer_console(request, encounter, forms={"from_template": form})
    try:
        services.combatants_from_template(
            encounter_id=encounter.pk,
            version=form.cleaned_data["version"],
            template=form.cleaned_data["template"],
            count=form.cleaned_data["count"],
            hidden=form.cleaned_data["hidden"],
        )
    except EncounterError as error:
        return _refused_form(request, encounter, error, "from_template", form)
    return answer_console(request, encounter)


@require_POST
def encounter_award_xp(request: HtmxHttpRequest, encounter_id: int):
    """The GM gives the PCs of the finished fight their XP (once per fight)."""
    encounter = get_encounter_for_user(request, encounter_id, gm=True)
    form = AwardXpForm(request.POST)
    if refusal := form.version_refused():
        return refuse(request, encounter, EncounterError(refusal), forms={"award": form})
    if not form.is_valid():
        return answer_console(request, encounter, forms={"award": form})
    try:
        services.encounter_award_xp(
            encounter_id=encounter.pk,
            version=form.cleaned_data["version"],
            amount=form.cleaned_data["amount"],
            reason=form.cleaned_data["reason"],
            by=request.user,
        )
    except EncounterError as error:
        return _refused_form(request, encounter, error, "award", form)
    messages.success(request, _("XP attribuée aux PJ."))
    return answer_console(request, encounter)


@require_POST
def combatant_remove(request: HtmxHttpRequest, encounter_id: int, combatant_id: int):
    """The GM takes a fighter out of the fight being prepared."""
    encounter = get_encounter_for_user(request, encounter_id, gm=True)
    form = VersionForm(request.POST)
    if not form.is_valid():
        return refuse(request, encounter, EncounterError(form.version_refused()))
    try:
        services.combatant_remove(
            encounter_id=encounter.pk,
            version=form.cleaned_data["version"],
            combatant_id=combatant_id,
        )
    except EncounterError as error:
        return refuse(request, encounter, error)
    return answer_console(request, encounter)


@require_POST
def combatant_visibility(request: HtmxHttpRequest, encounter_id: int, combatant_id: int):
    """The GM hides a fighter from the players' screens, or reveals it (undoable)."""
    encounter = get_encounter_for_user(request, encounter_id, gm=True)
    form = VisibilityForm(request.POST)
    if not form.is_valid():
        refusal = form.version_refused() or first_error(form)
        return refuse(request, encounter, EncounterError(refusal))
    try:
        services.combatant_set_hidden(
            encounter_id=encounter.pk,
            version=form.cleaned_data["version"],
            combatant_id=combatant_id,
            hidden=form.cleaned_data["hidden"],
            by=request.user,
        )
    except EncounterError as error:
        return refuse(request, encounter, error)
    return answer_console(request, encounter)


# --- The GM's tools while the fight runs -------------------------------------------------------


def _refused_form(request, encounter: Encounter, error: EncounterError, name: str, form):
    """A tool's refusal: next to its field (the GM's other choices kept), or the 409 path
    when someone acted first."""
    if isinstance(error, StaleVersion):
        return refuse(request, encounter, error, forms={name: form})
    add_encounter_error(form, error)
    return answer_console(request, encounter, forms={name: form})


@require_POST
def encounter_reinforce(request: HtmxHttpRequest, encounter_id: int):
    """Reinforcements join the running fight, placed by the system's initiative rule."""
    encounter = get_encounter_for_user(request, encounter_id, gm=True)
    form = ReinforcementForm(request.POST, encounter=encounter)
    if refusal := form.version_refused():
        return refuse(request, encounter, EncounterError(refusal), forms={"reinforce": form})
    if not form.is_valid():
        return answer_console(request, encounter, forms={"reinforce": form})
    data = form.cleaned_data
    try:
        event = tools.encounter_reinforce(
            encounter_id=encounter.pk,
            version=data["version"],
            by=request.user,
            characters=[data["character"]] if data["character"] else [],
            template=data["template"],
            count=data["count"] or 0,
            hidden=data["hidden"],
            faces=data["faces"],
        )
    except EncounterError as error:
        return _refused_form(request, encounter, error, "reinforce", form)
    return answer_step(request, encounter, event)


@require_POST
def combatant_withdraw(request: HtmxHttpRequest, encounter_id: int, combatant_id: int):
    """A fighter leaves the running fight (undoable)."""
    return run_row_step(request, encounter_id, combatant_id, tools.combatant_withdraw)


@require_GET
def combatant_tools(request: HtmxHttpRequest, encounter_id: int, combatant_id: int):
    """A fighter's GM tools, loaded when the GM opens them under its row (rows come without
    them: a step's answer builds no form nobody opened). Without htmx, the console with
    these tools open."""
    encounter = get_encounter_for_user(request, encounter_id, gm=True)
    if not request.htmx:
        console = reverse("encounters:console", args=[encounter.pk])
        return redirect(f"{console}?outils={combatant_id}#combatant-{combatant_id}")
    combatant = correction_target(encounter, combatant_id)
    if combatant is None or encounter.status not in (Status.RUNNING, Status.PAUSED):
        return TemplateResponse(request, f"{ROW_TOOLS}#gm-tools-gone", {})
    context = {"encounter": encounter, "row": tools_row(encounter, combatant)}
    return TemplateResponse(request, f"{ROW_TOOLS}#gm-tools-body", context)


@require_POST
def combatant_correct_pool(request: HtmxHttpRequest, encounter_id: int, combatant_id: int):
    """The GM sets a fighter's pool by hand, with a reason (a logged, undoable step)."""
    encounter = get_encounter_for_user(request, encounter_id, gm=True)
    combatant = correction_target(encounter, combatant_id)
    if combatant is None:
        error = EncounterError(_("Ce combattant ne fait pas partie de la rencontre."))
        return refuse(request, encounter, error)
    form = correction_form(encounter, combatant, request.POST)
    if refusal := form.version_refused():
        return refuse(request, encounter, EncounterError(refusal), forms={"correct": form})
    if not form.is_valid():
        return answer_console(request, encounter, forms={"correct": form})
    try:
        event = tools.combatant_correct_pool(
            encounter_id=encounter.pk,
            version=form.cleaned_data["version"],
            by=request.user,
            combatant_id=combatant.pk,
            pool=form.cleaned_data["pool"],
            value=form.cleaned_data["value"],
            reason=form.cleaned_data["reason"],
        )
    except EncounterError as error:
        return _refused_form(request, encounter, error, "correct", form)
    return answer_step(request, encounter, event)


# --- Conditions --------------------------------------------------------------------------------


@require_GET
def condition_form_view(request: HtmxHttpRequest, encounter_id: int):
    """The actions panel's form putting a condition, loaded when the GM opens it: for the
    acting fighter's target first (a row's is in its GM tools, ``combatant_tools``).
    Without htmx, the console."""
    encounter = get_encounter_for_user(request, encounter_id, gm=True)
    if not request.htmx:
        return redirect("encounters:console", encounter.pk)
    if encounter.status not in (Status.RUNNING, Status.PAUSED):
        return TemplateResponse(request, f"{ROW_TOOLS}#gm-tools-gone", {})
    combatants = load_combatants(encounter, gear=False)
    target = panel_target(encounter, combatants)
    form = condition_form(encounter, combatants, target=target, place="panel")
    context = {"encounter": encounter, "form": form}
    return TemplateResponse(request, f"{CONDITIONS}#condition-form", context)


@require_POST
def condition_put(request: HtmxHttpRequest, encounter_id: int):
    """The GM puts a condition on a fighter (a logged, undoable step)."""
    encounter = get_encounter_for_user(request, encounter_id, gm=True)
    combatants = load_combatants(encounter, gear=False)
    form = condition_form(encounter, combatants, data=request.POST)
    if refusal := form.version_refused():
        return refuse(request, encounter, EncounterError(refusal), forms={"condition": form})
    if not form.is_valid():
        return answer_console(request, encounter, forms={"condition": form})
    try:
        event = tools.condition_put(
            encounter_id=encounter.pk,
            version=form.cleaned_data["version"],
            by=request.user,
            choice=form.choice(),
        )
    except EncounterError as error:
        return _refused_form(request, encounter, error, "condition", form)
    return answer_step(request, encounter, event)


@require_POST
def condition_remove(request: HtmxHttpRequest, encounter_id: int):
    """The GM takes a condition off a fighter (undoable)."""
    return run_small_step(
        request,
        encounter_id,
        ConditionRemoveForm,
        tools.condition_remove,
        gm_in_lock=False,
        combatant_id="combatant",
        condition_id="condition",
    )


@require_POST
def condition_after(request: HtmxHttpRequest, encounter_id: int):
    """After the fight, the GM keeps a condition on its character or drops it."""
    encounter = get_encounter_for_user(request, encounter_id, gm=True)
    form = ConditionAfterForm(request.POST)
    if not form.is_valid():
        return refuse(request, encounter, EncounterError(_("Choix incomplet.")))
    try:
        lasting.encounter_condition_after(
            encounter_id=encounter.pk,
            by=request.user,
            combatant_id=form.cleaned_data["combatant"],
            condition_id=form.cleaned_data["condition"],
            keep=form.cleaned_data["decision"] == "keep",
        )
    except EncounterError as error:
        return refuse(request, encounter, error)
    return answer_console(request, encounter)
