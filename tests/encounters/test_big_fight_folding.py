"""A big fight's order folded on the server (issue #33, apps/encounters/folding.py): past
FOLD_FROM fighters the console draws the rows the GM does not deal with now light — name,
initiative, state in words — and the acting fighter, the next two still standing and the
attack's target whole; the GM asks for every row whole, and a step that moves the turn on
draws whole the fighters who now come next."""

import re

import pytest
from django.urls import reverse

from apps.encounters.folding import FOLD_FROM
from apps.encounters.models import Encounter
from tests.encounters.test_encounter_queries import fight

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def rows_of(html: str) -> dict[int, str]:
    """Each fighter's row in the page, by combatant id: from its start to the next row's or
    the order's end (a row holds lists of its own)."""
    starts = [m.start() for m in re.finditer(r'<li id="combatant-\d+"', html)]
    ends = [*starts[1:], html.index("</ol>", starts[-1])]
    chunks = [html[a:b] for a, b in zip(starts, ends, strict=True)]
    return {int(re.match(r'<li id="combatant-(\d+)"', c).group(1)): c for c in chunks}


def is_light(row: str) -> bool:
    return " light" in row.split(">", 1)[0] and "<meter" not in row and "<form" not in row


def is_whole(row: str) -> bool:
    return " light" not in row.split(">", 1)[0] and "<meter" in row and "<form" in row


def big_fight(client, fighters: int = FOLD_FROM + 6):
    """Brandon (the PC) and his foes, in initiative order (pks)."""
    encounter, gm, _ = fight(combatants=fighters, log_lines=3)
    client.force_login(gm)
    return encounter, list(encounter.combatants.order_by("position").values_list("pk", flat=True))


def brandon(encounter) -> int:
    return encounter.combatants.get(character__name="Brandon").pk


def dealt_with_now(encounter, order: list[int], turn: int) -> set[int]:
    """Who acts, the next two (all standing here) and whom the attack form aims at: the
    first of the other side (Brandon for a foe, the first foe for Brandon)."""
    acting, pc = order[turn], brandon(encounter)
    aimed = pc if acting != pc else next(pk for pk in order if pk != pc)
    return {acting, order[turn + 1], order[turn + 2], aimed}


def console(client, encounter, **extra) -> str:
    response = client.get(reverse("encounters:console", args=[encounter.pk]), **extra)
    assert response.status_code == 200
    return response.content.decode()


def test_a_big_fight_draws_whole_only_the_fighters_dealt_with_now(client):
    encounter, order = big_fight(client)
    html = console(client, encounter)
    rows = rows_of(html)
    assert list(rows) == order  # every fighter is in the order, light or whole
    whole = dealt_with_now(encounter, order, 0)
    assert {pk for pk, row in rows.items() if is_whole(row)} == whole
    assert all(is_light(rows[pk]) for pk in order if pk not in whole)
    light = len(order) - len(whole)
    assert f"Voir les {light} combattants résumés en entier" in html
    # A light row still says who and how it fares.
    far = next(pk for pk in order if pk not in whole)
    assert 'class="combatant-name">Sbire' in rows[far] and 'class="words' in rows[far]


def test_the_attack_forms_target_is_drawn_whole(client):
    encounter, order = big_fight(client)
    far = next(pk for pk in order[5:] if pk != brandon(encounter))
    assert is_light(rows_of(console(client, encounter))[far])
    attack = {
        "version": encounter.version,
        "attacker": order[0],
        "target": far,
        "defence": "none",
        "modifier": 0,
        "to_hit_face": 1,
        "damage_face": 1,
    }
    response = client.post(reverse("encounters:ew_attack", args=[encounter.pk]), attack, **HTMX)
    assert response.status_code == 200 and "field-error" not in response.text
    # The form now opens on the fighter attacked last: its row is whole on a reload.
    assert is_whole(rows_of(console(client, encounter))[far])


@pytest.mark.parametrize(
    "asked",
    [{"data": {"ordre": "tout"}}, {"HTTP_TABLEE_ORDER": "full"}],
    ids=["link", "header"],
)
def test_the_gm_asks_for_every_row_whole(client, asked):
    encounter, _ = big_fight(client)
    response = client.get(reverse("encounters:console", args=[encounter.pk]), **asked)
    rows = rows_of(response.content.decode())
    assert all(is_whole(row) for row in rows.values())
    assert "résumés en entier" not in response.content.decode()


def test_a_fight_up_to_the_threshold_is_drawn_whole(client):
    encounter, _ = big_fight(client, fighters=FOLD_FROM)
    html = console(client, encounter)
    assert all(is_whole(row) for row in rows_of(html).values())
    assert "résumés en entier" not in html


def test_next_turn_draws_whole_who_comes_next_now(client):
    encounter, order = big_fight(client)
    assert is_light(rows_of(console(client, encounter))[order[3]])
    url = reverse("encounters:next_turn", args=[encounter.pk])
    response = client.post(url, {"version": encounter.version}, **HTMX)
    assert response.status_code == 200
    answered = rows_of(response.content.decode())
    # The next fighter acts: the two after it come whole, and the one who acted.
    now = dealt_with_now(encounter, order, 1)
    assert now | {order[0]} <= set(answered)
    assert all(is_whole(answered[pk]) for pk in now)
    encounter = Encounter.objects.get(pk=encounter.pk)
    rows = rows_of(console(client, encounter))
    assert {pk for pk, row in rows.items() if is_whole(row)} == now
