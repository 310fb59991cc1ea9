"""Aethoria rules as written: characteristics, rolls, actions, defaults of the house rules."""

from __future__ import annotations

# --- Rules as written -------------------------------------------------------------------------

CHARACTERISTICS = (
    "force",
    "adresse",
    "vitalite",
    "concentration",
    "intelligence",
    "esprit",
    "pouvoir",
)
CHARACTERISTIC_LABELS = {
    "force": "Force",
    "adresse": "Adresse",
    "vitalite": "Vitalité",
    "concentration": "Concentration",
    "intelligence": "Intelligence",
    "esprit": "Esprit",
    "pouvoir": "Pouvoir",
}
CHARACTERISTIC_MIN = 1
CHARACTERISTIC_MAX = 9
EXCEPTIONAL_CHARACTERISTIC_MAX = 12  # only when the GM flags the value as exceptional

SKILL_RANK_MIN = 0
SKILL_RANK_MAX = 9
RANK_ZERO_DICE = 1  # a rank-0 roll the GM allows is made with one die

CHARACTERISTIC_TEST_THRESHOLD = 6
DODGE_THRESHOLD = 6

PHYSICAL = "physical"
MENTAL = "mental"
FATIGUE_KINDS = (PHYSICAL, MENTAL)
# Which fatigue pool pays the extra dice of a roll, by the characteristic the roll uses.
FATIGUE_KIND_OF = {
    "force": PHYSICAL,
    "adresse": PHYSICAL,
    "vitalite": PHYSICAL,
    "concentration": MENTAL,
    "intelligence": MENTAL,
    "esprit": MENTAL,
    "pouvoir": MENTAL,  # a spell's fatigue dice are mental
}
FATIGUE_DICE_MIN = 1
FATIGUE_DICE_MAX = 3
BEFORE = "before"
AFTER = "after"
FATIGUE_TIMINGS = (BEFORE, AFTER)

# Roll kinds (recorded on each roll for the log).
SKILL = "skill"
CHARACTERISTIC = "characteristic"
ATTACK = "attack"
DAMAGE = "damage"
DODGE = "dodge"
PARRY = "parry"
SPELL = "spell"
ROLL_KINDS = (SKILL, CHARACTERISTIC, ATTACK, DAMAGE, DODGE, PARRY, SPELL)

EXTRA_SUCCESSES_PER_DIE = 2  # beyond the first net success, 2 successes buy 1 damage die

BASE_DEFENCES = 1
DEFENCE_ACTION_EXTRA = 1
DOUBLE_ATTACK_MALUS = -3
DOUBLE_ATTACK_SECOND_FORCE_MALUS = -2
DOUBLE_DEFENCE_SPLIT = 3  # dice to split between two defence rolls against an attaque double
CIBLER_MALUS = -4
CIBLER_LOCATION_DICE = 2
VISER_BONUS = 3

# Actions a character may take on its turn.
MOVE = "move"
ATTACK_ACTION = "attack"
RANGED_ATTACK = "ranged_attack"
DOUBLE_ATTACK = "attaque_double"
CIBLER = "cibler"
CAST = "cast"
DEFENSE = "defense"
PREPARER = "preparer"
VISER = "viser"
OTHER = "other"
ACTIONS = (
    MOVE,
    ATTACK_ACTION,
    RANGED_ATTACK,
    DOUBLE_ATTACK,
    CIBLER,
    CAST,
    DEFENSE,
    PREPARER,
    VISER,
    OTHER,
)
ATTACK_ACTIONS = (ATTACK_ACTION, RANGED_ATTACK, DOUBLE_ATTACK, CIBLER)
ACTION_DICE = {DOUBLE_ATTACK: DOUBLE_ATTACK_MALUS, CIBLER: CIBLER_MALUS}

NO_MAGIC = "none"
DOUE = "doue"
MARQUE = "marque"
MAGIC_TYPES = (NO_MAGIC, DOUE, MARQUE)

NO_EFFECT = "none"
BLEEDING = "bleeding"
FRACTURE = "fracture"
INSTANT_DEATH = "instant_death"

STANDING = "standing"
OUT = "out"
DEAD = "dead"

# The table's usual conditions and what each adds to the bearer's rolls, in dice (house rule,
# default: the rules count maluses in dice but give these none).
DEFAULT_CONDITION_VALUES: tuple[tuple[str, int], ...] = (
    ("étourdi", -1),
    ("à terre", -1),
    ("aveuglé", -3),
    ("entravé", -2),
    ("effrayé", -1),
    ("à couvert", -2),
)

DEFAULT_DIFFICULTY_LADDER: tuple[tuple[str, int], ...] = (
    ("facile", 1),
    ("moyenne", 2),
    ("difficile", 3),
    ("très difficile", 4),
    ("extrême", 5),
)
DEFAULT_RANGE_BAND_MALUS: tuple[tuple[str, int], ...] = (
    ("short", 0),
    ("medium", -1),
    ("long", -2),
    ("extreme", -4),
)
DEFAULT_HIT_LOCATIONS: tuple[tuple[int, int, str], ...] = (
    (1, 2, "head"),
    (3, 10, "torso"),
    (11, 13, "right_arm"),
    (14, 16, "left_arm"),
    (17, 18, "right_leg"),
    (19, 20, "left_leg"),
)
