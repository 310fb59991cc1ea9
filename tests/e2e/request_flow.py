"""The roll requests' browser flow (issue #31), shared by ``test_roll_requests_ew.py`` and
``test_roll_requests_aethoria.py``: a GM's console and two players' phones. The GM sends a
defence to Lysandre's player; only her phone shows it, with her odds; she chooses, spends and
types her physical dice; one step lands; the GM's undo takes all of it back (the pool too);
an answer sent after the GM took the roll back is refused in French. Then the GM asks the
initiative of the next round: one phone types its die, the other lets the app roll (one tap),
and the new round opens with them."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.e2e.conftest import SCREENSHOTS, TABLET
from tests.e2e.test_encounter_ew import log_in

PHONE = {"width": 360, "height": 740}


def shoot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOTS / f"{name}.png")


class Taps:
    """Counts the phone's taps (clicks and choices; typing a die's face is not one)."""

    def __init__(self) -> None:
        self.count = 0

    def tap(self, locator) -> None:
        self.count += 1
        locator.click()


def undo(console) -> None:
    """The GM's undo, waited for."""
    with console.expect_response(lambda r: r.url.endswith("/annuler/")):
        console.locator("#undo").click()


def open_table(open_page, t):
    console = open_page(TABLET, f"/rencontres/{t.encounter.pk}/")
    log_in(console, t.gm)
    phone = open_page(PHONE, f"/rencontres/{t.encounter.pk}/table/")
    log_in(phone, t.lysandre_player)
    other = open_page(PHONE, f"/rencontres/{t.encounter.pk}/table/")
    log_in(other, t.ysolde_player)
    expect(phone.locator("#table-body")).to_contain_text("Garnier")
    return console, phone, other


def send_defence(console, t) -> None:
    """The GM sets up Garnier's attack on Lysandre and sends her defence (2 taps)."""
    form = console.locator("#ew-attack, #aethoria-attack")
    form.locator("select[name=target]").select_option(str(t.lysandre.pk))
    console.wait_for_timeout(400)  # the odds of the new target are drawn
    form.get_by_role("button", name="Défense au joueur").click()
    expect(console.locator("#requests")).to_contain_text("en attente de Lysandre Vey…")


def stale_answer_refused(console, phone, t) -> None:
    """The GM takes the request back while a phone still shows it (asleep, or slow): its
    answer is refused in French and nothing changes. The phone's stale form is put back
    after the page caught up, as a phone that had not would send it."""
    card = phone.locator("#my-turn .request-card")
    expect(card).to_be_visible()
    stale = card.evaluate("(e) => e.outerHTML")
    version = t.refresh().encounter.version
    console.locator(f"#request-{t.lysandre.pk}").get_by_role(
        "button", name="Annuler la demande"
    ).click()
    expect(console.locator("#requests")).to_have_count(0)
    after_cancel = t.refresh().encounter.version
    assert after_cancel == version + 1
    expect(card).to_have_count(0)
    phone.evaluate(
        "(html) => { const p = document.getElementById('my-turn');"
        " p.insertAdjacentHTML('beforeend', html); window.htmx.process(p); }",
        stale,
    )
    phone.locator("#my-turn").get_by_role("button", name="Lancer pour moi").click()
    expect(phone.locator("#request-refusal")).to_contain_text("n'est plus ouverte")
    shoot(phone, f"request-{t.system}-phone-stale")
    assert t.refresh().encounter.version == after_cancel


def initiative_round(console, phone, other, t) -> int:
    """At the round's end the GM asks the initiative; Lysandre types hers, Ysolde lets the
    app roll (one tap); the new round opens with them. Returns Ysolde's phone's taps."""
    console.get_by_role("button", name="Demander l'initiative aux joueurs").click()
    expect(console.locator("#requests")).to_contain_text("en attente de Ysolde…")
    card = phone.locator("#my-turn .request-card")
    expect(card).to_contain_text("1d10" if t.system == "ew" else "1d20")
    card.locator("input[name=face]").fill("7")
    card.get_by_role("button", name="Envoyer mon dé").click()
    expect(phone.locator("#request-done")).to_contain_text("7")
    taps = Taps()
    taps.tap(other.locator("#my-turn").get_by_role("button", name="Lancer pour moi"))
    expect(other.locator("#request-done")).to_be_visible()
    expect(console.locator("#requests")).to_contain_text(
        "Lysandre Vey a lancé son dé d'initiative : 7"
    )
    # The console shows both answers: it is at the latest version, its button will hold.
    expect(console.locator("#requests")).to_contain_text("Ysolde a lancé son dé d'initiative")
    shoot(console, f"request-{t.system}-console-initiative")
    console.locator("#new-round-app").click()
    expect(console.locator("#status-line")).to_contain_text("Round 2")
    assert t.refresh().lysandre.initiative_roll == 7
    return taps.count
