"""The home page: the viewer's campaigns, as GM and as player, each with its party at a glance.

It reads characters and fights as well as campaigns, so it sits on top of those apps (config/urls
routes it at the site's root); apps/core, the plumbing under every app, knows none of them.
"""

from __future__ import annotations

import hashlib

from django.db.models import Prefetch
from django.http import HttpResponse
from django.template.response import TemplateResponse
from django.urls import reverse
from django.views.decorators.http import require_GET

from apps.characters.models import Character
from apps.core.http import HtmxHttpRequest
from apps.core.live import answer_check
from apps.core.push import open_stream, topic
from apps.encounters.models import Encounter, fight_to_follow

from .models import Campaign, Role

# What the page's region listens to (components/live.html).
LIVE_EVENT = "home-changed"


@require_GET
def home(request: HtmxHttpRequest) -> TemplateResponse:
    """The dashboard: my campaigns as GM and as player, each with its party at a glance. It
    follows them: a fight starting, a round, a wound on a PC show without reloading."""
    party = Character.objects.pcs().with_sheets().with_xp().select_related("owner")
    campaigns = list(
        Campaign.objects.for_user(request.user)
        .prefetch_related(
            Prefetch("characters", queryset=party, to_attr="party"),
            Prefetch("encounters", queryset=Encounter.objects.live(), to_attr="fights"),
        )
        .order_by("-created_at")
    )
    for campaign in campaigns:
        house = campaign.house()
        campaign.fight = fight_to_follow(campaign.fights, campaign.role == Role.GM)
        for character in campaign.party:
            character.campaign = campaign  # share the viewer's role and avoid a query each
            character.pool_rows = character.pool_view(house)
            character.mine = character.owner_id == request.user.pk
    context = {
        "gm_campaigns": [c for c in campaigns if c.role == Role.GM],
        "player_campaigns": [c for c in campaigns if c.role != Role.GM],
        "live_url": reverse("home_changes"),
        "version": _campaigns_print((c.pk, c.version) for c in campaigns),
    }
    template = "campaigns/home.html"
    if request.htmx and request.htmx.target == "home-body":
        template += "#home-body"
    return TemplateResponse(request, template, context)


def _campaigns_print(versions) -> str:
    """A print of the viewer's campaigns, from their (id, version): every change the page
    shows (a fight, a round, a PC's pools or XP, a campaign joined or left) moves it."""
    seen = ",".join(f"{pk}:{version}" for pk, version in sorted(versions))
    return hashlib.blake2b(seen.encode(), digest_size=8).hexdigest()


@require_GET
def home_changes(request: HtmxHttpRequest) -> HttpResponse:
    """The dashboard's idle check: 204 while none of the viewer's campaigns changed."""
    versions = Campaign.objects.for_user(request.user).values_list("pk", "version")
    return answer_check(request, _campaigns_print(versions), LIVE_EVENT)


@require_GET
async def home_stream(request: HtmxHttpRequest) -> HttpResponse:
    """The pushed changes of the viewer's campaigns, for their dashboard."""

    def allowed() -> list[str]:
        campaigns = Campaign.objects.for_user(request.user).values_list("pk", flat=True)
        return [topic("campaign", pk) for pk in campaigns]

    return await open_stream(request, allowed)
