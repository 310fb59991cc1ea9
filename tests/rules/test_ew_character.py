"""EW-System: derived values, resolution table, house rules, creation validation."""

import json

import pytest

from apps.rules import errors, ew
from apps.rules.ew import (
    AptitudeChoice,
    EwCreation,
    EwHouseRules,
    FieldFactors,
    PowerChoice,
    ResolutionTable,
    SpecialtyChoice,
    TraitChoice,
)

# --- derived values ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "d", "rounding", "expected"),
    [
        (7, 2, "down", 3),
        (7, 2, "nearest", 4),
        (7, 2, "up", 4),
        (6, 4, "down", 1),
        (6, 4, "nearest", 2),  # 1.5: half goes up
        (5, 4, "nearest", 1),  # 1.25
        (7, 4, "nearest", 2),  # 1.75
        (5, 4, "up", 2),
        (8, 4, "up", 2),
        (8, 4, "nearest", 2),
    ],
)
def test_divide_with_each_rounding(n, d, rounding, expected):
    assert ew.divide(n, d, rounding) == expected


@pytest.mark.parametrize(
    ("chars", "rounding", "expected"),
    [
        # phy men per pre -> con com hab soc pv nat
        ((6, 6, 6, 10), "down", (8, 6, 6, 8, 18, 1)),
        ((7, 8, 5, 8), "down", (8, 6, 7, 6, 21, 1)),
        ((7, 8, 5, 8), "nearest", (8, 6, 8, 7, 21, 2)),
        ((7, 8, 5, 8), "up", (8, 6, 8, 7, 21, 2)),
        ((3, 10, 10, 5), "down", (7, 6, 6, 7, 9, 0)),
        ((3, 10, 10, 5), "nearest", (8, 7, 7, 8, 9, 1)),
        ((10, 3, 10, 5), "up", (4, 10, 7, 8, 30, 3)),
        ((10, 3, 10, 5), "nearest", (4, 10, 7, 8, 30, 3)),  # 6.5 -> 7, 2.5 -> 3
        ((10, 3, 10, 5), "down", (4, 10, 6, 7, 30, 2)),
    ],
)
def test_derive(chars, rounding, expected):
    d = ew.derive(*chars, rounding=rounding)
    assert (d.con, d.com, d.hab, d.soc, d.pv, d.natural_defence) == expected
    assert d.initiative == d.com


def test_derive_defaults_to_rounding_down():
    assert ew.derive(7, 8, 5, 8) == ew.derive(7, 8, 5, 8, "down")


@pytest.mark.parametrize("chars", [(11, 6, 6, 5), (2, 9, 9, 8), (6, 6, 6, 6.5), (6, True, 6, 6)])
def test_derive_refuses_impossible_characteristics(chars):
    with pytest.raises(errors.InvalidCharacteristic):
        ew.derive(*chars)


def test_derive_refuses_unknown_rounding():
    with pytest.raises(errors.InvalidHouseRules):
        ew.derive(6, 6, 6, 10, rounding="sideways")


def test_hit_points_and_natural_defence():
    assert ew.hit_points(6) == 18
    assert ew.natural_defence(9) == 2
    assert ew.natural_defence(9, "up") == 3
    assert ew.specialty_label(0) == "néophyte"
    assert ew.specialty_label(6) == "expert mondial"


# --- resolution table ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("na", "nd", "score"),
    [
        (10, 10, 10),
        (0, 0, 10),
        (12, 10, 12),
        (10, 12, 8),
        (18, 0, 19),  # never better than 19: always a 5 % chance to fail
        (17, 9, 18),
        (0, 20, 1),  # never worse than 1: always a 5 % chance to succeed
        (5, 13, 2),
        (5, 14, 1),
        (-3, 0, 7),
        (25, 2, 19),
    ],
)
def test_default_table_score(na, nd, score):
    assert ew.default_table_score(na, nd) == score
    assert ResolutionTable.default().score(na, nd) == score


def test_default_table_covers_0_to_20_and_matches_formula():
    table = ResolutionTable.default()
    assert table.na_max == table.nd_max == 20
    assert table.is_default()
    assert all(1 <= cell <= 19 for row in table.grid for cell in row)


def checker_grid():
    # Every cell different from its neighbours, so edge handling is visible.
    return [[1 + (na * 3 + nd * 7) % 20 for nd in range(21)] for na in range(21)]


@pytest.mark.parametrize(
    ("na", "nd", "cell"),
    [
        (5, 7, (5, 7)),  # inside the grid: the cell itself
        (25, 2, (20, 0)),  # slides down the diagonal by 5, then ND clamps to 0
        (23, 15, (20, 12)),  # slides by 3: NA - ND kept
        (-3, 5, (0, 8)),  # a heavily penalised NA slides up, keeping NA - ND
        (4, -2, (6, 0)),
        (-30, -50, (20, 0)),
        (-5, 30, (0, 20)),
        (40, 40, (20, 20)),
    ],
)
def test_gm_grid_edges_slide_along_the_diagonal(na, nd, cell):
    grid = checker_grid()
    table = ResolutionTable.from_grid(grid)
    assert table.score(na, nd) == grid[cell[0]][cell[1]]


def test_gm_grid_may_be_larger_and_use_20():
    grid = [[20] * 25 for _ in range(23)]
    table = ResolutionTable.from_grid(grid)
    assert (table.na_max, table.nd_max) == (22, 24)
    assert table.score(0, 24) == 20
    assert not table.is_default()


@pytest.mark.parametrize(
    "grid",
    [
        [[10] * 21] * 20,  # NA 0..19 only
        [[10] * 20] * 21,  # ND 0..19 only
        [[10] * 21] * 20 + [[10] * 22],  # ragged
        [[10] * 21] * 20 + [[10] * 20 + [0]],  # cell 0
        [[10] * 21] * 20 + [[10] * 20 + [21]],  # cell 21
        [[10] * 21] * 20 + [[10] * 20 + ["5"]],
        [[10] * 21] * 20 + [[10] * 20 + [True]],
        "not a grid",
        [[10] * 21] * 20 + [5],
    ],
)
def test_gm_grid_is_refused_not_repaired(grid):
    with pytest.raises(errors.InvalidResolutionTable):
        ResolutionTable.from_grid(grid)


def test_gm_overwrites_a_cell():
    table = ResolutionTable.default().with_cell(10, 10, 12)
    assert table.score(10, 10) == 12
    assert table.score(10, 11) == 9
    with pytest.raises(errors.InvalidResolutionTable):
        table.with_cell(10, 10, 0)
    with pytest.raises(errors.InvalidResolutionTable):
        table.with_cell(21, 0, 10)
    assert table.to_rows()[10][10] == 12


# --- house rules ---------------------------------------------------------------------------


def test_house_rule_defaults():
    house = EwHouseRules()
    assert house.rounding == "down"
    assert house.generation_points == 36
    assert house.extra_action_malus == -4
    assert house.total_defence_bonus == house.total_attack_bonus == 2
    assert house.initiative_ties_by_com is True
    assert dict(house.difficulty_ladder) == {
        "très facile": 4,
        "facile": 6,
        "moyenne": 8,
        "difficile": 10,
        "très difficile": 12,
        "extrême": 14,
        "héroïque": 16,
    }
    assert (house.xp_characteristic_factor, house.xp_specialty_factor) == (1, 1)
    assert (house.xp_power_factor, house.xp_eclat_cost) == (2, 1)
    assert house.resolution_grid is None
    assert house.table.is_default()


def test_house_rules_round_trip_through_json():
    grid = ResolutionTable.default().with_cell(3, 4, 20).grid
    house = EwHouseRules(rounding="nearest", generation_points=40, resolution_grid=grid)
    data = json.loads(json.dumps(house.to_dict()))
    again = EwHouseRules.from_dict(data)
    assert again == house
    assert again.table.score(3, 4) == 20


def test_from_dict_ignores_unknown_keys_and_defaults_missing_ones():
    house = EwHouseRules.from_dict({"generation_points": 30, "colour": "blue"})
    assert house.generation_points == 30
    assert house.rounding == "down"
    assert EwHouseRules.from_dict({}) == EwHouseRules()


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"rounding": "banker"}, "rounding"),
        ({"generation_points": -1}, "generation_points"),
        ({"generation_points": "36"}, "generation_points"),
        ({"extra_action_malus": 4}, "extra_action_malus"),
        ({"total_attack_bonus": -2}, "total_attack_bonus"),
        ({"initiative_ties_by_com": "yes"}, "initiative_ties_by_com"),
        ({"specialty_cost_mode": "free"}, "specialty_cost_mode"),
        ({"difficulty_ladder": [["facile", -1]]}, "difficulty_ladder"),
        ({"difficulty_ladder": [["", 4]]}, "difficulty_ladder"),
        ({"difficulty_ladder": [[4]]}, "difficulty_ladder"),
        ({"difficulty_ladder": []}, "difficulty_ladder"),
        ({"xp_power_factor": 2.5}, "xp_power_factor"),
        ({"resolution_grid": [[10] * 21] * 5}, "resolution_grid"),
    ],
)
def test_from_dict_refuses_bad_values(data, field):
    with pytest.raises(errors.InvalidHouseRules) as caught:
        EwHouseRules.from_dict(data)
    assert caught.value.field == field
    assert caught.value.message


def test_from_dict_refuses_a_non_mapping():
    with pytest.raises(errors.InvalidHouseRules):
        EwHouseRules.from_dict([("rounding", "up")])


# --- creation ------------------------------------------------------------------------------

FACTORS = FieldFactors(con=1, com=2, hab=3, soc=1)


def creation(**changes):
    base = {
        "phy": 7,
        "men": 7,
        "per": 7,
        "pre": 7,
        "factors": FACTORS,
        "specialties": (SpecialtyChoice("épée", "com", 3),),  # 3 x 2 = 6
        "traits": (TraitChoice("rapidité", 5), TraitChoice("phobie", -3)),
        "powers": (PowerChoice("télépathie", 2, 3),),  # 6
        "aptitudes": (AptitudeChoice("pistage", 4),),
    }
    base.update(changes)
    return EwCreation(**base)


def fields_of(problems):
    return [p.field for p in problems]


def test_valid_creation_has_no_problem():
    assert ew.validate_creation(creation()) == []
    ew.ensure_valid_creation(creation())


def test_generation_budget_counts_everything():
    budget = ew.generation_budget(creation())
    assert (budget.base, budget.refunded, budget.total) == (36, 3, 39)
    assert (budget.traits, budget.powers, budget.specialties, budget.aptitudes) == (5, 6, 6, 4)
    assert (budget.spent, budget.left) == (21, 18)


@pytest.mark.parametrize(
    ("changes", "field", "code"),
    [
        ({"phy": 11, "men": 3}, "phy", "out_of_range"),
        ({"phy": 2, "men": 12}, "phy", "out_of_range"),
        ({"pre": 7.5}, "pre", "not_an_integer"),
        ({"phy": 8}, "characteristics", "wrong_total"),
        ({"phy": 6}, "characteristics", "wrong_total"),
        (
            {"specialties": (SpecialtyChoice("épée", "com", 7),)},
            "specialties.0.level",
            "out_of_range",
        ),
        (
            {"specialties": (SpecialtyChoice("épée", "com", -1),)},
            "specialties.0.level",
            "out_of_range",
        ),
        (
            {"specialties": (SpecialtyChoice("épée", "xyz", 1),)},
            "specialties.0.field",
            "unknown_field",
        ),
        (
            {"specialties": (SpecialtyChoice("épée", "com", 1), SpecialtyChoice("épée", "com", 2))},
            "specialties.1.name",
            "duplicate",
        ),
        ({"traits": (TraitChoice("x", "5"),)}, "traits.0.cost", "not_an_integer"),
        ({"powers": (PowerChoice("psi", 0, 2),)}, "powers.0.level", "out_of_range"),
        ({"powers": (PowerChoice("psi", 1, -2),)}, "powers.0.cost_per_level", "invalid_cost"),
        ({"aptitudes": (AptitudeChoice("pistage", -4),)}, "aptitudes.0.cost", "invalid_cost"),
        ({"factors": FieldFactors(com=-1)}, "factors.com", "invalid_factor"),
        ({"aptitudes": (AptitudeChoice("pistage", 23),)}, "generation_points", "over_budget"),
    ],
)
def test_each_broken_rule_is_named(changes, field, code):
    problems = ew.validate_creation(creation(**changes))
    assert (field, code) in [(p.field, p.code) for p in problems]
    assert all(p.message for p in problems)


def test_spending_exactly_the_budget_is_valid_one_more_is_not():
    assert ew.validate_creation(creation(aptitudes=(AptitudeChoice("pistage", 22),))) == []
    problems = ew.validate_creation(creation(aptitudes=(AptitudeChoice("pistage", 23),)))
    assert fields_of(problems) == ["generation_points"]


def test_restrictions_give_points_back():
    rich = creation(traits=(TraitChoice("phobie", -5),), aptitudes=(AptitudeChoice("a", 28),))
    assert ew.generation_budget(rich).left == 36 + 5 - (6 + 6 + 28)
    assert ew.validate_creation(rich) == []
    poor = creation(traits=(), aptitudes=(AptitudeChoice("a", 28),))
    assert fields_of(ew.validate_creation(poor)) == ["generation_points"]


def test_every_broken_rule_is_reported_at_once():
    bad = creation(
        phy=11,
        men=10,
        specialties=(SpecialtyChoice("épée", "com", 9), SpecialtyChoice("tir", "abc", 2)),
        aptitudes=(AptitudeChoice("pistage", 80),),
    )
    problems = ew.validate_creation(bad)
    assert set(fields_of(problems)) >= {
        "phy",
        "characteristics",
        "specialties.0.level",
        "specialties.1.field",
        "generation_points",
    }
    with pytest.raises(errors.InvalidCreation) as caught:
        ew.ensure_valid_creation(bad)
    assert caught.value.problems == tuple(problems)


def test_house_rule_generation_points_and_progressive_specialties():
    house = EwHouseRules(generation_points=20, specialty_cost_mode="progressive")
    assert ew.specialty_creation_cost(3, 2, house) == 2 * (1 + 2 + 3)
    assert ew.specialty_creation_cost(3, 2) == 6
    budget = ew.generation_budget(creation(), house)
    assert (budget.total, budget.specialties) == (23, 12)
    assert fields_of(ew.validate_creation(creation(), house)) == ["generation_points"]


def test_characteristic_points_left():
    assert ew.characteristic_points_left(7, 7, 7, 7) == 0
    assert ew.characteristic_points_left(3, 3, 3, 3) == 16
    assert ew.characteristic_points_left(10, 10, 10, 10) == -12
