"""Character pages: the creation wizard of the campaign's system, the sheet and the helpers
every sheet action answers with (a system's own spends: its folder), rest, XP."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from apps.campaigns.access import get_campaign_for_user
from apps.campaigns.handouts import shown_handout
from apps.campaigns.models import Role
from apps.core.http import HtmxHttpRequest
from apps.core.live import answer_check
from apps.core.once import SubmissionRefused, once_per_submission
from apps.core.push import open_stream, topic
from apps.core.refusals import rules_message
from apps.rules.errors import InvalidCreation, RulesError
from apps.systems import system_of

from . import fights, services
from .access import get_character_for_user, require_gm
from .forms import (
    AssignForm,
    NotesForm,
    RestForm,
    XpAwardForm,
    XpSpendForm,
)
from .live import sheet_fingerprint
from .models import Character, XpEntry, XpKind

# --- Forms sent twice (apps/core/once.py) ----------------------------------------------------


def sheet_refused(
    request: HtmxHttpRequest, error: SubmissionRefused, character_id: int, **_kwargs
) -> HttpResponse:
    """A sheet's form sent twice (a double tap) or without its key: said above the sheet as
    it is now, nothing done (apps/core/once.py). Access is checked as the action's view
    does: its owner or the GM."""
    character = get_character_for_user(request, character_id, write=True)
    messages.error(request, error.message)
    response = sheet_response(request, character)
    if request.htmx:
        response.status_code = error.status
    return response


def gm_sheet_refused(request: HtmxHttpRequest, error: SubmissionRefused, character_id: int, **kw):
    """The same, for an action only the GM makes from the sheet (a rest, a reveal)."""
    require_gm(get_character_for_user(request, character_id, write=True))
    return sheet_refused(request, error, character_id)


def _campaign_page_refused(
    request: HtmxHttpRequest, error: SubmissionRefused, campaign_id: int, **_kwargs
) -> HttpResponse:
    """A new character's form sent twice: said on the campaign page, which lists it."""
    campaign = get_campaign_for_user(request, campaign_id)
    messages.error(request, error.message)
    return redirect("campaigns:detail", campaign.pk)


def _award_refused(
    request: HtmxHttpRequest, error: SubmissionRefused, campaign_id: int, **_kwargs
) -> HttpResponse:
    """An award of XP sent twice: said on the campaign page (the GM's)."""
    campaign = get_campaign_for_user(request, campaign_id, gm=True)
    messages.error(request, error.message)
    return redirect("campaigns:detail", campaign.pk)


def _gm_page_refused(
    request: HtmxHttpRequest, error: SubmissionRefused, character_id: int, **_kwargs
) -> HttpResponse:
    """The GM's copies of an NPC, or a deletion, sent twice: said on the campaign page — the
    home page when the first one deleted the character."""
    if error.replayed and not Character.objects.filter(pk=character_id).exists():
        messages.error(request, error.message)
        return redirect("home")
    character = get_character_for_user(request, character_id, write=True)
    require_gm(character)
    messages.error(request, error.message)
    return redirect("campaigns:detail", character.campaign_id)


def _xp_spend_refused(
    request: HtmxHttpRequest, error: SubmissionRefused, character_id: int, **_kwargs
) -> HttpResponse:
    """An XP purchase sent twice: said on the sheet, where the first one shows."""
    character = get_character_for_user(request, character_id, write=True)
    messages.error(request, error.message)
    return redirect("characters:detail", character.pk)


# --- Creation ---------------------------------------------------------------------------------


def _live_check(request: HtmxHttpRequest, template: str, context: dict) -> TemplateResponse:
    """The wizard's status as the user types: counters and every error slot, out of band."""
    context["form"].is_valid()
    context["oob"] = True
    context["aptitudes_changed"] = context["form"].options_changed()
    return TemplateResponse(request, f"{template}#creation-status", context)


def _typing(request: HtmxHttpRequest) -> bool:
    """The wizard's live check as the user types: it saves nothing, it needs no key."""
    return bool(request.POST.get("check"))


@require_http_methods(["GET", "POST"])
@once_per_submission(_campaign_page_refused, unless=_typing)
def character_create(request: HtmxHttpRequest, campaign_id: int) -> HttpResponse:
    """The creation wizard of the campaign's system: a PC for a player, an NPC for the GM.

    An htmx POST with ``check`` re-renders the counters and every error slot (as the user
    types); a real submit saves only a sheet the rules engine accepts.
    """
    campaign = get_campaign_for_user(request, campaign_id)
    npc = campaign.role == Role.GM
    system = system_of(campaign)
    form = system.creation_form(request.POST or None, campaign=campaign, npc=npc)
    template = system.creation_template
    context = {"campaign": campaign, "form": form, "npc": npc, "step_titles": form.step_titles}
    if request.method == "POST" and request.POST.get("check"):
        return _live_check(request, template, context)
    if request.method == "POST" and form.is_valid():
        try:
            character = system.character_create(
                campaign=campaign,
                form=form,
                owner=None if npc else request.user,
                is_template=bool(form.cleaned_data.get("is_template")),
            )
        except InvalidCreation as error:  # the form checked the same rules: a race at most
            form.add_problems(error.problems)
        else:
            messages.success(request, _("%(name)s est prêt·e.") % {"name": character.name})
            return redirect("characters:detail", character.pk)
    return TemplateResponse(request, template, context)


@require_http_methods(["GET", "POST"])
def character_edit(request: HtmxHttpRequest, character_id: int) -> HttpResponse:
    """The GM rewrites a sheet (NPC or PC) in the creation wizard, pre-filled, same rules.

    An htmx POST with ``check`` re-renders the counters and error slots, as in creation.
    """
    character = get_character_for_user(request, character_id, write=True)
    require_gm(character)
    campaign = character.campaign
    system = system_of(campaign)
    form = system.edit_form(request.POST or None, character=character)
    template = system.creation_template
    context = {
        "campaign": campaign,
        "character": character,
        "form": form,
        "npc": not character.is_pc,
        "editing": True,
        "form_url": reverse("characters:edit", args=[character.pk]),
        "step_titles": form.step_titles,
    }
    if request.method == "POST" and request.POST.get("check"):
        return _live_check(request, template, context)
    if request.method == "POST" and form.is_valid():
        try:
            system.character_update(character=character, form=form, by=request.user)
        except InvalidCreation as error:  # the form checked the same rules: a race at most
            form.add_problems(error.problems)
        else:
            messages.success(
                request, _("Fiche de %(name)s enregistrée.") % {"name": character.name}
            )
            return redirect("characters:detail", character.pk)
    return TemplateResponse(request, template, context)


# --- The sheet --------------------------------------------------------------------------------


def sheet_context(request: HtmxHttpRequest, character: Character) -> dict:
    """Everything the sheet shows, computed by the engine, limited to what the viewer may see."""
    campaign = character.campaign
    system = system_of(campaign)
    house = campaign.house()
    sheet = character.sheet
    context = {
        "system": system,
        "character": character,
        "campaign": campaign,
        "sheet": sheet,
        # A player sees the party's pools, never an NPC's numbers: its state in words only.
        "pool_rows": character.pool_view(house) if character.full_view or character.is_pc else [],
        "health": character.health(house),
        "full_view": character.full_view,
        "is_gm": character.is_gm,
        "live_url": reverse("characters:changes", args=[character.pk]),
        "fingerprint": sheet_fingerprint(character.pk, request.user.pk),
        # A player at the table checks their sheet and gets to the fight in one tap.
        "fight": (fight := fights.banner(campaign, is_gm=character.is_gm)),
        "conditions": fights.conditions(
            character, players=not character.is_gm, live=fight is not None
        ),
        "handout": shown_handout(campaign),
    }
    if not character.full_view:
        return context
    context.update(system.sheet_context(sheet, house))
    entries = list(character.xp_entries.select_related("created_by", "cancelled_by"))
    context.update(
        xp_balance=sum(e.amount for e in entries),
        xp_entries=entries,
        rest_form=RestForm() if character.is_gm else None,
        assign_form=(
            AssignForm(campaign=campaign, initial={"player": character.owner_id})
            if character.is_gm and character.is_pc
            else None
        ),
        own_undo=services.own_undoable(character, request.user),
        notes_form=NotesForm(instance=character, is_gm=character.is_gm),
    )
    return context


@require_GET
def character_detail(request: HtmxHttpRequest, character_id: int) -> TemplateResponse:
    """The sheet (full for its owner and the GM, public for the rest of the table)."""
    character = get_character_for_user(request, character_id)
    context = sheet_context(request, character)
    template = "characters/sheet.html"
    if request.htmx and request.htmx.target == "sheet":
        template += "#sheet"
        context["fragment"] = True
    return TemplateResponse(request, template, context)


@require_GET
def sheet_changes(request: HtmxHttpRequest, character_id: int) -> HttpResponse:
    """The sheet's idle check: 204 while nothing it shows changed, else the refreshed live
    element and the event its regions listen to. Two queries with the user's."""
    # The sheet's regions listen to the campaign's event, as before they had their own check.
    return answer_check(
        request, sheet_fingerprint(character_id, request.user.pk), "campaign-changed"
    )


@require_GET
async def sheet_stream(request: HtmxHttpRequest, character_id: int) -> HttpResponse:
    """The pushed changes of a sheet, for whoever may see it: its character's own (its row,
    its sheet, its XP) and what every sheet of its campaign shows (the house rules, the fight
    banner), as the triggers of apps/core/migrations/0002 tell them. Its own check then says
    whether what this viewer sees changed."""

    def allowed() -> list[str] | None:
        if sheet_fingerprint(character_id, request.user.pk) is None:
            return None
        campaign_id = Character.objects.filter(pk=character_id).values_list(
            "campaign_id", flat=True
        )[0]
        return [topic("sheet", character_id), topic("sheets", campaign_id)]

    return await open_stream(request, allowed)


def _first_error(form) -> str:
    """A form's first refusal as one sentence, with its field's label ("Nom : …")."""
    name, errors = next(iter(form.errors.items()))
    label = form.fields[name].label if name in form.fields else None
    return f"{label} : {errors[0]}" if label else errors[0]


def sheet_response(request: HtmxHttpRequest, character: Character, form_name: str = "", form=None):
    """After an action: the refreshed sheet for htmx, else a redirect to it (the form's
    refusal then goes to the message area: the page cannot show the posted form)."""
    if not request.htmx:
        if form is not None and form.is_bound and form.errors:
            messages.error(request, _first_error(form))
        return redirect("characters:detail", character.pk)
    character = get_character_for_user(request, character.pk)
    context = sheet_context(request, character)
    context["fragment"] = True
    if form is not None:
        context[form_name] = form
    # No live event here: this answer is the refreshed sheet, and the region that would listen
    # is the one being swapped; other screens learn of the change from their live check.
    return TemplateResponse(request, "characters/sheet.html#sheet", context)


def sheet_refusal(request, character, form, form_name, error: RulesError, field: str):
    """A rules refusal: the message next to the field, nothing changed."""
    message = rules_message(error)
    form.add_error(field if field in form.fields else None, message)
    return sheet_response(request, character, form_name, form)


def sheet_with_form(request: HtmxHttpRequest, character: Character, form_name: str, form):
    """A form to fix or to confirm, on the sheet: without htmx the whole page with it (a
    redirect could not show it), nothing changed."""
    if request.htmx:
        return sheet_response(request, character, form_name, form)
    context = sheet_context(request, character)
    context[form_name] = form
    return TemplateResponse(request, "characters/sheet.html", context)


@require_POST
@once_per_submission(sheet_refused)
def own_undo(request: HtmxHttpRequest, character_id: int) -> HttpResponse:
    """The author of the sheet's latest spend or rest takes it back (a mis-tap)."""
    character = get_character_for_user(request, character_id, write=True)
    entry = services.own_undoable(character, request.user)
    if entry is None:
        messages.error(request, _("Plus rien à annuler ici : voyez avec le MJ."))
        return sheet_response(request, character)
    try:
        services.table_action_undo(entry=entry, by=request.user)
    except services.UndoRefused as error:
        messages.error(request, error.message)
    return sheet_response(request, character)


@require_POST
def character_notes(request: HtmxHttpRequest, character_id: int) -> HttpResponse:
    """The owner edits name, concept and notes; the GM also their private notes."""
    character = get_character_for_user(request, character_id, write=True)
    form = NotesForm(request.POST, instance=character, is_gm=character.is_gm)
    if form.is_valid():
        services.notes_save(character=character, form=form)
        if not request.htmx:
            messages.success(request, _("Fiche enregistrée."))
    return sheet_response(request, character, "notes_form", None if form.is_valid() else form)


@require_POST
@once_per_submission(gm_sheet_refused)
def character_rest(request: HtmxHttpRequest, character_id: int) -> HttpResponse:
    """The GM restores PV and éclat/fatigue after a rest."""
    character = get_character_for_user(request, character_id, write=True)
    require_gm(character)
    form = RestForm(request.POST)
    if form.is_valid():
        services.character_rest(character=character, by=request.user, **form.cleaned_data)
    return sheet_response(request, character)


@require_POST
@once_per_submission(gm_sheet_refused)
def character_reveal(request: HtmxHttpRequest, character_id: int) -> HttpResponse:
    """The GM shows an NPC to the players, or hides it again."""
    character = get_character_for_user(request, character_id, write=True)
    require_gm(character)
    if character.is_pc:
        messages.error(request, _("Un PJ est toujours vu du groupe : seul un PNJ se révèle."))
    else:
        character.revealed = not character.revealed
        character.save(update_fields=["revealed"])
        character.campaign.touch()
    return sheet_response(request, character)


@require_POST
def character_assign(request: HtmxHttpRequest, character_id: int) -> HttpResponse:
    """The GM gives a PC to one of the campaign's players (an imported PC comes in unowned)."""
    character = get_character_for_user(request, character_id, write=True)
    require_gm(character)
    if not character.is_pc:
        raise Http404("Only a PC has a player.")
    form = AssignForm(request.POST, campaign=character.campaign)
    if form.is_valid():
        character.assign_to(form.cleaned_data["player"])
        character.campaign.touch()
        messages.success(
            request,
            _("%(character)s est maintenant joué par %(player)s.")
            % {"character": character.name, "player": form.cleaned_data["player"].display_name},
        )
    return sheet_response(request, character, "assign_form", form)


@require_POST
@once_per_submission(_gm_page_refused)
def npc_copy(request: HtmxHttpRequest, character_id: int) -> HttpResponse:
    """The GM makes N copies of an NPC (a template typically)."""
    character = get_character_for_user(request, character_id, write=True)
    require_gm(character)
    try:
        count = int(request.POST.get("count", 1))
    except ValueError:
        count = 0
    if character.is_pc or not 1 <= count <= 20:
        messages.error(request, _("Entre 1 et 20 copies d'un PNJ."))
        return redirect("characters:detail", character.pk)
    copies = services.npc_copy(template=character, count=count)
    messages.success(
        request,
        _("%(count)s PNJ créé(s) d'après %(name)s.")
        % {"count": len(copies), "name": character.name},
    )
    return redirect("campaigns:detail", character.campaign_id)


@require_http_methods(["GET", "POST"])
@once_per_submission(_gm_page_refused)
def character_delete(request: HtmxHttpRequest, character_id: int) -> HttpResponse:
    """The GM deletes a character, after a confirmation page that says what goes with it."""
    character = get_character_for_user(request, character_id, write=True)
    require_gm(character)
    if request.method == "POST":
        campaign_id = character.campaign_id
        try:
            services.character_delete(character=character, by=request.user)
        except services.CharacterInUse:
            pass  # the page below says why, with the fights that hold it
        else:
            done = _("Le personnage %(name)s a été supprimé.") % {"name": character.name}
            messages.success(request, done)
            return redirect("campaigns:detail", campaign_id)
    context = {
        "character": character,
        "campaign": character.campaign,
        "fights": fights.names(character),
    }
    return TemplateResponse(request, "characters/delete.html", context)


# --- Experience -------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
@once_per_submission(_award_refused)
def xp_award(request: HtmxHttpRequest, campaign_id: int) -> HttpResponse:
    """The GM gives XP to one, several or all PCs, with a reason."""
    campaign = get_campaign_for_user(request, campaign_id, gm=True)
    form = XpAwardForm(request.POST or None, campaign=campaign)
    if request.method == "POST" and form.is_valid():
        services.xp_award(
            campaign=campaign,
            characters=form.cleaned_data["characters"],
            amount=form.cleaned_data["amount"],
            reason=form.cleaned_data["reason"],
            by=request.user,
        )
        messages.success(request, _("XP distribués."))
        return redirect("campaigns:detail", campaign.pk)
    return TemplateResponse(
        request, "characters/xp_award.html", {"campaign": campaign, "form": form}
    )


@require_http_methods(["GET", "POST"])
@once_per_submission(_xp_spend_refused)
def xp_spend(request: HtmxHttpRequest, character_id: int) -> HttpResponse:
    """The owner buys an improvement with XP; limits and costs from the rules engine."""
    character = get_character_for_user(request, character_id, write=True)
    system = system_of(character.campaign)
    costs = system.xp_costs()
    if costs is None:
        messages.info(request, system.no_xp_costs)
        return redirect("characters:detail", character.pk)
    options = costs.options(character.sheet, character.campaign.house(), character.xp_balance())
    form = XpSpendForm(request.POST or None, costs=costs, options=options)
    if request.method == "POST" and form.is_valid():
        try:
            services.xp_spend(
                character=character, improvement=form.cleaned_data["improvement"], by=request.user
            )
        except RulesError as error:
            form.add_error("improvement", rules_message(error))
        else:
            messages.success(request, _("Amélioration achetée."))
            return redirect("characters:detail", character.pk)
    context = {
        "character": character,
        "campaign": character.campaign,
        "form": form,
        "xp_balance": character.xp_balance(),
        "costs_help": costs.help_text,
    }
    return TemplateResponse(request, "characters/xp_spend.html", context)


@require_POST
@once_per_submission(gm_sheet_refused)
def xp_undo(request: HtmxHttpRequest, character_id: int, entry_id: int) -> HttpResponse:
    """The GM cancels a line of the XP ledger: a spend (the sheet goes back and the XP
    returns) or an award (the XP is taken back)."""
    character = get_character_for_user(request, character_id, write=True)
    require_gm(character)
    entry = get_object_or_404(
        XpEntry, pk=entry_id, character=character, kind__in=[XpKind.SPEND, XpKind.AWARD]
    )
    try:
        if entry.kind == XpKind.SPEND:
            services.xp_spend_undo(entry=entry, by=request.user)
        else:
            services.xp_award_cancel(entry=entry, by=request.user)
    except RulesError as error:
        messages.error(request, rules_message(error))
    else:
        if entry.kind == XpKind.SPEND:
            messages.success(request, _("Dépense annulée, XP rendus."))
        else:
            messages.success(request, _("Gain annulé, XP repris."))
    return sheet_response(request, character)
