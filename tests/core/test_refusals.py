"""An English user reads the rules engine's refusals, and the Aethoria log, in English.

The engine (pure Python) builds its refusals in French; `apps.core.refusals.rules_message`
translates them with the template and params each one keeps. French stays untouched.
"""

import ast

import pytest
from django.urls import reverse
from django.utils import translation

from apps.campaigns.models import Campaign
from apps.characters.models import AethoriaSheet
from apps.core.refusals import rules_message
from apps.encounters.models import Combatant
from apps.rules import ew
from apps.rules.errors import InvalidImprovement, InvalidValue, RulesError, fr
from tests.characters.factories import CharacterFactory, XpEntryFactory
from tests.core.test_translations import catalog
from tests.rules.test_refusal_texts import PROBLEMS, REFUSALS, RULES
from tests.submissions import once
from tests.systems.aethoria.support import (
    aethoria_table,  # noqa: F401 - the `table` fixture
    arm_blow,
    attack,
    errors,
    start,
)

HTMX = {"HTTP_HX_REQUEST": "true"}


# --- The translation itself ----------------------------------------------------------------


def _engine_texts() -> set[str]:
    """Every text of apps/rules marked with fr()."""
    texts = set()
    for path in RULES.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "fr":
                texts.add(node.args[0].value)
    return texts


def test_every_text_of_the_engine_is_in_the_english_catalog():
    texts = _engine_texts()
    assert len(texts) > 150
    assert sorted(texts - {entry.msgid for entry in catalog()}) == []


def _raised(call) -> RulesError:
    with pytest.raises(RulesError) as caught:
        call()
    return caught.value


@pytest.mark.parametrize(("call", "kind", "message"), REFUSALS)
def test_every_refusal_reads_in_english_and_unchanged_in_french(call, kind, message):
    error = _raised(call)
    with translation.override("fr"):
        assert rules_message(error) == message
    with translation.override("en"):
        english = rules_message(error)
    assert english != message and "%(" not in english


@pytest.mark.parametrize(
    ("call", "english"),
    [
        # A French label given as a param is translated too.
        (lambda: ew.EwHouseRules(extra_action_malus=5), "The malus per extra action must be "),
        (lambda: ew.check_xp_affordable(3, 10), "It takes 10 XP, the character only has 3."),
    ],
)
def test_labels_and_numbers_land_in_the_english_sentence(call, english):
    with translation.override("en"):
        assert rules_message(_raised(call)).startswith(english)


@pytest.mark.parametrize(
    ("index", "sample"),
    [
        (0, "The specialty “Épée” appears twice."),
        (1, "506 generation points spent for a budget of 36 (470 too many)."),
    ],
)
def test_creation_problems_read_in_english(index, sample):
    creation, french = PROBLEMS[index]
    with translation.override("en"):
        english = [rules_message(p) for p in ew.validate_creation(creation)]
    assert sample in english
    assert len(english) == len(french) and not set(english) & set(french)


def test_a_refusal_the_app_wrote_itself_is_shown_as_written():
    # App code raises RulesError subclasses with its own, already translated, messages.
    with translation.override("en"):
        assert rules_message(InvalidImprovement("Already undone.")) == "Already undone."


def test_a_translation_that_does_not_fit_its_params_falls_back_to_french(monkeypatch):
    monkeypatch.setattr("apps.core.refusals.gettext", lambda text: "%(missing)s")
    error = InvalidValue(fr("Il faut %(cost)s XP."), params={"cost": 3})
    assert rules_message(error) == "Il faut 3 XP."


# --- Pages an English user sees ------------------------------------------------------------


@pytest.fixture
def ew_table(client, english_table):
    """An EW fight under way (Brandon acts first), its GM reading English."""
    return {"client": client, **english_table}


def _ew_post(table, name, data):
    encounter = table["encounter"]
    encounter.refresh_from_db()
    return table["client"].post(
        reverse(f"encounters:{name}", args=[encounter.pk]),
        {"version": encounter.version, **data},
        **HTMX,
    )


def _ew_attack(table, to_hit, damage=5):
    b, y = table["b"], table["y"]
    data = {"attacker": b.pk, "target": y.pk, "defence": "none", "modifier": 0}
    return _ew_post(table, "ew_attack", {**data, "to_hit_face": to_hit, "damage_face": damage})


def test_an_english_user_typing_a_d20_face_of_21_reads_english_next_to_the_field(ew_table):
    response = _ew_attack(ew_table, 21)
    assert response.status_code == 200
    assert "A d20 gives 1 to 20." in response.text
    assert "Un d20" not in response.text
    assert ew_table["encounter"].events.filter(kind="ew_attack").count() == 0


def test_an_english_user_reads_an_engine_refusal_of_the_ew_attack_in_english(ew_table):
    b = ew_table["b"]
    response = _ew_post(ew_table, "ew_stance", {"combatant": b.pk, "stance": "total_defence"})
    assert response.status_code == 200
    response = _ew_attack(ew_table, 5)
    assert "In total defence, the character cannot attack this round." in response.text
    assert "En défense totale" not in response.text
    assert ew_table["encounter"].events.filter(kind="ew_attack").count() == 0


@pytest.fixture
def english_aethoria(db, table):
    table["gm"].set_language("en")
    return table


def _french_left(response) -> list[str]:
    text = response.text.replace("&#x27;", "'")
    return [
        m for m in ("Plus assez", "lui-même", "insuffisante", "il faut exactement") if m in text
    ]


@pytest.mark.parametrize(
    ("setup", "fields", "english"),
    [
        (
            "no_defence_left",
            {"defence": "dodge"},
            "Not enough defences left: 1 asked, 0 available.",
        ),
        ("tired", {"fatigue": 2}, "Not enough physical fatigue: 2 asked, 1 left."),
        ("", {"mode": "double"}, "An attaque double needs a second weapon."),
        ("", {"attack_faces": "1 2"}, "Attack: exactly 4 d10 are needed (got 2)."),
        # A weapon that is not its own is refused by the form itself.
        ("", {"weapon": 999999}, "Select a valid choice."),
    ],
)
def test_an_english_user_reads_aethoria_refusals_in_english(
    english_aethoria, setup, fields, english
):
    table = english_aethoria
    if setup == "tired":
        AethoriaSheet.objects.filter(pk=table["ysolde"].pk).update(fatigue_physical=1)
    y, b = start(table)
    if setup == "no_defence_left":
        b.refresh_from_db()
        Combatant.objects.filter(pk=b.pk).update(state={**b.state, "defences": 0})
    response = attack(table, y, b, **fields)
    assert response.status_code == 200
    shown = [e.replace("&#x27;", "'").strip() for e in errors(response)]
    assert shown, response.text
    assert any(message.startswith(english) for message in shown), shown
    assert _french_left(response) == []
    assert table["encounter"].events.filter(kind="aethoria_attack").count() == 0


def test_an_english_log_line_of_an_aethoria_hit_names_the_location_in_english(english_aethoria):
    table = english_aethoria
    y, b = start(table)
    # As in test_aethoria_fight: net 2, d20 12 -> right arm, 5 damage -> bleeding proposed.
    response = arm_blow(table, y, b)
    assert response.status_code == 200
    console = table["client"].get(reverse("encounters:console", args=[table["encounter"].pk]))
    text = console.content.decode()
    assert "hit in the right arm" in text
    assert "(right arm)" in text  # the severe effect waiting for the GM's decision
    assert "bras droit" not in text


def test_the_same_log_line_stays_french_for_a_french_reader(db, table):
    y, b = start(table)
    arm_blow(table, y, b)
    console = table["client"].get(reverse("encounters:console", args=[table["encounter"].pk]))
    assert "touché au bras droit" in console.content.decode()


def test_an_english_gm_reads_a_refused_house_rule_in_english(client, campaign, gm):
    from tests.campaigns.test_campaigns import _house_rules_data

    gm.set_language("en")
    client.force_login(gm)
    url = reverse("campaigns:house_rules", args=[campaign.pk])
    data = _house_rules_data(campaign, extra_action_malus="5")
    response = client.post(url, data, **HTMX)
    assert response.status_code == 200
    assert response.context["form"].errors["extra_action_malus"] == [
        "The malus per extra action must be between -20 and 0 (got 5)."
    ]
    assert Campaign.objects.get(pk=campaign.pk).house().extra_action_malus != 5


def test_an_english_player_reads_an_xp_refusal_in_english(client, campaign, player):
    pc = CharacterFactory(campaign=campaign, owner=player, sheet__phy=8)
    player.set_language("en")
    XpEntryFactory(character=pc, amount=5)
    client.force_login(player)
    response = client.post(
        reverse("characters:xp_spend", args=[pc.pk]), once({"improvement": "characteristic:phy"})
    )
    assert response.status_code == 200
    assert response.context["form"].errors["improvement"] == [
        "It takes 9 XP, the character only has 5."
    ]
