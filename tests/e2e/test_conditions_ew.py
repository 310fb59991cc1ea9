"""Conditions in an EW fight, in Chromium (the flow: ``conditions_flow.py``)."""

import pytest

from tests.e2e.conditions_flow import play_a_condition
from tests.encounters.factories import ew_fighter


@pytest.mark.django_db(transaction=True)
def test_an_ew_condition_weighs_expires_undoes_and_reaches_the_phone(open_page):
    play_a_condition(open_page, "ew", ew_fighter, (10, 5, 1), "#ew-attack-odds")
