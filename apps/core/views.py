from django.contrib.auth.decorators import login_not_required
from django.db import connection
from django.db.models import Prefetch
from django.http import HttpResponse
from django.shortcuts import render
from django.template.response import TemplateResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from .http import HtmxHttpRequest


@require_GET
def home(request: HtmxHttpRequest) -> TemplateResponse:
    """The dashboard: my campaigns as GM and as player, each with its party at a glance."""
    from apps.campaigns.models import Campaign, Role
    from apps.characters.models import Character
    from apps.encounters.models import Encounter, fight_to_follow

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
    return TemplateResponse(request, "core/home.html", context)


@login_not_required
@never_cache
@require_GET
def health(request: HtmxHttpRequest) -> HttpResponse:
    """For load balancers: answers 200 when this instance can reach the database."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return HttpResponse("ok", content_type="text/plain")


# --- Error pages (French, in the site's layout, with a way back) ----------------------------


def permission_denied(request: HtmxHttpRequest, exception: Exception) -> HttpResponse:
    """403: what the viewer may open instead, when the refusal knows it (``Forbidden``)."""
    way_back = getattr(exception, "way_back", None)
    return render(request, "403.html", {"way_back": way_back}, status=403)


def csrf_failure(request: HtmxHttpRequest, reason: str = "") -> HttpResponse:
    """A form sent without its security token (an old tab, cookies refused): say so."""
    return render(request, "403_csrf.html", status=403)
