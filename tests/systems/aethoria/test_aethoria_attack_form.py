"""The Aethoria attack form at the table (issue 17): its rare fields folded under "Plus
d'options" (opened when one of them is set or refused), and the fighter's last choices
remembered for its next attack."""

import re

import pytest

from apps.characters.models import AethoriaSkillRank
from tests.systems.aethoria.support import (
    HTMX,
    aethoria_table,  # noqa: F401 - the `table` fixture
    attack,
    give_weapon,
    post,
    snapshot,
    start,
    url,
)

pytestmark = pytest.mark.django_db

FOLD = r'<details class="more-options"( open)?>'


def fold_open(html: str) -> bool:
    return re.search(FOLD, html).group(1) is not None


def test_the_rare_options_open_folded(table):
    start(table)
    page = table["client"].get(url("console", table["encounter"]), **HTMX).text
    assert not fold_open(page)
    # The usual fields stay outside the fold, the rare ones inside it.
    folded = page[page.index('class="more-options"') :]
    folded = folded[: folded.index("</details>")]
    assert 'name="fatigue"' in folded and 'name="range_band"' in folded
    assert 'name="defence"' not in folded and 'name="target"' not in folded


def test_a_refused_folded_field_opens_the_fold_with_its_message_and_nothing_changes(table):
    y, b = start(table)
    before = snapshot(table)
    response = attack(table, y, b, split1=7)
    assert fold_open(response.text)
    assert re.search(r'id="id_split1_error">[^<]*3', response.text)
    assert snapshot(table) == before


def test_a_folded_value_set_by_the_gm_keeps_the_fold_open_after_another_refusal(table):
    y, b = start(table)
    response = attack(table, y, b, fatigue=2, attack_faces="0 11")
    assert fold_open(response.text)
    assert "Un d10 donne de 1 à 10." in response.text
    # Left at their defaults, a refusal elsewhere leaves it folded.
    response = attack(table, y, b, attack_faces="0 11")
    assert not fold_open(response.text)


def test_a_second_one_handed_weapon_is_ready_for_the_attaque_double(table):
    give_weapon(table["ysolde"], name="Dague")
    start(table)
    page = table["client"].get(url("console", table["encounter"]), **HTMX).text
    second = page[page.index('name="second_weapon"') :]
    second = second[: second.index("</select>")]
    assert re.search(r"selected>Dague", second)
    assert not fold_open(page)  # that default is not something to show


def selected(html: str, name: str) -> str | None:
    """The option selected in that list (None: the first one shows)."""
    select = html[html.index(f'name="{name}"') :]
    select = select[: select.index("</select>")]
    found = re.search(r"<option value=\"([^\"]*)\"[^>]*selected", select)
    return found.group(1) if found else None


def ysolde_again(table):
    """Brandon's turn goes by: Ysolde acts again, next round."""
    post(table, "next_turn")
    post(table, "next_turn")
    return table["client"].get(url("console", table["encounter"]), **HTMX).text


def test_the_next_attack_opens_on_the_fighters_last_weapon_and_modifiers(table):
    dague = give_weapon(table["ysolde"], name="Dague")
    y, b = start(table)
    response = attack(table, y, b, weapon=dague.pk, modifier=2, defence="none")
    assert response.status_code == 200
    choice = table["encounter"].events.get(kind="aethoria_attack").data["choice"]
    assert choice["weapon_id"] == dague.pk and choice["modifier"] == 2
    page = ysolde_again(table)
    assert selected(page, "weapon") == str(dague.pk)
    assert re.search(r'name="modifier" value="2"', page)
    # Against the same target, the defence chosen then (none) rather than its best one.
    assert selected(page, "defence") == "none"


def test_an_older_attack_without_its_choice_still_opens_on_the_defaults(table):
    dague = give_weapon(table["ysolde"], name="Dague")
    y, b = start(table)
    attack(table, y, b, weapon=dague.pk, modifier=2)
    event = table["encounter"].events.get(kind="aethoria_attack")
    del event.data["choice"]
    event.save(update_fields=["data"])
    page = ysolde_again(table)
    assert selected(page, "weapon") != str(dague.pk)
    assert re.search(r'name="modifier" value="0"', page)


def test_an_impossible_choice_says_why_in_the_odds_box_the_page_keeps(table):
    """A parry at Parade rank 0: the page swaps only the odds box out of the answer, which
    says the reason instead of going blank (issue 29); the Action list it carries is the
    page's own (no "attaque double" offered to a fighter without two one-handed weapons)."""
    y, b = start(table)
    AethoriaSkillRank.objects.filter(sheet=table["brandon"].aethoria, skill__kind="parry").delete()
    encounter = table["encounter"]
    encounter.refresh_from_db()
    page = table["client"].get(url("console", encounter), **HTMX).text
    data = {
        "version": encounter.version,
        "attacker": y.pk,
        "target": b.pk,
        "drawn_for": b.pk,
        "mode": "attack",
        "weapon": table["ysolde"].aethoria.weapons.get().pk,
        "defence": "parry",
        "parry_with": "shield",
        "modifier": 0,
        "fatigue": 0,
        "redraw": "1",
    }
    answer = table["client"].get(url("aethoria_attack_odds", encounter), data, **HTMX).text
    odds = answer[answer.index('id="aethoria-attack-odds"') :]
    odds = odds[: odds.index("</div>")]
    assert "Rang 0 : le personnage ne peut pas tenter ce jet sans l" in odds

    def modes(html):
        select = html[html.index('name="mode"') :]
        return re.findall(r'<option value="(\w+)"', select[: select.index("</select>")])

    assert modes(answer) == modes(page) == ["attack", "cibler"]
    # The GM's accord (folded) brings the odds back.
    data["rank_zero_allowed"] = "on"
    answer = table["client"].get(url("aethoria_attack_odds", encounter), data, **HTMX).text
    odds = answer[answer.index('id="aethoria-attack-odds"') :]
    assert "Chance de toucher" in odds[: odds.index("</div>")]


def select_of(html: str, name: str) -> str:
    select = html[html.index(f'name="{name}"') :]
    return select[: select.index("</select>")]


def redraw(table, y, b, **fields):
    encounter = table["encounter"]
    encounter.refresh_from_db()
    data = {
        "version": encounter.version,
        "attacker": y.pk,
        "target": b.pk,
        "drawn_for": b.pk,
        "mode": "attack",
        "weapon": table["ysolde"].aethoria.weapons.order_by("pk").first().pk,
        "defence": "dodge",
        "parry_with": "",
        "modifier": 0,
        "fatigue": 0,
        "redraw": "1",
        **fields,
    }
    return table["client"].get(url("aethoria_attack_odds", encounter), data, **HTMX).text


def test_the_only_parrying_item_is_set_for_a_parry(table):
    """Brandon parries with his shield alone: "Pare avec" names it (issue 29), drawn or
    redrawn for a parry."""
    table["brandon"].aethoria.weapons.update(parry_value=None)  # his sword does not parry
    y, b = start(table)
    page = table["client"].get(url("console", table["encounter"]), **HTMX).text
    assert '<option value="shield" selected>' in select_of(page, "parry_with")
    answer = redraw(table, y, b, defence="parry")
    assert '<option value="shield" selected>' in select_of(answer, "parry_with")
    odds = answer[answer.index('id="aethoria-attack-odds"') :]
    assert "Chance de toucher" in odds[: odds.index("</div>")]


def test_the_second_weapon_list_offers_only_another_one_handed_weapon(table):
    start(table)
    page = table["client"].get(url("console", table["encounter"]), **HTMX).text
    # Ysolde carries one weapon: no second one to offer, not that one again.
    assert re.findall(r'<option value="(\w*)"', select_of(page, "second_weapon")) == [""]
    dagger = give_weapon(table["ysolde"], name="Dague", hands=1)
    sword = table["ysolde"].aethoria.weapons.exclude(pk=dagger.pk).get()
    type(sword).objects.filter(pk=sword.pk).update(hands=1)
    page = table["client"].get(url("console", table["encounter"]), **HTMX).text
    offered = re.findall(r'<option value="(\w*)"', select_of(page, "second_weapon"))
    assert offered == ["", str(dagger.pk), str(sword.pk)] or offered == [
        "",
        str(sword.pk),
        str(dagger.pk),
    ]


def test_a_melee_weapon_is_offered_no_range_band(table):
    y, b = start(table)
    page = table["client"].get(url("console", table["encounter"]), **HTMX).text
    melee = select_of(page, "range_band")
    assert "disabled" in melee and "arme de mêlée" in melee and "courte" not in melee
    bow = give_weapon(table["ysolde"], name="Arc court", ranged=True)
    answer = redraw(table, y, b, weapon=bow.pk, range_band="short")
    ranged = answer[answer.index('name="range_band"') :]
    ranged = ranged[: ranged.index("</select>")]
    assert "disabled" not in ranged and '<option value="short" selected>' in ranged
    # Posted with the sword again, the band is not kept, nor offered.
    answer = redraw(table, y, b, range_band="short")
    assert "disabled" in select_of(answer, "range_band")
