"""Campaign pages: creation, invitation, the campaign page, house rules, session log, live."""

from __future__ import annotations

import dataclasses
import logging
from datetime import timedelta

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_not_required
from django.db.models import OuterRef, Subquery
from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import NoReverseMatch, reverse
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from apps.accounts import throttle
from apps.accounts.clientip import client_ip
from apps.accounts.forms import SignupForm
from apps.accounts.models import ResetLink
from apps.accounts.services import email_confirm_ask
from apps.accounts.views import MODEL_BACKEND, LoginView, email_sent_message
from apps.characters.models import Character
from apps.characters.services import UndoRefused, table_action_undo
from apps.core.http import HtmxHttpRequest, too_many_requests
from apps.core.live import answer_check
from apps.core.once import SubmissionRefused, once_per_submission
from apps.core.push import open_stream, topic
from apps.systems import system_of

from . import handouts, services, transfer
from .access import get_campaign_for_user
from .forms import (
    CampaignForm,
    HouseRulesForm,
    ImportForm,
    JoinForm,
    LogEntryForm,
)
from .models import Campaign, LogEntry, Membership, Role
from .npc_pages import npc_page
from .qr import qr_svg

logger = logging.getLogger(__name__)

LIVE_EVENT = "campaign-changed"
# Regions of the campaign page that refresh themselves (DOM id = partial name, C8).
DETAIL_REGIONS = {"handout", "party", "npcs", "log", "members", "encounters"}


def announce_change(response: HttpResponse) -> HttpResponse:
    """Tell the regions of this page to refresh (they listen to the event from the body)."""
    response["HX-Trigger"] = LIVE_EVENT
    return response


def _detail_refused(
    request: HtmxHttpRequest, error: SubmissionRefused, campaign_id: int, **_kwargs
) -> HttpResponse:
    """A form of the campaign page sent twice (a double tap) or without its key: said on
    the page as it is now, nothing done (apps/core/once.py); the log's own forms get their
    region back (they are the page's only htmx forms)."""
    campaign = get_campaign_for_user(request, campaign_id, gm=True)
    if request.htmx:
        context = campaign_detail_context(request, campaign)
        context["log_refusal"] = error.message
        return TemplateResponse(request, "campaigns/detail.html#log", context, status=error.status)
    messages.error(request, error.message)
    return redirect("campaigns:detail", campaign.pk)


def _home_refused(request: HtmxHttpRequest, error: SubmissionRefused, **_kwargs) -> HttpResponse:
    """A campaign made (created, imported) twice: said on the home page, which lists it."""
    messages.error(request, error.message)
    return redirect("home")


def _region_template(request: HtmxHttpRequest, template: str, regions: set[str]) -> str:
    target = request.htmx.target if request.htmx else None
    return f"{template}#{target}" if target in regions else template


def _url_or_none(name: str, *args) -> str | None:
    try:
        return reverse(name, args=args)
    except NoReverseMatch:  # the encounters app is optional to this one
        return None


def _encounters(campaign: Campaign, is_gm: bool) -> list:
    """The campaign's encounters with the link the viewer may follow (console or table)."""
    if not hasattr(campaign, "encounters"):
        return []
    encounters = campaign.encounters.order_by("-created_at")
    if not is_gm:
        encounters = encounters.live()
    rows = list(encounters[:20])
    for encounter in rows:
        encounter.url = _url_or_none(
            "encounters:console" if is_gm else "encounters:table", encounter.pk
        )
    return rows


def campaign_detail_context(request: HtmxHttpRequest, campaign: Campaign) -> dict:
    """Exactly what the viewer may see of the campaign (C11)."""
    is_gm = campaign.role == Role.GM
    characters = Character.objects.for_campaign(campaign).with_sheets().with_xp()
    party = list(characters.pcs().select_related("owner"))
    house = campaign.house()
    for character in party:
        character.pool_rows = character.pool_view(house)
    npcs = (
        characters.npcs() if is_gm else characters.npcs().filter(revealed=True, is_template=False)
    )
    npcs, npc_pager = npc_page(request, npcs)
    for npc in npcs:
        npc.pool_rows = npc.pool_view(house) if is_gm else []
        npc.health_word = npc.health(house)
    encounters = _encounters(campaign, is_gm)
    join_url = request.build_absolute_uri(reverse("campaigns:join", args=[campaign.invite_code]))
    return {
        "campaign": campaign,
        "is_gm": is_gm,
        "party": party,
        "my_characters": [c for c in party if c.owner_id == request.user.pk],
        "npcs": npcs,
        "npc_pager": npc_pager,
        "members": _members(campaign) if is_gm else [],
        "join_url": join_url,
        "join_qr": qr_svg(join_url) if is_gm else None,
        "handout": handouts.shown_handout(campaign),
        "screen_url": _url_or_none("screens:manage" if is_gm else "screens:screen", campaign.pk),
        "log_entries": _log_entries(campaign),
        "log_form": LogEntryForm() if is_gm else None,
        "encounters": encounters,
        "new_encounter_url": _url_or_none("encounters:create", campaign.pk) if is_gm else None,
        "live_url": reverse("campaigns:changes", args=[campaign.pk]),
    }


def _members(campaign: Campaign):
    """The campaign's members for its GM, each player with ``password_asked_at``: when they
    asked for a new password from the login page (None: no request pending)."""
    asked = ResetLink.objects.pending().filter(user=OuterRef("user_id"))
    return (
        campaign.memberships.select_related("user")
        .annotate(password_asked_at=Subquery(asked.values("requested_at")[:1]))
        .order_by("role", "joined_at")
    )


def _log_entries(campaign) -> list[LogEntry]:
    """The latest lines of the session log, ``can_undo`` on the table actions the GM may
    still undo: not undone, and every character they changed still there (a deleted one
    has nothing left to give back). One query more, only when such lines are shown."""
    entries = list(campaign.log_entries.select_related("author")[:30])
    actions = [entry for entry in entries if entry.changes and not entry.undone]
    # A sheet's key is its character's: every recorded change names a character.
    wanted = {change["pk"] for entry in actions for change in entry.changes}
    existing = set(Character.objects.filter(pk__in=wanted).values_list("pk", flat=True))
    for entry in entries:
        entry.can_undo = False
    for entry in actions:
        entry.can_undo = all(change["pk"] in existing for change in entry.changes)
    return entries


@require_http_methods(["GET", "POST"])
@once_per_submission(_home_refused)
def campaign_create(request: HtmxHttpRequest) -> HttpResponse:
    """Any logged-in user can start a campaign and becomes its GM."""
    form = CampaignForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        campaign = services.campaign_create(
            name=form.cleaned_data["name"],
            system=form.cleaned_data["system"],
            description=form.cleaned_data["description"],
            gm=request.user,
        )
        messages.success(request, _("Campagne créée. Invitez vos joueurs avec le lien."))
        return redirect("campaigns:detail", campaign.pk)
    return TemplateResponse(request, "campaigns/create.html", {"form": form})


@require_GET
def campaign_detail(request: HtmxHttpRequest, campaign_id: int) -> TemplateResponse:
    """The campaign page: party, NPCs, log, invitation (GM), links."""
    campaign = get_campaign_for_user(request, campaign_id)
    template = _region_template(request, "campaigns/detail.html", DETAIL_REGIONS)
    return TemplateResponse(request, template, campaign_detail_context(request, campaign))


@require_GET
def campaign_changes(request: HtmxHttpRequest, campaign_id: int) -> HttpResponse:
    """The idle check of open screens: 204 while nothing changed, else the refreshed live
    element and the ``campaign-changed`` event. Two queries with the user's."""
    return answer_check(request, _member_version(request, campaign_id), LIVE_EVENT)


def _member_version(request: HtmxHttpRequest, campaign_id: int) -> int | None:
    """The campaign's version for one of its members, else None."""
    return (
        Campaign.objects.filter(pk=campaign_id, memberships__user=request.user)
        .values_list("version", flat=True)
        .first()
    )


@require_GET
async def campaign_stream(request: HtmxHttpRequest, campaign_id: int) -> HttpResponse:
    """The pushed changes of a campaign (its page), for its members only."""

    def allowed() -> list[str] | None:
        found = _member_version(request, campaign_id) is not None
        return [topic("campaign", campaign_id)] if found else None

    return await open_stream(request, allowed)


# Wrong invitation codes, typed or in a link: per user and per address (issue 12, point 7).
JOIN_LIMIT = throttle.Limit("join_code", {"user": 10, "ip": 30}, timedelta(minutes=15))


def welcome_message() -> str:
    return _("Bienvenue dans la campagne ! Créez votre personnage.")


def _join_keys(request: HtmxHttpRequest) -> dict[str, str]:
    user = str(request.user.pk) if request.user.is_authenticated else ""
    return {"user": user, "ip": client_ip(request)}


def _invitation(request: HtmxHttpRequest, code: str) -> tuple[Campaign | None, HttpResponse | None]:
    """The campaign of an invitation code, or the page refusing it: too many wrong codes
    (429), or a wrong or rotated one (404, and counted)."""
    keys = _join_keys(request)
    if throttle.exceeded(JOIN_LIMIT, keys):
        return None, too_many_requests(request, JOIN_LIMIT.minutes)
    campaign = Campaign.objects.filter(invite_code=code.upper()).first()
    if campaign is None:
        throttle.record(JOIN_LIMIT, keys)
        return None, TemplateResponse(request, "campaigns/join_invalid.html", status=404)
    return campaign, None


def _invitation_context(campaign: Campaign) -> dict:
    gm = campaign.memberships.select_related("user").filter(role=Role.GM).first()
    return {"campaign": campaign, "gm": gm.user if gm else None}


@require_http_methods(["GET", "POST"])
def campaign_join_code(request: HtmxHttpRequest) -> HttpResponse:
    """Type the code the GM gave: goes to the invitation page."""
    keys = _join_keys(request)
    if request.method == "POST" and throttle.exceeded(JOIN_LIMIT, keys):
        return too_many_requests(request, JOIN_LIMIT.minutes)
    form = JoinForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            return redirect("campaigns:join", form.cleaned_data["code"])
        throttle.record(JOIN_LIMIT, keys)
    return TemplateResponse(request, "campaigns/join_code.html", {"form": form})


@login_not_required
@require_http_methods(["GET", "POST"])
def campaign_join(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """The invitation link: shows the campaign, its system and its GM; a visitor logs in or
    creates an account, a logged-in user joins with one button (a GET never writes)."""
    campaign, refusal = _invitation(request, code)
    if refusal:
        return refusal
    context = _invitation_context(campaign)
    if not request.user.is_authenticated:
        return TemplateResponse(request, "campaigns/join.html", context)
    if request.method == "POST":
        _membership, created = services.campaign_join(campaign=campaign, user=request.user)
        if created:
            messages.success(request, welcome_message())
        return redirect("campaigns:detail", campaign.pk)
    context["membership"] = Membership.objects.filter(campaign=campaign, user=request.user).first()
    return TemplateResponse(request, "campaigns/join.html", context)


@method_decorator(login_not_required, name="dispatch")
class JoinLoginView(LoginView):
    """ "J'ai déjà un compte": log in from the invitation and be a player at once."""

    template_name = "campaigns/join_login.html"

    def dispatch(self, request, *args, code: str, **kwargs):
        self.campaign, refusal = _invitation(request, code)
        if refusal:
            return refusal
        return super().dispatch(request, *args, **kwargs)

    def get_default_redirect_url(self) -> str:
        # Already logged in: the invitation page asks for the one confirmation.
        return reverse("campaigns:join", args=[self.campaign.invite_code])

    def get_context_data(self, **kwargs):
        return super().get_context_data(**_invitation_context(self.campaign), **kwargs)

    def form_valid(self, form):
        super().form_valid(form)
        _membership, created = services.campaign_join(campaign=self.campaign, user=form.get_user())
        if created:
            messages.success(self.request, welcome_message())
        return redirect("campaigns:detail", self.campaign.pk)


@login_not_required
@require_http_methods(["GET", "POST"])
def campaign_sign_up(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """ "Créer mon compte" from the invitation: one form, then the campaign page."""
    campaign, refusal = _invitation(request, code)
    if refusal:
        return refusal
    if request.user.is_authenticated:
        return redirect("campaigns:join", campaign.invite_code)
    form = SignupForm(request.POST or None, address=client_ip(request))
    if request.method == "POST" and form.is_valid():
        user = services.campaign_sign_up(campaign=campaign, form=form)
        login(request, user, backend=MODEL_BACKEND)
        messages.success(request, _("Compte créé. Bienvenue ! Créez votre personnage."))
        if form.email_to_confirm:
            email_confirm_ask(user=user, email=form.email_to_confirm, request=request)
            messages.info(request, email_sent_message(form.email_to_confirm))
        return redirect("campaigns:detail", campaign.pk)
    context = {**_invitation_context(campaign), "form": form}
    return TemplateResponse(request, "campaigns/join_signup.html", context)


@require_POST
@once_per_submission(_detail_refused)
def campaign_invite_regenerate(request: HtmxHttpRequest, campaign_id: int) -> HttpResponse:
    """A new invitation code, once the GM confirmed it; the old link stops working."""
    campaign = get_campaign_for_user(request, campaign_id, gm=True)
    if request.POST.get("confirm") != "yes":  # a form from before the confirmation
        messages.error(request, _("Le lien n'a pas changé : confirmez avec « Remplacer le lien »."))
        return redirect("campaigns:detail", campaign.pk)
    campaign.regenerate_invite_code()
    messages.success(request, _("Nouveau lien d'invitation : l'ancien ne fonctionne plus."))
    return redirect("campaigns:detail", campaign.pk)


@require_POST
@once_per_submission(_detail_refused)
def membership_remove(request: HtmxHttpRequest, campaign_id: int, membership_id: int):
    """The GM removes a player (their characters stay in the campaign)."""
    campaign = get_campaign_for_user(request, campaign_id, gm=True)
    membership = get_object_or_404(
        campaign.memberships.select_related("user", "campaign"),
        pk=membership_id,
        role=Role.PLAYER,
    )
    services.membership_remove(membership=membership)
    messages.success(
        request,
        _(
            "%(name)s ne fait plus partie de la campagne. Le lien d'invitation a changé : "
            "l'ancien ne fonctionne plus."
        )
        % {"name": membership.user.display_name},
    )
    return redirect("campaigns:detail", campaign.pk)


@never_cache
@require_POST
@once_per_submission(_detail_refused)
def member_reset_link(request: HtmxHttpRequest, campaign_id: int, membership_id: int):
    """The GM hands a player who asked for a new password the one-time link to choose it
    (1 h, once, in the browser that asked): never for a player who did not ask."""
    campaign = get_campaign_for_user(request, campaign_id, gm=True)
    membership = get_object_or_404(
        campaign.memberships.select_related("user", "campaign"),
        pk=membership_id,
        role=Role.PLAYER,
    )
    if membership.user.is_staff or membership.user.is_superuser:
        messages.error(request, _("Le mot de passe d'un administrateur ne se change que par lui."))
        return redirect("campaigns:detail", campaign.pk)
    try:
        token = services.member_reset_link_create(membership=membership, by=request.user)
    except services.NoPasswordRequest:
        text = _(
            "%(name)s n'a pas demandé de nouveau mot de passe : on le demande soi-même, depuis "
            "la page de connexion (« Mot de passe oublié ? »)."
        )
        messages.error(request, text % {"name": membership.user.display_name})
        return redirect("campaigns:detail", campaign.pk)
    url = request.build_absolute_uri(reverse("accounts:reset_link", args=[token]))
    context = {"campaign": campaign, "player": membership.user, "url": url}
    return TemplateResponse(request, "campaigns/reset_link.html", context)


@require_http_methods(["GET", "POST"])
def campaign_house_rules(request: HtmxHttpRequest, campaign_id: int) -> HttpResponse:
    """The GM's settings page: every house rule of the system, checked by the rules engine."""
    campaign = get_campaign_for_user(request, campaign_id, gm=True)
    form = HouseRulesForm(request.POST or None, campaign=campaign)
    if request.method == "POST" and form.is_valid():
        services.campaign_house_rules_set(campaign=campaign, house=form.house)
        messages.success(request, _("Règles maison enregistrées."))
        return redirect("campaigns:house_rules", campaign.pk)
    template = "campaigns/house_rules.html"
    if request.htmx:
        template += "#house-rules-form"
    # The system's grid page words its own link (a system without a grid has none).
    grid = system_of(campaign).resolution_grid_template
    context = {"campaign": campaign, "form": form, "grid_link": grid and f"{grid}#grid-link"}
    return TemplateResponse(request, template, context)


@require_http_methods(["GET", "POST"])
def campaign_grid(request: HtmxHttpRequest, campaign_id: int) -> HttpResponse:
    """The resolution table (a system whose rules have one), on the page the system names."""
    campaign = get_campaign_for_user(request, campaign_id, gm=True)
    system = system_of(campaign)
    if not system.has_resolution_grid:
        return redirect("campaigns:house_rules", campaign.pk)
    form = system.resolution_grid_form(request.POST or None, campaign=campaign)
    if request.method == "POST" and form.is_valid():
        services.campaign_house_rules_set(campaign=campaign, house=form.house)
        messages.success(request, _("Table de résolution enregistrée."))
        return redirect("campaigns:grid", campaign.pk)
    context = {"campaign": campaign, "form": form}
    return TemplateResponse(request, system.resolution_grid_template, context)


@require_POST
def campaign_grid_reset(request: HtmxHttpRequest, campaign_id: int) -> HttpResponse:
    """Back to the default grid (the admin's default table, else the formula's)."""
    campaign = get_campaign_for_user(request, campaign_id, gm=True)
    system = system_of(campaign)
    if not system.has_resolution_grid:
        messages.error(request, system.no_resolution_grid)
        return redirect("campaigns:house_rules", campaign.pk)
    default = system.default_house_rules().resolution_grid
    house = dataclasses.replace(campaign.house(), resolution_grid=default)
    services.campaign_house_rules_set(campaign=campaign, house=house)
    messages.success(request, _("Table de résolution remise par défaut."))
    return redirect("campaigns:grid", campaign.pk)


@require_POST
@once_per_submission(_detail_refused)
def log_add(request: HtmxHttpRequest, campaign_id: int) -> HttpResponse:
    """The GM writes a line in the session log."""
    campaign = get_campaign_for_user(request, campaign_id, gm=True)
    form = LogEntryForm(request.POST)
    if form.is_valid():
        services.log_add(campaign=campaign, text=form.cleaned_data["text"], by=request.user)
        if not request.htmx:
            return redirect("campaigns:detail", campaign.pk)
        form = LogEntryForm()
    elif not request.htmx:
        messages.error(request, _("L'entrée du journal est vide ou trop longue."))
        return redirect("campaigns:detail", campaign.pk)
    context = campaign_detail_context(request, campaign)
    context["log_form"] = form
    # The log is the only region this changes, and it is the one swapped: no live event.
    return TemplateResponse(request, "campaigns/detail.html#log", context)


@require_POST
@once_per_submission(_detail_refused)
def log_undo(request: HtmxHttpRequest, campaign_id: int, entry_id: int) -> HttpResponse:
    """The GM undoes a table action of the log (a spend, a rest made from a sheet)."""
    campaign = get_campaign_for_user(request, campaign_id, gm=True)
    entry = get_object_or_404(LogEntry, pk=entry_id, campaign=campaign)
    refusal = None
    try:
        table_action_undo(entry=entry, by=request.user)
    except UndoRefused as error:
        refusal = {"entry": entry.pk, "message": error.message}
    if not request.htmx:
        if refusal:
            messages.error(request, refusal["message"])
        return redirect("campaigns:detail", campaign.pk)
    context = campaign_detail_context(request, campaign)
    context["undo_refusal"] = refusal
    response = TemplateResponse(request, "campaigns/detail.html#log", context)
    # The party's pools changed too: every region of the page refreshes.
    return response if refusal else announce_change(response)


@require_GET
def campaign_export(request: HtmxHttpRequest, campaign_id: int) -> HttpResponse:
    """The GM downloads the whole campaign as one JSON file."""
    campaign = get_campaign_for_user(request, campaign_id, gm=True)
    response = JsonResponse(
        transfer.campaign_export(campaign), json_dumps_params={"ensure_ascii": False, "indent": 1}
    )
    filename = transfer.export_filename(campaign)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


# What a form posting one file adds to it: a body past the file's limit and this is no export.
IMPORT_FORM_OVERHEAD = 64 * 1024


def _import_body_too_big(request: HtmxHttpRequest) -> bool:
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return False  # Django's own parsing refuses it
    return length > transfer.MAX_BYTES + IMPORT_FORM_OVERHEAD


@require_http_methods(["GET", "POST"])
# A body too big is refused unread (its key with it: nothing was done).
@once_per_submission(_home_refused, unless=_import_body_too_big)
def campaign_import(request: HtmxHttpRequest) -> HttpResponse:
    """Any logged-in user makes a new campaign from an export file and becomes its GM."""
    if request.method != "POST":
        return TemplateResponse(request, "campaigns/import.html", {"form": ImportForm()})
    if _import_body_too_big(request):  # refused before the upload is read
        form = ImportForm(data={}, files={})
        form.full_clean()  # bound: the refusal shows next to the field, as any other
        form.errors["file"] = form.error_class([transfer.too_big().message])
        return _import_refused(request, form)
    form = ImportForm(request.POST, request.FILES)
    if not form.is_valid():
        return _import_refused(request, form)
    try:
        report = transfer.campaign_import(document=form.cleaned_data["file"], by=request.user)
    except transfer.ImportRefused as refusal:
        form.add_error("file", refusal.message)
        return _import_refused(request, form)
    messages.success(request, _("Campagne importée : vous en êtes le MJ."))
    for message in report.messages():
        messages.info(request, message)
    return redirect("campaigns:detail", report.campaign.pk)


def _import_refused(request: HtmxHttpRequest, form: ImportForm) -> TemplateResponse:
    """The form with its refusal next to the field, and one log line (no traceback: a bad
    file is the sender's problem, not the server's)."""
    logger.warning(
        "Campaign import refused for user %s (%s bytes): %s",
        request.user.pk,
        request.META.get("CONTENT_LENGTH", "?"),
        "; ".join(form.errors.get("file", [])) or "no file",
    )
    return TemplateResponse(request, "campaigns/import.html", {"form": form})


@require_GET
def handout_image(request: HtmxHttpRequest, campaign_id: int, handout_id: int) -> HttpResponse:
    """A handout's image, streamed to the campaign's members after the check: the one on
    show to the table, or any of them to the GM."""
    campaign = get_campaign_for_user(request, campaign_id)
    return handouts.image_response(
        handouts.visible_handout(campaign, handout_id, is_gm=campaign.role == Role.GM)
    )
