"""Export of a whole campaign to JSON and import back, losslessly (product §3)."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.urls import reverse

from apps.campaigns import transfer
from apps.campaigns.models import Campaign, LogEntry, Membership, Role
from apps.campaigns.services import log_add
from apps.characters import services as character_services
from apps.characters.models import Character, EwPowerRank, XpEntry
from apps.encounters import services as encounter_services
from apps.encounters.kit import Condition, Step, add_condition, lock_encounter
from apps.encounters.models import Combatant, Encounter, Event
from apps.systems.aethoria import specials as aethoria_specials
from apps.systems.ew import combat as ew_services
from apps.systems.ew.xp import Improvement
from tests.accounts.factories import UserFactory
from tests.compendium.factories import (
    AethoriaArmourPieceFactory,
    AethoriaGodFactory,
    AethoriaShieldFactory,
    EwAptitudeFactory,
    EwPowerFactory,
    EwTraitFactory,
)
from tests.encounters.factories import add_player, aethoria_fighter, campaign_with_gm, ew_fighter
from tests.submissions import once

pytestmark = pytest.mark.django_db


def _version(encounter):
    encounter.refresh_from_db()
    return encounter.version


def _ew_fight(campaign, gm, player, *, extra_npcs=0, steps=True):
    """Brandon (a player's PC, with archetype, trait, aptitude, power and XP) against Ysolde."""
    brandon = ew_fighter(campaign, "Brandon", owner=player)
    ysolde = ew_fighter(campaign, "Ysolde", phy=6, men=7, per=6, pre=9, armour=1)
    for i in range(extra_npcs):
        ew_fighter(campaign, f"Sbire {i}", phy=5)
    aptitude = EwAptitudeFactory()
    sheet = brandon.ew
    sheet.archetype = aptitude.archetype
    sheet.save()
    sheet.traits.add(EwTraitFactory())
    sheet.aptitudes.add(aptitude)
    EwPowerRank.objects.create(sheet=sheet, power=EwPowerFactory(), level=2)
    Character.objects.create(campaign=campaign, kind="npc", name="Modèle", is_template=True)
    character_services.xp_award(
        campaign=campaign, characters=[brandon], amount=40, reason="Séance 1", by=gm
    )
    spend = character_services.xp_spend(
        character=brandon,
        improvement=Improvement("specialty", target_id=sheet.specialties.get().specialty_id),
        by=player,
    )
    character_services.xp_spend_undo(entry=spend, by=gm)
    character_services.xp_spend(
        character=brandon,
        improvement=Improvement("characteristic", name="men"),
        by=player,
    )
    log_add(campaign=campaign, text="Arrivée à Port-Sel.", by=gm)
    encounter = encounter_services.encounter_create(campaign=campaign, name="Embuscade")
    fighters = [brandon, ysolde, *Character.objects.filter(name__startswith="Sbire")]
    encounter_services.combatants_add(encounter_id=encounter.pk, characters=fighters)
    if not steps:
        return encounter
    b = encounter.combatants.get(character=brandon)
    y = encounter.combatants.get(character=ysolde)
    faces = {c.pk: 5 for c in encounter.combatants.all()}
    faces[b.pk] = 9
    encounter_services.encounter_start(
        encounter_id=encounter.pk, version=_version(encounter), by=gm, initiative=faces
    )
    choice = ew_services.AttackChoice(
        attacker_id=b.pk,
        target_id=y.pk,
        weapon_id=sheet.weapons.get().pk,
        specialty_id=sheet.specialties.get().pk,
    )
    for _ in range(2):  # two blows, the second one undone below
        ew_services.ew_attack(
            encounter_id=encounter.pk,
            version=_version(encounter),
            by=gm,
            choice=choice,
            to_hit_face=3,
            damage_face=4,
        )
    encounter_services.encounter_undo(encounter_id=encounter.pk, version=_version(encounter), by=gm)
    return encounter


@pytest.fixture
def ew_campaign():
    campaign = campaign_with_gm("ew")
    gm = campaign.memberships.get().user
    player = add_player(campaign)
    encounter = _ew_fight(campaign, gm, player)
    return {"campaign": campaign, "gm": gm, "player": player, "encounter": encounter}


@pytest.fixture
def aethoria_campaign_full():
    campaign = campaign_with_gm("aethoria")
    gm = campaign.memberships.get().user
    player = add_player(campaign)
    brandon = aethoria_fighter(campaign, "Brandon", owner=player)
    ysolde = aethoria_fighter(
        campaign, "Ysolde", magic_type="marque", pouvoir=4, magie=3, adresse=5
    )
    sheet = ysolde.aethoria
    sheet.god = AethoriaGodFactory()
    sheet.shield = AethoriaShieldFactory()
    sheet.save()
    sheet.armour_pieces.add(AethoriaArmourPieceFactory())
    encounter = encounter_services.encounter_create(campaign=campaign, name="Col des brumes")
    encounter_services.combatants_add(encounter_id=encounter.pk, characters=[brandon, ysolde])
    b = encounter.combatants.get(character=brandon)
    y = encounter.combatants.get(character=ysolde)
    encounter_services.encounter_start(
        encounter_id=encounter.pk,
        version=_version(encounter),
        by=gm,
        initiative={b.pk: 15, y.pk: 3},
    )
    aethoria_specials.aethoria_special(
        encounter_id=encounter.pk,
        version=_version(encounter),
        by=gm,
        combatant_id=b.pk,
        action="viser",
        target_id=y.pk,
    )
    return {"campaign": campaign, "gm": gm, "player": player, "encounter": encounter}


def _timeless(value):
    """A document without its dates: the rows written after the import have their own."""
    if isinstance(value, list):
        return [_timeless(item) for item in value]
    if isinstance(value, dict):
        return {k: _timeless(v) for k, v in value.items() if not k.endswith("_at")}
    return value


def _round_trip(campaign, by):
    """Export, import as ``by``, export the copy: both documents and the new campaign.

    ``by`` already leads the original, so the copy is named "… (2)"; the second document
    gets the original name back to compare everything else."""
    document = transfer.campaign_export(campaign)
    # Through real JSON text, as a file would carry it.
    document = json.loads(json.dumps(document))
    report = transfer.campaign_import(document=document, by=by)
    assert report.campaign.name == f"{campaign.name} (2)"
    return document, _export_copy(report.campaign, campaign), report.campaign


def _as_imported_by(document, username):
    """The document as its import by ``username`` keeps it (issue 12, point 3): the importer
    is the only member, as GM; the PCs of others have no player; what others wrote has no
    author (their usernames are never matched to accounts here)."""
    document = json.loads(json.dumps(document))
    document["members"] = [
        {**m, "role": "gm"} for m in document["members"] if m["username"] == username
    ]
    for character in document["characters"]:
        if character["owner"] != username:
            character["owner"] = None
    rows = [*document["xp"], *document["log"]]
    rows += [e for encounter in document["encounters"] for e in encounter["events"]]
    for row in rows:
        for key in ("created_by", "author"):
            if row.get(key) not in (None, username):
                row[key] = None
    return document


def _export_copy(copy, original):
    """The copy's document with the original's name, to compare everything else."""
    document = transfer.campaign_export(copy)
    document["campaign"]["name"] = original.name
    return document


def test_ew_round_trip_gives_the_same_document(ew_campaign):
    campaign, gm = ew_campaign["campaign"], ew_campaign["gm"]
    first, second, copy = _round_trip(campaign, gm)
    assert copy.pk != campaign.pk
    assert _as_imported_by(first, gm.username) == second
    assert first["format"] == transfer.FORMAT and first["version"] == transfer.VERSION
    assert "invite_code" not in first["campaign"]
    assert copy.invite_code != campaign.invite_code


def test_ew_document_has_everything_and_no_database_id(ew_campaign):
    document = transfer.campaign_export(ew_campaign["campaign"])
    brandon = next(c for c in document["characters"] if c["name"] == "Brandon")
    assert brandon["key"] == "c1" and brandon["owner"] == ew_campaign["player"].username
    sheet = brandon["sheet"]
    assert sheet["archetype"] and sheet["weapons"] and sheet["traits"]
    assert sheet["aptitudes"][0][0] == sheet["archetype"]  # (archetype, name)
    assert sheet["specialties"][0]["level"] >= 1 and sheet["powers"][0]["level"] == 2
    assert {m["role"] for m in document["members"]} == {"gm", "player"}
    refund = next(x for x in document["xp"] if x["kind"] == "refund")
    spend = next(x for x in document["xp"] if x["key"] == refund["cancels"])
    assert spend["improvement"]["id"] == sheet["specialties"][0]["specialty"]
    events = document["encounters"][0]["events"]
    assert [e["sequence"] for e in events] == list(range(1, len(events) + 1))
    attacks = [e for e in events if e["kind"] == "ew_attack"]
    assert [a["undone"] for a in attacks] == [False, True]
    assert attacks[0]["actor"] == "k1" and attacks[0]["target"] == "k2"
    assert {c["pk"] for e in events for c in e["changes"]} <= {"c1", "c2", "k1", "k2", "e1"}
    baseline = next(e for e in events if e["kind"] == "start")["data"]["baseline"]
    assert set(baseline) == {"k1", "k2"}
    assert events[0]["created_by"] == ew_campaign["gm"].username
    assert document["log"][-1]["text"] == "Arrivée à Port-Sel."


def _undo_in_the_original_and_its_copy(campaign, gm) -> Campaign:
    """Import the campaign, undo the last step of its fight in both, check both agree."""
    _first, _second, copy = _round_trip(campaign, gm)
    for each in (campaign, copy):
        encounter = Encounter.objects.get(campaign=each)
        encounter_services.encounter_undo(
            encounter_id=encounter.pk, version=_version(encounter), by=gm
        )
    original, imported = transfer.campaign_export(campaign), _export_copy(copy, campaign)
    assert _timeless(_as_imported_by(original, gm.username)) == _timeless(imported)
    return copy


def test_undo_after_import_restores_what_it_would_have_in_the_original(ew_campaign):
    campaign, gm = ew_campaign["campaign"], ew_campaign["gm"]
    copy = _undo_in_the_original_and_its_copy(campaign, gm)
    # The undo really changed something: Ysolde's pools are back to full.
    ysolde = Character.objects.get(campaign=copy, name="Ysolde").ew
    assert (ysolde.superficial_left, ysolde.lethal_left) == (18, 18)


def test_xp_spend_undo_works_after_import(ew_campaign):
    campaign, gm = ew_campaign["campaign"], ew_campaign["gm"]
    _first, _second, copy = _round_trip(campaign, gm)
    for each in (campaign, copy):
        spend = XpEntry.objects.get(character__campaign=each, kind="spend", cancelled_by=None)
        character_services.xp_spend_undo(entry=spend, by=gm)
    original, imported = transfer.campaign_export(campaign), _export_copy(copy, campaign)
    assert _timeless(_as_imported_by(original, gm.username)) == _timeless(imported)
    assert Character.objects.get(campaign=copy, name="Brandon").ew.men == 6


def test_aethoria_round_trip_gives_the_same_document(aethoria_campaign_full):
    campaign, gm = aethoria_campaign_full["campaign"], aethoria_campaign_full["gm"]
    first, second, copy = _round_trip(campaign, gm)
    assert _as_imported_by(first, gm.username) == second
    ysolde = next(c for c in first["characters"] if c["name"] == "Ysolde")["sheet"]
    assert ysolde["god"] and ysolde["shield"] and ysolde["armour_pieces"] and ysolde["skills"]
    aimer = first["encounters"][0]["combatants"][0]
    assert aimer["state"]["aim_target"] == "k2"
    # In the copy the aim points at the copy's combatant.
    b = Combatant.objects.get(encounter__campaign=copy, character__name="Brandon")
    y = Combatant.objects.get(encounter__campaign=copy, character__name="Ysolde")
    assert b.state["aim_target"] == y.pk


def test_aethoria_undo_after_import_matches_the_original(aethoria_campaign_full):
    campaign, gm = aethoria_campaign_full["campaign"], aethoria_campaign_full["gm"]
    copy = _undo_in_the_original_and_its_copy(campaign, gm)
    b = Combatant.objects.get(encounter__campaign=copy, character__name="Brandon")
    assert b.state["aim_target"] is None


# --- Through HTTP --------------------------------------------------------------------------


def _upload(client, content: bytes):
    return client.post(
        reverse("campaigns:import"),
        once(file=SimpleUploadedFile("campagne.json", content, "application/json")),
    )


def _counts():
    return (
        Campaign.objects.count(),
        Membership.objects.count(),
        Character.objects.count(),
        XpEntry.objects.count(),
        LogEntry.objects.count(),
        Encounter.objects.count(),
        Event.objects.count(),
    )


def test_gm_downloads_an_attachment_named_after_the_campaign(client, ew_campaign):
    campaign = ew_campaign["campaign"]
    campaign.name = "Les Îles d'Été"
    campaign.save()
    client.force_login(ew_campaign["gm"])
    response = client.get(reverse("campaigns:export", args=[campaign.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == 'attachment; filename="les-iles-dete.tablee.json"'
    assert json.loads(response.content)["campaign"]["name"] == "Les Îles d'Été"


def test_campaign_page_links_the_export_for_the_gm_only(client, ew_campaign):
    campaign = ew_campaign["campaign"]
    url = reverse("campaigns:export", args=[campaign.pk])
    client.force_login(ew_campaign["gm"])
    assert url in client.get(reverse("campaigns:detail", args=[campaign.pk])).text
    client.force_login(ew_campaign["player"])
    assert url not in client.get(reverse("campaigns:detail", args=[campaign.pk])).text


@pytest.mark.parametrize(
    ("who", "status"), [("gm", 200), ("player", 403), ("outsider", 404), ("anonymous", 302)]
)
def test_export_permissions(client, ew_campaign, who, status):
    if who == "outsider":
        client.force_login(UserFactory())
    elif who != "anonymous":
        client.force_login(ew_campaign[who])
    response = client.get(reverse("campaigns:export", args=[ew_campaign["campaign"].pk]))
    assert response.status_code == status
    if who == "anonymous":
        assert response["Location"].startswith(reverse("accounts:login"))


def test_an_import_makes_only_the_importer_a_member(client, ew_campaign):
    """Issue 12, point 3: the file's members are not added to the importer's campaign."""
    campaign, player = ew_campaign["campaign"], ew_campaign["player"]
    content = json.dumps(transfer.campaign_export(campaign)).encode()
    importer = UserFactory()
    client.force_login(importer)
    response = _upload(client, content)
    copy = Campaign.objects.exclude(pk=campaign.pk).get()
    assert response.status_code == 302 and response["Location"] == reverse(
        "campaigns:detail", args=[copy.pk]
    )
    assert copy.name == campaign.name  # the importer had no campaign of that name
    roles = dict(copy.memberships.values_list("user__username", "role"))
    assert roles == {importer.username: Role.GM}
    # Brandon's player is not here: he waits for the GM to assign him.
    assert Character.objects.get(campaign=copy, name="Brandon").owner is None
    page = client.get(response["Location"]).text
    assert "invitez-les avec le lien" in page and "sans joueur" in page
    client.force_login(player)
    copy_url = reverse("campaigns:detail", args=[copy.pk])
    assert f'href="{copy_url}"' not in client.get(reverse("home")).text
    assert client.get(copy_url).status_code == 404


def test_an_import_does_not_tell_which_usernames_exist_here(client, ew_campaign):
    document = transfer.campaign_export(ew_campaign["campaign"])
    document["members"].append({**document["members"][-1], "username": "inconnu-ici"})
    importer = UserFactory()
    client.force_login(importer)
    page = client.get(_upload(client, json.dumps(document).encode())["Location"]).text
    gm, player = ew_campaign["gm"].username, ew_campaign["player"].username
    # Accounts that exist and a name that does not are listed alike, in the file's order.
    assert f"{gm}, {player}, inconnu-ici." in page
    assert "pas de compte" not in page


def test_the_importers_own_pcs_stay_theirs_the_others_come_unowned(client, ew_campaign):
    campaign, player = ew_campaign["campaign"], ew_campaign["player"]
    ew_fighter(campaign, "Marco", owner=add_player(campaign))
    content = json.dumps(transfer.campaign_export(campaign)).encode()
    client.force_login(player)
    response = _upload(client, content)
    copy = Campaign.objects.get(pk=response["Location"].rstrip("/").split("/")[-1])
    owners = dict(Character.objects.filter(campaign=copy).pcs().values_list("name", "owner"))
    assert owners == {"Brandon": player.pk, "Marco": None}
    assert dict(copy.memberships.values_list("user", "role")) == {player.pk: Role.GM}
    page = client.get(response["Location"]).text
    assert "Ces PJ n&#x27;ont pas de joueur" in page and "Marco" in page


def test_importing_a_backup_next_to_its_original_numbers_the_copies(client, ew_campaign):
    campaign, gm = ew_campaign["campaign"], ew_campaign["gm"]
    content = json.dumps(transfer.campaign_export(campaign)).encode()
    client.force_login(gm)
    first = client.get(_upload(client, content)["Location"]).text
    client.get(_upload(client, content)["Location"])
    names = Campaign.objects.filter(memberships__user=gm).values_list("name", flat=True)
    assert sorted(names) == [campaign.name, f"{campaign.name} (2)", f"{campaign.name} (3)"]
    assert (
        f"Vous avez déjà une campagne « {campaign.name} » : "
        f"celle-ci s&#x27;appelle « {campaign.name} (2) »."
    ) in first


def test_a_copy_name_at_the_length_limit_stays_within_it(ew_campaign):
    campaign, gm = ew_campaign["campaign"], ew_campaign["gm"]
    Campaign.objects.filter(pk=campaign.pk).update(name="x" * 120)
    document = json.loads(
        json.dumps(transfer.campaign_export(Campaign.objects.get(pk=campaign.pk)))
    )
    copies = [transfer.campaign_import(document=document, by=gm).campaign for _ in range(2)]
    assert [c.name for c in copies] == ["x" * 116 + " (2)", "x" * 116 + " (3)"]


def test_import_page_shows_a_file_field(client, user):
    client.force_login(user)
    response = client.get(reverse("campaigns:import"))
    assert response.status_code == 200
    assert 'type="file"' in response.text and 'enctype="multipart/form-data"' in response.text


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"{pas du json", "n&#x27;est pas un export JSON lisible"),
        (b"[" * 100_000 + b"]" * 100_000, "trop imbriqué"),
        (b'{"a":' * 50_000 + b"1" + b"}" * 50_000, "trop imbriqué"),
        (b'{"format": "autre", "version": 1}', "n&#x27;est pas un export de campagne"),
        (b'{"format": "tablee-campaign", "version": 99}', "Version de format 99 inconnue"),
        (b'{"format": "tablee-campaign", "version": 1}', "incomplet ou abîmé"),
    ],
)
def test_a_bad_file_is_refused_next_to_the_field(client, ew_campaign, content, message):
    before = _counts()
    client.force_login(ew_campaign["player"])
    response = _upload(client, content)
    assert response.status_code == 200
    assert 'class="field-error"' in response.text and message in response.text
    assert _counts() == before


def test_a_file_broken_deep_inside_creates_nothing(client, ew_campaign):
    document = transfer.campaign_export(ew_campaign["campaign"])
    document["encounters"][0]["events"][-1]["actor"] = "k99"
    before = _counts()
    client.force_login(ew_campaign["gm"])
    response = _upload(client, json.dumps(document).encode())
    assert response.status_code == 200 and "incomplet ou abîmé" in response.text
    assert _counts() == before


@pytest.mark.parametrize(
    ("model", "field"),
    [
        ("characters.character", "campaign"),  # undo would move it into another campaign
        ("characters.character", "owner"),
        ("accounts.user", "is_superuser"),
        ("encounters.combatant", "no_such_field"),
    ],
)
def test_a_change_undo_would_write_outside_the_fight_is_refused(client, ew_campaign, model, field):
    document = transfer.campaign_export(ew_campaign["campaign"])
    event = next(e for e in document["encounters"][0]["events"] if e["changes"])
    event["changes"][0].update(model=model, field=field, before=1, after=1)
    before = _counts()
    client.force_login(ew_campaign["gm"])
    response = _upload(client, json.dumps(document).encode())
    assert response.status_code == 200 and "incomplet ou abîmé" in response.text
    assert _counts() == before


def test_a_missing_compendium_entry_refuses_the_whole_import(client, ew_campaign):
    document = transfer.campaign_export(ew_campaign["campaign"])
    brandon = next(c for c in document["characters"] if c["name"] == "Brandon")
    brandon["sheet"]["weapons"] = ["Arme disparue"]
    brandon["sheet"]["traits"] = ["Trait disparu"]
    before = _counts()
    client.force_login(ew_campaign["gm"])
    response = _upload(client, json.dumps(document).encode())
    assert response.status_code == 200
    assert "Arme disparue" in response.text and "Trait disparu" in response.text
    assert _counts() == before


def _brandons_aptitude(document: dict) -> list:
    brandon = next(c for c in document["characters"] if c["name"] == "Brandon")
    return brandon["sheet"]["aptitudes"]


def test_an_aptitude_is_found_by_its_archetype_and_name_as_the_system_says(client, ew_campaign):
    """EW's transfer refs say how an aptitude is found (its name is only unique within its
    archetype): another archetype's aptitude of the same name is not taken for it."""
    document = transfer.campaign_export(ew_campaign["campaign"])
    [(archetype, name)] = _brandons_aptitude(document)
    namesake = EwAptitudeFactory(name=name)
    client.force_login(ew_campaign["gm"])
    assert _upload(client, json.dumps(document).encode()).status_code == 302
    copy = Campaign.objects.exclude(pk=ew_campaign["campaign"].pk).get()
    [aptitude] = Character.objects.get(campaign=copy, name="Brandon").ew.aptitudes.all()
    assert (aptitude.archetype.name, aptitude.name) == (archetype, name)
    assert aptitude != namesake


def test_a_missing_aptitude_is_named_with_its_archetype(client, ew_campaign):
    document = transfer.campaign_export(ew_campaign["campaign"])
    [(archetype, _name)] = _brandons_aptitude(document)
    _brandons_aptitude(document)[0] = [archetype, "Aptitude disparue"]
    before = _counts()
    client.force_login(ew_campaign["gm"])
    response = _upload(client, json.dumps(document).encode())
    assert response.status_code == 200
    assert f"aptitude (EW) « {archetype} / Aptitude disparue »" in response.text
    assert _counts() == before


# Characters with their sheet (1) and the sheet's five kinds of compendium rows (5), the XP
# ledger (1) and the specialties its spends improved (1), members, log, encounters,
# combatants, events (1 each).
EXPORT_QUERIES = 13


@pytest.mark.parametrize("extra", [0, 6])
def test_export_query_count_does_not_grow_with_the_campaign(django_assert_num_queries, extra):
    campaign = campaign_with_gm("ew")
    gm = campaign.memberships.get().user
    encounter = _ew_fight(campaign, gm, add_player(campaign), extra_npcs=extra)
    for _ in range(extra):  # more events too
        encounter_services.encounter_next_turn(
            encounter_id=encounter.pk, version=_version(encounter), by=gm
        )
    campaign = Campaign.objects.get(pk=campaign.pk)
    with django_assert_num_queries(EXPORT_QUERIES):
        document = transfer.campaign_export(campaign)
    assert len(document["characters"]) == 3 + extra


def _put_condition(encounter, bearer, by_whom, gm):
    """Étourdi on ``bearer`` until the end of ``by_whom``'s next turn, as a step."""
    with transaction.atomic():
        locked = lock_encounter(encounter.pk)
        step = Step(locked, "condition_test", gm)
        condition = Condition(
            label="étourdi",
            ends="turn_end",
            turn_of=by_whom.pk,
            placed_by=by_whom.pk,
            modifiers={"attack": -2},
        )
        add_condition(step, bearer, condition)
        step.commit()


def test_a_fighters_conditions_follow_its_fight_into_the_copy(ew_campaign):
    """The ids a condition holds (whose turn ends it, who put it) are the copy's own."""
    campaign, gm = ew_campaign["campaign"], ew_campaign["gm"]
    encounter = campaign.encounters.get()
    brandon = encounter.combatants.get(character__name="Brandon")
    ysolde = encounter.combatants.get(character__name="Ysolde")
    _put_condition(encounter, ysolde, brandon, gm)
    first, second, copy = _round_trip(campaign, gm)
    assert _as_imported_by(first, gm.username) == second
    copied = Combatant.objects.get(encounter__campaign=copy, character__name="Ysolde")
    copied_brandon = Combatant.objects.get(encounter__campaign=copy, character__name="Brandon")
    [condition] = copied.conditions
    assert condition["turn_of"] == condition["placed_by"] == copied_brandon.pk != brandon.pk
    assert condition["label"] == "étourdi" and condition["modifiers"] == {"attack": -2}


def test_a_file_from_before_conditions_imports_with_none(ew_campaign):
    campaign, gm = ew_campaign["campaign"], ew_campaign["gm"]
    document = json.loads(json.dumps(transfer.campaign_export(campaign)))
    for encounter in document["encounters"]:
        for combatant in encounter["combatants"]:
            del combatant["conditions"]
    copy = transfer.campaign_import(document=document, by=gm).campaign
    assert all(c.conditions == [] for c in Combatant.objects.filter(encounter__campaign=copy))
