"""The one way the screen's views get their campaign (C6): a member logged in, or a screen
link. A link opens its campaign's screen (its page, check, stream and the images it shows)
and nothing else; a revoked or unknown link is a 404 whoever holds it."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import OuterRef, QuerySet, Subquery
from django.http import Http404
from django.urls import reverse

from apps.campaigns.access import get_campaign_for_user
from apps.campaigns.models import Campaign
from apps.core.http import HtmxHttpRequest
from apps.core.push import topic
from apps.encounters.models import Encounter

from .models import ScreenLink, token_digest


class ScreenLinkGone(Http404):
    """A screen link that does not exist, or no longer: its page says so."""


@dataclass(frozen=True)
class Screen:
    """A campaign's screen as one viewer opens it: as a member, or through a link (``token``).
    Its URLs (the page, its check, the images it shows) are those of that way in."""

    campaign: Campaign
    token: str | None = None

    def url(self, name: str) -> str:
        """The screen's own URL ``name`` ("screen", "changes") for this way in."""
        if self.token is None:
            return reverse(f"screens:{name}", args=[self.campaign.pk])
        name = "link" if name == "screen" else f"link_{name}"
        return reverse(f"screens:{name}", args=[self.token])

    def image_url(self, handout_id: int) -> str:
        """Where this viewer gets the image of the handout on show."""
        if self.token is None:
            return reverse("campaigns:handout_image", args=[self.campaign.pk, handout_id])
        return reverse("screens:link_handout_image", args=[self.token, handout_id])


def get_screen_for_member(request: HtmxHttpRequest, campaign_id: int) -> Screen:
    """The screen of a campaign the viewer belongs to (GM or player); 404 otherwise."""
    return Screen(get_campaign_for_user(request, campaign_id))


def get_screen_for_link(token: str) -> Screen:
    """The screen a link opens; ``ScreenLinkGone`` (404) for a revoked or unknown one."""
    campaign = Campaign.objects.filter(screen_links__token_digest=token_digest(token)).first()
    if campaign is None:
        raise ScreenLinkGone("No such screen link.")
    return Screen(campaign, token)


def member_campaigns(request: HtmxHttpRequest, campaign_id: int) -> QuerySet:
    """The campaign, if the viewer belongs to it (the check's and the stream's filter)."""
    return Campaign.objects.filter(pk=campaign_id, memberships__user=request.user)


def link_campaigns(token: str) -> QuerySet:
    """The campaign a link opens, if it is still there (the check's and the stream's)."""
    return Campaign.objects.filter(screen_links__token_digest=token_digest(token))


def screen_state(campaigns: QuerySet) -> tuple[str, list[str]] | None:
    """What a screen's check compares, and the topics its stream follows, for the campaign
    of ``campaigns`` (None: not for this viewer), in one query: the campaign's version
    (its party, the handout shown) and the fight on screen, its id and version."""
    fight = Encounter.objects.filter(campaign=OuterRef("pk")).live().order_by("-created_at", "-pk")
    row = (
        campaigns.annotate(
            fight_id=Subquery(fight.values("pk")[:1]),
            fight_version=Subquery(fight.values("version")[:1]),
        )
        .values_list("pk", "version", "fight_id", "fight_version")
        .first()
    )
    if row is None:
        return None
    campaign_id, version, fight_id, fight_version = row
    topics = [topic("campaign", campaign_id)]
    if fight_id is not None:
        topics.append(topic("encounter", fight_id))
    return screen_version(version, fight_id, fight_version), topics


def screen_version(campaign_version: int, fight_id: int | None, fight_version: int | None) -> str:
    """What a screen shows, as its check compares it: the campaign's version, and the fight
    on screen (none: zeros) with its version."""
    return f"{campaign_version}.{fight_id or 0}.{fight_version or 0}"


def link_of(campaign: Campaign, link_id: int) -> ScreenLink:
    """One of the campaign's screen links (the GM revokes it); 404 when not one of them."""
    link = campaign.screen_links.filter(pk=link_id).first()
    if link is None:
        raise Http404("No such screen link.")
    return link
