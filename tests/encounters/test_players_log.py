"""The players' log on the table view (issue 29): what happened to the fighters they see,
even when a hidden NPC did it (without its name); a new round's line whoever acts first; an
undone step marked "annulé" rather than gone; a severe effect only once the GM decided it,
in the table's words, and a fighter's lasting effects beside its state, NPCs included."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from apps.characters.models import AethoriaSheet, EwSheet
from apps.encounters.models import Encounter
from tests.encounters.factories import started_duel
from tests.systems.aethoria.support import aethoria_table as table  # noqa: F401 (fixture)
from tests.systems.aethoria.support import arm_blow, last, start

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def as_user(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def post(client, name, encounter, data=None):
    encounter.refresh_from_db()
    url = reverse(f"encounters:{name}", args=[encounter.pk])
    response = client.post(url, {"version": encounter.version, **(data or {})}, **HTMX)
    assert response.status_code == 200, response.text
    return response


def players_lines(user, encounter: Encounter) -> list[str]:
    """The players' log as its lines' text (tags taken out, "annulé" marks kept)."""
    page = as_user(user).get(reverse("encounters:table", args=[encounter.pk])).text
    section = page.split('class="table-log"')[1] if 'class="table-log"' in page else ""
    lines = re.findall(r"<li class=\"log-line[^\"]*\">(.*?)</li>", section, re.S)
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", line)).strip() for line in lines]


def marked_lines(user, encounter: Encounter) -> list[str]:
    page = as_user(user).get(reverse("encounters:table", args=[encounter.pk])).text
    return re.findall(r'<li class="log-line [^"]*undone">.*?</li>', page, re.S)


def ew_attack(encounter, attacker, target, to_hit: int, damage: int) -> dict:
    return {
        "attacker": attacker.pk,
        "target": target.pk,
        "defence": "none",
        "modifier": 0,
        "to_hit_face": to_hit,
        "damage_face": damage,
    }


# --- A hidden NPC acts ---------------------------------------------------------------------


def test_a_pc_knocked_out_by_a_hidden_npc_gets_a_line_without_its_name():
    duel = started_duel("Marco", "Tueur de l'ombre", first="npc", npc_hidden=True)
    encounter = duel.encounter
    marco = encounter.combatants.get(character=duel.pc)
    killer = encounter.combatants.get(character=duel.npc)
    EwSheet.objects.filter(character=duel.pc).update(superficial_left=2)
    post(as_user(duel.gm), "ew_attack", encounter, ew_attack(encounter, killer, marco, 3, 9))
    lines = players_lines(duel.player, encounter)
    blow = next(line for line in lines if "Marco reçoit un coup" in line)
    assert "sans connaissance" in blow and "superficiel" in blow
    assert not [line for line in lines if "Tueur" in line or "ombre" in line]


def test_a_hidden_npcs_miss_is_told_without_its_name():
    duel = started_duel("Marco", "Tueur de l'ombre", first="npc", npc_hidden=True)
    encounter = duel.encounter
    marco = encounter.combatants.get(character=duel.pc)
    killer = encounter.combatants.get(character=duel.npc)
    post(as_user(duel.gm), "ew_attack", encounter, ew_attack(encounter, killer, marco, 20, 5))
    assert "Round 1 — Un coup manque Marco." in players_lines(duel.player, encounter)


def test_a_round_a_hidden_npc_opens_keeps_its_line():
    """The new round's line tells the round and the order the players see, not that the
    hidden NPC acts first (its line used to vanish whole)."""
    duel = started_duel("Marco", "Tueur de l'ombre", first="npc", npc_hidden=True)
    encounter = duel.encounter
    marco = encounter.combatants.get(character=duel.pc)
    killer = encounter.combatants.get(character=duel.npc)
    gm = as_user(duel.gm)
    post(gm, "next_turn", encounter)  # Marco's turn
    faces = {f"face_{killer.pk}": 10, f"face_{marco.pk}": 1}
    post(gm, "next_turn", encounter, faces)  # round 2 opens on the hidden NPC's turn
    lines = players_lines(duel.player, encounter)
    assert re.fullmatch(r"Round 2 — Round 2\. Initiative : Marco \(\d+\)\.", lines[0]), lines
    assert not [line for line in lines if "Tueur" in line]


# --- Undone steps --------------------------------------------------------------------------


def test_an_undone_step_stays_on_the_players_log_marked_then_clears_on_redo():
    duel = started_duel("Marco", "Garnier", first="pc")
    encounter = duel.encounter
    marco = encounter.combatants.get(character=duel.pc)
    garnier = encounter.combatants.get(character=duel.npc)
    gm = as_user(duel.gm)
    post(gm, "ew_attack", encounter, ew_attack(encounter, marco, garnier, 3, 5))
    assert marked_lines(duel.player, encounter) == []
    post(gm, "undo", encounter)
    marked = marked_lines(duel.player, encounter)
    assert len(marked) == 1 and "Marco attaque Garnier" in marked[0]
    assert "<del>" in marked[0] and "annulé" in marked[0]
    assert players_lines(duel.player, encounter)[0].startswith("Round 1 — Marco attaque")
    post(gm, "redo", encounter)
    assert marked_lines(duel.player, encounter) == []
    assert players_lines(duel.player, encounter)[0].startswith("Round 1 — Marco attaque")


# --- Aethoria: severe effects --------------------------------------------------------------


def player_of(table):  # noqa: F811
    return table["ysolde"].owner


def test_a_proposed_effect_is_not_on_the_players_log_until_decided(table):  # noqa: F811
    y, b = start(table)
    arm_blow(table, y, b)
    encounter = table["encounter"]
    lines = players_lines(player_of(table), encounter)
    assert "Ysolde attaque Brandon" in lines[0] and "proposé" not in lines[0]
    assert "saignement" not in " ".join(lines)
    event = last(table, "aethoria_attack")
    post(
        table["client"],
        "aethoria_effect",
        encounter,
        {"event": event.pk, "blow": 0, "decision": "confirm"},
    )
    lines = players_lines(player_of(table), encounter)
    assert lines[0] == "Round 1 — Brandon saigne (blessure au bras droit)."
    assert "Le MJ" not in " ".join(lines)


def test_a_dismissed_effect_is_no_news_to_the_players(table):  # noqa: F811
    y, b = start(table)
    arm_blow(table, y, b)
    encounter = table["encounter"]
    event = last(table, "aethoria_attack")
    post(
        table["client"],
        "aethoria_effect",
        encounter,
        {"event": event.pk, "blow": 0, "decision": "dismiss"},
    )
    lines = players_lines(player_of(table), encounter)
    assert "Ysolde attaque Brandon" in lines[0]
    assert not [line for line in lines if "écarte" in line or "saign" in line]


def test_an_npcs_lasting_effect_shows_beside_its_state_even_out_of_the_fight(table):  # noqa: F811
    y, b = start(table)
    arm_blow(table, y, b)
    encounter = table["encounter"]
    event = last(table, "aethoria_attack")
    confirm = {"event": event.pk, "blow": 0, "decision": "confirm"}
    post(table["client"], "aethoria_effect", encounter, confirm)
    AethoriaSheet.objects.filter(character=table["brandon"]).update(pv=0)  # knocked out
    page = as_user(player_of(table)).get(reverse("encounters:table", args=[encounter.pk])).text
    row = page.split("Brandon</span>")[1].split("</li>")[0]
    assert "hors de combat" in row
    assert re.search(r'class="notes">saigne<', row), row
