"""Issue 17, what the GM could not do: reinforcements, a fighter taken out, a pool corrected
by hand, physical initiative dice at each new round, the players' last actions — logged,
undoable, bad input refused next to its field with nothing changed."""

import re

import pytest
from django.urls import reverse

from apps.characters.models import Character, EwSheet
from apps.encounters import services
from apps.encounters.models import Combatant, Encounter, Event
from apps.systems.ew.combat import AttackChoice, ew_attack
from tests.accounts.factories import UserFactory
from tests.encounters.factories import add_player, campaign_with_gm, ew_fighter, started_duel

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def table():
    """A running EW fight: Brandon (a PC), two NPCs (the second hidden); a spare PC and an
    NPC template wait outside it."""
    campaign = campaign_with_gm("ew")
    gm = campaign.memberships.get().user
    player = add_player(campaign)
    brandon = ew_fighter(campaign, "Brandon", owner=player)
    garnier = ew_fighter(campaign, "Garnier")
    lurker = ew_fighter(campaign, "Rôdeur")
    spare = ew_fighter(campaign, "Maëlle", owner=add_player(campaign))
    template = ew_fighter(campaign, "Sbire")
    Character.objects.filter(pk=template.pk).update(is_template=True)
    encounter = Encounter.objects.create(campaign=campaign, name="Rixe")
    services.combatants_add(encounter_id=encounter.pk, characters=[brandon, garnier])
    services.combatants_add(encounter_id=encounter.pk, characters=[lurker], hidden=True)
    services.encounter_start(encounter_id=encounter.pk, version=None, by=gm)
    encounter.refresh_from_db()
    return {
        "encounter": encounter,
        "gm": gm,
        "player": player,
        "brandon": brandon,
        "garnier": garnier,
        "lurker": lurker,
        "spare": spare,
        "template": template,
    }


def _post(client, table, name, data, *args, htmx=True):
    encounter = table["encounter"]
    encounter.refresh_from_db()
    client.force_login(table["gm"])
    url = reverse(f"encounters:{name}", args=[encounter.pk, *args])
    return client.post(url, {"version": encounter.version, **data}, **(HTMX if htmx else {}))


def _order(encounter) -> list[str]:
    return [
        c.character.name
        for c in encounter.combatants.filter(present=True).order_by("position", "pk")
    ]


def combatant_of(table, name) -> Combatant:
    return table["encounter"].combatants.get(character=table[name])


def _undo(client, table):
    response = _post(client, table, "undo", {})
    assert response.status_code == 200


# --- The tools under a row, loaded when opened ---------------------------------------------------


def _tools(client, table, combatant, **headers):
    client.force_login(table["gm"])
    url = reverse("encounters:combatant_tools", args=[table["encounter"].pk, combatant.pk])
    return client.get(url, **headers)


def _acting_and_other(table) -> tuple[Combatant, Combatant]:
    encounter = table["encounter"]
    acting = encounter.combatants.get(position=encounter.turn)
    return acting, encounter.combatants.exclude(pk=acting.pk).filter(hidden=False).first()


def test_rows_come_with_their_tools_folded_and_built_when_opened(client, table):
    client.force_login(table["gm"])
    console = client.get(reverse("encounters:console", args=[table["encounter"].pk])).text
    # Every row offers its tools, none builds its form until the GM opens them.
    assert console.count('class="gm-tools" hx-get=') == 3
    assert "id_correct" not in console and "Retirer du combat" not in console
    acting, other = _acting_and_other(table)
    tools = _tools(client, table, other, **HTMX).text
    assert f'id="id_correct{other.pk}_value"' in tools and "Retirer du combat" in tools
    acting_tools = _tools(client, table, acting, **HTMX).text
    assert f'id="id_correct{acting.pk}_value"' in acting_tools
    assert "Retirer du combat" not in acting_tools  # the acting fighter ends its turn first


def test_without_javascript_the_tools_open_in_the_console(client, table):
    _acting, garnier = _acting_and_other(table)
    response = _tools(client, table, garnier)
    console = reverse("encounters:console", args=[table["encounter"].pk])
    assert response.status_code == 302
    assert response["Location"] == f"{console}?outils={garnier.pk}#combatant-{garnier.pk}"
    page = client.get(response["Location"]).text
    assert (
        f'id="id_correct{garnier.pk}_value"' in page
        and page.count('<details class="gm-tools" open>') == 1
    )
    # A malformed value opens none, and breaks nothing.
    assert "id_correct" not in client.get(f"{console}?outils=abc").text


def test_the_tools_of_a_fighter_gone_say_so(client, table):
    _acting, garnier = _acting_and_other(table)
    assert _post(client, table, "combatant_withdraw", {}, garnier.pk).status_code == 200
    response = _tools(client, table, garnier, **HTMX)
    assert response.status_code == 200 and "ne fait plus partie du combat" in response.text
    assert "id_correct" not in response.text
    gm = table["gm"]
    gm.language = "en"
    gm.save(update_fields=["language"])
    assert "no longer in the fight" in _tools(client, table, garnier, **HTMX).text


def test_only_the_gm_opens_a_fighters_tools(client, table):
    garnier = combatant_of(table, "garnier")
    url = reverse("encounters:combatant_tools", args=[table["encounter"].pk, garnier.pk])
    client.force_login(table["player"])
    assert client.get(url, **HTMX).status_code == 403
    client.force_login(UserFactory())
    assert client.get(url, **HTMX).status_code == 404
    client.logout()
    assert "/connexion/" in client.get(url)["Location"]


# --- Pool correction ---------------------------------------------------------------------------


def test_a_pool_correction_is_a_logged_undoable_step(client, table):
    garnier = combatant_of(table, "garnier")
    data = {"pool": "superficial_left", "value": 10, "reason": "coup oublié"}
    response = _post(client, table, "combatant_correct_pool", data, garnier.pk)
    assert response.status_code == 200
    assert EwSheet.objects.get(pk=table["garnier"].pk).superficial_left == 10
    event = Event.objects.get(encounter=table["encounter"], kind="correct")
    assert event.data["reason"] == "coup oublié" and not event.public  # an NPC's numbers
    assert "coup oublié" in response.text and "24 → 10" in response.text
    _undo(client, table)
    assert EwSheet.objects.get(pk=table["garnier"].pk).superficial_left == 24


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"pool": "superficial_left", "value": 25, "reason": "x"}, "value"),
        ({"pool": "eclat", "value": -1, "reason": "x"}, "value"),
        ({"pool": "lethal_left", "value": 3, "reason": ""}, "reason"),
        ({"pool": "vigueur", "value": 3, "reason": "x"}, "pool"),
    ],
)
def test_a_bad_correction_is_refused_next_to_its_field(client, table, data, field):
    brandon = combatant_of(table, "brandon")
    version = table["encounter"].version
    response = _post(client, table, "combatant_correct_pool", data, brandon.pk)
    assert response.status_code == 200
    assert f'id="id_correct{brandon.pk}_{field}_error"' in response.text
    # The GM's other choices are kept in the refused form.
    if data["reason"]:
        assert f'value="{data["reason"]}"' in response.text
    sheet = EwSheet.objects.get(pk=table["brandon"].pk)
    assert (sheet.superficial_left, sheet.lethal_left, sheet.eclat) == (24, 24, 3)
    table["encounter"].refresh_from_db()
    assert table["encounter"].version == version


def test_a_stale_correction_gets_the_409(client, table):
    brandon = combatant_of(table, "brandon")
    client.force_login(table["gm"])
    url = reverse("encounters:combatant_correct_pool", args=[table["encounter"].pk, brandon.pk])
    data = {"version": 1, "pool": "eclat", "value": 1, "reason": "x"}
    response = client.post(url, data, **HTMX)
    assert response.status_code == 409
    assert EwSheet.objects.get(pk=table["brandon"].pk).eclat == 3


# --- Reinforcements and departures -------------------------------------------------------------


def test_a_character_joins_the_running_fight_in_initiative_order(client, table):
    encounter = table["encounter"]
    acting = _order(encounter)[encounter.turn]
    response = _post(client, table, "reinforce", {"character": table["spare"].pk})
    assert response.status_code == 200
    encounter.refresh_from_db()
    order = _order(encounter)
    assert "Maëlle" in order and len(order) == 4
    assert order[encounter.turn] == acting  # the acting fighter keeps its turn
    totals = [c.initiative for c in encounter.combatants.filter(present=True).order_by("position")]
    assert totals == sorted(totals, reverse=True)
    _undo(client, table)
    encounter.refresh_from_db()
    assert "Maëlle" not in _order(encounter) and _order(encounter)[encounter.turn] == acting


def test_copies_of_an_npc_join_and_undo_takes_them_out(client, table):
    data = {"template": table["template"].pk, "count": 3, "hidden": "on"}
    response = _post(client, table, "reinforce", data)
    assert response.status_code == 200
    encounter = table["encounter"]
    assert len(_order(encounter)) == 6
    assert encounter.combatants.filter(present=True, hidden=True).count() == 4
    event = Event.objects.get(encounter=encounter, kind="reinforce")
    assert not event.public  # all hidden: the players learn nothing of it
    _undo(client, table)
    assert len(_order(encounter)) == 3


@pytest.mark.parametrize("count", [0, 21, ""])
def test_a_wrong_number_of_copies_is_refused_next_to_the_field(client, table, count):
    version = table["encounter"].version
    data = {"template": table["template"].pk, "count": count, "hidden": "on"}
    response = _post(client, table, "reinforce", data)
    assert response.status_code == 200
    assert 'id="id_count_error"' in response.text
    assert "Entre 1 et 20" in response.text
    assert re.search(r'name="hidden"[^>]*checked', response.text)  # the other choices kept
    table["encounter"].refresh_from_db()
    assert table["encounter"].version == version and len(_order(table["encounter"])) == 3


def test_reinforcements_without_anyone_are_refused(client, table):
    response = _post(client, table, "reinforce", {})
    assert 'id="id_character_error"' in response.text


def test_a_fighter_leaves_the_fight_and_comes_back_on_undo(client, table):
    encounter = table["encounter"]
    acting_name = _order(encounter)[encounter.turn]
    leaving = next(
        c for c in encounter.combatants.order_by("position") if c.character.name != acting_name
    )
    response = _post(client, table, "combatant_withdraw", {}, leaving.pk)
    assert response.status_code == 200
    encounter.refresh_from_db()
    assert leaving.character.name not in _order(encounter)
    assert _order(encounter)[encounter.turn] == acting_name
    _undo(client, table)
    assert leaving.character.name in _order(encounter)


def test_the_acting_fighter_cannot_leave(client, table):
    encounter = table["encounter"]
    acting = encounter.combatants.order_by("position")[encounter.turn]
    response = _post(client, table, "combatant_withdraw", {}, acting.pk)
    assert response.status_code == 200
    assert "passez au suivant" in response.text
    assert acting.character.name in _order(encounter)


# --- Initiative at each new round --------------------------------------------------------------


def _to_last_turn(client, table):
    encounter = table["encounter"]
    while encounter.turn < 2:
        _post(client, table, "next_turn", {})
        encounter.refresh_from_db()


def test_the_new_rounds_initiative_takes_typed_faces(client, table):
    _to_last_turn(client, table)
    encounter = table["encounter"]
    console = client.get(reverse("encounters:console", args=[encounter.pk])).text
    assert 'id="new-round"' in console and "Initiative du round 2" in console
    combatants = list(encounter.combatants.all())
    faces = {f"face_{c.pk}": 1 + i for i, c in enumerate(combatants)}
    response = _post(client, table, "next_turn", faces)
    assert response.status_code == 200
    encounter.refresh_from_db()
    assert encounter.round == 2
    rolls = {c.pk: c.initiative_roll for c in encounter.combatants.all()}
    assert rolls == {c.pk: 1 + i for i, c in enumerate(combatants)}
    assert encounter.events.get(kind="next_turn", data__new_round=2).dice == "physical"


@pytest.mark.parametrize("face", [0, 11])
def test_a_face_outside_the_die_is_refused_next_to_it(client, table, face):
    _to_last_turn(client, table)
    encounter = table["encounter"]
    version = encounter.version
    first = encounter.combatants.first()
    other = encounter.combatants.exclude(pk=first.pk).first()
    response = _post(client, table, "next_turn", {f"face_{first.pk}": face, f"face_{other.pk}": 4})
    assert f'id="id_round_face_{first.pk}_error"' in response.text
    assert 'value="4"' in response.text  # the GM's other faces kept
    encounter.refresh_from_db()
    assert encounter.version == version and encounter.round == 1


# --- The players' view -------------------------------------------------------------------------


def test_the_table_view_shows_the_last_public_actions_without_secrets(client, table):
    garnier = combatant_of(table, "garnier")
    data = {"pool": "superficial_left", "value": 10, "reason": "coup oublié"}
    _post(client, table, "combatant_correct_pool", data, garnier.pk)
    _post(client, table, "next_turn", {})
    client.force_login(table["player"])
    html = client.get(reverse("encounters:table", args=[table["encounter"].pk])).text
    assert "Dernières actions" in html and "Début du combat" in html
    assert "Rôdeur" not in html  # hidden: not even in the initiative order
    assert "coup oublié" not in html and "24 → 10" not in html  # an NPC's numbers


# --- Who may use the tools ---------------------------------------------------------------------


TOOLS = [
    ("reinforce", False),
    ("combatant_withdraw", True),
    ("combatant_correct_pool", True),
]


@pytest.mark.parametrize(("name", "with_combatant"), TOOLS)
def test_only_the_gm_may_use_the_tools(client, table, name, with_combatant):
    encounter = table["encounter"]
    args = [encounter.pk] + ([combatant_of(table, "garnier").pk] if with_combatant else [])
    url = reverse(f"encounters:{name}", args=args)
    data = {
        "version": encounter.version,
        "character": table["spare"].pk,
        "pool": "eclat",
        "value": 1,
        "reason": "x",
    }
    other_player = add_player(campaign_with_gm("ew"))
    expected = [(table["player"], 403), (other_player, 404), (UserFactory(), 404)]
    for user, status in expected:
        client.force_login(user)
        assert client.post(url, data, **HTMX).status_code == status
    client.logout()
    anonymous = client.post(url, data)
    assert anonymous.status_code == 302 and "/compte/connexion/" in anonymous["Location"]
    encounter.refresh_from_db()
    assert encounter.version == table["encounter"].version
    assert not encounter.events.filter(kind__in=["reinforce", "withdraw", "correct"]).exists()


def test_without_htmx_a_tool_goes_back_to_the_console(client, table):
    garnier = combatant_of(table, "garnier")
    data = {"pool": "superficial_left", "value": 99, "reason": "x"}
    response = _post(client, table, "combatant_correct_pool", data, garnier.pk, htmx=False)
    assert response.status_code == 302
    assert EwSheet.objects.get(pk=table["garnier"].pk).superficial_left == 24


def test_the_players_read_what_became_of_an_npc_not_its_points(client):
    """An NPC's exact wounds are the GM's (product spec §2.6: NPCs as words): the players'
    last actions say it was hit and what became of it, a PC's wounds keep their numbers."""
    duel = started_duel("Brandon", "Garnier", first="pc")
    encounter, gm, player = duel.encounter, duel.gm, duel.player
    by_name = {c.character.name: c for c in encounter.combatants.select_related("character")}
    for attacker, target in (("Brandon", "Garnier"), ("Garnier", "Brandon")):
        choice = AttackChoice(attacker_id=by_name[attacker].pk, target_id=by_name[target].pk)
        ew_attack(
            encounter_id=encounter.pk, version=None, by=gm, choice=choice,
            to_hit_face=1, damage_face=9,
        )  # fmt: skip
        services.encounter_next_turn(encounter_id=encounter.pk, version=None, by=gm)
    client.force_login(player)
    html = client.get(reverse("encounters:table", args=[encounter.pk])).text
    lines = re.findall(r'<li class="log-line kind-ew_attack">(.*?)</li>', html, re.S)
    on_garnier = next(line for line in lines if "attaque Garnier" in line)
    on_brandon = next(line for line in lines if "attaque Brandon" in line)
    assert "touché" in on_garnier and "léta" not in on_garnier
    assert "superficiel" not in on_garnier
    assert "léta" in on_brandon and "superficiel" in on_brandon
    client.force_login(gm)
    console = client.get(reverse("encounters:console", args=[encounter.pk])).text
    assert re.search(r"Brandon attaque Garnier[^<]*?léta", console)
