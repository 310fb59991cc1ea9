"""The registry finds each campaign's system; a system missing a hook cannot load."""

import pytest

from apps.rules import aethoria, ew
from apps.systems import SYSTEMS, all_systems, get_system, system_of, system_of_rules
from apps.systems.base import GameSystem, required_attributes
from apps.systems.ew.system import EwSystem


class _Campaign:
    def __init__(self, system):
        self.system = system


def test_every_registered_system_loads_under_its_code():
    assert [system.code for system in all_systems()] == list(SYSTEMS)
    assert system_of(_Campaign("ew")) is get_system("ew")
    assert system_of(_Campaign("aethoria")).label == "Aethoria"


def test_the_house_rules_name_their_system():
    assert system_of_rules(ew.EwHouseRules()) is get_system("ew")
    assert system_of_rules(aethoria.AethoriaHouseRules()) is get_system("aethoria")
    with pytest.raises(LookupError):
        system_of_rules(object())


def test_an_unknown_system_is_refused():
    with pytest.raises(KeyError):
        get_system("gurps")


def test_a_system_missing_a_hook_cannot_be_made():
    class Incomplete(GameSystem):
        code = "incomplete"

    with pytest.raises(TypeError, match="abstract"):
        Incomplete()


def test_a_system_filling_every_hook_can():
    assert isinstance(EwSystem(), GameSystem)


@pytest.mark.parametrize(
    ("flag", "value", "hook"),
    [
        ("has_resolution_grid", True, "resolution_grid_form"),
        ("has_resolution_grid", True, "resolution_grid_template"),
        ("demo_campaign_name", "Démo", "demo_campaign"),
    ],
)
def test_a_feature_named_without_its_hook_cannot_load(flag, value, hook):
    with pytest.raises(TypeError, match=hook):
        type("HalfDone", (EwSystem,), {flag: value, hook: getattr(GameSystem, hook)})


@pytest.mark.parametrize("attribute", ["code", "sheet_template", "live_pool_fields"])
def test_a_system_without_an_attribute_the_contract_declares_cannot_be_made(attribute):
    """Every hook filled but one attribute without a default left out: the start-up (which
    makes every registered system) fails, naming it, instead of a request later."""
    inherited = {name: getattr(EwSystem, name) for name in required_attributes()}
    del inherited[attribute]
    bare = type("Bare", (GameSystem,), {**vars_of_hooks(EwSystem), **inherited})
    with pytest.raises(TypeError, match=attribute):
        bare()


def vars_of_hooks(system_class) -> dict:
    """The hooks a system class fills (its methods), without its attributes."""
    return {
        name: value
        for klass in reversed(system_class.__mro__[:-2])  # GameSystem, ABC and object left out
        for name, value in vars(klass).items()
        if callable(value) and not name.startswith("__")
    }


def test_the_contract_declares_the_attributes_a_system_must_set():
    assert {"code", "label", "sheet_name", "initiative_sides", "creation_template"} <= set(
        required_attributes()
    )
