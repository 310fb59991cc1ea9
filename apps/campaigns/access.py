"""The one way views get a campaign (C6): members only, existence never revealed."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404

from apps.core.http import HtmxHttpRequest

from .models import Campaign, Role


def get_campaign_for_user(
    request: HtmxHttpRequest, campaign_id: int, *, gm: bool = False
) -> Campaign:
    """The campaign with ``role`` set to the viewer's; 404 for non-members, 403 for a
    player when ``gm`` is asked. One query."""
    campaign = Campaign.objects.for_user(request.user).filter(pk=campaign_id).first()
    if campaign is None:
        raise Http404("No such campaign.")
    if gm and campaign.role != Role.GM:
        raise PermissionDenied
    return campaign
