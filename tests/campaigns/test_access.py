"""The access helpers other apps build on (C6): one query, 404 hides, 403 refuses."""

import pytest
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.test import RequestFactory

from apps.campaigns.access import get_campaign_for_user
from apps.campaigns.models import Role
from apps.characters.access import get_character_for_user
from tests.characters.factories import CharacterFactory, NpcFactory

pytestmark = pytest.mark.django_db


def request_for(user):
    request = RequestFactory().get("/")
    request.user = user
    return request


def test_a_member_gets_the_campaign_with_their_role_in_one_query(
    campaign, gm, player, django_assert_num_queries
):
    with django_assert_num_queries(1):
        as_gm = get_campaign_for_user(request_for(gm), campaign.pk, gm=True)
    assert as_gm.role == Role.GM
    assert get_campaign_for_user(request_for(player), campaign.pk).role == Role.PLAYER


def test_a_player_asking_as_gm_gets_403_and_an_outsider_404(campaign, player, outsider):
    with pytest.raises(PermissionDenied):
        get_campaign_for_user(request_for(player), campaign.pk, gm=True)
    with pytest.raises(Http404):
        get_campaign_for_user(request_for(outsider), campaign.pk)
    with pytest.raises(Http404):
        get_campaign_for_user(request_for(outsider), 999_999)


def test_character_access_in_one_query(campaign, player, django_assert_num_queries):
    pc = CharacterFactory(campaign=campaign, owner=player)
    with django_assert_num_queries(1):
        character = get_character_for_user(request_for(player), pc.pk, write=True)
        assert character.ew.phy == 7 and character.campaign.role == Role.PLAYER
    assert character.can_write and not character.is_gm


@pytest.mark.parametrize(
    ("who", "write", "outcome"),
    [
        ("gm", True, "ok"),
        ("player", True, "ok"),
        ("other_player", False, "public"),
        ("other_player", True, PermissionDenied),
        ("outsider", False, Http404),
    ],
)
def test_character_access_by_role(request, campaign, player, who, write, outcome):
    pc = CharacterFactory(campaign=campaign, owner=player)
    user = request.getfixturevalue(who)
    if isinstance(outcome, type):
        with pytest.raises(outcome):
            get_character_for_user(request_for(user), pc.pk, write=write)
        return
    character = get_character_for_user(request_for(user), pc.pk, write=write)
    assert character.full_view == (outcome == "ok")


def test_hidden_npcs_and_templates_are_404_for_players(campaign, player, gm):
    hidden = NpcFactory(campaign=campaign)
    template = NpcFactory(campaign=campaign, revealed=True, is_template=True)
    for npc in (hidden, template):
        with pytest.raises(Http404):
            get_character_for_user(request_for(player), npc.pk)
        assert get_character_for_user(request_for(gm), npc.pk).full_view
