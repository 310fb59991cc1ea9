"""Issue 19's rulings seen over HTTP: the parry's rank, a 1 that always succeeds, the house-rule
page offering both options, and an EW opponent resisting with its maluses."""

import pytest
from django.urls import reverse

from apps.campaigns.forms import HouseRulesForm
from apps.rules import aethoria
from tests.systems.aethoria.support import (
    HTMX,
    aethoria_table,  # noqa: F401 - the `table` fixture
    attack,
    errors,
    give_weapon,
    last,
    start,
    url,
    weapon,
)

pytestmark = pytest.mark.django_db


def _parry_odds(table, parry_with):
    y, b = start(table)
    encounter = table["encounter"]
    encounter.refresh_from_db()
    query = {
        "version": encounter.version,
        "attacker": y.pk,
        "target": b.pk,
        "mode": "attack",
        "weapon": weapon(table, "ysolde").pk,
        "defence": "parry",
        "parry_with": parry_with,
    }
    return table["client"].get(url("aethoria_attack_odds", encounter), query, **HTMX)


def _set_house(table, **rules):
    table["campaign"].set_house_rules(aethoria.AethoriaHouseRules(**rules))


def test_a_parry_rolls_parade_by_default_and_the_odds_say_so(table):
    # Brandon: Parade 2, his weapon's skill 4 (parry value 5).
    sword = weapon(table, "brandon")
    response = _parry_odds(table, str(sword.pk))
    assert "contre 2 d10 ≤ 5, parade (jet de Parade 2)" in response.text


def test_with_the_house_rule_a_parry_rolls_the_better_of_parade_and_the_weapon(table):
    _set_house(table, parry_best_of_weapon_skill=True)
    sword = weapon(table, "brandon")
    response = _parry_odds(table, str(sword.pk))
    assert f"contre 4 d10 ≤ 5, parade (jet de {sword.skill.name} 4)" in response.text


def test_a_shield_parry_rolls_parade_whatever_the_house_rule(table):
    _set_house(table, parry_best_of_weapon_skill=True)
    response = _parry_odds(table, "shield")
    assert "contre 2 d10 ≤ 6, parade (jet de Parade 2)" in response.text


def test_a_weapon_parry_rolls_parade_dice_only(table):
    y, b = start(table)
    sword = weapon(table, "brandon")
    data = {"defence": "parry", "parry_with": str(sword.pk), "attack_faces": "9 9 9 9"}
    response = attack(table, y, b, **data, location_faces="5", defence_faces="1 5 5 5")
    assert "il faut exactement 2 d10" in response.text  # Parade 2, not the weapon's 4
    response = attack(table, y, b, **data, location_faces="5", defence_faces="1 5")
    assert not errors(response), errors(response)
    blow = last(table, "aethoria_attack").data["blows"][0]
    assert blow["defence"]["dice"] == 2 and blow["defence"]["successes"] == 3


def _weak_double_attack(table):
    """Ysolde at Force 2 strikes twice; her second weapon rolls damage under Force 0."""
    sheet = table["ysolde"].aethoria
    sheet.force, sheet.pv, sheet.fatigue_physical = 2, 14, 7
    sheet.save()
    dague = give_weapon(table["ysolde"], rank=6)
    epee = weapon(table, "ysolde")
    skill = sheet.skills.get(skill=epee.skill)
    skill.rank = 6
    skill.save()
    y, b = start(table)
    # First blow misses (9 9 9 at Adresse 6); the second lands with 1 2 9: 3 successes, net
    # 3, 1 bonus die, on the right arm (no armour). Damage 2 + 1 dice under Force 2 - 2 = 0.
    response = attack(
        table,
        y,
        b,
        mode="double",
        weapon=epee.pk,
        second_weapon=dague.pk,
        attack_faces="9 9 9",
        location_faces="12",
        attack_faces2="1 2 9",
        location_faces2="12",
        damage_faces2="1 5 9",
    )
    assert not errors(response), errors(response)
    return last(table, "aethoria_attack").data["blows"][1]["damage"]


def test_a_one_always_counts_two_successes_under_a_threshold_of_zero(table):
    damage = _weak_double_attack(table)
    assert damage["threshold"] == 0
    assert damage["total"] == 2 + 2  # the 1 counts 2, plus the weapon's fixed 2
    assert damage["ones_always_succeed"] is True


def test_with_the_option_off_a_one_under_a_threshold_of_zero_fails(table):
    _set_house(table, ones_always_succeed=False)
    damage = _weak_double_attack(table)
    assert damage["threshold"] == 0 and damage["total"] == 2  # the fixed part only


def _second_weapon_odds(table):
    sheet = table["ysolde"].aethoria
    sheet.force, sheet.pv, sheet.fatigue_physical = 2, 14, 7
    sheet.save()
    dague = give_weapon(table["ysolde"], rank=6, damage_fixed=0)
    y, b = start(table)
    encounter = table["encounter"]
    encounter.refresh_from_db()
    query = {
        "version": encounter.version,
        "attacker": y.pk,
        "target": b.pk,
        "mode": "double",
        "weapon": weapon(table, "ysolde").pk,
        "second_weapon": dague.pk,
        "defence": "none",
        "defence2": "none",
    }
    response = table["client"].get(url("aethoria_attack_odds", encounter), query, **HTMX)
    return response.text.split("2e arme")[1]


def test_the_odds_before_a_roll_count_the_ones_of_a_second_weapon_under_force_zero(table):
    odds = _second_weapon_odds(table)
    assert "Dégâts attendus" in odds and "max 0" not in odds  # a 1 still scores


def test_the_odds_before_a_roll_follow_the_rule_on_ones_when_it_is_off(table):
    _set_house(table, ones_always_succeed=False)
    odds = _second_weapon_odds(table)
    assert "Dégâts attendus" in odds and "· max 0" in odds  # no die can succeed


def test_the_house_rules_page_offers_both_new_aethoria_rules(table):
    client = table["client"]
    campaign = table["campaign"]
    page = reverse("campaigns:house_rules", args=[campaign.pk])
    response = client.get(page)
    assert "Un 1 réussit toujours" in response.text
    assert "Parade : meilleur de Parade et de la compétence d&#x27;arme" in response.text
    form = HouseRulesForm(campaign=campaign)
    data = {}
    for name, field in form.fields.items():
        if isinstance(field.initial, bool):
            if field.initial:
                data[name] = "on"
            continue
        data[name] = field.initial
    data.pop("ones_always_succeed")  # unticked
    data["parry_best_of_weapon_skill"] = "on"
    response = client.post(page, data)
    assert response.status_code == 302
    campaign.refresh_from_db()
    house = campaign.house()
    assert house.ones_always_succeed is False and house.parry_best_of_weapon_skill is True
