"""The encounter console (GM), the table view (players), and the actions they post."""

from __future__ import annotations

from django.contrib import messages
from django.db.models import Q
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import reswap

from apps.campaigns.access import get_campaign_for_user
from apps.campaigns.models import Role
from apps.core.http import HtmxHttpRequest
from apps.core.live import answer_check
from apps.core.push import open_stream, topic
from apps.systems import system_of

from . import services, tools
from .access import get_encounter_for_user
from .console import (
    StepDone,
    console_context,
    correction_form,
    correction_target,
    load_console_fight,
    players_table_body,
    table_context,
    tools_row,
)
from .forms import (
    AddCombatantsForm,
    AwardXpForm,
    EncounterForm,
    FromTemplateForm,
    InitiativeForm,
    ReinforcementForm,
    VersionForm,
    add_encounter_error,
)
from .models import Encounter, Status
from .steps import EncounterError, NotTheGm, StaleVersion

CONSOLE = "encounters/console.html"
TABLE = "encounters/table.html"
ROW_TOOLS = "encounters/_row_tools.html"


# --- Pages -----------------------------------------------------------------------------------


@require_GET
def encounter_console(request: HtmxHttpRequest, encounter_id: int) -> TemplateResponse:
    """The GM's console: order, acting combatant, actions with their odds, log."""
    encounter = get_encounter_for_user(request, encounter_id, gm=True)
    template = f"{CONSOLE}#console" if request.htmx and not request.htmx.boosted else CONSOLE
    return TemplateResponse(request, template, console_context(request, encounter))


@require_GET
def encounter_table(request: HtmxHttpRequest, encounter_id: int) -> HttpResponse:
    """Read-only view for players and a shared screen: only what players may see."""
    encounter = get_encounter_for_user(request, encounter_id)
    is_gm = encounter.role == Role.GM
    if encounter.status == Status.PREPARING and not is_gm:
        # The campaign page does not show players a fight being prepared: nor does this.
        raise Http404("No such encounter.")
    if not request.htmx or request.htmx.boosted:
        return TemplateResponse(request, TABLE, table_context(request, encounter))
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
        # One filter(): the role is the viewer's membership's (a second filter() would join
        # the memberships again and find the GM's). Players do not follow a fight in
        # preparation (encounter_table).
        Encounter.objects.filter(
            ~Q(status=Status.PREPARING) | Q(campaign__memberships__role=Role.GM),
            pk=encounter_id,
            campaign__memberships__user=request.user,
        )
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


def encounter_create(request: HtmxHttpRequest, campaign_id: int):
    """The GM names a new fight of the campaign, then prepares it in its console."""
    campaign = get_campaign_for_user(request, campaign_id, gm=True)
    form = EncounterForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        encounter = services.encounter_create(campaign=campaign, name=form.cleaned_data["name"])
        return redirect("encounters:console", encounter.pk)
    return TemplateResponse(request, "encounters/create.html", {"form": form, "campaign": campaign})


# --- Actions ---------------------------------------------------------------------------------


def _respond(
    request,
    encounter: Encounter,
    *,
    forms: dict | None = None,
    status: int = 200,
    combatants: list | None = None,
):
    """Re-render the console (htmx) or go back to it. No "encounter-changed" event: the
    console listens to it and would fetch itself again; other screens learn of the change
    through their idle check. ``combatants``: the fight as the step left it in memory.
    Without htmx, the page it goes back to cannot show a refused form: its first error goes
    to the message area."""
    if not request.htmx:
        _tell_first_error(request, forms)
        return redirect("encounters:console", encounter.pk)
    encounter.refresh_from_db()
    return TemplateResponse(
        request,
        f"{CONSOLE}#console",
        console_context(request, encounter, forms=forms, combatants=combatants),
        status=status,
    )


def _tell_first_error(request, forms: dict | None) -> None:
    """The first error of the refused forms given, as a message (a page without them)."""
    for form in (forms or {}).values():
        if form.is_bound and form.errors:
            messages.error(request, _first_error(form))
            return


def _respond_step(
    request,
    encounter: Encounter,
    event,
    combatants: list | None = None,
    *,
    keep_actions: bool = False,
    forms: dict | None = None,
):
    """Answer a step with what it changed, out of band: the rows it touched, the header, its
    log line, undo and redo, and the actions panel (unless ``keep_actions``; with ``forms``
    shown as given) — the whole console only when its shape changed (the fight started,
    paused or ended; a new round's order). ``combatants``: the fight as the step left it in
    memory (else it is loaded)."""
    if not request.htmx:
        return redirect("encounters:console", encounter.pk)
    step = StepDone.of(event)
    if step.reshapes_console:
        return _respond(request, encounter, forms=forms)
    encounter = event.encounter  # the step's locked instance: version, round, turn are new
    if combatants is None:
        combatants = load_console_fight(encounter)
    context = console_context(
        request,
        encounter,
        combatants=combatants,
        step=step,
        actions=not keep_actions,
        forms=forms,
    )
    return reswap(TemplateResponse(request, f"{CONSOLE}#step-update", context), "none")


def _refused(request, encounter: Encounter, error: EncounterError, forms: dict | None = None):
    """A refused step: 409 when someone acted first, else the message next to the form."""
    status = 409 if isinstance(error, StaleVersion) else 200
    messages.error(request, error.message)
    if not request.htmx:
        return redirect("encounters:console", encounter.pk)
    encounter.refresh_from_db()
    context = console_context(request, encounter, forms=forms)
    # Also at the top of the actions panel, where the GM's eyes are (not only in the bar).
    context["refusal"] = error.message
    return TemplateResponse(request, f"{CONSOLE}#console", context, status=status)


def _stale(request, encounter: Encounter) -> StaleVersion | None:
    """A form made on an older version (a double click, a console left open while someone
    acted) is refused before it is judged against a state it was not made on."""
    posted = request.POST.get("version")
    if posted and posted != str(encounter.version):
        return StaleVersion(
            _(
                "Quelqu'un a agi avant vous : la console a été actualisée, "
                "vérifiez puis recommencez."
            )
        )
    return None


def _first_error(form) -> str:
    """A small form's refusal as one sentence ("d10 des dégâts : Un d10 donne de 1 à 10.")."""
    for name, errors in form.errors.items():
        label = form.fields[name].label if name in form.fields else None
        return f"{label} : {errors[0]}" if label else errors[0]
    return _("Formulaire incomplet.")


def run_small_step(
    request, encounter_id: int, form_class, service, *, gm_in_lock: bool = False, **fields: str
):
    """A one-button step: the form's ``fields`` go to the service under the given argument
    names; bad input and refusals come back as a message on the console. ``gm_in_lock``:
    the service checks that its ``by`` is the GM in its lock query (``lock_encounter``), so
    nothing is read before the step; a refusal reads the encounter to say it."""
    if not gm_in_lock:
        get_encounter_for_user(request, encounter_id, gm=True)
    form = form_class(request.POST)
    if not form.is_valid():
        encounter = get_encounter_for_user(request, encounter_id, gm=True)
        return _refused(request, encounter, EncounterError(_first_error(form)))
    try:
        event = service(
            encounter_id=encounter_id,
            version=form.cleaned_data["version"],
            by=request.user,
            **{argument: form.cleaned_data[name] for argument, name in fields.items()},
        )
    except NotTheGm:
        get_encounter_for_user(request, encounter_id, gm=True)  # 404 or 403, as anywhere
        raise Http404("No such encounter.") from None
    except EncounterError as error:
        return _refused(request, get_encounter_for_user(request, encounter_id, gm=True), error)
    return _respond_step(request, event.encounter, event)


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
        return _refused(request, encounter, EncounterError(_("Version manquante.")))
    try:
        services.encounter_end(
            encounter_id=encounter.pk, version=form.cleaned_data["version"], by=request.user
        )
    except EncounterError as error:
        return _refused(request, encounter, error)
    messages.success(request, _("Combat terminé : voici le bilan."))
    return _respond(request, encounter)


def _run_initiative_step(request, encounter_id: int, service):
    """A step that may roll initiative, with faces typed from physical dice where given."""
    encounter = get_encounter_for_user(request, encounter_id, gm=True)
    combatants = list(encounter.combatants.filter(present=True).select_related("character"))
    # The faces come back next to their field: the start's, or the new round's.
    name = "initiative" if encounter.status == Status.PREPARING else "new_round"
    form = InitiativeForm(
        request.POST,
        combatants=combatants,
        sides=system_of(encounter.campaign).initiative_sides,
        auto_id="id_%s" if name == "initiative" else "id_round_%s",
    )
    if not form.is_valid():
        return _respond(request, encounter, forms={name: form})
    try:
        event = service(
            encounter_id=encounter.pk,
            version=form.cleaned_data["version"],
            by=request.user,
            initiative=form.faces(),
        )
    except EncounterError as error:
        return _refused(request, encounter, error, forms={name: form})
    return _respond_step(request, encounter, event)


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
    if not form.is_valid():
        return _respond(request, encounter, forms={"add": form})
    try:
        services.combatants_add(
            encounter_id=encounter.pk,
            characters=list(form.cleaned_data["characters"]),
            hidden=form.cleaned_data["hidden"],
        )
    except EncounterError as error:
        return _refused(request, encounter, error, forms={"add": form})
    return _respond(request, encounter)


@require_POST
def combatants_from_template(request: HtmxHttpRequest, encounter_id: int):
    """The GM adds copies of an NPC template to the fight being prepared."""
    encounter = get_encounter_for_user(request, encounter_id, gm=True)
    form = FromTemplateForm(request.POST, encounter=encounter)
    if not form.is_valid():
        return _respond(request, encounter, forms={"from_template": form})
    try:
        services.combatants_from_template(
            encounter_id=encounter.pk,
            template=form.cleaned_data["template"],
            count=form.cleaned_data["count"],
            hidden=form.cleaned_data["hidden"],
        )
    except EncounterError as error:
        add_encounter_error(form, error)
        return _respond(request, encounter, forms={"from_template": form})
    return _respond(request, encounter)


@require_POST
def encounter_award_xp(request: HtmxHttpRequest, encounter_id: int):
    """The GM gives the PCs of the finished fight their XP (once per fight)."""
    encounter = get_encounter_for_user(request, encounter_id, gm=True)
    form = AwardXpForm(request.POST)
    if not form.is_valid():
        return _respond(request, encounter, forms={"award": form})
    try:
        services.encounter_award_xp(
            encounter_id=encounter.pk,
            amount=form.cleaned_data["amount"],
            reason=form.cleaned_data["reason"],
            by=request.user,
        )
    except EncounterError as error:
        add_encounter_error(form, error)
        return _respond(request, encounter, forms={"award": form})
    messages.success(request, _("XP attribuée aux PJ."))
    return _respond(request, encounter)


@require_POST
def combatant_remove(request: HtmxHttpRequest, encounter_id: int, combatant_id: int):
    """The GM takes a fighter out of the fight being prepared."""
    encounter = get_encounter_for_user(request, encounter_id, gm=True)
    try:
        services.combatant_remove(encounter_id=encounter.pk, combatant_id=combatant_id)
    except EncounterError as error:
        return _refused(request, encounter, error)
    return _respond(request, encounter)


@require_POST
def combatant_visibility(request: HtmxHttpRequest, encounter_id: int, combatant_id: int):
    """The GM hides a fighter from the players' screens, or reveals it (undoable)."""
    encounter = get_encounter_for_user(request, encounter_id, gm=True)
    form = VersionForm(request.POST)
    version = form.cleaned_data["version"] if form.is_valid() else None
    try:
        services.combatant_set_hidden(
            encounter_id=encounter.pk,
            version=version,
            combatant_id=combatant_id,
            hidden=request.POST.get("hidden") == "1",
            by=request.user,
        )
    except EncounterError as error:
        return _refused(request, encounter, error)
    return _respond(request, encounter)


# --- The GM's tools while the fight runs -------------------------------------------------------


def _refused_form(request, encounter: Encounter, error: EncounterError, name: str, form):
    """A tool's refusal: next to its field (the GM's other choices kept), or the 409 path
    when someone acted first."""
    if isinstance(error, StaleVersion):
        return _refused(request, encounter, error, forms={name: form})
    add_encounter_error(form, error)
    return _respond(request, encounter, forms={name: form})


@require_POST
def encounter_reinforce(request: HtmxHttpRequest, encounter_id: int):
    """Reinforcements join the running fight, placed by the system's initiative rule."""
    encounter = get_encounter_for_user(request, encounter_id, gm=True)
    form = ReinforcementForm(request.POST, encounter=encounter)
    if not form.is_valid():
        return _respond(request, encounter, forms={"reinforce": form})
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
    return _respond_step(request, encounter, event)


def run_row_step(request, encounter_id: int, combatant_id: int, service):
    """A one-button tool of a fighter's row (take it out of the fight, treat its bleeding)."""
    encounter = get_encounter_for_user(request, encounter_id, gm=True)
    form = VersionForm(request.POST)
    if not form.is_valid():
        return _refused(request, encounter, EncounterError(_("Version manquante.")))
    try:
        event = service(
            encounter_id=encounter.pk,
            version=form.cleaned_data["version"],
            by=request.user,
            combatant_id=combatant_id,
        )
    except EncounterError as error:
        return _refused(request, encounter, error)
    return _respond_step(request, encounter, event)


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
        return _refused(request, encounter, error)
    form = correction_form(encounter, combatant, request.POST)
    if not form.is_valid():
        return _respond(request, encounter, forms={"correct": form})
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
    return _respond_step(request, encounter, event)
