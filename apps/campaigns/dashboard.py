"""The home page: the viewer's campaigns, as GM and as player, each with its party at a glance.

It reads characters and fights as well as campaigns, so it sits on top of those apps (config/urls
routes it at the site's root); apps/core, the plumbing under every app, knows none of them.
"""

from __future__ import annotations

from django.db.models import Prefetch
from django.template.response import TemplateResponse
from django.views.decorators.http import require_GET

from apps.characters.models import Character
from apps.core.http import HtmxHttpRequest
from apps.encounters.models import Encounter, fight_to_follow

from .models import Campaign, Role


@require_GET
def home(request: HtmxHttpRequest) -> TemplateResponse:
    """The dashboard: my campaigns as GM and as player, each with its party at a glance."""
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
    }
    return TemplateResponse(request, "campaigns/home.html", context)
