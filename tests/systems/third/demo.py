"""The third system's demo campaign: all a new system adds for ``manage.py demo`` to make
one of its campaigns too (``GameSystem.demo_campaign``)."""

from __future__ import annotations

from apps.campaigns.services import campaign_create, campaign_join
from apps.characters.models import Character, Kind
from apps.demo.building import prepare_encounter

from .models import ThirdSheet

DEMO_CAMPAIGN = "La Troisième Table"


def _character(campaign, name: str, owner=None) -> Character:
    character = Character.objects.create(
        campaign=campaign, kind=Kind.PC if owner else Kind.NPC, owner=owner, name=name
    )
    ThirdSheet.objects.create(character=character, vigueur=3, adresse=3, souffle=6)
    return character


def demo_campaign(*, gm, players):
    campaign = campaign_create(name=DEMO_CAMPAIGN, system="third", gm=gm)
    pcs = []
    for player in players:
        campaign_join(campaign=campaign, user=player)
        pcs.append(_character(campaign, f"Héros de {player.first_name}", owner=player))
    prepare_encounter(campaign, "Échauffement", pcs, [_character(campaign, "Sparring")])
    return campaign
