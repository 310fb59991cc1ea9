"""Each system says how the GM's settings page shows its house rules: their labels, the
choices, how a list is written as text (``GameSystem.house_rule_*``); the campaigns form
only asks."""

import dataclasses

import pytest
from django import forms
from django.core.exceptions import ImproperlyConfigured

from apps.campaigns.forms import HouseRulesForm
from apps.systems import all_systems
from apps.systems.base import GameSystem
from apps.systems.ew.system import EwSystem
from apps.systems.house_rules import PAIRS, STRINGS

SYSTEMS = {system.code: system for system in all_systems()}


@pytest.mark.parametrize("system", SYSTEMS.values(), ids=list(SYSTEMS))
def test_every_house_rule_but_a_grid_is_labelled_and_has_a_way_to_be_typed(system):
    house = system.house_rules_class()
    names = [field.name for field in dataclasses.fields(house)]
    labels = system.house_rule_labels()
    # A grid has its own editor; every other rule is on the settings page.
    elsewhere = {"resolution_grid"} if system.has_resolution_grid else set()
    assert set(labels) == set(names) - elsewhere
    for name in labels:
        value = getattr(house, name)
        if not isinstance(value, bool | int):
            assert name in system.house_rule_choices() or name in system.house_rule_kinds(), name


def test_a_system_without_house_rule_labels_cannot_be_made():
    no_labels = type("NoLabels", (EwSystem,), {"house_rule_labels": GameSystem.house_rule_labels})
    with pytest.raises(TypeError, match="house_rule_labels"):
        no_labels()


def test_the_labels_are_those_the_settings_page_always_showed():
    ew, aethoria = SYSTEMS["ew"], SYSTEMS["aethoria"]
    assert str(ew.house_rule_labels()["rounding"]) == "Arrondi des divisions"
    assert str(aethoria.house_rule_labels()["difficulty_ladder"]) == (
        "Échelle de difficulté (une ligne « libellé = valeur »)"
    )
    assert [value for value, _words in ew.house_rule_choices()["rounding"]] == [
        "down",
        "nearest",
        "up",
    ]


def test_pairs_and_strings_read_back_words_or_keys():
    words = {"short": "courte"}
    assert PAIRS.from_text("Courte = 0\nlong = -2\n", words) == [["short", 0], ["long", -2]]
    assert PAIRS.form_field("Portée", (("short", 0),), words).initial == "courte = 0"
    with pytest.raises(forms.ValidationError):
        PAIRS.from_text("courte", words)
    assert STRINGS.from_text("courte, , long", words) == ["short", "long"]
    assert STRINGS.form_field("Zones", ("short", "long"), words).initial == "courte, long"


@pytest.mark.django_db
def test_a_list_rule_its_system_says_not_how_to_type_stops_the_page(aethoria_campaign, monkeypatch):
    system = SYSTEMS["aethoria"]
    monkeypatch.setattr(type(system), "house_rule_kinds", lambda self: {})
    with pytest.raises(ImproperlyConfigured, match="difficulty_ladder"):
        HouseRulesForm(campaign=aethoria_campaign)
