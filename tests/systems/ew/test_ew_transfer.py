"""What EW's sheet refers to in the compendium, found again by an import (transfer.py)."""

import pytest

from apps.compendium.models import EwAptitude
from apps.systems import get_system
from tests.compendium.factories import EwAptitudeFactory

pytestmark = pytest.mark.django_db


def test_ew_finds_aptitudes_by_archetype_and_name():
    vision = EwAptitudeFactory(name="Vision")
    namesake = EwAptitudeFactory(name="Vision")
    other = EwAptitudeFactory(archetype=namesake.archetype, name="Ouïe")
    find = get_system("ew").transfer_finders()[EwAptitude]
    keys = {(vision.archetype.name, "Vision"), (namesake.archetype.name, "Ouïe")}
    found = find(keys)
    assert found[(vision.archetype.name, "Vision")] == vision
    assert found[(namesake.archetype.name, "Ouïe")] == other
    assert (vision.archetype.name, "Ouïe") not in found


def test_aethoria_finds_every_row_by_its_name():
    assert get_system("aethoria").transfer_finders() == {}
