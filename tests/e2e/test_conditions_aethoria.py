"""Conditions in an Aethoria fight, in Chromium (the flow: ``conditions_flow.py``)."""

import pytest

from tests.e2e.conditions_flow import play_a_condition
from tests.encounters.factories import aethoria_fighter


@pytest.mark.django_db(transaction=True)
def test_an_aethoria_condition_weighs_expires_undoes_and_reaches_the_phone(open_page):
    play_a_condition(open_page, "aethoria", aethoria_fighter, (18, 9, 3), "#aethoria-attack-odds")
