"""Roll requests seen from the phone and the console (issue #31).

The players' table region is one render shared by every phone (``table.py``); what is a
viewer's own — the rolls asked of their character, "à toi", "tu es le prochain" — is the
"À toi" panel (``#my-turn``), a fragment of its own fetched by each phone, told of a change
by a stream of its own (``request:<character id>``, NOTIFY at COMMIT by a trigger on the
request's column): one player's request never reaches another's page.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from apps.core.http import HtmxHttpRequest
from apps.core.push import open_stream, streams_served, topic
from apps.rules.dice import SecureDice
from apps.systems import system_of

from . import requests, services
from .access import get_encounter_for_user
from .answers import answer_step, refuse, run_row_step, run_small_step, run_step
from .conditions import initiative_bonuses
from .fighters import next_in_view
from .forms import VersionForm, optional_face
from .models import Combatant, Encounter, Status
from .services import acting_combatant, load_combatants
from .steps import EncounterError
from .table import players_line

PANEL = "encounters/_my_turn.html#my-turn"


def my_turn_context(request, encounter: Encounter, params=None) -> dict:
    """The viewer's own part of the table view: their fighters' open requests, each with
    what the player may choose and their odds (the system's ``request_panel``), and whether
    it is their turn or the next."""
    if encounter.status == Status.PREPARING and not _asked_before_start(request, encounter):
        return {"encounter": encounter, "mine": [], "panels": []}
    everyone = load_combatants(encounter, gear=False)
    mine = [c for c in everyone if c.character.owner_id == request.user.pk]
    house = encounter.campaign.house()
    acting = acting_combatant(encounter, everyone)
    upcoming = next_in_view(everyone, acting, house) if acting else None
    system = system_of(encounter.campaign)
    panels = []
    for combatant in mine:
        if not combatant.request:
            continue
        if combatant.request.get("kind") == requests.INITIATIVE:
            panels.append(_initiative_panel(system, combatant, house))
        else:
            panel = system.request_panel(encounter, combatant, combatant.request, params or {})
            panels.append({**panel, "combatant": combatant, "request": combatant.request})
    return {
        "encounter": encounter,
        "mine": mine,
        "panels": panels,
        "my_acting": acting if acting in mine else None,
        "my_next": upcoming if upcoming in mine else None,
        "streamed": streams_served(request),
    }


def _asked_before_start(request, encounter: Encounter) -> bool:
    """A fight in preparation shows a player nothing, but the initiative asked of them."""
    return encounter.combatants.filter(
        character__owner=request.user, request__kind=requests.INITIATIVE
    ).exists()


def _initiative_panel(system, combatant: Combatant, house) -> dict:
    """Initiative: the die, and the totals it can give (the system's own rule, with the
    fighter's conditions)."""
    bonuses = initiative_bonuses(system, [combatant])
    sides = system.initiative_sides
    lowest = system.initiative_order([combatant], {combatant.pk: 1}, SecureDice(), house, bonuses)
    highest = system.initiative_order(
        [combatant], {combatant.pk: sides}, SecureDice(), house, bonuses
    )
    return {
        "template": "encounters/_my_turn.html#initiative-request",
        "combatant": combatant,
        "request": combatant.request,
        "sides": system.initiative_sides,
        "lowest": lowest[0].total,
        "highest": highest[0].total,
        "face": optional_face(system.initiative_sides, _("Ton dé")),
    }


@require_GET
def request_panel(request: HtmxHttpRequest, encounter_id: int) -> TemplateResponse:
    """The viewer's "À toi" panel, fetched when their stream tells of a request (or, with
    ``choice``, to show the odds of the choice they are trying)."""
    encounter = get_encounter_for_user(request, encounter_id)
    return TemplateResponse(request, PANEL, my_turn_context(request, encounter, request.GET))


@require_GET
async def request_stream(request: HtmxHttpRequest, encounter_id: int) -> HttpResponse:
    """The pushed changes of the viewer's own requests in this fight, and nobody else's."""

    def allowed() -> list[str] | None:
        characters = list(
            Combatant.objects.filter(
                encounter_id=encounter_id,
                encounter__campaign__memberships__user=request.user,
                character__owner=request.user,
            ).values_list("character_id", flat=True)
        )
        if not characters and not _member(request, encounter_id):
            return None
        return [topic("request", pk) for pk in characters]

    return await open_stream(request, allowed, prompt=True)


def _member(request, encounter_id: int) -> bool:
    return Encounter.objects.filter(
        pk=encounter_id, campaign__memberships__user=request.user
    ).exists()


def _initiative_answer(request, encounter_id: int, combatant_id: int, *, take_over: bool):
    data = request.POST
    face = "" if data.get("dice") == "app" else data.get("face", "").strip()
    if face and not face.isdigit():
        raise EncounterError(_("Tape le nombre que montre ton dé."), "face")
    return requests.request_answer_initiative(
        encounter_id=encounter_id,
        by=request.user,
        combatant_id=combatant_id,
        request_id=data.get("request", ""),
        face=int(face) if face else None,
        take_over=take_over,
    )


def posted_combatant(request) -> int:
    """The fighter a posted answer names (0 when none: no fighter has it, the answer is
    refused as for another's)."""
    value = request.POST.get("combatant", "")
    return int(value) if value.isdigit() else 0


def answer_request(request: HtmxHttpRequest, encounter_id: int, step) -> HttpResponse:
    """Run a player's answer (``step``: the service, which locks, checks and commits) and
    answer the phone: the step's line drawn from memory (no query past the step's), or the
    panel with the refusal in French (nothing changed). A system's answer view ends here."""
    try:
        event = step()
    except EncounterError as error:
        encounter = get_encounter_for_user(request, encounter_id)
        if not request.htmx:
            messages.error(request, error.message)
            return redirect("encounters:table", encounter.pk)
        context = my_turn_context(request, encounter)
        context["refusal"] = error.message
        return TemplateResponse(request, PANEL, context)
    if not request.htmx:
        return redirect("encounters:table", encounter_id)
    context = {"encounter": event.encounter, "done": players_line(event), "panels": []}
    response = TemplateResponse(request, PANEL, context)
    response["HX-Trigger"] = "encounter-changed"
    return response


def answer_posted_request(request: HtmxHttpRequest, encounter_id: int, answer_posted):
    """A system's answer view: the player's answer, as the phone posted it, through the
    system's ``answer_posted`` service (the player's own, never a take-over)."""
    return answer_request(
        request,
        encounter_id,
        lambda: answer_posted(
            encounter_id=encounter_id,
            combatant_id=posted_combatant(request),
            data=request.POST,
            by=request.user,
            take_over=False,
        ),
    )


@require_POST
def request_answer(request: HtmxHttpRequest, encounter_id: int, combatant_id: int):
    """The player answers the initiative asked of their character (a system's own requests
    are answered at its own URL, ``<code>_request_answer``)."""
    return answer_request(
        request,
        encounter_id,
        lambda: _initiative_answer(request, encounter_id, combatant_id, take_over=False),
    )


@require_POST
def request_take_over(request: HtmxHttpRequest, encounter_id: int, combatant_id: int):
    """The GM rolls in the player's place (the app's dice, or the faces the player reads
    out): the same step as the player's answer."""
    encounter = get_encounter_for_user(request, encounter_id, gm=True)

    def step():
        if request.POST.get("kind") == requests.INITIATIVE:
            return _initiative_answer(request, encounter_id, combatant_id, take_over=True)
        return system_of(encounter.campaign).request_answer(
            encounter_id=encounter_id,
            combatant_id=combatant_id,
            data=request.POST,
            by=request.user,
            take_over=True,
        )

    return run_step(
        request,
        encounter_id,
        step,
        answer=lambda event: answer_step(request, encounter, event),
        refused=lambda error: refuse(request, encounter, error),
    )


@require_POST
def request_cancel(request: HtmxHttpRequest, encounter_id: int, combatant_id: int):
    """The GM takes the roll back: the request closes, the console rolls it."""
    return run_row_step(request, encounter_id, combatant_id, requests.request_cancel)


@require_POST
def request_initiative(request: HtmxHttpRequest, encounter_id: int):
    """The GM asks the players for their initiative dice (the start, or the next round)."""
    return run_small_step(
        request, encounter_id, VersionForm, requests.request_initiative, gm_in_lock=True
    )


@require_POST
def end_own_turn(request: HtmxHttpRequest, encounter_id: int):
    """A player ends their own character's turn (the GM can undo it)."""
    encounter = get_encounter_for_user(request, encounter_id)
    everyone = load_combatants(encounter, gear=False)
    acting = acting_combatant(encounter, everyone)
    error = None
    if acting is None or acting.character.owner_id != request.user.pk:
        error = _("Ce n'est pas ton tour : rien n'a changé.")
    if error is None:
        try:
            # On the version read with the acting fighter: a turn passed meanwhile (by
            # the GM, by a second tap) is refused, not passed twice.
            services.encounter_next_turn(
                encounter_id=encounter.pk, version=encounter.version, by=request.user
            )
        except EncounterError as refused:
            error = refused.message
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect("encounters:table", encounter.pk)
    encounter.refresh_from_db()
    context = my_turn_context(request, encounter)
    context["refusal"] = error
    response = TemplateResponse(request, PANEL, context)
    response["HX-Trigger"] = "encounter-changed"
    return response
