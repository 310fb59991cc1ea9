"""How a console step answers: the whole console, only what the step changed, or a refusal.

Every action of the console (the generic ones in ``views.py``, each system's own) ends in
one of these; a game system reaches them through ``kit``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.contrib import messages
from django.db import transaction
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django_htmx.http import reswap

from .access import get_encounter_for_user, lock_fight_for_gm
from .console import StepDone, console_context, load_console_fight
from .forms import VersionForm, no_version
from .models import Encounter
from .steps import EncounterError, NotTheGm, StaleVersion

CONSOLE = "encounters/console.html"

Result = TypeVar("Result")


def answer_console(
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
            messages.error(request, first_error(form))
            return


def answer_step(
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
        return answer_console(request, encounter, forms=forms)
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


def refuse(request, encounter: Encounter, error: EncounterError, forms: dict | None = None):
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


def stale_refusal(request, encounter: Encounter) -> EncounterError | None:
    """A form made on an older version (a double click, a console left open while someone
    acted) is refused before it is judged against a state it was not made on; so is a form
    that carries no version, or one that is no number (never taken as "no check")."""
    posted = request.POST.get("version", "")
    if not posted.isdigit() or int(posted) < 1:
        return EncounterError(str(no_version))
    if int(posted) != encounter.version:
        return StaleVersion(
            _(
                "Quelqu'un a agi avant vous : la console a été actualisée, "
                "vérifiez puis recommencez."
            )
        )
    return None


def first_error(form) -> str:
    """A small form's refusal as one sentence ("d10 des dégâts : Un d10 donne de 1 à 10.")."""
    for name, errors in form.errors.items():
        label = form.fields[name].label if name in form.fields else None
        return f"{label} : {errors[0]}" if label else errors[0]
    return _("Formulaire incomplet.")


def run_step(
    request,
    encounter_id: int,
    step: Callable[[], Result],
    *,
    answer: Callable[[Result], HttpResponse],
    refused: Callable[[EncounterError], HttpResponse] | None = None,
) -> HttpResponse:
    """Run ``step`` (it locks, checks the version and commits) and ``answer`` with what it
    returned. Someone acted first: the console is drawn again with a 409, said as for a form
    drawn on an older version. Any other refusal goes to ``refused`` (by default the
    console with the message atop its actions)."""
    try:
        result = step()
    except StaleVersion as error:
        encounter = get_encounter_for_user(request, encounter_id, gm=True)
        return refuse(request, encounter, stale_refusal(request, encounter) or error)
    except NotTheGm:
        get_encounter_for_user(request, encounter_id, gm=True)  # 404 or 403, as anywhere
        raise Http404("No such encounter.") from None
    except EncounterError as error:
        if refused is not None:
            return refused(error)
        return refuse(request, get_encounter_for_user(request, encounter_id, gm=True), error)
    return answer(result)


def run_fight_step(request, encounter_id: int, fighters, act, *, system, version, refused):
    """A GM's step on a few fighters of a fight (an attack's two, to ask one's player a
    roll): the access check and the lock in one query, ``act(fight)`` under it, answered
    with what changed; a refusal goes to ``refused``."""

    @transaction.atomic
    def step():
        fight = lock_fight_for_gm(request, encounter_id, fighters, system=system, version=version)
        return act(fight)

    return run_step(
        request,
        encounter_id,
        step,
        answer=lambda event: answer_step(request, event.encounter, event),
        refused=refused,
    )


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
        return refuse(request, encounter, EncounterError(first_error(form)))
    return run_step(
        request,
        encounter_id,
        lambda: service(
            encounter_id=encounter_id,
            version=form.cleaned_data["version"],
            by=request.user,
            **{argument: form.cleaned_data[name] for argument, name in fields.items()},
        ),
        answer=lambda event: answer_step(request, event.encounter, event),
    )


def run_row_step(request, encounter_id: int, combatant_id: int, service):
    """A one-button tool of a fighter's row (take it out of the fight, treat its bleeding)."""
    encounter = get_encounter_for_user(request, encounter_id, gm=True)
    form = VersionForm(request.POST)
    if not form.is_valid():
        return refuse(request, encounter, EncounterError(form.version_refused()))
    return run_step(
        request,
        encounter_id,
        lambda: service(
            encounter_id=encounter.pk,
            version=form.cleaned_data["version"],
            by=request.user,
            combatant_id=combatant_id,
        ),
        answer=lambda event: answer_step(request, encounter, event),
        refused=lambda error: refuse(request, encounter, error),
    )
