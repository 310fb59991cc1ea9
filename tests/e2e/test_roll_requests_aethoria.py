"""Aethoria roll requests in the browser (issue #31): a GM and two phones (``request_flow``)."""

import pytest
from playwright.sync_api import expect

from apps.encounters.models import Event
from tests.e2e.request_flow import (
    Taps,
    initiative_round,
    open_table,
    send_defence,
    shoot,
    stale_answer_refused,
    undo,
)
from tests.encounters.request_fixtures import table


def pools(t):
    sheet = t.lysandre.character.aethoria
    sheet.refresh_from_db()
    return sheet.pv, sheet.fatigue_physical


@pytest.mark.django_db(transaction=True)
def test_a_dodge_with_fatigue_dice_and_the_initiative_answered_from_phones(open_page):
    t = table("aethoria", initiative_reroll_each_round=True)
    console, phone, other = open_table(open_page, t)
    before = pools(t)

    send_defence(console, t)
    card = phone.locator("#my-turn .request-card")
    expect(card).to_contain_text("Garnier t'attaque")
    expect(card).to_contain_text("touché à")
    expect(other.locator("#table-body")).to_contain_text("défense demandée au joueur")
    expect(other.locator("#my-turn")).not_to_contain_text("t'attaque")
    taps = Taps()
    taps.tap(card.locator("label.option").filter(has_text="Esquiver"))
    expect(phone.locator("#my-turn input[name=face]")).to_have_count(3)  # Esquive 3
    taps.tap(phone.locator("#my-turn .fatigue-dice label").filter(has_text="+1"))
    faces = phone.locator("#my-turn input[name=face]")
    expect(faces).to_have_count(4)  # and one fatigue die
    for index, face in enumerate(("1", "1", "1", "2")):
        faces.nth(index).fill(face)
    shoot(phone, "request-aethoria-phone-defence")
    taps.tap(phone.locator("#my-turn").get_by_role("button", name="Envoyer mes dés"))
    expect(phone.locator("#request-done")).to_contain_text("Garnier")
    assert taps.count <= 3
    shoot(phone, "request-aethoria-phone-done")
    attack = Event.objects.filter(encounter=t.encounter, kind="aethoria_attack").get()
    assert attack.data["blows"][0]["defence"]["faces"] == [1, 1, 1]
    assert attack.data["defence_fatigue"] == 1
    assert pools(t)[1] == before[1] - 1

    expect(console.locator("#log-lines")).to_contain_text("depuis son téléphone")
    undo(console)
    expect(console.locator("#requests")).to_contain_text("en attente de Lysandre Vey…")
    assert pools(t) == before
    stale_answer_refused(console, phone, t)

    console.get_by_role("button", name="Tour suivant").click()
    expect(phone.locator("[data-turn-now]")).to_be_visible()
    console.get_by_role("button", name="Tour suivant").click()
    expect(console.locator("#status-line")).to_contain_text("Au tour de Ysolde")
    assert initiative_round(console, phone, other, t) <= 3
    errors = console.console_errors + phone.console_errors + other.console_errors
    assert errors == []


@pytest.mark.django_db(transaction=True)
def test_a_test_sent_to_the_phone_with_fatigue_dice_and_physical_dice(open_page):
    t = table("aethoria")
    console, phone, _other = open_table(open_page, t)
    sheet = t.lysandre.character.aethoria
    mental = sheet.fatigue_mental

    # The GM sets up the test as usual in the test panel, then sends it (the form, 1 tap).
    console.locator("#aethoria-test-panel summary").click()
    form = console.locator("#aethoria-test")
    form.locator("select[name=combatant]").select_option(str(t.lysandre.pk))
    form.locator("select[name=source]").select_option("esprit")
    form.locator("input[name=label]").fill("Déchiffrer la stèle")
    console.wait_for_timeout(500)  # the odds of the test are drawn
    form.get_by_role("button", name="Test au joueur").click()
    expect(console.locator("#requests")).to_contain_text("en attente de Lysandre Vey…")

    card = phone.locator("#my-turn .request-card")
    expect(card).to_contain_text("À toi : Déchiffrer la stèle (Esprit)")
    expect(card).to_contain_text("tu réussis à")
    taps = Taps()
    taps.tap(card.locator("label.option").filter(has_text="+1"))
    faces = phone.locator("#my-turn input[name=face]")
    expect(faces).to_have_count(5)  # Esprit 4 and one fatigue die
    for index, face in enumerate(("1", "2", "9", "10", "3")):
        faces.nth(index).fill(face)
    shoot(phone, "request-aethoria-phone-test")
    taps.tap(phone.locator("#my-turn").get_by_role("button", name="Envoyer mes dés"))
    expect(phone.locator("#request-done")).to_be_visible()
    assert taps.count <= 2
    test = Event.objects.filter(encounter=t.encounter, kind="aethoria_test").get()
    assert test.data["roll"]["faces"] == [1, 2, 9, 10] and test.data["asked"]
    sheet.refresh_from_db()
    assert sheet.fatigue_mental == mental - 1

    expect(console.locator("#log-lines")).to_contain_text("depuis son téléphone")
    undo(console)
    expect(console.locator("#requests")).to_contain_text("en attente de Lysandre Vey…")
    sheet.refresh_from_db()
    assert sheet.fatigue_mental == mental
    errors = console.console_errors + phone.console_errors
    assert errors == []


@pytest.mark.django_db(transaction=True)
def test_the_players_own_attack_with_the_weapons_damage_dice_typed_on_the_phone(open_page):
    """Lysandre acts: the GM sends her attack to her phone (1 tap); she types her pool's dice
    and her weapon's damage dice; the blow lands with those faces (the bonus dice of extra
    successes are the app's), and one undo takes it back, the request open again."""
    t = table("aethoria", first="lysandre")
    console, phone, _other = open_table(open_page, t)
    weapon_dice = t.lysandre.character.aethoria.weapons.first().damage_dice
    pv = t.npc.character.aethoria.pv

    form = console.locator("#aethoria-attack")
    expect(form.locator("select[name=target]")).to_have_value(str(t.npc.pk))
    form.get_by_role("button", name="Attaque au joueur").click()
    expect(console.locator("#requests")).to_contain_text("en attente de Lysandre Vey…")

    card = phone.locator("#my-turn .request-card")
    expect(card).to_contain_text("ton attaque sur Garnier")
    expect(card).to_contain_text("tu touches à")
    faces = phone.locator("#my-turn input[name=face]")
    expect(faces).to_have_count(4)  # her weapon skill's pool
    for index in range(4):
        faces.nth(index).fill("1")
    damage = phone.locator("#my-turn input[name=damage_face]")
    expect(damage).to_have_count(weapon_dice)
    for index in range(weapon_dice):
        damage.nth(index).fill("6")
    shoot(phone, "request-aethoria-phone-attack-damage")
    phone.locator("#my-turn").get_by_role("button", name="Envoyer mes dés").click()
    expect(phone.locator("#request-done")).to_contain_text("Garnier")

    blow = Event.objects.get(encounter=t.encounter, kind="aethoria_attack").data["blows"][0]
    assert blow["attack"]["faces"] == [1, 1, 1, 1]
    assert blow["outcome"]["lands"]
    assert blow["damage"]["faces"][:weapon_dice] == [6] * weapon_dice
    assert len(blow["damage"]["faces"]) == weapon_dice + blow["outcome"]["bonus_dice"]
    expect(console.locator("#log-lines")).to_contain_text("depuis son téléphone")

    undo(console)
    expect(console.locator("#requests")).to_contain_text("en attente de Lysandre Vey…")
    t.npc.character.aethoria.refresh_from_db()
    assert t.npc.character.aethoria.pv == pv
    assert console.console_errors + phone.console_errors == []
