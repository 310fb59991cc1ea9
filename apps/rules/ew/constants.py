"""EW-System rules as written: characteristics, fields, specialties, scores, rounding."""

from __future__ import annotations

from apps.rules.checks import (
    require_choice,
)
from apps.rules.errors import (
    InvalidHouseRules,
    fr,
)

# --- Rules as written -------------------------------------------------------------------------

CHARACTERISTICS = ("phy", "men", "per", "pre")
CHARACTERISTIC_LABELS = {"phy": "PHY", "men": "MEN", "per": "PER", "pre": "PRÉ"}
CHARACTERISTIC_MIN = 3
CHARACTERISTIC_MAX = 10
CREATION_CHARACTERISTIC_POINTS = 28

FIELDS = ("con", "com", "hab", "soc")
# Each field is the average of two characteristics.
FIELD_SOURCES = {
    "con": ("men", "pre"),
    "com": ("phy", "per"),
    "hab": ("phy", "men"),
    "soc": ("pre", "per"),
}

SPECIALTY_MIN = 0
SPECIALTY_MAX = 6
SPECIALTY_LABELS = (
    "néophyte",
    "entraîné",
    "professionnel",
    "éminent",
    "expert",
    "sommité",
    "expert mondial",
)

ECLAT_AT_CREATION = 3
PV_PER_PHY = 3
NATURAL_DEFENCE_DIVISOR = 4
FISTS_IMPACT_DIVISOR = 4
HALF_PV_MALUS = -2
QUARTER_PV_MALUS = -4

ROUNDINGS = ("down", "nearest", "up")

# The default grid: equal levels give 50 %, each point of difference 5 %, and there is always a
# 5 % chance either way (scores 1..19 on a d20).
DEFAULT_SCORE_BASE = 10
DEFAULT_SCORE_MIN = 1
DEFAULT_SCORE_MAX = 19
# A GM-supplied grid may use the whole d20 (a score of 20 = automatic success).
SCORE_MIN = 1
SCORE_MAX = 20
TABLE_MIN_SIZE = 21  # NA and ND from 0 to 20 at least

NORMAL = "normal"
TOTAL_ATTACK = "total_attack"
TOTAL_DEFENCE = "total_defence"
STANCES = (NORMAL, TOTAL_ATTACK, TOTAL_DEFENCE)

FISTS = "fists"
MELEE = "melee"
RANGED = "ranged"
WEAPON_KINDS = (FISTS, MELEE, RANGED)

ECLAT_RESCUE = "rescue"
ECLAT_COUP_DE_POUCE = "coup_de_pouce"

PER_LEVEL = "per_level"
PROGRESSIVE = "progressive"
SPECIALTY_COST_MODES = (PER_LEVEL, PROGRESSIVE)

# The table's usual conditions and what each adds to the bearer's NA (house rule, default:
# the rules count any situational modifier on NA but give these none).
DEFAULT_CONDITION_VALUES: tuple[tuple[str, int], ...] = (
    ("étourdi", -2),
    ("à terre", -2),
    ("aveuglé", -4),
    ("entravé", -2),
    ("effrayé", -2),
    ("à couvert", -2),
)

DEFAULT_DIFFICULTY_LADDER: tuple[tuple[str, int], ...] = (
    ("très facile", 4),
    ("facile", 6),
    ("moyenne", 8),
    ("difficile", 10),
    ("très difficile", 12),
    ("extrême", 14),
    ("héroïque", 16),
)


def divide(numerator: int, denominator: int, rounding: str = "down") -> int:
    """Divide with the campaign's rounding: down, nearest (half up) or up."""
    require_choice(
        rounding, ROUNDINGS, field="rounding", label=fr("L'arrondi"), error=InvalidHouseRules
    )
    if rounding == "down":
        return numerator // denominator
    if rounding == "up":
        return -(-numerator // denominator)
    # floor(n/d + 1/2) computed in integers: exact, and halves go up.
    return (2 * numerator + denominator) // (2 * denominator)
