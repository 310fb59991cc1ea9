"""A phone on a sheet fetches it again only when something the sheet shows changed: its
own pools, XP, edits, the house rules, the fight's banner — not every step of a fight."""

import pytest
from django.urls import reverse

from apps.characters import services
from apps.characters.live import sheet_fingerprint
from apps.characters.models import Character, EwSheet
from apps.encounters import services as encounter_services
from apps.encounters.models import Encounter
from apps.rules import ew
from apps.systems.ew.combat import AttackChoice, ew_attack
from apps.systems.ew.sheet_spend import eclat_spend
from apps.systems.ew.xp import Improvement
from tests.accounts.factories import UserFactory
from tests.encounters.factories import add_player, campaign_with_gm, ew_fighter
from tests.submissions import once

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(client):
    campaign = campaign_with_gm("ew")
    gm = campaign.memberships.get().user
    player = add_player(campaign)
    lysandre = ew_fighter(campaign, "Lysandre", owner=player)
    marco = ew_fighter(campaign, "Marco", owner=add_player(campaign))
    sbire = ew_fighter(campaign, "Sbire")
    client.force_login(player)
    return {
        "campaign": campaign,
        "gm": gm,
        "player": player,
        "pc": lysandre,
        "marco": marco,
        "sbire": sbire,
        "client": client,
    }


class Sheet:
    """A phone showing Lysandre's sheet: it knows the fingerprint it last saw."""

    def __init__(self, table):
        self.client, self.pc = table["client"], table["pc"]
        page = self.client.get(reverse("characters:detail", args=[self.pc.pk])).text
        self.url = reverse("characters:changes", args=[self.pc.pk])
        self.seen = page.split(f'hx-get="{self.url}?v=', 1)[1].split('"', 1)[0]

    def has_news(self) -> bool:
        response = self.client.get(self.url, {"v": self.seen}, HTTP_HX_REQUEST="true")
        assert response.status_code in (200, 204), response.status_code
        if response.status_code == 204:
            return False
        assert response["HX-Trigger"] == "campaign-changed"
        self.seen = response.text.split(f"{self.url}?v=", 1)[1].split('"', 1)[0]
        return True


def _fight(table, *others):
    encounter = Encounter.objects.create(campaign=table["campaign"], name="Quais")
    encounter_services.combatants_add(encounter_id=encounter.pk, characters=list(others))
    # The sbire acts first (typed initiative faces): it strikes the others.
    faces = {
        c.pk: 10 if c.character_id == table["sbire"].pk else 1 for c in encounter.combatants.all()
    }
    encounter_services.encounter_start(
        encounter_id=encounter.pk, version=None, by=table["gm"], initiative=faces
    )
    encounter.refresh_from_db()
    return encounter


def _attack(encounter, gm, target_character):
    combatants = encounter_services.load_combatants(encounter)
    acting = encounter_services.acting_combatant(encounter, combatants)
    target = next(c for c in combatants if c.character_id == target_character.pk)
    ew_attack(
        encounter_id=encounter.pk,
        version=None,
        by=gm,
        choice=AttackChoice(attacker_id=acting.pk, target_id=target.pk),
        to_hit_face=1,
        damage_face=9,
    )


def test_a_fight_wakes_the_sheet_for_its_banner_and_its_own_wounds_only(table):
    sheet = Sheet(table)
    assert not sheet.has_news()
    encounter = _fight(table, table["marco"], table["sbire"])
    assert sheet.has_news()  # the banner: a fight is under way
    assert not sheet.has_news()
    # Marco and the sbire trade blows: nothing on Lysandre's sheet changes.
    _attack(encounter, table["gm"], table["marco"])
    encounter_services.encounter_next_turn(encounter_id=encounter.pk, version=None, by=table["gm"])
    assert not sheet.has_news()
    encounter_services.encounter_next_turn(encounter_id=encounter.pk, version=None, by=table["gm"])
    assert sheet.has_news()  # round 2 on the banner
    encounter_services.encounter_pause(encounter_id=encounter.pk, version=None, by=table["gm"])
    assert sheet.has_news()


def test_her_own_wounds_wake_the_sheet(table):
    encounter = _fight(table, table["pc"], table["sbire"])
    sheet = Sheet(table)
    _attack(encounter, table["gm"], table["pc"])
    assert sheet.has_news()


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda t: eclat_spend(character=t["pc"], by=t["player"]), id="eclat"),
        pytest.param(lambda t: services.character_rest(character=t["pc"], by=t["gm"]), id="rest"),
        pytest.param(
            lambda t: services.xp_award(
                campaign=t["campaign"], characters=[t["pc"]], amount=2, reason="x", by=t["gm"]
            ),
            id="xp",
        ),
        pytest.param(
            lambda t: t["campaign"].set_house_rules(ew.EwHouseRules.from_dict({"eclat_max": 5})),
            id="house-rules",
        ),
    ],
)
def test_what_the_sheet_shows_wakes_it(table, change):
    EwSheet.objects.filter(pk=table["pc"].pk).update(superficial_left=10)  # a rest heals it
    sheet = Sheet(table)
    change(table)
    assert sheet.has_news()


def test_an_xp_spend_and_its_undo_each_wake_the_sheet(table):
    services.xp_award(
        campaign=table["campaign"], characters=[table["pc"]], amount=20, reason="x", by=table["gm"]
    )
    sheet = Sheet(table)
    spend = services.xp_spend(
        character=table["pc"],
        improvement=Improvement("characteristic", name="men"),
        by=table["player"],
    )
    assert sheet.has_news()
    services.xp_spend_undo(entry=spend, by=table["gm"])
    assert sheet.has_news()


def test_the_sheets_own_action_does_not_bring_it_back_twice(table):
    client, pc = table["client"], table["pc"]
    sheet = Sheet(table)
    response = client.post(
        reverse("characters:eclat_spend", args=[pc.pk]),
        once({"note": "chance", "confirmed": "1"}),
        HTTP_HX_REQUEST="true",
    )
    fresh = response.text.split(f"{sheet.url}?v=", 1)[1].split('"', 1)[0]
    assert 'hx-swap-oob="outerHTML:[data-live]"' in response.text
    sheet.seen = fresh
    assert not sheet.has_news()


def test_who_may_check(client, table):
    sbire = table["sbire"]
    url = reverse("characters:changes", args=[sbire.pk])
    assert client.get(url).status_code == 404  # an NPC the GM has not revealed
    assert sheet_fingerprint(sbire.pk, table["gm"].pk) is not None
    client.force_login(UserFactory())
    assert client.get(reverse("characters:changes", args=[table["pc"].pk])).status_code == 404


def _seen_by_player(table, character) -> Sheet:
    """A player's phone on someone else's sheet (an NPC revealed to her, another's PC)."""
    if not character.is_pc:
        character.revealed = True
        character.save(update_fields=["revealed"])
    sheet = Sheet.__new__(Sheet)
    sheet.client, sheet.pc = table["client"], character
    sheet.url = reverse("characters:changes", args=[character.pk])
    sheet.seen = sheet_fingerprint(character.pk, table["player"].pk)
    return sheet


def test_what_a_player_cannot_see_of_an_npc_does_not_wake_its_sheet(table):
    """Issue 12: the GM's notes or a blow that leaves its state word as it was are hidden
    from players; their phone must not learn that the NPC was touched."""
    sbire = table["sbire"]
    EwSheet.objects.filter(pk=sbire.pk).update(superficial_left=20)  # égratigné (PV 24)
    sheet = _seen_by_player(table, sbire)
    Character.objects.filter(pk=sbire.pk).update(gm_notes="Il trahira", notes="x")
    assert not sheet.has_news()
    EwSheet.objects.filter(pk=sbire.pk).update(superficial_left=19)  # still égratigné
    assert not sheet.has_news()
    EwSheet.objects.filter(pk=sbire.pk).update(superficial_left=10)  # blessé: under half
    assert sheet.has_news()
    # The GM follows every number.
    before = sheet_fingerprint(sbire.pk, table["gm"].pk)
    EwSheet.objects.filter(pk=sbire.pk).update(lethal_left=4)
    assert sheet_fingerprint(sbire.pk, table["gm"].pk) != before


def test_another_pcs_sheet_wakes_a_player_for_its_pools_not_its_notes(table):
    marco = table["marco"]
    sheet = _seen_by_player(table, marco)
    Character.objects.filter(pk=marco.pk).update(notes="secret", gm_notes="secret")
    assert not sheet.has_news()
    EwSheet.objects.filter(pk=marco.pk).update(superficial_left=11)
    assert sheet.has_news()
    Character.objects.filter(pk=marco.pk).update(name="Marco le Grand")
    assert sheet.has_news()
