"""Campaign pages through HTTP: creation, invitation, house rules, log, live updates (EW's
resolution grid: tests/systems/ew/test_ew_grid.py)."""

import pytest
from django.urls import reverse

from apps.campaigns.models import Campaign, LogEntry, Membership, Role
from tests.characters.factories import CharacterFactory, NpcFactory
from tests.submissions import once

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_a_user_creates_a_campaign_and_becomes_its_gm(client, user):
    client.force_login(user)
    response = client.post(reverse("campaigns:create"), once(name="Les Ombres", system="aethoria"))
    campaign = Campaign.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("campaigns:detail", args=[campaign.pk])
    assert campaign.memberships.get().role == Role.GM
    assert campaign.house_rules["pv_multiplier"] == 2  # defaults stored from the start


def test_an_invalid_campaign_is_refused_next_to_the_field(client, user):
    client.force_login(user)
    response = client.post(reverse("campaigns:create"), once(name="", system="gurps"))
    assert response.status_code == 200
    assert response.context["form"].errors.keys() == {"name", "system"}
    assert not Campaign.objects.exists()


def test_the_invitation_link_shows_the_campaign_and_joining_takes_a_click(
    client, campaign, outsider
):
    client.force_login(outsider)
    url = reverse("campaigns:join", args=[campaign.invite_code])
    page = client.get(url)
    assert page.status_code == 200
    assert campaign.name in page.text
    assert not Membership.objects.filter(user=outsider).exists()  # a GET never joins
    response = client.post(url)
    assert response["Location"] == reverse("campaigns:detail", args=[campaign.pk])
    assert Membership.objects.get(user=outsider, campaign=campaign).role == Role.PLAYER


def test_joining_twice_changes_nothing_and_the_gm_stays_gm(client, campaign, gm, player):
    url = reverse("campaigns:join", args=[campaign.invite_code])
    for user in (gm, player):
        client.force_login(user)
        client.post(url)
    assert campaign.memberships.count() == 3
    assert campaign.memberships.get(user=gm).role == Role.GM


def test_a_typed_code_is_forgiving_about_case_and_spaces(client, campaign, outsider):
    client.force_login(outsider)
    code = campaign.invite_code
    response = client.post(
        reverse("campaigns:join_code"), {"code": f" {code[:4].lower()} {code[4:]}"}
    )
    assert response["Location"] == reverse("campaigns:join", args=[code])


def test_a_wrong_code_is_told_and_a_wrong_link_is_404(client, campaign, outsider):
    client.force_login(outsider)
    response = client.post(reverse("campaigns:join_code"), {"code": "NOPE1234"})
    assert response.status_code == 200
    assert response.context["form"].errors["code"]
    assert client.get(reverse("campaigns:join", args=["NOPE1234"])).status_code == 404


def test_a_new_invitation_link_is_asked_for_then_confirmed(client, campaign, gm):
    """ "Nouveau lien" unfolds what it breaks and a second button (issue 29); a post without
    that confirmation changes nothing."""
    client.force_login(gm)
    page = client.get(reverse("campaigns:detail", args=[campaign.pk])).text
    confirmation = page.split('<details class="confirm">')[1].split("</details>")[0]
    assert "Nouveau lien…" in confirmation and "ne marcheront plus" in confirmation
    assert 'name="confirm" value="yes"' in confirmation and "Remplacer le lien" in confirmation
    old = campaign.invite_code
    response = client.post(reverse("campaigns:invite", args=[campaign.pk]), once(), follow=True)
    assert "confirmez avec « Remplacer le lien »" in response.text
    campaign.refresh_from_db()
    assert campaign.invite_code == old


def test_regenerating_the_invitation_kills_the_old_link(client, campaign, gm, outsider):
    old = campaign.invite_code
    client.force_login(gm)
    client.post(reverse("campaigns:invite", args=[campaign.pk]), {**once(), "confirm": "yes"})
    campaign.refresh_from_db()
    assert campaign.invite_code != old
    client.force_login(outsider)
    assert client.get(reverse("campaigns:join", args=[old])).status_code == 404


def test_the_gm_removes_a_player_who_then_sees_404(client, campaign, gm, player):
    membership = campaign.memberships.get(user=player)
    client.force_login(gm)
    url = reverse("campaigns:member_remove", args=[campaign.pk, membership.pk])
    response = client.post(url, once())
    assert response.status_code == 302
    assert not Membership.objects.filter(pk=membership.pk).exists()
    client.force_login(player)
    assert client.get(reverse("campaigns:detail", args=[campaign.pk])).status_code == 404


def test_the_gm_membership_cannot_be_removed(client, campaign, gm):
    membership = campaign.memberships.get(user=gm)
    client.force_login(gm)
    url = reverse("campaigns:member_remove", args=[campaign.pk, membership.pk])
    assert client.post(url, once()).status_code == 404
    assert Membership.objects.filter(pk=membership.pk).exists()


# --- The campaign page ------------------------------------------------------------------------


def test_players_see_the_party_and_revealed_npcs_only(client, campaign, player):
    CharacterFactory(campaign=campaign, owner=player, name="Iseult")
    NpcFactory(campaign=campaign, name="Le Sbire Caché")
    NpcFactory(campaign=campaign, name="La Baronne", revealed=True)
    client.force_login(player)
    body = client.get(reverse("campaigns:detail", args=[campaign.pk])).text
    assert "Iseult" in body and "La Baronne" in body
    assert "Le Sbire Caché" not in body
    assert campaign.invite_code not in body  # the invitation is the GM's


def test_the_gm_sees_everything_with_the_invitation(client, campaign, gm):
    NpcFactory(campaign=campaign, name="Le Sbire Caché")
    client.force_login(gm)
    body = client.get(reverse("campaigns:detail", args=[campaign.pk])).text
    assert "Le Sbire Caché" in body and campaign.invite_code in body


def test_a_region_asked_by_htmx_comes_alone(client, campaign, player):
    CharacterFactory(campaign=campaign, owner=player, name="Iseult")
    client.force_login(player)
    response = client.get(
        reverse("campaigns:detail", args=[campaign.pk]), HTTP_HX_TARGET="party", **HTMX
    )
    assert response.text.lstrip().startswith('<section id="party"')
    assert "<html" not in response.text and "Iseult" in response.text


def test_campaign_page_queries_do_not_grow_with_the_party(
    client, campaign, gm, django_assert_num_queries
):
    for _ in range(12):
        CharacterFactory(campaign=campaign)
    for _ in range(5):
        NpcFactory(campaign=campaign)
    client.force_login(gm)
    # user, campaign+role, PCs, NPCs, encounters, members, log
    with django_assert_num_queries(7):
        response = client.get(reverse("campaigns:detail", args=[campaign.pk]))
    assert response.status_code == 200


def test_the_gm_writes_in_the_log_with_htmx(client, campaign, gm):
    client.force_login(gm)
    response = client.post(
        reverse("campaigns:log_add", args=[campaign.pk]), once(text="Arrivée à Port-Sable."), **HTMX
    )
    assert response.status_code == 200
    assert '<section id="log"' in response.text and "Arrivée à Port-Sable." in response.text
    assert LogEntry.objects.get().author == gm


def test_an_empty_log_line_changes_nothing(client, campaign, gm):
    client.force_login(gm)
    response = client.post(reverse("campaigns:log_add", args=[campaign.pk]), once(text=""), **HTMX)
    assert response.status_code == 200
    assert response.context["log_form"].errors["text"]
    assert not LogEntry.objects.exists()


# --- Live updates -----------------------------------------------------------------------------


def test_an_idle_check_answers_204_in_two_queries(
    client, campaign, player, django_assert_num_queries
):
    client.force_login(player)
    url = reverse("campaigns:changes", args=[campaign.pk])
    with django_assert_num_queries(2):  # the user, then membership + version
        response = client.get(url, {"v": campaign.version}, **HTMX)
    assert response.status_code == 204
    assert response.content == b""


def test_a_change_answers_the_new_live_element_and_the_event(
    client, campaign, player, django_assert_num_queries
):
    old = campaign.version
    campaign.touch()
    client.force_login(player)
    url = reverse("campaigns:changes", args=[campaign.pk])
    with django_assert_num_queries(2):
        response = client.get(url, {"v": old}, **HTMX)
    assert response.status_code == 200
    assert response["HX-Trigger"] == "campaign-changed"
    assert f"?v={old + 1}" in response.text and "data-live" in response.text
    assert "<script" not in response.text  # only the element is swapped


def test_an_outsider_polling_gets_404(client, campaign, outsider):
    client.force_login(outsider)
    url = reverse("campaigns:changes", args=[campaign.pk])
    assert client.get(url, {"v": 1}, **HTMX).status_code == 404


def test_the_live_element_is_on_the_campaign_page(client, campaign, player):
    client.force_login(player)
    body = client.get(reverse("campaigns:detail", args=[campaign.pk])).text
    url = reverse("campaigns:changes", args=[campaign.pk])
    assert f'hx-get="{url}?v={campaign.version}"' in body
    assert 'hx-trigger="every 2s, live-check"' in body
    assert "js/live.js" in body


# --- House rules ------------------------------------------------------------------------------


def _house_rules_data(campaign, **changes):
    from apps.campaigns.forms import HouseRulesForm

    form = HouseRulesForm(campaign=campaign)
    data = {}
    for name, field in form.fields.items():
        value = field.initial
        if isinstance(value, bool):
            if value:
                data[name] = "on"
            continue
        data[name] = value
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def test_the_gm_changes_an_ew_house_rule(client, campaign, gm):
    client.force_login(gm)
    url = reverse("campaigns:house_rules", args=[campaign.pk])
    version = Campaign.objects.get(pk=campaign.pk).version
    data = _house_rules_data(campaign, generation_points=40, rounding="up")
    data["difficulty_ladder"] = "facile = 5\ndur = 12"
    response = client.post(url, data)
    assert response.status_code == 302, response.context["form"].errors
    campaign.refresh_from_db()
    house = campaign.house()
    assert house.generation_points == 40 and house.rounding == "up"
    assert house.difficulty_ladder == (("facile", 5), ("dur", 12))
    assert campaign.version == version + 1


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("generation_points", "-3"),
        ("extra_action_malus", "5"),
        ("xp_eclat_cost", "abc"),
        ("difficulty_ladder", "facile sans valeur"),
    ],
)
def test_a_bad_house_rule_is_named_next_to_its_field_and_nothing_changes(
    client, campaign, gm, field, value
):
    client.force_login(gm)
    before = Campaign.objects.get(pk=campaign.pk).house_rules
    url = reverse("campaigns:house_rules", args=[campaign.pk])
    response = client.post(url, _house_rules_data(campaign, **{field: value}), **HTMX)
    assert response.status_code == 200
    assert list(response.context["form"].errors) == [field]
    assert response.text.lstrip().startswith('<form id="house-rules-form"')
    assert Campaign.objects.get(pk=campaign.pk).house_rules == before


def test_every_aethoria_house_rule_is_on_the_page_and_saves(client, aethoria_campaign, gm):
    client.force_login(gm)
    url = reverse("campaigns:house_rules", args=[aethoria_campaign.pk])
    page = client.get(url)
    from apps.rules import aethoria

    names = set(aethoria.AethoriaHouseRules.__dataclass_fields__)
    assert set(page.context["form"].fields) == names
    data = _house_rules_data(aethoria_campaign, pv_multiplier=3)
    data["instant_death_locations"] = "head"
    response = client.post(url, data)
    assert response.status_code == 302, response.context["form"].errors
    aethoria_campaign.refresh_from_db()
    assert aethoria_campaign.house().pv_multiplier == 3
    assert aethoria_campaign.house().instant_death_locations == ("head",)


def test_the_aethoria_settings_show_words_in_the_rules_order_and_read_them_back(
    client, aethoria_campaign, gm
):
    client.force_login(gm)
    url = reverse("campaigns:house_rules", args=[aethoria_campaign.pk])
    # Saved once: the bands come back from jsonb, which keeps no order of its own.
    assert client.post(url, _house_rules_data(aethoria_campaign)).status_code == 302
    fields = client.get(url).context["form"].fields
    bands = fields["range_band_malus"].initial
    assert bands.splitlines() == ["courte = 0", "moyenne = -1", "longue = -2", "extrême = -4"]
    assert fields["hit_locations"].initial.splitlines()[:2] == ["1-2 tête", "3-10 torse"]
    assert fields["instant_death_locations"].initial == "tête, torse"
    data = _house_rules_data(aethoria_campaign)
    data["range_band_malus"] = "Courte = 0\nmoyenne = -2\nlongue = -3\nextrême = -5"
    data["instant_death_locations"] = "Tête"
    assert client.post(url, data).status_code == 302
    aethoria_campaign.refresh_from_db()
    house = aethoria_campaign.house()
    assert house.range_band_malus == (("short", 0), ("medium", -2), ("long", -3), ("extreme", -5))
    assert house.instant_death_locations == ("head",)
    assert house.hit_locations[0] == (1, 2, "head")


def test_an_aethoria_hit_table_with_a_gap_is_refused(client, aethoria_campaign, gm):
    client.force_login(gm)
    url = reverse("campaigns:house_rules", args=[aethoria_campaign.pk])
    data = _house_rules_data(aethoria_campaign)
    data["hit_locations"] = "1-2 head\n4-20 torso"
    data["instant_death_locations"] = "head, torso"
    response = client.post(url, data)
    assert response.status_code == 200
    assert "hit_locations" in response.context["form"].errors


def test_the_npcs_come_fifty_a_page_past_fifty(client, campaign, gm, django_assert_num_queries):
    """A campaign of 120 NPCs: fifty a page, in French, the page kept in the address (the
    region refreshing itself stays on it), and still the page's seven queries."""
    names = [f"Garde {n:03d}" for n in range(120)]
    for name in names:
        NpcFactory(campaign=campaign, name=name)
    client.force_login(gm)
    url = reverse("campaigns:detail", args=[campaign.pk])
    with django_assert_num_queries(7):
        first = client.get(url).text
    assert names[49] in first and names[50] not in first
    assert "PNJ 1 à 50" in first and "PNJ suivants" in first and "PNJ précédents" not in first
    second = client.get(url, {"pnj": 2}).text
    assert names[50] in second and names[99] in second and names[49] not in second
    assert "PNJ 51 à 100" in second and 'href="?pnj=1#npcs"' in second
    assert f'hx-get="{url}?pnj=2"' in second
    last = client.get(url, {"pnj": 3}).text
    assert "PNJ 101 à 120" in last and "PNJ suivants" not in last
    # A page past the last, or not a page, shows the first.
    assert names[0] in client.get(url, {"pnj": 9}).text
    assert names[0] in client.get(url, {"pnj": "x"}).text


def test_fifty_npcs_or_fewer_show_no_pager(client, campaign, gm):
    for n in range(50):
        NpcFactory(campaign=campaign, name=f"Garde {n:03d}")
    client.force_login(gm)
    page = client.get(reverse("campaigns:detail", args=[campaign.pk])).text
    assert "Garde 049" in page and 'class="pager"' not in page
