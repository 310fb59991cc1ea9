"""The proof that the systems' boundary is real: a game system that only the tests know
(tests/systems/third/, written with ``apps.encounters.kit`` alone) runs a campaign, a
character and a whole fight over HTTP, through the generic apps alone (no line of which
names it)."""

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

from apps.campaigns.models import Campaign
from apps.campaigns.services import campaign_create
from apps.characters.models import Character
from apps.encounters import services
from apps.encounters.kit import EncounterError, Modifier
from apps.encounters.models import Encounter, Status
from apps.systems import system_choices
from tests.accounts.factories import UserFactory
from tests.encounters.factories import add_player
from tests.submissions import once
from tests.systems.third.models import ThirdSheet

pytestmark = pytest.mark.django_db


def _version(page: str) -> str:
    return re.search(r'name="version" value="(\d+)"', page).group(1)


def _create(client, campaign, name, vigueur, adresse) -> Character:
    response = client.post(
        reverse("characters:create", args=[campaign.pk]),
        once({"name": name, "vigueur": vigueur, "adresse": adresse}),
    )
    assert response.status_code == 302, response.content.decode()
    return Character.objects.get(campaign=campaign, name=name)


def test_a_campaign_of_a_third_system_plays_a_fight_over_http(client, third_system):
    gm = UserFactory()
    client.force_login(gm)
    assert ("third", "Troisième") in system_choices()
    response = client.post(reverse("campaigns:create"), once({"name": "Essai", "system": "third"}))
    assert response.status_code == 302
    campaign = Campaign.objects.get(name="Essai")
    assert campaign.house_rules == {"coup": 2}

    ana = _create(client, campaign, "Ana", 3, 4)
    player = add_player(campaign)
    client.force_login(player)
    bob = _create(client, campaign, "Bob", 4, 3)
    assert bob.owner == player and bob.third.souffle == 8
    sheet = client.get(reverse("characters:detail", args=[bob.pk])).content.decode()
    assert "<li>Vigueur 4</li>" in sheet and "En forme" in sheet

    client.force_login(gm)
    response = client.post(reverse("encounters:create", args=[campaign.pk]), once({"name": "Duel"}))
    encounter = Encounter.objects.get(campaign=campaign)
    assert response.status_code == 302
    console = lambda *args: reverse(*args, args=[encounter.pk])  # noqa: E731
    page = client.get(console("encounters:console")).content.decode()
    added = {"characters": [ana.pk, bob.pk], "version": _version(page)}
    client.post(console("encounters:combatants_add"), added)
    assert encounter.combatants.count() == 2
    ana_c, bob_c = encounter.combatants.order_by("character__name")
    # Typed faces, d6 (the system's die): Ana 6 + 4 = 10 acts before Bob 1 + 3 = 4.
    page = client.get(console("encounters:console")).content.decode()
    start = {"version": _version(page), f"face_{ana_c.pk}": 6, f"face_{bob_c.pk}": 1}
    client.post(console("encounters:start"), {**start, f"face_{bob_c.pk}": 7})
    encounter.refresh_from_db()
    assert encounter.status == Status.PREPARING  # a d6 shows no 7
    client.post(console("encounters:start"), start)
    encounter.refresh_from_db()
    assert list(encounter.combatants.order_by("position")) == [ana_c, bob_c]
    assert encounter.status == Status.RUNNING

    page = client.get(console("encounters:console")).content.decode()
    assert 'id="third-coup"' in page
    banner = client.get(reverse("characters:detail", args=[bob.pk])).content.decode()
    assert "Duel" in banner  # the sheet's fight banner, from the encounters app
    campaign_version = Campaign.objects.get(pk=campaign.pk).version
    coup = {"version": _version(page), "target": bob_c.pk, "face": 5}
    assert client.post(console("encounters:third_coup"), coup).status_code == 302
    bob.third.refresh_from_db()
    assert bob.third.souffle == 6
    # A sheet's pool changed: the campaign's screens are told (its version moved).
    assert Campaign.objects.get(pk=campaign.pk).version > campaign_version
    page = client.get(console("encounters:console")).content.decode()
    assert "Ana frappe Bob (souffle 6)." in page

    client.post(console("encounters:undo"), {"version": _version(page)})
    bob.third.refresh_from_db()
    assert bob.third.souffle == 8

    page = client.get(console("encounters:console")).content.decode()
    client.post(console("encounters:end"), {"version": _version(page)})
    encounter.refresh_from_db()
    assert encounter.status == Status.FINISHED


def test_the_third_system_is_registered_only_while_its_fixture_runs():
    assert "third" not in dict(system_choices())


def test_initiative_typed_past_the_systems_die_is_refused(third_system):
    campaign = campaign_create(name="Essai", system="third", gm=UserFactory())
    encounter = Encounter.objects.create(campaign=campaign, name="Duel")
    for name in ("Ana", "Bob"):
        character = Character.objects.create(campaign=campaign, kind="npc", name=name)
        ThirdSheet.objects.create(character=character)
        encounter.combatants.create(character=character)
    first = encounter.combatants.first()
    with pytest.raises(EncounterError, match="d6"):
        services.encounter_start(
            encounter_id=encounter.pk, version=None, by=None, initiative={first.pk: 7}
        )


def test_the_third_systems_rules_speak_its_own_words(client, third_system):
    gm = UserFactory()
    client.force_login(gm)
    campaign = campaign_create(name="Essai", system="third", gm=gm)
    page = client.get(reverse("campaigns:house_rules", args=[campaign.pk])).content.decode()
    assert 'name="coup"' in page  # its house rules, from its dataclass
    client.post(reverse("campaigns:house_rules", args=[campaign.pk]), {"coup": 3})
    campaign.refresh_from_db()
    assert campaign.house_rules == {"coup": 3}

    reset = client.post(reverse("campaigns:grid_reset", args=[campaign.pk]), follow=True)
    assert "Le Troisième joue sans table." in reset.content.decode()
    ana = _create(client, campaign, "Ana", 3, 4)
    spend = client.get(reverse("characters:xp_spend", args=[ana.pk]), follow=True)
    assert "Le Troisième ne vend rien contre de l&#x27;XP." in spend.content.decode()


def _fight(campaign, player) -> tuple[list[Character], Encounter]:
    """Ana (an NPC shown to the players) and Bob (the player's PC) in a running fight."""
    characters = []
    for name, owner in (("Ana", None), ("Bob", player)):
        kind = "npc" if owner is None else "pc"
        character = Character.objects.create(
            campaign=campaign, kind=kind, owner=owner, name=name, revealed=True
        )
        ThirdSheet.objects.create(character=character)
        characters.append(character)
    encounter = Encounter.objects.create(campaign=campaign, name="Duel")
    services.combatants_add(encounter_id=encounter.pk, characters=characters)
    services.encounter_start(encounter_id=encounter.pk, version=None, by=None)
    return characters, encounter


def test_the_generic_pages_serve_a_third_systems_campaign(client, third_system):
    gm = UserFactory()
    campaign = campaign_create(name="Essai", system="third", gm=gm)
    player = add_player(campaign)
    (ana, bob), encounter = _fight(campaign, player)
    pages = [
        reverse("home"),
        reverse("campaigns:detail", args=[campaign.pk]),
        reverse("encounters:table", args=[encounter.pk]),
        reverse("characters:detail", args=[ana.pk]),
        reverse("characters:detail", args=[bob.pk]),
    ]
    for user in (gm, player):
        client.force_login(user)
        for page in pages:
            assert client.get(page).status_code == 200, (user, page)

    client.force_login(gm)
    exported = client.get(reverse("campaigns:export", args=[campaign.pk])).content
    upload = SimpleUploadedFile("essai.json", exported, "application/json")
    assert client.post(reverse("campaigns:import"), once({"file": upload})).status_code == 302
    copy = Campaign.objects.exclude(pk=campaign.pk).get()
    assert copy.system == "third"
    assert [(c.name, c.third.souffle) for c in copy.characters.all()] == [("Ana", 6), ("Bob", 6)]

    ThirdSheet.objects.filter(pk=ana.pk).update(souffle=1)
    client.post(reverse("characters:rest", args=[ana.pk]), once({"health": "on"}))
    assert ThirdSheet.objects.get(pk=ana.pk).souffle == 6
    client.post(reverse("characters:npc_copy", args=[ana.pk]), once({"count": 2}))
    assert campaign.characters.count() == 4
    # Ana fought: the sheet asks the encounters app, which names the fight that holds her.
    refused = client.post(reverse("characters:delete", args=[ana.pk]), once()).content.decode()
    assert "Duel" in refused and Character.objects.filter(pk=ana.pk).exists()


def test_the_demo_makes_a_campaign_of_every_system_that_has_one(third_system, settings):
    settings.DEBUG = True  # the demo is for development
    call_command("demo")
    campaign = Campaign.objects.get(system="third")
    assert campaign.name == third_system.demo_campaign_name
    assert Campaign.objects.count() == 3  # EW's and Aethoria's as ever
    pcs = Character.objects.for_campaign(campaign).pcs()
    assert sorted(pc.owner.username for pc in pcs) == ["alice", "bruno"]
    assert Encounter.objects.get(campaign=campaign).combatants.count() == 3


def test_the_third_systems_settings_page_shows_its_own_house_rule_labels(client, third_system):
    gm = UserFactory()
    client.force_login(gm)
    campaign = campaign_create(name="Essai", system="third", gm=gm)
    form = client.get(reverse("campaigns:house_rules", args=[campaign.pk])).context["form"]
    assert [(name, field.label) for name, field in form.fields.items()] == [
        ("coup", "Souffle qu'un coup prend")
    ]


def test_a_system_without_a_grid_has_no_grid_page_nor_link(client, third_system):
    gm = UserFactory()
    client.force_login(gm)
    campaign = campaign_create(name="Essai", system="third", gm=gm)
    settings_url = reverse("campaigns:house_rules", args=[campaign.pk])
    grid_url = reverse("campaigns:grid", args=[campaign.pk])
    assert grid_url not in client.get(settings_url).content.decode()
    # Asked for anyway, the grid sends the GM back to the house rules, as it always did.
    response = client.get(grid_url)
    assert response.status_code == 302 and response.url == settings_url


def _console(client, encounter) -> str:
    return client.get(reverse("encounters:console", args=[encounter.pk])).content.decode()


def _post(client, encounter, name: str, data: dict) -> None:
    page = _console(client, encounter)
    response = client.post(
        reverse(f"encounters:{name}", args=[encounter.pk]), {"version": _version(page), **data}
    )
    assert response.status_code == 302, response.content.decode()


def _conditions(combatant) -> list[tuple[str, str]]:
    combatant.refresh_from_db()
    return [(c["label"], c["ends"]) for c in combatant.conditions]


def test_a_third_system_fight_puts_a_condition_that_expires_and_undoes_through_kit(
    client, third_system
):
    """Start, a coup that leaves its target sonné (the system's step writes the framework's
    slot through kit), the odds of the target's turn read it, the end of that turn takes it
    off with a line in the log, undo brings it back and redo takes it off again."""
    gm = UserFactory()
    client.force_login(gm)
    campaign = campaign_create(name="Essai", system="third", gm=gm)
    player = add_player(campaign)
    ana = Character.objects.create(campaign=campaign, kind="npc", name="Ana", revealed=True)
    ThirdSheet.objects.create(character=ana, vigueur=3, adresse=4, souffle=6)
    bob = Character.objects.create(campaign=campaign, kind="pc", owner=player, name="Bob")
    ThirdSheet.objects.create(character=bob, vigueur=4, adresse=3, souffle=8)
    encounter = Encounter.objects.create(campaign=campaign, name="Duel")
    services.combatants_add(encounter_id=encounter.pk, characters=[ana, bob])
    ana_c, bob_c = encounter.combatants.order_by("character__name")
    _post(client, encounter, "start", {f"face_{ana_c.pk}": 6, f"face_{bob_c.pk}": 1})

    assert "Chances de toucher : 83,3 %" in _console(client, encounter)  # d6 + 4 ≥ 6
    _post(client, encounter, "third_coup", {"target": bob_c.pk, "face": 6})
    assert _conditions(bob_c) == [("sonné", "turn_end")]
    assert "Ana frappe Bob (souffle 6). Bob est sonné." in _console(client, encounter)

    _post(client, encounter, "next_turn", {})  # Bob's turn: sonné weighs on his coup
    page = _console(client, encounter)
    assert "Chances de toucher : 50 %" in page and "sonné -1" in page  # d6 + 3 − 1 ≥ 6
    assert _conditions(bob_c) == [("sonné", "turn_end")]

    _post(client, encounter, "next_turn", {})  # the end of Bob's turn ends it
    assert _conditions(bob_c) == []
    page = _console(client, encounter)
    assert "Bob : fin de « sonné »." in page
    client.force_login(player)
    table = client.get(reverse("encounters:table", args=[encounter.pk])).content.decode()
    assert "Bob : fin de « sonné »." in table

    client.force_login(gm)
    _post(client, encounter, "undo", {})
    assert _conditions(bob_c) == [("sonné", "turn_end")]
    encounter.refresh_from_db()
    assert (encounter.round, encounter.turn) == (1, 1)
    _post(client, encounter, "redo", {})
    assert _conditions(bob_c) == []
    encounter.refresh_from_db()
    assert (encounter.round, encounter.turn) == (2, 0)


def test_a_modifier_from_the_third_systems_hook_changes_its_odds(client, third_system, monkeypatch):
    gm = UserFactory()
    client.force_login(gm)
    campaign = campaign_create(name="Essai", system="third", gm=gm)
    _fighters, encounter = _fight(campaign, add_player(campaign))
    page = _console(client, encounter)
    # Adresse and vigueur 3: a coup on 3 or more (4 in 6), an épreuve on 4 or more (3 in 6).
    assert "Chances de toucher : 66,7 %" in page and "Chances de réussir : 50 %" in page
    monkeypatch.setattr(
        type(third_system),
        "situational_modifiers",
        lambda self, combatant, roll, against=None: [Modifier("couvert", 2)],
    )
    page = _console(client, encounter)
    assert "Chances de toucher : 100 %" in page and "Chances de réussir : 83,3 %" in page
    assert "couvert +2" in page
