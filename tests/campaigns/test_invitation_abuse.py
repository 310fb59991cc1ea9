"""A removed player cannot come back with the old link; wrong codes are rate-limited
(issue 12, point 7)."""

import pytest
from django.urls import reverse

from apps.campaigns.models import Membership
from apps.campaigns.views import JOIN_LIMIT
from tests.submissions import once

pytestmark = pytest.mark.django_db


def test_removing_a_player_rotates_the_code_and_says_so(client, campaign, gm, player):
    old_link = reverse("campaigns:join", args=[campaign.invite_code])
    membership = campaign.memberships.get(user=player)
    client.force_login(gm)
    response = client.post(
        reverse("campaigns:member_remove", args=[campaign.pk, membership.pk]),
        once(),
        follow=True,
    )
    assert "Le lien d&#x27;invitation a changé" in response.text
    campaign.refresh_from_db()
    assert reverse("campaigns:join", args=[campaign.invite_code]) != old_link
    client.force_login(player)
    assert client.post(old_link).status_code == 404
    assert not Membership.objects.filter(campaign=campaign, user=player).exists()


def test_wrong_typed_codes_are_limited_per_user(client, campaign, outsider):
    client.force_login(outsider)
    url = reverse("campaigns:join_code")
    for n in range(JOIN_LIMIT.per_key["user"]):
        response = client.post(url, {"code": "ZZZZZZZZ"}, REMOTE_ADDR=f"10.2.0.{n}")
        assert response.status_code == 200
        assert response.context["form"].errors["code"]
    # Even the right code is refused now, from any address.
    response = client.post(url, {"code": campaign.invite_code}, REMOTE_ADDR="10.2.9.9")
    assert response.status_code == 429
    assert "Réessayez dans 15 minutes" in response.text


def test_wrong_links_are_limited_per_address(client, campaign):
    for n in range(JOIN_LIMIT.per_key["ip"]):
        response = client.get(reverse("campaigns:join", args=[f"WRONG{n:03d}"]))
        assert response.status_code == 404
    response = client.get(reverse("campaigns:join", args=[campaign.invite_code]))
    assert response.status_code == 429
    # Another address still sees the invitation.
    ok = client.get(reverse("campaigns:join", args=[campaign.invite_code]), REMOTE_ADDR="10.3.0.1")
    assert ok.status_code == 200


def test_a_right_code_is_not_counted(client, campaign, outsider):
    client.force_login(outsider)
    for _ in range(JOIN_LIMIT.per_key["user"] + 1):
        assert client.get(reverse("campaigns:join", args=[campaign.invite_code])).status_code == 200
