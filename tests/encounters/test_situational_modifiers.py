"""One hook feeds the situation into the exact odds of every roll: a modifier a system's
``situational_modifiers`` declares changes the odds shown for an attack and a test, in both
systems (the third one's test is in tests/systems/test_third_system.py)."""

import re

import pytest
from django.urls import reverse

from apps.encounters.kit import Modifier, Roll
from apps.systems import get_system
from tests.encounters.factories import System, started_duel

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
PERCENT = re.compile(r"\d+(?:,\d)? %")


def _cover(self, combatant, roll, *, against=None):
    """Cover and a steady hand: +2 to the attacks and the tests of everyone."""
    return [Modifier("à couvert", 2)] if roll in (Roll.ATTACK, Roll.TEST) else []


def _test_query(duel) -> dict:
    encounter = duel.encounter
    pc = encounter.combatants.get(character=duel.pc)
    shared = {"version": encounter.version, "combatant": pc.pk, "modifier": 0}
    if encounter.campaign.system == System.EW:
        return {**shared, "na_source": "com", "nd": 10}
    return {**shared, "source": "adresse", "difficulty": 2}


def _odds(client, duel) -> tuple[list[str], list[str]]:
    """The percentages the console shows for the acting PC's attack, and those of a test."""
    encounter, code = duel.encounter, duel.encounter.campaign.system
    console = client.get(reverse("encounters:console", args=[encounter.pk])).content.decode()
    test = client.get(
        reverse(f"encounters:{code}_test_odds", args=[encounter.pk]), _test_query(duel), **HTMX
    ).content.decode()
    return PERCENT.findall(console), PERCENT.findall(test)


@pytest.mark.parametrize("system", [System.EW, System.AETHORIA])
def test_a_modifier_declared_through_the_hook_changes_the_odds_shown(client, system, monkeypatch):
    duel = started_duel(system=system, first="pc")
    client.force_login(duel.gm)
    attack_before, test_before = _odds(client, duel)
    assert attack_before and test_before
    monkeypatch.setattr(type(get_system(system)), "situational_modifiers", _cover)
    attack_after, test_after = _odds(client, duel)
    assert attack_after != attack_before
    assert test_after != test_before
