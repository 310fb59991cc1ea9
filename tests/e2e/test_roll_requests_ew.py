"""EW roll requests in the browser (issue #31): a GM and two phones (``request_flow``)."""

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
    sheet = t.lysandre.character.ew
    sheet.refresh_from_db()
    return sheet.superficial_left, sheet.lethal_left, sheet.eclat


@pytest.mark.django_db(transaction=True)
def test_a_defence_an_attack_with_eclat_and_the_initiative_answered_from_phones(open_page):
    t = table("ew")
    console, phone, other = open_table(open_page, t)
    before = pools(t)

    # The defence: only Lysandre's phone shows it, with her odds and no NPC number.
    send_defence(console, t)
    card = phone.locator("#my-turn .request-card")
    expect(card).to_contain_text("Garnier t'attaque")
    expect(card).to_contain_text("touché à")
    expect(card).not_to_contain_text("ND")
    shoot(phone, "request-ew-phone-defence")
    expect(other.locator("#table-body")).to_contain_text("défense demandée au joueur")
    expect(other.locator("#my-turn")).not_to_contain_text("t'attaque")
    taps = Taps()
    taps.tap(card.locator("label.option").filter(has_text="sans spécialité"))
    card.locator("input[name=to_hit_face]").fill("1")
    card.locator("input[name=damage_face]").fill("10")
    taps.tap(card.get_by_role("button", name="Envoyer mes dés"))
    expect(phone.locator("#request-done")).to_contain_text("Garnier attaque Lysandre Vey")
    assert taps.count <= 3
    shoot(phone, "request-ew-phone-done")
    expect(console.locator("#log-lines")).to_contain_text("depuis son téléphone")
    assert pools(t) != before
    attack = Event.objects.filter(encounter=t.encounter, kind="ew_attack").get()
    assert attack.data["defence"] == "active" and attack.dice == "physical"

    # One undo takes the blow back; the request is open again.
    undo(console)
    expect(console.locator("#requests")).to_contain_text("en attente de Lysandre Vey…")
    assert pools(t) == before
    stale_answer_refused(console, phone, t)

    # Lysandre's turn: her own attack, a point d'éclat should it miss (a 20 misses).
    console.get_by_role("button", name="Tour suivant").click()
    expect(phone.locator("[data-turn-now]")).to_be_visible()
    expect(other.locator("[data-turn-next]")).to_be_visible()
    shoot(phone, "request-ew-phone-your-turn")
    form = console.locator("#ew-attack")
    form.get_by_role("button", name="Attaque au joueur").click()
    card = phone.locator("#my-turn .request-card")
    expect(card).to_contain_text("ton attaque sur Garnier")
    taps = Taps()
    taps.tap(card.locator("label.option").filter(has_text="Dépenser"))
    card.locator("input[name=to_hit_face]").fill("20")
    card.locator("input[name=damage_face]").fill("5")
    shoot(phone, "request-ew-phone-attack")
    taps.tap(card.get_by_role("button", name="Envoyer mes dés"))
    expect(phone.locator("#request-done")).to_contain_text("grâce à un point d'éclat")
    assert taps.count <= 3
    assert pools(t)[2] == before[2] - 1
    expect(console.locator("#log-lines")).to_contain_text("grâce à un point d'éclat")
    undo(console)
    expect(console.locator("#requests")).to_contain_text("en attente de Lysandre Vey…")
    assert pools(t)[2] == before[2]
    console.locator(f"#request-{t.lysandre.pk}").get_by_role(
        "button", name="Annuler la demande"
    ).click()
    expect(console.locator("#requests")).to_have_count(0)

    # Ysolde's turn ends the round: the initiative goes to the phones.
    console.get_by_role("button", name="Tour suivant").click()
    expect(console.locator("#status-line")).to_contain_text("Au tour de Ysolde")
    assert initiative_round(console, phone, other, t) <= 3
    errors = console.console_errors + phone.console_errors + other.console_errors
    assert errors == []


@pytest.mark.django_db(transaction=True)
def test_a_request_reaching_a_phone_nobody_touched_yet_makes_no_console_error(open_page):
    """A phone opened from a link has had no tap: the browser refuses to vibrate it and
    says so in the console. The buzz waits for the page's first tap.

    Nothing here looks into the untouched page before the buzz: Playwright's evaluations
    (its ``expect`` included) count as a user's gesture, which the page would then have had."""
    t = table("ew")
    console, phone, _other = open_table(open_page, t)
    untouched = phone.context.new_page()  # the table link opened again: no tap on it
    errors = []
    untouched.on("console", lambda message: message.type == "error" and errors.append(message.text))
    untouched.goto(phone.url, wait_until="networkidle")
    panel = f"/rencontres/{t.encounter.pk}/a-toi/"
    with untouched.expect_response(lambda response: panel in response.url):
        send_defence(console, t)
    untouched.wait_for_timeout(500)  # the panel settles, then the buzz
    expect(untouched.locator("#my-turn .request-card")).to_contain_text("Garnier t'attaque")
    assert errors == []
