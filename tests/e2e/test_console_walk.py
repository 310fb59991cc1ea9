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

STEPS = 15
# What the GM may click during a fight, in both systems (names as the buttons read).
BUTTONS = [
    "Lancer l'attaque",
    "Tour suivant",
    "Annuler",
    "Rétablir",
    "Attaque totale",
    "Défense totale",
    "Dépenser un point d'éclat",
    "Confirmer",
    "Écarter",
    "Faire cette action",
    "Ajouter les dés",
]
ANSWERED = """(newest) => {
  const line = document.querySelector("#log-lines > li");
  if (line && line.id !== newest) return "step";
  if (document.querySelector("#messages .message-error, #console [role=alert], .field.has-error"))
    return "refused";
  return false;
}"""


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


def fight(system: str) -> Encounter:
    campaign = campaign_with_gm(system)
    player = add_player(campaign)
    make = ew_fighter if system == "ew" else aethoria_fighter
    people = [
        make(campaign, "Brandon", owner=player),
        make(campaign, "Ysolde", owner=player),
        make(campaign, "Sbire"),
        make(campaign, "Capitaine"),
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
        steps.append(name)
        newest = console.locator("#log-lines > li").first.get_attribute("id")
        button.click()
        answer = console.wait_for_function(ANSWERED, arg=newest).json_value()
        console.wait_for_timeout(150)  # htmx settles the swapped fragments
        if answer == "refused":
            console.goto(url)
            continue
        reloaded.goto(url)
        assert console_regions(console, "#console-actions") == console_regions(
            reloaded, "#console-actions"
        ), f"after {steps}"
    assert console.console_errors == [], console.console_errors[:3]
