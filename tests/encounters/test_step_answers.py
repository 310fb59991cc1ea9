"""Next turn, undo, redo and the small steps answer with what they changed (out of band), so
the busiest buttons of the console stay light; the whole console only when its shape
changes. What the fragments show is what a reload shows."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from apps.campaigns.models import Role
from apps.encounters import services
from apps.encounters.models import Encounter, Event
from apps.encounters.services import NOT_UNDOABLE, load_combatants
from apps.systems.ew.defaults import opening_choice
from tests.encounters.test_encounter_queries import fight

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def post(client, name, encounter, data=None):
    version = Encounter.objects.get(pk=encounter.pk).version
    response = client.post(
        reverse(f"encounters:{name}", args=[encounter.pk]),
        {"version": version, **(data or {})},
        **HTMX,
    )
    assert response.status_code == 200, response.text[:300]
    return response


def attack(client, encounter, to_hit=1, damage=5):
    acting, target = encounter.combatants.order_by("position")[:2]
    data = {"attacker": acting.pk, "target": target.pk, "defence": "none", "modifier": 0}
    return post(
        client, "ew_attack", encounter, {**data, "to_hit_face": to_hit, "damage_face": damage}
    )


def rows_in(html: str) -> list[int]:
    return [int(pk) for pk in re.findall(r'<li id="combatant-(\d+)"', html)]


def row_html(html: str, pk: int) -> str:
    row = html[html.index(f'<li id="combatant-{pk}"') :]
    return row[: row.index("</li>")].replace(' hx-swap-oob="true"', "")


def console(client, encounter) -> str:
    return client.get(reverse("encounters:console", args=[encounter.pk]), **HTMX).text


def without_tokens(html: str) -> str:
    """The CSRF token is masked afresh for every page: leave it out of comparisons."""
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)


@pytest.fixture
def big(client):
    encounter, gm, _player = fight(combatants=20, log_lines=500)
    client.force_login(gm)
    return encounter


def test_next_turn_answers_with_the_two_rows_whose_turn_ended_and_began(client, big):
    first, second = big.combatants.order_by("position")[:2]
    response = post(client, "next_turn", big)
    assert response["HX-Reswap"] == "none"
    assert sorted(rows_in(response.text)) == sorted([first.pk, second.pk])
    html = response.text
    assert 'id="status-line" hx-swap-oob="true"' in html
    assert f"Au tour de {second.character.name}" in html
    # The turn is announced to screen readers, and the actions are the new fighter's.
    assert 'hx-swap-oob="innerHTML:#turn-announcer"' in html
    assert f"Round 1, au tour de {second.character.name}." in html
    assert 'id="console-actions"' in html and f'name="attacker" value="{second.pk}"' in html
    assert 'hx-swap-oob="afterbegin:#log-lines"' in html
    # What the fragments show is what a reload shows.
    page = without_tokens(console(client, big))
    for pk in (first.pk, second.pk):
        assert row_html(without_tokens(html), pk) == row_html(page, pk)


def test_next_turn_runs_the_same_queries_whatever_the_size_of_the_fight(client):
    counts = []
    for size, lines in ((3, 5), (20, 500)):
        encounter, gm, _ = fight(combatants=size, log_lines=lines)
        client.force_login(gm)
        version = encounter.version
        with CaptureQueriesContext(connection) as queries:
            client.post(
                reverse("encounters:next_turn", args=[encounter.pk]), {"version": version}, **HTMX
            )
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


def test_undo_of_a_blow_marks_its_line_and_restores_the_row(client, big):
    first, second = big.combatants.order_by("position")[:2]
    before = row_html(without_tokens(console(client, big)), second.pk)
    attack(client, big, to_hit=1, damage=10)
    blow = big.events.get(kind="ew_attack")
    response = post(client, "undo", big)
    html = without_tokens(response.text)
    assert response["HX-Reswap"] == "none"
    assert set(rows_in(html)) == {first.pk, second.pk}
    # The target's row reads exactly as before the blow, but for the encounter's version
    # its hidden input carries (the blow and the undo each raised it by one).
    version = Encounter.objects.get(pk=big.pk).version
    assert row_html(html, second.pk) == before.replace(
        f'value="{version - 2}"', f'value="{version}"'
    )
    # The blow's own line now reads "annulé"; the undo is a new line; redo is offered.
    line = re.search(rf'<li id="log-{blow.sequence}" hx-swap-oob="true"[^>]*>.*?</li>', html, re.S)
    assert line and "undone" in line.group(0) and "annulé" in line.group(0)
    assert "kind-undo" in html
    assert "disabled" not in re.search(r'id="redo"[^>]*>', html).group(0)
    # Redo brings it back, and its line is no longer marked.
    html = post(client, "redo", big).text
    line = re.search(rf'<li id="log-{blow.sequence}" hx-swap-oob="true"[^>]*>', html)
    assert line and "undone" not in line.group(0)
    assert "disabled" in re.search(r'id="redo"[^>]*>', html).group(0)


def test_a_new_round_and_a_pause_redraw_the_whole_console(client, big):
    # The last fighter's turn passes: a new round, a new initiative, a new order.
    Encounter.objects.filter(pk=big.pk).update(turn=19)
    response = post(client, "next_turn", big)
    assert "HX-Reswap" not in response and 'id="console"' in response.text
    response = post(client, "pause", big)
    assert "HX-Reswap" not in response and "En pause" in response.text
    # Undoing the pause changes the status back: the whole console again.
    response = post(client, "undo", big)
    assert "HX-Reswap" not in response and 'id="ew-attack"' in response.text


def test_undo_stays_offered_however_many_steps_were_undone(client, big):
    # The console used to look for something to undo among its 60 latest lines only: after
    # 30 undos, those are 30 undo lines and 30 undone steps, and "Annuler" went grey while
    # older steps could still be undone.
    gm = big.campaign.memberships.get(role=Role.GM).user
    for _ in range(35):
        version = Encounter.objects.get(pk=big.pk).version
        services.encounter_next_turn(encounter_id=big.pk, version=version, by=gm)
        if Encounter.objects.get(pk=big.pk).turn == 0:
            break
    for _ in range(31):
        version = Encounter.objects.get(pk=big.pk).version
        services.encounter_undo(encounter_id=big.pk, version=version, by=gm)
    # Older steps remain (the fight's first 500 lines), beyond the 60 lines shown.
    undoable = Event.objects.filter(encounter=big, undone=False).exclude(kind__in=NOT_UNDOABLE)
    assert undoable.exists()
    undo = re.search(r'id="undo"[^>]*>', console(client, big)).group(0)
    assert "disabled" not in undo
    # The step answer agrees with the console.
    undo = re.search(r'id="undo"[^>]*>', post(client, "undo", big).text).group(0)
    assert "disabled" not in undo


def test_the_eclat_offer_comes_back_when_its_rescue_is_undone(client):
    encounter, gm, _player = fight(combatants=3, log_lines=5)
    client.force_login(gm)
    brandon = encounter.combatants.get(character__name="Brandon")
    # Brandon (a PC) acts first in this fight: make it so, then let him miss.
    Encounter.objects.filter(pk=encounter.pk).update(turn=brandon.position)
    target = encounter.combatants.exclude(pk=brandon.pk).first()
    miss = {"attacker": brandon.pk, "target": target.pk, "defence": "none", "modifier": 0}
    html = post(client, "ew_attack", encounter, {**miss, "to_hit_face": 20, "damage_face": 1}).text
    assert "peut dépenser un point d'éclat" in html
    event = encounter.events.get(kind="ew_attack")
    html = post(client, "ew_eclat", encounter, {"event": event.pk, "damage_face": 1}).text
    assert "peut dépenser un point d'éclat" not in html
    html = post(client, "undo", encounter).text
    assert response_offers_rescue(html, event)
    assert response_offers_rescue(console(client, encounter), event)


def response_offers_rescue(html: str, event) -> bool:
    return f'name="event" value="{event.pk}"' in html and "Brandon peut dépenser" in html


def _aethoria_test_queries(client, encounter) -> tuple[int, str]:
    acting = encounter.combatants.order_by("position").first()
    data = {
        "version": Encounter.objects.get(pk=encounter.pk).version,
        "combatant": acting.pk,
        "source": "adresse",
        "difficulty": 1,
        "faces": "1 2 3 4 5 6",
    }
    url = reverse("encounters:aethoria_test", args=[encounter.pk])
    with CaptureQueriesContext(connection) as queries:
        response = client.post(url, data, **HTMX)
    assert response.status_code == 200 and "field-error" not in response.text, response.text
    return len(queries), response


def test_an_aethoria_test_answers_with_what_it_changed_in_fixed_queries(client):
    from tests.systems.aethoria.test_aethoria_console import _fight

    small, _ = _aethoria_test_queries(client, _fight(client, 3, 5))
    count, response = _aethoria_test_queries(client, _fight(client, 20, 500))
    assert count == small, (count, small)
    assert count == 18, count  # the fight is read once after the roll, skills included
    assert response["HX-Reswap"] == "none"
    assert 'id="console-actions"' in response.text and "kind-aethoria_test" in response.text


def test_undo_of_a_blow_query_count_is_pinned(client, big, django_assert_num_queries):
    attack(client, big, to_hit=1, damage=10)
    version = Encounter.objects.get(pk=big.pk).version
    # Reading (1): user. The undo (9, and a savepoint opened and released around it):
    # lock the encounter (the GM checked in the same query) and the fighters' sheets, the
    # step to undo with its actor and the one before it (undo still offered after?), the
    # sheets' values it changed (unchanged since?), write back the defender's sheet and the
    # attacker's round state, mark the step undone, append the undo, bump the versions (the
    # turn it wrote back is set in memory, not read). The answer (5): the fighters, the
    # acting fighter's latest attack (the form opens on its choices), the two fighters'
    # weapons and specialties, the point d'éclat offer — whether the actions panel is drawn
    # again or kept (below), the same reads.
    with django_assert_num_queries(1 + 9 + 2 + 5):
        client.post(reverse("encounters:undo", args=[big.pk]), {"version": version}, **HTMX)


def test_undoing_the_attack_the_form_opens_on_keeps_the_form(client, big):
    """The GM attacks as the form opens (two taps) and presses U: the form, still showing
    that attack, is what a reload draws too — it stays, and the answer is the attack's (the
    odds of the same attack again, the offers). An attack the form does not open on after
    the undo (another target...) draws the panel again."""
    order = list(big.combatants.order_by("position").select_related("character"))
    acting = order[0]
    target = next(c for c in order[1:] if c.character.kind != acting.character.kind)
    fighters = {c.pk: c for c in load_combatants(big)}
    opening = opening_choice(fighters[acting.pk], fighters[target.pk], {}, big.campaign.house())
    data = {
        "attacker": acting.pk,
        "target": target.pk,
        "weapon": opening["weapon"] or "",
        "specialty": opening["specialty"] or "",
        "defence": opening["defence"],
        "defence_specialty": opening["defence_specialty"] or "",
        "modifier": 0,
        "to_hit_face": 20,
        "damage_face": 1,
    }
    post(client, "ew_attack", big, data)
    response = post(client, "undo", big)
    assert 'id="ew-attack-odds"' in response.text and 'id="ew-attack"' not in response.text
    assert 'id="console-actions"' not in response.text
    # A redo draws the panel again: the form shows what the undo's answer left in it.
    response = post(client, "redo", big)
    assert 'id="ew-attack"' in response.text


def test_the_aethoria_console_runs_the_same_queries_whatever_the_size_of_the_fight(client):
    """Weapons and armour are read for the attack form's two fighters only; every fighter's
    skills only when the test panel, which lists them, is open (in the same query that
    otherwise reads the two fighters' skills)."""
    from tests.systems.aethoria.test_aethoria_console import _fight

    counts = {"closed": [], "open": []}
    for size, lines in ((3, 5), (20, 500)):
        encounter = _fight(client, size, lines)
        for panel, query in (("closed", {}), ("open", {"panel": "test"})):
            with CaptureQueriesContext(connection) as queries:
                response = client.get(
                    reverse("encounters:console", args=[encounter.pk]), query, **HTMX
                )
            assert ('id="aethoria-test"' in response.text) == (panel == "open")
            counts[panel].append(len(queries))
    assert counts["closed"][0] == counts["closed"][1], counts
    assert counts["open"][0] == counts["open"][1], counts


def test_an_aethoria_test_leaves_its_panel_open_on_the_same_test(client):
    """The next player often rolls the same test: the panel comes back open with the GM's
    choices, the roller's dice emptied, and the odds of that test."""
    from tests.systems.aethoria.test_aethoria_console import _fight

    encounter = _fight(client, 3, 5)
    second = encounter.combatants.order_by("position")[1]
    data = {
        "version": Encounter.objects.get(pk=encounter.pk).version,
        "combatant": second.pk,
        "label": "Grimper",
        "source": "adresse",
        "difficulty": 2,
        "modifier": -1,
        "fatigue": 1,
        "faces": "1 2 3 4 5",
        "fatigue_faces": "4",
    }
    url = reverse("encounters:aethoria_test", args=[encounter.pk])
    response = client.post(url, data, **HTMX)
    assert "field-error" not in response.text, response.text
    panel = response.text[response.text.index('id="aethoria-test-panel"') :]
    assert panel.startswith('id="aethoria-test-panel" open>')
    assert f'<option value="{second.pk}" selected>' in panel
    assert 'value="Grimper"' in panel and 'name="difficulty" value="2"' in panel
    assert 'name="modifier" value="-1"' in panel
    assert '<option value="0" selected>' in panel  # no fatigue dice: they were the roller's
    assert 'name="faces" ' in panel and 'value="1 2 3 4 5"' not in panel
    version = Encounter.objects.get(pk=encounter.pk).version
    assert f'name="version" value="{version}"' in panel
    assert "Chance de réussir" in panel  # the odds of the same test, for the next roll


def test_the_aethoria_test_panel_opens_with_an_empty_form_and_its_odds(client):
    from tests.systems.aethoria.test_aethoria_console import _fight

    encounter = _fight(client, 3, 5)
    url = reverse("encounters:aethoria_test_odds", args=[encounter.pk])
    response = client.get(url, **HTMX)
    assert 'id="aethoria-test"' in response.text and "Chance de réussir" in response.text
    version = Encounter.objects.get(pk=encounter.pk).version
    assert f'name="version" value="{version}"' in response.text


def test_an_ew_test_leaves_the_test_form_as_the_gm_set_it(client):
    """The next player often rolls the same test: the panel is not redrawn (closed, reset);
    the answer brings the log line, undo and the point d'éclat offer of a failed PC roll."""
    encounter, gm, _player = fight(combatants=3, log_lines=5)
    client.force_login(gm)
    brandon = encounter.combatants.get(character__name="Brandon")
    data = {"combatant": brandon.pk, "na_source": "per", "nd": 10, "modifier": 0, "face": 20}
    with CaptureQueriesContext(connection) as queries:
        response = post(client, "ew_test", encounter, data)
    # The answer builds no attack form it would not show (its fighters' gear: 2 queries).
    assert len(queries) == 16, len(queries)
    assert response["HX-Reswap"] == "none"
    assert 'id="console-actions"' not in response.text
    assert "kind-ew_test" in response.text and 'id="undo-redo"' in response.text
    event = encounter.events.get(kind="ew_test")
    assert not event.data["result"]["success"]
    assert f'name="event" value="{event.pk}"' in response.text  # Brandon may save it
