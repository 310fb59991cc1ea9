"""Undoing a reinforcement leaves the campaign as it was: the NPC copies it made leave every
list (campaign page, the console's forms, their sheets), and redo brings them back with the
same ids, sheets, gear and log lines. A copy changed since it arrived is never deleted: the
undo is refused, in words, nothing changed. What an undo kept is put back only into its own
campaign and fight, never over another row."""

import pytest
from django.test import Client
from django.urls import reverse

from apps.characters.models import AethoriaSkillRank, Character, EwSheet
from apps.compendium.models import EwWeapon
from apps.encounters.copies import REMOVED
from apps.encounters.models import Combatant, Event
from tests.encounters.factories import aethoria_fighter, ew_fighter, started_duel

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def table():
    """A running EW fight, Brandon (a PC) against Garnier; a template "Sbire" waits."""
    duel = started_duel(first="pc")
    template = ew_fighter(duel.encounter.campaign, "Sbire", phy=5)
    Character.objects.filter(pk=template.pk).update(is_template=True)
    return {**gm_table(duel), "template": template}


def gm_table(duel):
    """What this module's helpers take: the duel's fight, its people and a GM's client."""
    client = Client()
    client.force_login(duel.gm)
    return {
        "campaign": duel.encounter.campaign,
        "encounter": duel.encounter,
        "gm": duel.gm,
        "player": duel.player,
        "client": client,
    }


def post(table, name, data=None, *args):
    encounter = table["encounter"]
    encounter.refresh_from_db()
    url = reverse(f"encounters:{name}", args=[encounter.pk, *args])
    return table["client"].post(url, {"version": encounter.version, **(data or {})}, **HTMX)


def reinforce(table, count=3):
    response = post(table, "reinforce", {"template": table["template"].pk, "count": count})
    assert response.status_code == 200
    return list(
        Character.objects.filter(campaign=table["campaign"], name__startswith="Sbire ")
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def campaign_page(table) -> str:
    return table["client"].get(reverse("campaigns:detail", args=[table["campaign"].pk])).text


def console(table) -> str:
    return table["client"].get(reverse("encounters:console", args=[table["encounter"].pk])).text


def everything(table) -> tuple:
    """The campaign's characters with their sheets, ranks and gear, and the fight's rows."""
    characters = []
    for character in Character.objects.filter(campaign=table["campaign"]).order_by("pk"):
        sheet = EwSheet.objects.get(pk=character.pk)
        characters.append(
            (
                character.pk,
                character.name,
                character.updated_at,
                sheet.superficial_left,
                sheet.lethal_left,
                sheet.eclat,
                sorted(sheet.weapons.values_list("pk", flat=True)),
                sorted(sheet.specialties.values_list("pk", "specialty_id", "level")),
            )
        )
    fighters = list(
        Combatant.objects.filter(encounter=table["encounter"])
        .order_by("pk")
        .values_list("pk", "character_id", "present", "position", "initiative", "state")
    )
    return characters, fighters


def test_undo_takes_the_copies_out_of_every_list_and_redo_brings_them_back(table):
    before = everything(table)
    copies = reinforce(table)
    assert len(copies) == 3 and "Sbire 2" in campaign_page(table)
    after = everything(table)
    response = post(table, "undo")
    assert response.status_code == 200
    # The campaign as it was: no copy left, on any page or list.
    assert everything(table) == before
    page = campaign_page(table)
    assert "Sbire 1" not in page and "Sbire 3" not in page
    assert "Sbire 1" not in console(table).split('id="log-lines"')[0]  # no form offers it
    for pk in copies:
        assert table["client"].get(reverse("characters:detail", args=[pk])).status_code == 404
    # Redo: the same copies, same ids, sheets and gear, back in the fight.
    response = post(table, "redo")
    assert response.status_code == 200
    assert everything(table) == after
    assert "Sbire 2" in campaign_page(table)
    # And again: undo and redo are exact however many times.
    post(table, "undo")
    assert everything(table) == before
    post(table, "redo")
    assert everything(table) == after


def test_redo_gives_the_log_lines_their_fighters_back(table):
    copies = reinforce(table, count=1)
    copy = table["encounter"].combatants.get(character_id=copies[0])
    brandon = table["encounter"].combatants.get(character__name="Brandon")
    # Brandon acts first: he attacks the copy and hits.
    data = {"attacker": brandon.pk, "target": copy.pk, "defence": "none", "modifier": 0}
    response = post(table, "ew_attack", {**data, "to_hit_face": 1, "damage_face": 9})
    assert response.status_code == 200
    attack = Event.objects.get(encounter=table["encounter"], kind="ew_attack")
    wounded = everything(table)
    post(table, "undo")
    post(table, "undo")
    assert not Character.objects.filter(pk=copies[0]).exists()
    post(table, "redo")
    post(table, "redo")
    attack.refresh_from_db()
    assert (attack.actor_id, attack.target_id) == (brandon.pk, copy.pk)
    assert not attack.undone and everything(table) == wounded


def test_a_copy_edited_since_it_arrived_is_not_deleted_and_the_undo_is_refused(table):
    copies = reinforce(table, count=2)
    notes = {"name": "Sbire 2", "concept": "", "notes": "", "gm_notes": "Il boite."}
    url = reverse("characters:notes", args=[copies[1]])
    assert table["client"].post(url, notes, **HTMX).status_code == 200
    edited = everything(table)
    events = table["encounter"].events.count()
    response = post(table, "undo")
    assert "Sbire 2 a changé depuis son arrivée en renfort" in response.text
    assert "rien n&#x27;a été modifié" in response.text
    assert everything(table) == edited and table["encounter"].events.count() == events


def test_a_copy_given_xp_is_not_deleted_either(table):
    copies = reinforce(table, count=1)
    Character.objects.get(pk=copies[0]).xp_entries.create(
        amount=5, kind="award", reason="courage", created_by=table["gm"]
    )
    response = post(table, "undo")
    assert "Sbire 1 a changé depuis son arrivée en renfort" in response.text
    assert Character.objects.filter(pk=copies[0]).exists()


def test_a_character_of_the_campaign_is_never_deleted_by_undoing_its_arrival(table):
    spare = ew_fighter(table["campaign"], "Maëlle")
    assert post(table, "reinforce", {"character": spare.pk}).status_code == 200
    post(table, "undo")
    assert Character.objects.filter(pk=spare.pk).exists()
    assert "Maëlle" in campaign_page(table)


def test_what_an_undo_kept_is_never_put_back_over_another_row(table):
    copies = reinforce(table, count=1)
    post(table, "undo")
    undo = table["encounter"].events.get(kind="undo")
    # A crafted file (or another campaign's ids) names a character that exists.
    removed = undo.data[REMOVED]
    removed["rows"][0]["pk"] = table["template"].pk
    undo.data = {**undo.data, REMOVED: removed}
    undo.save(update_fields=["data"])
    template_name = table["template"].name
    response = post(table, "redo")
    assert "ne peuvent pas revenir" in response.text
    assert Character.objects.get(pk=table["template"].pk).name == template_name
    assert not Character.objects.filter(pk=copies[0]).exists()


def test_aethoria_copies_come_back_with_their_skills_and_gear():
    table = gm_table(started_duel("Ysolde", "Brandon", system="aethoria", name="Crypte"))
    template = aethoria_fighter(table["campaign"], "Goule", esquive=2)
    Character.objects.filter(pk=template.pk).update(is_template=True)
    response = post(table, "reinforce", {"template": template.pk, "count": 2})
    assert response.status_code == 200

    def gear():
        return sorted(
            (rank.sheet_id, rank.skill_id, rank.rank)
            for rank in AethoriaSkillRank.objects.filter(
                sheet__character__name__startswith="Goule "
            )
        ), sorted(
            Character.objects.filter(name__startswith="Goule ").values_list(
                "pk", "aethoria__weapons", "aethoria__pv"
            )
        )

    made = gear()
    assert len(made[0]) == 4  # two copies, each with its weapon skill and Esquive
    post(table, "undo")
    assert gear() == ([], [])
    post(table, "redo")
    assert gear() == made


# --- A reinforcement's initiative typed from physical dice -----------------------------------


def test_the_gm_types_each_arrivals_initiative_face(table):
    response = post(
        table, "reinforce", {"template": table["template"].pk, "count": 2, "faces": "7 2"}
    )
    assert response.status_code == 200
    rows = table["encounter"].combatants.filter(character__name__startswith="Sbire ")
    faces = dict(rows.values_list("character__name", "initiative_roll"))
    assert faces == {"Sbire 1": 7, "Sbire 2": 2}
    assert table["encounter"].events.get(kind="reinforce").dice == "physical"


@pytest.mark.parametrize(
    ("faces", "message"),
    [
        ("11", "Un d10 donne de 1 à 10."),
        ("0", "Un d10 donne de 1 à 10."),
        ("3 x", "Un d10 donne de 1 à 10."),
        ("3 4", "Il faut 1 face(s), une par arrivant"),
    ],
)
def test_a_bad_initiative_face_is_refused_next_to_the_field(table, faces, message):
    before = everything(table)
    table["encounter"].refresh_from_db()
    version = table["encounter"].version
    data = {"template": table["template"].pk, "count": 1, "faces": faces, "hidden": "on"}
    response = post(table, "reinforce", data)
    assert response.status_code == 200
    error = response.text.split('id="id_faces_error">')[1].split("<")[0]
    assert message in error
    table["encounter"].refresh_from_db()
    assert table["encounter"].version == version and everything(table) == before


def test_an_aethoria_arrivals_face_is_a_d20():
    table = gm_table(started_duel("Ysolde", "Brandon", system="aethoria", name="Crypte"))
    encounter = table["encounter"]
    spare = aethoria_fighter(table["campaign"], "Goule")
    response = post(table, "reinforce", {"character": spare.pk, "faces": "21"})
    assert "Un d20 donne de 1 à 20." in response.text
    response = post(table, "reinforce", {"character": spare.pk, "faces": "17"})
    assert encounter.combatants.get(character=spare).initiative_roll == 17


def test_a_redo_after_the_copies_gear_left_the_compendium_is_refused_in_words(table):
    """The admin deleted the copies' weapon between the undo and the redo: the copies cannot
    come back as they were; the redo says so and changes nothing (no 500)."""
    copies = reinforce(table, count=2)
    weapons = set(EwSheet.objects.get(pk=copies[0]).weapons.values_list("pk", flat=True))
    assert weapons
    post(table, "undo")
    EwWeapon.objects.filter(pk__in=weapons).delete()  # the template's with it
    before = everything(table)
    events = table["encounter"].events.count()
    response = post(table, "redo")
    assert response.status_code == 200
    assert "Les copies de ces renforts ne peuvent pas revenir" in response.text
    assert "retirée du compendium" in response.text
    assert everything(table) == before and table["encounter"].events.count() == events
    assert not Character.objects.filter(pk__in=copies).exists()
