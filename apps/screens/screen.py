"""What the table screen shows (C11: computed here, the template only lays it out): the fight
under way as the players' table view shows it — nothing hidden, NPCs in words — or, when
none runs, the party and the QR code to join; and the handout the GM shows the table."""

from __future__ import annotations

from django.urls import reverse

from apps.campaigns.handouts import shown_handout
from apps.campaigns.qr import qr_svg
from apps.characters.models import Character
from apps.encounters.models import Encounter
from apps.encounters.table import table_context

from .access import Screen, screen_version


def screen_context(request, screen: Screen) -> dict:
    """Everything the screen shows this viewer, and the URLs it follows (its way in's)."""
    campaign = screen.campaign
    fight = campaign.encounters.live().first()
    handout = shown_handout(campaign)
    context = {
        "campaign": campaign,
        "screen_url": screen.url("screen"),
        "live_url": screen.url("changes"),
        "version": screen_version(campaign.version, fight and fight.pk, fight and fight.version),
        "handout": handout,
        "handout_url": screen.image_url(handout.pk) if handout else None,
        "fight": fight,
    }
    if fight is not None:
        fight.campaign = campaign
        context.update(_fight_context(request, fight))
    else:
        context.update(_gathering_context(request, campaign))
    return context


def _fight_context(request, fight: Encounter) -> dict:
    """The fight as the players' table view shows it (the same context: the same filter)."""
    table = table_context(request, fight)
    rows = table["rows"]
    acting = next((row for row in rows if row.acting), None)
    shown, more = order_window(rows, acting or table["upcoming"])
    return {
        "rows": shown,
        "more": more,
        "acting": acting,
        "upcoming": table["upcoming"],
        "lines": table["lines"],
    }


# The most fighters a TV lists at 1080p with names of 28 px (two columns of 13).
ORDER_ROWS = 26


def order_window(rows: list, anchor) -> tuple[list, int]:
    """The rows the screen lists, and how many it leaves out: all of them, or in a bigger
    fight ``ORDER_ROWS`` from the fighter who acts (``anchor``) on, those who already acted
    first left out."""
    if len(rows) <= ORDER_ROWS:
        return rows, 0
    start = rows.index(anchor) if anchor in rows else 0
    start = min(start, len(rows) - ORDER_ROWS)
    return rows[start : start + ORDER_ROWS], len(rows) - ORDER_ROWS


def _gathering_context(request, campaign) -> dict:
    """Between fights: the party, and how to join it."""
    house = campaign.house()
    party = list(Character.objects.for_campaign(campaign).pcs().with_sheets())
    for character in party:
        character.campaign = campaign
        character.pool_rows = character.pool_view(house)
        character.health_word = character.health(house)
    join_url = request.build_absolute_uri(reverse("campaigns:join", args=[campaign.invite_code]))
    return {"party": party, "join_url": join_url, "join_qr": qr_svg(join_url)}
