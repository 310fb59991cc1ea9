"""The table screen: a page per campaign for the TV, opened by a member or through a screen
link, that follows the evening by itself; and the GM's page that makes and revokes the links
and shows the table its handouts."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_not_required
from django.http import HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from apps.campaigns.access import get_campaign_for_user
from apps.campaigns.handouts import campaign_handout, image_response, visible_handout
from apps.campaigns.models import Campaign
from apps.core.http import HtmxHttpRequest
from apps.core.live import answer_check
from apps.core.push import open_stream

from . import services
from .access import (
    Screen,
    ScreenLinkGone,
    get_screen_for_link,
    get_screen_for_member,
    link_campaigns,
    link_of,
    member_campaigns,
    screen_state,
)
from .forms import HandoutForm, ScreenLinkForm
from .models import token_digest
from .screen import screen_context

SCREEN = "screens/screen.html"
MANAGE = "screens/manage.html"
LIVE_EVENT = "screen-changed"


# --- The screen, for the campaign's members ------------------------------------------------


@require_GET
def screen(request: HtmxHttpRequest, campaign_id: int) -> TemplateResponse:
    """The table screen of a campaign, for its GM and its players (logged in)."""
    return _screen_page(request, get_screen_for_member(request, campaign_id))


@require_GET
def screen_changes(request: HtmxHttpRequest, campaign_id: int) -> HttpResponse:
    """The screen's idle check: 204 while nothing it shows changed (two queries in all)."""
    return _check(request, screen_state(member_campaigns(request, campaign_id)))


@require_GET
async def screen_stream(request: HtmxHttpRequest, campaign_id: int) -> HttpResponse:
    """The pushed changes of the screen: its campaign's and its fight's."""

    def allowed() -> list[str] | None:
        state = screen_state(member_campaigns(request, campaign_id))
        return None if state is None else state[1]

    return await open_stream(request, allowed, recheck=True)


# --- The screen, through a link (a browser logged in as nobody) ----------------------------


@login_not_required
@never_cache
@require_GET
def link_screen(request: HtmxHttpRequest, token: str) -> TemplateResponse:
    """The table screen opened by a screen link: this page, its check, its stream and the
    images it shows are all the link opens."""
    try:
        screen = get_screen_for_link(token)
    except ScreenLinkGone:
        return TemplateResponse(request, "screens/link_gone.html", status=404)
    return _screen_page(request, screen)


@login_not_required
@never_cache
@require_GET
def link_changes(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The check of a screen opened by a link (a revoked link: 404, and the page reloads)."""
    return _check(request, screen_state(link_campaigns(token)))


@login_not_required
@never_cache
@require_GET
async def link_stream(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The stream of a screen opened by a link: it ends as soon as the link is revoked (the
    revocation moves the campaign's version, which this stream follows, and it checks the
    link again at every change and keep-alive)."""

    def allowed() -> list[str] | None:
        state = screen_state(link_campaigns(token))
        return None if state is None else state[1]

    # Nobody is logged in: the link's streams count together, not with every link's.
    owner = f"screen-link:{token_digest(token)}"
    return await open_stream(request, allowed, recheck=True, owner=owner)


@login_not_required
@never_cache
@require_GET
def link_handout_image(request: HtmxHttpRequest, token: str, handout_id: int) -> HttpResponse:
    """The image of the handout on show, for the screen a link opens (no other handout)."""
    screen = get_screen_for_link(token)
    return image_response(visible_handout(screen.campaign, handout_id, is_gm=False))


def _screen_page(request: HtmxHttpRequest, screen: Screen) -> TemplateResponse:
    refresh = request.htmx and not request.htmx.boosted
    template = f"{SCREEN}#screen" if refresh else SCREEN
    return TemplateResponse(request, template, screen_context(request, screen))


def _check(request: HtmxHttpRequest, state: tuple[str, list[str]] | None) -> HttpResponse:
    response = answer_check(request, None if state is None else state[0], LIVE_EVENT)
    if response.status_code == 404:
        # No longer this viewer's screen (a revoked link, a player removed): the page reloads
        # onto its refusal, which asks nothing more.
        response["HX-Refresh"] = "true"
    return response


# --- The GM's page: screen links and handouts ------------------------------------------------


def manage_context(request: HtmxHttpRequest, campaign: Campaign, **forms) -> dict:
    """The GM's screen page: the links (a new one's URL, shown once), the handouts."""
    context = {
        "campaign": campaign,
        "links": list(campaign.screen_links.select_related("created_by")),
        "handouts": list(campaign.handouts.all()),
        "link_form": ScreenLinkForm(initial={"label": _("Écran de la table")}),
        "handout_form": HandoutForm(),
        "new_link": None,
    }
    context.update(forms)
    return context


@require_GET
def screen_manage(request: HtmxHttpRequest, campaign_id: int) -> TemplateResponse:
    """The GM's screen page: open the screen, make and revoke its links, show handouts."""
    campaign = get_campaign_for_user(request, campaign_id, gm=True)
    return _manage_page(request, campaign)


def _manage_page(request: HtmxHttpRequest, campaign: Campaign, **forms) -> TemplateResponse:
    return TemplateResponse(request, MANAGE, manage_context(request, campaign, **forms))


@never_cache
@require_POST
def link_create(request: HtmxHttpRequest, campaign_id: int) -> TemplateResponse:
    """A new screen link; its URL is shown on this answer only (its token is not kept)."""
    campaign = get_campaign_for_user(request, campaign_id, gm=True)
    form = ScreenLinkForm(request.POST)
    if form.is_valid():
        try:
            _link, token = services.screen_link_create(
                campaign=campaign, label=form.cleaned_data["label"], by=request.user
            )
        except services.ScreenRefusal as refusal:
            form.add_error(None, refusal.message)
        else:
            url = request.build_absolute_uri(reverse("screens:link", args=[token]))
            return _manage_page(request, campaign, new_link=url)
    return _manage_page(request, campaign, link_form=form)


@require_POST
def link_revoke(request: HtmxHttpRequest, campaign_id: int, link_id: int) -> HttpResponse:
    """The link stops at once: its screen, its open stream, its images."""
    campaign = get_campaign_for_user(request, campaign_id, gm=True)
    link = link_of(campaign, link_id)
    services.screen_link_revoke(link=link)
    messages.success(
        request,
        _("Lien « %(label)s » retiré : cet écran ne montre plus rien.") % {"label": link.label},
    )
    return redirect("screens:manage", campaign.pk)


@require_POST
def handout_create(request: HtmxHttpRequest, campaign_id: int) -> HttpResponse:
    """A new handout (an image checked by its content, a short text), shown to the table at
    once if asked; refused in French next to its field, and nothing kept."""
    campaign = get_campaign_for_user(request, campaign_id, gm=True)
    form = HandoutForm(request.POST, request.FILES)
    if not form.is_valid():
        return _manage_page(request, campaign, handout_form=form)
    data = form.cleaned_data
    services.handout_create(
        campaign=campaign,
        title=data["title"],
        text=data["text"],
        image=data["image"],
        by=request.user,
        show=data["show"],
    )
    if data["show"]:
        messages.success(request, _("Document ajouté et montré à la table."))
    else:
        messages.success(request, _("Document ajouté : montrez-le quand vous voulez."))
    return redirect("screens:manage", campaign.pk)


@require_POST
def handout_show(request: HtmxHttpRequest, campaign_id: int, handout_id: int) -> HttpResponse:
    """Show this handout to the table: the screen and every phone (instead of another)."""
    campaign = get_campaign_for_user(request, campaign_id, gm=True)
    handout = campaign_handout(campaign, handout_id)
    services.handout_show(campaign=campaign, handout=handout)
    messages.success(request, _("« %(name)s » est montré à la table.") % {"name": handout})
    return redirect("screens:manage", campaign.pk)


@require_POST
def handout_take_down(request: HtmxHttpRequest, campaign_id: int) -> HttpResponse:
    """The table no longer sees any handout."""
    campaign = get_campaign_for_user(request, campaign_id, gm=True)
    services.handout_take_down(campaign=campaign)
    messages.success(request, _("Plus aucun document n'est montré à la table."))
    return redirect("screens:manage", campaign.pk)


@require_POST
def handout_delete(request: HtmxHttpRequest, campaign_id: int, handout_id: int) -> HttpResponse:
    """Delete a handout and its image (taken down first if shown)."""
    campaign = get_campaign_for_user(request, campaign_id, gm=True)
    handout = campaign_handout(campaign, handout_id)
    services.handout_delete(handout=handout)
    messages.success(request, _("Document « %(name)s » supprimé.") % {"name": handout})
    return redirect("screens:manage", campaign.pk)
