"""Admin lists of the compendium cost a fixed number of queries, however many rows they show."""

import pytest
from django.urls import reverse

from . import factories as f


def archetypes(count: int) -> None:
    for archetype in f.EwArchetypeFactory.create_batch(count):
        f.EwAptitudeFactory.create_batch(2, archetype=archetype)


def aptitudes(count: int) -> None:
    f.EwAptitudeFactory.create_batch(count)


def armour_pieces(count: int) -> None:
    for piece in f.AethoriaArmourPieceFactory.create_batch(count):
        f.AethoriaArmourCoverageFactory(piece=piece, location="torso")
        f.AethoriaArmourCoverageFactory(piece=piece, location="head")


def hit_locations(count: int) -> None:
    f.AethoriaHitLocationFactory.create_batch(count)


def batch(factory):
    return lambda count: factory.create_batch(count)


# (model name, how to create n rows, queries of the list page, row counts to compare).
# The fixed part: the user, the two counts of the list, the rows, and one query per list
# filter on a relation or per prefetch.
LISTS = [
    ("ewspecialty", batch(f.EwSpecialtyFactory), 4, (5, 15)),
    ("ewarchetype", archetypes, 4, (5, 15)),
    ("ewaptitude", aptitudes, 5, (5, 15)),
    ("ewtrait", batch(f.EwTraitFactory), 4, (5, 15)),
    ("ewpower", batch(f.EwPowerFactory), 4, (5, 15)),
    ("ewweapon", batch(f.EwWeaponFactory), 4, (5, 15)),
    ("ewarmour", batch(f.EwArmourFactory), 4, (5, 15)),
    ("ewresolutiontable", batch(f.EwResolutionTableFactory), 4, (5, 15)),
    ("aethoriaskill", batch(f.AethoriaSkillFactory), 4, (5, 15)),
    ("aethoriaweapon", batch(f.AethoriaWeaponFactory), 5, (5, 15)),
    ("aethoriashield", batch(f.AethoriaShieldFactory), 4, (5, 15)),
    ("aethoriaarmourpiece", armour_pieces, 5, (5, 15)),
    ("aethoriahitlocation", hit_locations, 4, (2, 6)),  # one row per location at most
    ("aethoriagod", batch(f.AethoriaGodFactory), 4, (5, 15)),
    ("aethoriamagicdomain", batch(f.AethoriaMagicDomainFactory), 4, (5, 15)),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "create", "queries", "sizes"), LISTS, ids=[x[0] for x in LISTS])
def test_an_admin_list_costs_the_same_queries_for_few_or_many_rows(
    staff_client, django_assert_num_queries, name, create, queries, sizes
):
    url = reverse(f"admin:compendium_{name}_changelist")
    shown = 0
    for size in sizes:
        create(size - shown)
        shown = size
        with django_assert_num_queries(queries):
            response = staff_client.get(url)
        assert response.context["cl"].result_count == size
