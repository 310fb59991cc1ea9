"""A random walk through the console in both systems: after every step the GM could click,
the console answered with fragments must read exactly as a fresh load of it.

The walk and the dice are seeded (the live server runs in this process, so its dice are
patched too): a failure replays the same way. Steps the rules refuse are part of the walk;
their answer carries a message the reloaded page has no reason to show, so the console is
loaded again instead of compared.
"""

import random

import pytest

from apps.campaigns.models import Role
from apps.encounters import services
from apps.encounters.models import Encounter
from tests.e2e.conftest import TABLET, console_regions
from tests.e2e.test_encounter_ew import log_in
from tests.encounters.factories import add_player, aethoria_fighter, campaign_with_gm, ew_fighter

STEPS = 20
DOUE = {"magic_type": "doue", "pouvoir": 5, "magie": 3}
# Settled: htmx done, and the double-tap guard (static/js/requests.js) has given the buttons back.
SETTLED = (
    "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling, [data-busy]')"
)
# What the GM may click during a fight, in both systems (names as the buttons read).
BUTTONS = [
    "Lancer l'attaque",
    "Tour suivant",
    "Ouvrir le round",
    "Annuler",
    "Rétablir",
    "Attaque totale",
    "Défense totale",
    "Dépenser un point d'éclat",
    "Confirmer",
    "Écarter",
    "Faire cette action",
    "Ajouter les dés",
    "Lancer le sort",
    "Déclencher",
    "Cible hors d'atteinte",
]


def clickable(page) -> dict[str, list]:
    """The buttons of the console one may click now, by name."""
    found = {}
    for name in BUTTONS:
        buttons = page.locator("#console").get_by_role("button", name=name)
        shown = [buttons.nth(i) for i in range(buttons.count())]
        shown = [button for button in shown if button.is_visible() and button.is_enabled()]
        if shown:
            found[name] = shown
    return found


def settle(page) -> None:
    """Wait for htmx: the odds (or the whole form) a changed list asks for are swapped in."""
    page.wait_for_timeout(50)
    page.wait_for_function(SETTLED)
    page.wait_for_timeout(100)


def vary_the_form(page, button, walk: random.Random) -> bool:
    """Before clicking, choose at random in some of the visible lists of the button's form
    — target, weapon, defence, attack mode, special action, Pouvoir invested... — as a GM
    would (a changed target redraws the Aethoria attack form: lists are found again).
    Whether anything was chosen."""
    selects = button.locator("xpath=ancestor::form[1]").locator("select")
    varied = False
    for index in range(selects.count()):
        select = selects.nth(index)
        if walk.random() < 0.5 or not select.is_visible():
            continue
        values = select.evaluate("(list) => [...list.options].map((option) => option.value)")
        select.select_option(walk.choice(values))
        settle(page)
        varied = True
    return varied


def regions(page, *, form_kept: bool) -> dict:
    """What to compare with a reload: the whole console; but where the answer leaves a form
    as the GM set it (the EW attack, with its odds), the reload shows the default form."""
    found = console_regions(page, "#console-actions")
    if form_kept:
        del found["extra"], found["odds"]
    return found


def fight(system: str) -> Encounter:
    campaign = campaign_with_gm(system)
    player = add_player(campaign)
    make = ew_fighter if system == "ew" else aethoria_fighter
    people = [
        make(campaign, "Brandon", owner=player),
        make(campaign, "Ysolde", owner=player),
        make(campaign, "Sbire"),
        # An Aethoria doué: spells (and prepared spells) join the walk.
        make(campaign, "Capitaine", **({} if system == "ew" else DOUE)),
    ]
    encounter = Encounter.objects.create(campaign=campaign, name="Mêlée")
    services.combatants_add(encounter_id=encounter.pk, characters=people)
    gm = campaign.memberships.get(role=Role.GM).user
    services.encounter_start(encounter_id=encounter.pk, version=None, by=gm)
    return encounter


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("system", "seed"), [("ew", 11), ("aethoria", 5)])
def test_a_random_walk_through_the_console_reads_as_reloads_do(
    open_page, live_server, monkeypatch, system, seed
):
    dice = random.Random(seed)
    monkeypatch.setattr("secrets.randbelow", dice.randrange)
    monkeypatch.setattr("secrets.randbits", dice.getrandbits)
    walk = random.Random(seed)
    encounter = fight(system)
    url = f"{live_server.url}/rencontres/{encounter.pk}/"
    console = open_page(TABLET, url.removeprefix(live_server.url))
    log_in(console, encounter.campaign.memberships.get(role=Role.GM).user)
    reloaded = console.context.new_page()
    steps = []
    for _ in range(STEPS):
        # An action first, then one of its buttons: every action is as likely as another.
        choices = clickable(console)
        name = walk.choice(sorted(choices))
        button = walk.choice(choices[name])
        varied = vary_the_form(console, button, walk)
        form_kept = varied and system == "ew" and name == "Lancer l'attaque"
        steps.append(name)
        newest = console.locator("#log-lines > li").first.get_attribute("id")
        button.click()
        settle(console)
        # A step adds its line to the log; a refused one leaves the log as it was.
        if console.locator("#log-lines > li").first.get_attribute("id") == newest:
            console.goto(url)
            continue
        reloaded.goto(url)
        assert regions(console, form_kept=form_kept) == regions(reloaded, form_kept=form_kept), (
            f"after {steps}"
        )
        if form_kept:
            console.goto(url)  # the next step starts from the default forms again
    assert console.console_errors == [], console.console_errors[:3]
