"""Aethoria (d10 dice pool): rolls, fatigue, initiative, combat, special actions, magic, odds.

Implements `shared/spec/rules-aethoria.md` (the French source text wins any disagreement). Values
marked "(house rule, default)" there live in `AethoriaHouseRules`; everything else is the rule as
written and is a named constant here. Dice faces always come in as arguments.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from apps.rules import odds
from apps.rules.checks import (
    is_int,
    require_bool,
    require_choice,
    require_int,
    require_ints,
    require_labelled_values,
    require_text,
    tuples_from_json,
)
from apps.rules.dice import D10, D20, Dice, check_d20, check_dice_count, check_faces
from apps.rules.errors import (
    InvalidAction,
    InvalidCharacteristic,
    InvalidDamage,
    InvalidDefence,
    InvalidFatigueSpend,
    InvalidHouseRules,
    InvalidInitiative,
    InvalidLocation,
    InvalidSkillRank,
    InvalidSpell,
    InvalidValue,
    InvalidWeapon,
    RollNotAllowed,
    fr,
)
from apps.rules.initiative import order_by_initiative

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


# --- House rules ------------------------------------------------------------------------------


@dataclass(frozen=True)
class AethoriaHouseRules:
    """Every "(house rule, default)" value of the Aethoria rules page, as one campaign setting."""

    pv_multiplier: int = 2  # PV = 2 x (Force + Vitalité)
    physical_fatigue_multiplier: int = 1  # physical fatigue = Force + Vitalité
    mental_fatigue_multiplier: int = 1  # mental fatigue = Concentration + Esprit
    much_lower_gap: int = 3  # "much lower" when successes <= difficulty - 3
    difficulty_ladder: tuple[tuple[str, int], ...] = DEFAULT_DIFFICULTY_LADDER
    initiative_ties_by_adresse: bool = True
    initiative_reroll_each_round: bool = False
    parry_force_gap: int = 3  # no parry when attacker Force >= defender Force + 3
    encumbered_dodge_malus: int = -2
    range_band_malus: tuple[tuple[str, int], ...] = DEFAULT_RANGE_BAND_MALUS
    hit_locations: tuple[tuple[int, int, str], ...] = DEFAULT_HIT_LOCATIONS
    armour_layers_stack: bool = False  # several pieces on a location: best RD only
    convert_extra_successes: bool = True
    bleeding_factor: int = 1  # damage after RD >= 1 x Vitalité: bleeding
    fracture_factor: int = 2
    instant_death_factor: int = 3
    instant_death_locations: tuple[str, ...] = ("head", "torso")
    bleeding_pv_per_turn: int = 1
    death_threshold_factor: int = 1  # dead at PV <= -1 x Vitalité
    fatigue_cost_divisor: int = 3  # a spell costs ceil(invested / 3) of each fatigue pool
    unpaid_fatigue_to_pv: bool = True
    burn_pv_per_pouvoir: int = 1  # brûlure d'érys: PV loss = 1 x Pouvoir invested, no armour
    # "Les 1 obtenus comptent pour 2 réussites", without condition: even when the threshold
    # has fallen to 0 or below (second weapon of an attaque double with Force <= 2).
    ones_always_succeed: bool = True
    # A parry is a "jet de parade": the Parade skill. Option: the better of Parade and the
    # parrying weapon's own skill.
    parry_best_of_weapon_skill: bool = False

    def __post_init__(self) -> None:
        bad = InvalidHouseRules
        small_ints = (
            ("pv_multiplier", fr("Le multiplicateur de PV"), 1, 10),
            ("physical_fatigue_multiplier", fr("Le multiplicateur de fatigue physique"), 1, 10),
            ("mental_fatigue_multiplier", fr("Le multiplicateur de fatigue mentale"), 1, 10),
            ("much_lower_gap", fr("L'écart « très inférieur »"), 1, 20),
            ("parry_force_gap", fr("L'écart de Force empêchant la parade"), 1, 20),
            ("encumbered_dodge_malus", fr("Le malus d'esquive encombrée"), -10, 0),
            ("bleeding_factor", fr("Le seuil de saignement"), 1, 10),
            ("fracture_factor", fr("Le seuil de fracture"), 1, 10),
            ("instant_death_factor", fr("Le seuil de mort instantanée"), 1, 10),
            ("bleeding_pv_per_turn", fr("Les PV perdus par saignement"), 0, 10),
            ("death_threshold_factor", fr("Le seuil de mort"), 0, 10),
            ("fatigue_cost_divisor", fr("Le diviseur du coût en fatigue"), 1, 20),
            ("burn_pv_per_pouvoir", fr("Les PV perdus par point de Pouvoir brûlé"), 0, 10),
        )
        for name, label, low, high in small_ints:
            require_int(getattr(self, name), field=name, label=label, low=low, high=high, error=bad)
        for name, label in (
            ("initiative_ties_by_adresse", fr("Le départage par l'Adresse")),
            ("initiative_reroll_each_round", fr("Relancer l'initiative à chaque round")),
            ("armour_layers_stack", fr("Le cumul des armures")),
            ("convert_extra_successes", fr("La conversion des réussites en dés")),
            ("unpaid_fatigue_to_pv", fr("La fatigue impayée prise sur les PV")),
            ("ones_always_succeed", fr("Un 1 réussit toujours")),
            ("parry_best_of_weapon_skill", fr("La parade au meilleur de Parade et de l'arme")),
        ):
            require_bool(getattr(self, name), field=name, label=label, error=bad)
        require_labelled_values(
            self.difficulty_ladder,
            field="difficulty_ladder",
            label=fr("L'échelle de difficulté"),
            low=0,
            high=100,
            error=bad,
        )
        require_labelled_values(
            self.range_band_malus,
            field="range_band_malus",
            label=fr("Les malus de portée"),
            low=-20,
            high=20,
            error=bad,
        )
        _check_hit_locations(self.hit_locations)
        if not isinstance(self.instant_death_locations, tuple):
            raise bad(
                fr("Les localisations mortelles doivent être une liste."),
                field="instant_death_locations",
            )
        known = {location for _, _, location in self.hit_locations}
        for location in self.instant_death_locations:
            if location not in known:
                raise bad(
                    fr(
                        "La localisation mortelle %(location)r n'est pas dans la table de "
                        "localisation."
                    ),
                    field="instant_death_locations",
                    params={"location": location},
                )

    @property
    def locations(self) -> tuple[str, ...]:
        """Every location of the hit-location table, in table order."""
        return tuple(location for _, _, location in self.hit_locations)

    def range_malus(self, band: str) -> int:
        """Dice malus of a range band (short, medium, long, extreme by default)."""
        for name, malus in self.range_band_malus:
            if name == band:
                return malus
        bands = ", ".join(name for name, _ in self.range_band_malus)
        raise InvalidValue(
            fr("Portée inconnue : %(band)r (portées : %(bands)s)."),
            field="range_band",
            params={"band": band, "bands": bands},
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form, for storage in the campaign."""
        data: dict[str, Any] = {}
        for name in self.__dataclass_fields__:
            data[name] = getattr(self, name)
        data["difficulty_ladder"] = [[label, value] for label, value in self.difficulty_ladder]
        data["range_band_malus"] = dict(self.range_band_malus)
        data["hit_locations"] = [[low, high, loc] for low, high, loc in self.hit_locations]
        data["instant_death_locations"] = list(self.instant_death_locations)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> AethoriaHouseRules:
        """Rebuild from `to_dict` output; unknown keys are ignored, missing ones take defaults."""
        if not isinstance(data, Mapping):
            raise InvalidHouseRules(fr("Les règles maison doivent être un dictionnaire."))
        known = {name: data[name] for name in cls.__dataclass_fields__ if name in data}
        if "difficulty_ladder" in known:
            known["difficulty_ladder"] = tuples_from_json(
                known["difficulty_ladder"],
                field="difficulty_ladder",
                size=2,
                error=InvalidHouseRules,
            )
        if "range_band_malus" in known:
            bands = known["range_band_malus"]
            if isinstance(bands, Mapping):
                bands = list(bands.items())
            known["range_band_malus"] = tuples_from_json(
                bands, field="range_band_malus", size=2, error=InvalidHouseRules
            )
        if "hit_locations" in known:
            known["hit_locations"] = tuples_from_json(
                known["hit_locations"], field="hit_locations", size=3, error=InvalidHouseRules
            )
        if "instant_death_locations" in known:
            value = known["instant_death_locations"]
            if isinstance(value, str | bytes) or not isinstance(value, Iterable):
                raise InvalidHouseRules(
                    fr("Les localisations mortelles doivent être une liste."),
                    field="instant_death_locations",
                )
            known["instant_death_locations"] = tuple(value)
        return cls(**known)


def _check_hit_locations(table: object) -> None:
    # The d20 must land somewhere, exactly once: ranges sorted, contiguous, covering 1..20.
    field_name = "hit_locations"
    if not isinstance(table, tuple) or not table:
        raise InvalidHouseRules(fr("La table de localisation est vide."), field=field_name)
    expected_low = 1
    for entry in table:
        if not isinstance(entry, tuple) or len(entry) != 3:
            raise InvalidHouseRules(
                fr("Chaque ligne de localisation est (de, à, localisation)."), field=field_name
            )
        low, high, location = entry
        require_text(
            location, field=field_name, label=fr("La localisation"), error=InvalidHouseRules
        )
        require_int(
            low,
            field=field_name,
            label=fr("Le début de plage"),
            low=1,
            high=D20,
            error=InvalidHouseRules,
        )
        require_int(
            high,
            field=field_name,
            label=fr("La fin de plage"),
            low=low,
            high=D20,
            error=InvalidHouseRules,
        )
        if low != expected_low:
            raise InvalidHouseRules(
                fr(
                    "La table de localisation doit couvrir 1 à 20 sans trou ni chevauchement "
                    "(la plage de %(location)r commence à %(low)s, attendu %(expected)s)."
                ),
                field=field_name,
                params={"location": location, "low": low, "expected": expected_low},
            )
        expected_low = high + 1
    if expected_low != D20 + 1:
        raise InvalidHouseRules(
            fr("La table de localisation doit couvrir 1 à 20 sans trou ni chevauchement."),
            field=field_name,
        )


DEFAULT_HOUSE_RULES = AethoriaHouseRules()


# --- The character ----------------------------------------------------------------------------


def check_characteristic(value: object, name: str, *, exceptional: bool = False) -> int:
    """Return a characteristic in 1..9 (1..12 if flagged exceptional), else raise."""
    return require_int(
        value,
        field=name,
        label=CHARACTERISTIC_LABELS.get(name, name),
        low=CHARACTERISTIC_MIN,
        high=EXCEPTIONAL_CHARACTERISTIC_MAX if exceptional else CHARACTERISTIC_MAX,
        error=InvalidCharacteristic,
    )


def check_skill_rank(value: object, field_name: str = "rank") -> int:
    """Return a skill rank in 0..9, else raise `InvalidSkillRank`."""
    return require_int(
        value,
        field=field_name,
        label=fr("Le rang de compétence"),
        low=SKILL_RANK_MIN,
        high=SKILL_RANK_MAX,
        error=InvalidSkillRank,
    )


@dataclass(frozen=True)
class AethoriaDerived:
    """PV and fatigue pools computed from the characteristics."""

    pv: int
    physical_fatigue: int
    mental_fatigue: int


def derive(
    force: int,
    vitalite: int,
    concentration: int,
    esprit: int,
    house: AethoriaHouseRules = DEFAULT_HOUSE_RULES,
) -> AethoriaDerived:
    """PV = 2 x (Force + Vitalité); fatigue = Force + Vitalité and Concentration + Esprit."""
    # Sheets may hold GM-flagged exceptional values (up to 12), so derive accepts them.
    f = check_characteristic(force, "force", exceptional=True)
    v = check_characteristic(vitalite, "vitalite", exceptional=True)
    c = check_characteristic(concentration, "concentration", exceptional=True)
    e = check_characteristic(esprit, "esprit", exceptional=True)
    return AethoriaDerived(
        pv=house.pv_multiplier * (f + v),
        physical_fatigue=house.physical_fatigue_multiplier * (f + v),
        mental_fatigue=house.mental_fatigue_multiplier * (c + e),
    )


@dataclass(frozen=True)
class AethoriaPools:
    """Current PV and fatigue; PV may go below 0 (out of the fight, dead at -Vitalité)."""

    pv_max: int
    pv: int
    physical_max: int
    physical: int
    mental_max: int
    mental: int

    def __post_init__(self) -> None:
        require_int(self.pv_max, field="pv_max", label=fr("Les PV maximum"), low=1)
        require_int(self.pv, field="pv", label=fr("Les PV"), high=self.pv_max)
        require_int(
            self.physical_max, field="physical_max", label=fr("La fatigue physique max"), low=0
        )
        require_int(
            self.physical,
            field="physical",
            label=fr("La fatigue physique"),
            low=0,
            high=self.physical_max,
        )
        require_int(self.mental_max, field="mental_max", label=fr("La fatigue mentale max"), low=0)
        require_int(
            self.mental, field="mental", label=fr("La fatigue mentale"), low=0, high=self.mental_max
        )

    @classmethod
    def full(cls, derived: AethoriaDerived) -> AethoriaPools:
        """Every pool at its maximum."""
        return cls(
            derived.pv,
            derived.pv,
            derived.physical_fatigue,
            derived.physical_fatigue,
            derived.mental_fatigue,
            derived.mental_fatigue,
        )

    def fatigue(self, kind: str) -> int:
        """Points left in the physical or mental fatigue pool."""
        require_choice(
            kind,
            FATIGUE_KINDS,
            field="fatigue_kind",
            label=fr("La fatigue"),
            error=InvalidFatigueSpend,
        )
        return self.physical if kind == PHYSICAL else self.mental


@dataclass(frozen=True)
class PoolDelta:
    """A change of the pools (negative = lost); stored so that undo is exact."""

    pv: int = 0
    physical: int = 0
    mental: int = 0


def apply_delta(pools: AethoriaPools, delta: PoolDelta) -> AethoriaPools:
    """Pools after a change."""
    return _shifted(pools, delta, 1)


def revert_delta(pools: AethoriaPools, delta: PoolDelta) -> AethoriaPools:
    """Pools with a stored change undone."""
    return _shifted(pools, delta, -1)


def _shifted(pools: AethoriaPools, delta: PoolDelta, sign: int) -> AethoriaPools:
    pv = pools.pv + sign * delta.pv
    physical = pools.physical + sign * delta.physical
    mental = pools.mental + sign * delta.mental
    if pv > pools.pv_max or not 0 <= physical <= pools.physical_max:
        raise InvalidDamage(fr("Ce changement ne tient pas dans les réserves."), field="pools")
    if not 0 <= mental <= pools.mental_max:
        raise InvalidDamage(fr("Ce changement ne tient pas dans les réserves."), field="pools")
    return replace(pools, pv=pv, physical=physical, mental=mental)


def condition(pv: int, vitalite: int, house: AethoriaHouseRules = DEFAULT_HOUSE_RULES) -> str:
    """standing, out (PV at 0 or below) or dead (PV at -Vitalité or below)."""
    require_int(pv, field="pv", label=fr("Les PV"))
    v = check_characteristic(vitalite, "vitalite", exceptional=True)
    if pv <= -house.death_threshold_factor * v:
        return DEAD
    if pv <= 0:
        return OUT
    return STANDING


def take_damage(pools: AethoriaPools, amount: int) -> tuple[AethoriaPools, PoolDelta]:
    """Remove PV (damage after armour, bleeding, burn...); PV may go below 0."""
    require_int(amount, field="damage", label=fr("Les dégâts"), low=0, error=InvalidDamage)
    delta = PoolDelta(pv=-amount)
    return apply_delta(pools, delta), delta


def bleed(
    pools: AethoriaPools, house: AethoriaHouseRules = DEFAULT_HOUSE_RULES
) -> tuple[AethoriaPools, PoolDelta]:
    """PV lost to bleeding at the start of the bleeding character's turn."""
    return take_damage(pools, house.bleeding_pv_per_turn)


# --- Rolls ------------------------------------------------------------------------------------


def _check_threshold(threshold: object, field_name: str = "threshold") -> int:
    # Any integer is meaningful: >= 10 every die succeeds, < 1 none does.
    return require_int(threshold, field=field_name, label=fr("Le seuil"))


def count_successes(
    faces: Sequence[int], threshold: int, *, ones_always_succeed: bool = True
) -> int:
    """Successes of d10 faces: a die at or under the threshold succeeds, a 1 counts twice.

    The source counts the 1s double without condition, so a 1 gives 2 successes even when the
    threshold is 0 or below (house rule "un 1 réussit toujours", on by default; off, a 1 then
    succeeds only when it is at or under the threshold, like any die).
    """
    checked = check_faces(faces, D10)
    _check_threshold(threshold)
    require_bool(
        ones_always_succeed, field="ones_always_succeed", label=fr("Un 1 réussit toujours")
    )
    return sum(_face_successes(face, threshold, ones_always_succeed) for face in checked)


def _face_successes(face: int, threshold: int, ones_always_succeed: bool) -> int:
    if face == 1:
        return 2 if ones_always_succeed or threshold >= 1 else 0
    return 1 if face <= threshold else 0


def _dice_modifiers(modifiers: Iterable[int]) -> tuple[int, ...]:
    return require_ints(modifiers, field="modifiers", label=fr("Les modificateurs de dés"))


def _sum_dice_modifiers(modifiers: Iterable[int]) -> int:
    return sum(_dice_modifiers(modifiers))


def pool_size(rank: int, modifiers: Iterable[int] = (), *, rank_zero_allowed: bool = False) -> int:
    """Dice to roll: the rank plus dice bonuses/maluses, never below 0 (0 dice = 0 successes)."""
    check_skill_rank(rank)
    if rank == 0 and not rank_zero_allowed:
        raise RollNotAllowed(
            fr("Rang 0 : le personnage ne peut pas tenter ce jet sans l'accord du MJ."),
            field="rank",
        )
    base = RANK_ZERO_DICE if rank == 0 else rank
    # A pool that drops to 0 dice is a rule of the game (it gives 0 successes), not a clamp.
    return max(0, base + _sum_dice_modifiers(modifiers))


@dataclass(frozen=True)
class RollSpec:
    """What to roll: how many d10, the threshold, a fixed part, and which fatigue pays extras."""

    kind: str
    dice: int
    threshold: int
    fatigue: str
    fixed: int = 0
    ones_always_succeed: bool = True  # the campaign's "un 1 réussit toujours"

    def __post_init__(self) -> None:
        require_choice(self.kind, ROLL_KINDS, field="kind", label=fr("Le type de jet"))
        check_dice_count(self.dice)
        _check_threshold(self.threshold)
        require_choice(self.fatigue, FATIGUE_KINDS, field="fatigue", label=fr("La fatigue"))
        require_int(self.fixed, field="fixed", label=fr("La partie fixe"), low=0)
        require_bool(
            self.ones_always_succeed,
            field="ones_always_succeed",
            label=fr("Un 1 réussit toujours"),
        )


def fatigue_kind(characteristic: str) -> str:
    """Physical for Force, Adresse, Vitalité; mental for the others."""
    require_choice(
        characteristic,
        CHARACTERISTICS,
        field="characteristic",
        label=fr("La caractéristique"),
        error=InvalidCharacteristic,
    )
    return FATIGUE_KIND_OF[characteristic]


def skill_roll(
    rank: int,
    characteristic: str,
    value: int,
    modifiers: Iterable[int] = (),
    *,
    rank_zero_allowed: bool = False,
    exceptional: bool = False,
) -> RollSpec:
    """Skill test: rank dice under the linked characteristic (the GM may swap it for a roll)."""
    kind = fatigue_kind(characteristic)
    check_characteristic(value, characteristic, exceptional=exceptional)
    dice = pool_size(rank, modifiers, rank_zero_allowed=rank_zero_allowed)
    return RollSpec(SKILL, dice, value, kind)


def characteristic_roll(
    characteristic: str, value: int, modifiers: Iterable[int] = (), *, exceptional: bool = False
) -> RollSpec:
    """Characteristic test: as many dice as the value, threshold 6."""
    kind = fatigue_kind(characteristic)
    check_characteristic(value, characteristic, exceptional=exceptional)
    dice = max(0, value + _sum_dice_modifiers(modifiers))
    return RollSpec(CHARACTERISTIC, dice, CHARACTERISTIC_TEST_THRESHOLD, kind)


def dodge_roll(
    rank: int,
    *,
    encumbered: bool = False,
    modifiers: Iterable[int] = (),
    rank_zero_allowed: bool = False,
    house: AethoriaHouseRules = DEFAULT_HOUSE_RULES,
) -> RollSpec:
    """Dodge: esquive rank dice, threshold 6; fewer dice when encumbered."""
    require_bool(encumbered, field="encumbered", label=fr("Encombré"))
    extra = [house.encumbered_dodge_malus] if encumbered else []
    dice = pool_size(
        rank, [*_dice_modifiers(modifiers), *extra], rank_zero_allowed=rank_zero_allowed
    )
    return RollSpec(DODGE, dice, DODGE_THRESHOLD, PHYSICAL)


def check_parry_allowed(
    attacker_force: int, defender_force: int, house: AethoriaHouseRules = DEFAULT_HOUSE_RULES
) -> None:
    """Refuse a parry against an attacker whose Force is too high (>= defender's + gap)."""
    a = check_characteristic(attacker_force, "force", exceptional=True)
    d = check_characteristic(defender_force, "force", exceptional=True)
    if a >= d + house.parry_force_gap:
        raise InvalidDefence(
            fr(
                "Parade impossible : la Force de l'attaquant (%(attacker_force)s) dépasse de "
                "%(gap)s ou plus celle du défenseur (%(defender_force)s). Il faut esquiver."
            ),
            field="defence",
            params={"attacker_force": a, "defender_force": d, "gap": house.parry_force_gap},
        )


def parry_roll(
    rank: int,
    parry_value: int,
    *,
    attacker_force: int,
    defender_force: int,
    modifiers: Iterable[int] = (),
    rank_zero_allowed: bool = False,
    house: AethoriaHouseRules = DEFAULT_HOUSE_RULES,
) -> RollSpec:
    """Parry: "jet de parade" dice (see `parry_rank`) under the parry value of the item used."""
    check_parry_allowed(attacker_force, defender_force, house)
    require_int(
        parry_value,
        field="parry",
        label=fr("La valeur de parade"),
        low=0,
        high=D10,
        error=InvalidWeapon,
    )
    dice = pool_size(rank, modifiers, rank_zero_allowed=rank_zero_allowed)
    return RollSpec(PARRY, dice, parry_value, PHYSICAL, 0, house.ones_always_succeed)


PARADE_SKILL = "parade"
WEAPON_SKILL = "weapon"


@dataclass(frozen=True)
class ParryRank:
    """The rank a parry rolls and whose it is: the Parade skill, or the weapon's skill."""

    rank: int
    skill: str  # PARADE_SKILL or WEAPON_SKILL


def parry_rank(
    parade: int,
    weapon_skill: int | None = None,
    house: AethoriaHouseRules = DEFAULT_HOUSE_RULES,
) -> ParryRank:
    """A parry is a roll of the Parade skill ("jet de parade"), whatever parries.

    With the house rule "parade : meilleur de Parade et de la compétence d'arme", a weapon's
    parry rolls the better of Parade and that weapon's skill (`weapon_skill`; None for a
    shield, which has no skill of its own). On a tie, Parade is the rank named.
    """
    check_skill_rank(parade, "parade")
    if weapon_skill is None or not house.parry_best_of_weapon_skill:
        return ParryRank(parade, PARADE_SKILL)
    check_skill_rank(weapon_skill, "weapon_skill")
    if weapon_skill > parade:
        return ParryRank(weapon_skill, WEAPON_SKILL)
    return ParryRank(parade, PARADE_SKILL)


def attack_roll(
    rank: int,
    adresse: int,
    modifiers: Iterable[int] = (),
    *,
    action: str = ATTACK_ACTION,
    range_band: str | None = None,
    aim_bonus: int = 0,
    rank_zero_allowed: bool = False,
    house: AethoriaHouseRules = DEFAULT_HOUSE_RULES,
) -> RollSpec:
    """Attack: weapon skill under Adresse, with the action's, range's and aim's dice."""
    require_choice(
        action, ATTACK_ACTIONS, field="action", label=fr("L'action"), error=InvalidAction
    )
    check_characteristic(adresse, "adresse", exceptional=True)
    require_int(
        aim_bonus, field="aim_bonus", label=fr("Le bonus de visée"), low=0, high=VISER_BONUS
    )
    extra = [ACTION_DICE.get(action, 0), aim_bonus]
    if range_band is not None:
        extra.append(house.range_malus(range_band))
    elif action == RANGED_ATTACK:
        raise InvalidValue(fr("Une attaque à distance demande une portée."), field="range_band")
    dice = pool_size(
        rank, [*_dice_modifiers(modifiers), *extra], rank_zero_allowed=rank_zero_allowed
    )
    return RollSpec(ATTACK, dice, adresse, PHYSICAL)


@dataclass(frozen=True)
class PoolResult:
    """The faces of a roll (fatigue dice apart) and its successes (fixed part included)."""

    spec: RollSpec
    faces: tuple[int, ...]
    fatigue_faces: tuple[int, ...] = ()
    fatigue_timing: str | None = None
    successes: int = field(init=False)

    def __post_init__(self) -> None:
        dice = self.faces + self.fatigue_faces
        counted = count_successes(
            dice, self.spec.threshold, ones_always_succeed=self.spec.ones_always_succeed
        )
        successes = self.spec.fixed + counted
        object.__setattr__(self, "successes", successes)

    @property
    def all_faces(self) -> tuple[int, ...]:
        """Pool faces then fatigue faces."""
        return self.faces + self.fatigue_faces


def _check_fatigue_count(count: object) -> int:
    return require_int(
        count,
        field="fatigue",
        label=fr("Les dés de fatigue"),
        low=FATIGUE_DICE_MIN,
        high=FATIGUE_DICE_MAX,
        error=InvalidFatigueSpend,
    )


def roll_pool(
    spec: RollSpec,
    faces: Sequence[int],
    fatigue_faces: Sequence[int] = (),
    *,
    fatigue_timing: str = BEFORE,
) -> PoolResult:
    """Evaluate a roll from its faces (and fatigue dice decided before rolling, if any)."""
    checked = check_faces(faces, D10, field="faces", count=spec.dice)
    extra = check_faces(fatigue_faces, D10, field="fatigue_faces")
    if not extra:
        return PoolResult(spec, checked)
    _check_fatigue_count(len(extra))
    require_choice(
        fatigue_timing,
        FATIGUE_TIMINGS,
        field="fatigue_timing",
        label=fr("Le moment de la dépense"),
        error=InvalidFatigueSpend,
    )
    return PoolResult(spec, checked, extra, fatigue_timing)


def roll_with(dice: Dice, spec: RollSpec, fatigue_dice: int = 0) -> PoolResult:
    """Roll a spec with an injected roller (fatigue dice, if any, decided before rolling)."""
    if fatigue_dice:
        _check_fatigue_count(fatigue_dice)
    return roll_pool(spec, dice.d10(spec.dice), dice.d10(fatigue_dice))


def add_fatigue_dice(result: PoolResult, fatigue_faces: Sequence[int]) -> PoolResult:
    """Fatigue dice decided after seeing the roll; allowed once per roll."""
    if result.fatigue_faces:
        raise InvalidFatigueSpend(
            fr("Les dés de fatigue se décident en une seule fois par jet."), field="fatigue"
        )
    extra = check_faces(fatigue_faces, D10, field="fatigue_faces")
    _check_fatigue_count(len(extra))
    return PoolResult(result.spec, result.faces, extra, AFTER)


def spend_fatigue(pools: AethoriaPools, kind: str, count: int) -> tuple[AethoriaPools, PoolDelta]:
    """Pay 1 to 3 fatigue points for as many extra dice; the pool must be able to pay."""
    _check_fatigue_count(count)
    left = pools.fatigue(kind)
    if count > left:
        message = (
            fr("Fatigue physique insuffisante : %(asked)s demandé(s), %(left)s restant(s).")
            if kind == PHYSICAL
            else fr("Fatigue mentale insuffisante : %(asked)s demandé(s), %(left)s restant(s).")
        )
        raise InvalidFatigueSpend(
            message, field="fatigue", params={"kind": kind, "asked": count, "left": left}
        )
    delta = PoolDelta(physical=-count) if kind == PHYSICAL else PoolDelta(mental=-count)
    return apply_delta(pools, delta), delta


@dataclass(frozen=True)
class Verdict:
    """Successes against a difficulty: success, margin and the "much lower" flag."""

    successes: int
    difficulty: int
    success: bool
    margin: int
    much_lower: bool


def judge(
    successes: int, difficulty: int, house: AethoriaHouseRules = DEFAULT_HOUSE_RULES
) -> Verdict:
    """Success iff successes >= difficulty; "much lower" iff successes <= difficulty - gap."""
    require_int(successes, field="successes", label=fr("Les réussites"), low=0)
    require_int(difficulty, field="difficulty", label=fr("La difficulté"), low=0)
    return Verdict(
        successes=successes,
        difficulty=difficulty,
        success=successes >= difficulty,
        margin=successes - difficulty,
        much_lower=successes <= difficulty - house.much_lower_gap,
    )


# --- Initiative and turns ---------------------------------------------------------------------


@dataclass(frozen=True)
class AethoriaInitiativeRoll:
    """One combatant's initiative: a d20 (ties by Adresse, then a stored draw)."""

    key: str | int
    adresse: int
    roll: int
    draw: int = 0

    def __post_init__(self) -> None:
        check_d20(self.roll, field="roll")
        check_characteristic(self.adresse, "adresse", exceptional=True)
        if not is_int(self.draw):
            raise InvalidInitiative(fr("Le tirage de départage doit être un entier."), field="draw")


def initiative_order(
    rolls: Sequence[AethoriaInitiativeRoll], house: AethoriaHouseRules = DEFAULT_HOUSE_RULES
) -> tuple[AethoriaInitiativeRoll, ...]:
    """Turn order: highest d20 first; ties by Adresse (house rule), then the stored draw."""
    return order_by_initiative(
        rolls,
        key=lambda r: r.key,
        total=lambda r: r.roll,
        tie=(lambda r: r.adresse) if house.initiative_ties_by_adresse else None,
        draw=lambda r: r.draw,
    )


def initiative_roll_needed(
    round_number: int, house: AethoriaHouseRules = DEFAULT_HOUSE_RULES
) -> bool:
    """Initiative is rolled at round 1, and again each round only with the reroll option."""
    require_int(round_number, field="round", label=fr("Le numéro de round"), low=1)
    return round_number == 1 or house.initiative_reroll_each_round


@dataclass(frozen=True)
class PreparedAction:
    """An announced action and the trigger that fires it before the character's next turn."""

    description: str
    trigger: str


@dataclass(frozen=True)
class TurnState:
    """A combatant's per-turn state: defences left, action taken, aim, prepared action."""

    defences: int = BASE_DEFENCES
    acted: bool = False
    aim_target: str | int | None = None
    aim_ready: bool = False
    prepared: PreparedAction | None = None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TurnState:
        """Rebuild a stored state (the output of `dataclasses.asdict`)."""
        fields = dict(data)
        if fields.get("prepared") is not None:
            fields["prepared"] = PreparedAction(**fields["prepared"])
        return cls(**fields)

    def start_turn(self) -> TurnState:
        """Its own turn comes: defences back to one, a prepared action expires, aim matures."""
        # Aim taken last turn becomes usable now; aim that was usable and unused is lost.
        keep_aim = self.aim_target is not None and not self.aim_ready
        return TurnState(
            defences=BASE_DEFENCES,
            acted=False,
            aim_target=self.aim_target if keep_aim else None,
            aim_ready=keep_aim,
            prepared=None,
        )

    def aim_bonus(self, target: str | int | None) -> int:
        """+3 dice for an attack this turn on the target watched last turn."""
        if self.aim_ready and target is not None and target == self.aim_target:
            return VISER_BONUS
        return 0

    def act(
        self,
        action: str,
        *,
        target: str | int | None = None,
        description: str = "",
        trigger: str = "",
        magic_type: str = NO_MAGIC,
    ) -> tuple[TurnState, int]:
        """Take the turn's one action; returns the new state and the aim bonus it earns."""
        require_choice(action, ACTIONS, field="action", label=fr("L'action"), error=InvalidAction)
        if self.acted:
            raise InvalidAction(fr("Ce personnage a déjà agi ce tour-ci."), field="action")
        if action == CAST:
            check_can_cast_in_combat(magic_type)
        bonus = self.aim_bonus(target) if action in ATTACK_ACTIONS else 0
        # Any action uses up the aim: it only helps the attack made right after watching.
        after = replace(self, acted=True, aim_target=None, aim_ready=False)
        if action == VISER:
            if target is None:
                raise InvalidAction(fr("Viser demande une cible à portée."), field="target")
            after = replace(after, aim_target=target)
        elif action == DEFENSE:
            after = replace(after, defences=self.defences + DEFENCE_ACTION_EXTRA)
        elif action == PREPARER:
            what = require_text(
                description, field="description", label=fr("L'action préparée"), error=InvalidAction
            )
            when = require_text(
                trigger, field="trigger", label=fr("Le déclencheur"), error=InvalidAction
            )
            after = replace(after, prepared=PreparedAction(what.strip(), when.strip()))
        return after, bonus

    def lose_aim(self) -> TurnState:
        """The watched target got out of reach: the aim bonus is lost."""
        return replace(self, aim_target=None, aim_ready=False)

    def fire_prepared(self) -> tuple[TurnState, PreparedAction]:
        """The trigger happened: the prepared action takes place now."""
        if self.prepared is None:
            raise InvalidAction(fr("Aucune action préparée."), field="prepared")
        return replace(self, prepared=None), self.prepared

    def use_defences(self, count: int = 1) -> TurnState:
        """Spend defences (one per dodge or parry roll) until its next turn."""
        require_int(count, field="defences", label=fr("Les défenses"), low=1, error=InvalidDefence)
        if count > self.defences:
            raise InvalidDefence(
                fr("Plus assez de défenses : %(asked)s demandée(s), %(left)s disponible(s)."),
                field="defences",
                params={"asked": count, "left": self.defences},
            )
        return replace(self, defences=self.defences - count)


def check_can_cast_in_combat(magic_type: str) -> None:
    """Only a doué can cast as a combat action (a marqué must pray for minutes first)."""
    require_choice(
        magic_type,
        MAGIC_TYPES,
        field="magic_type",
        label=fr("Le type de magie"),
        error=InvalidSpell,
    )
    if magic_type == NO_MAGIC:
        raise InvalidSpell(fr("Ce personnage ne pratique pas la magie."), field="magic_type")
    if magic_type == MARQUE:
        raise InvalidSpell(
            fr("Un marqué doit prier plusieurs minutes en transe : pas de sort en combat."),
            field="magic_type",
        )


# --- Weapons, armour, locations ---------------------------------------------------------------


@dataclass(frozen=True)
class AethoriaWeapon:
    """A weapon ("X+Nd" damage), or a shield when `shield` is set (parry only)."""

    name: str = ""
    dice: int = 0
    fixed: int = 0
    parry: int | None = None
    hands: int = 1
    ranged: bool = False
    shield: bool = False

    def __post_init__(self) -> None:
        require_int(
            self.dice,
            field="dice",
            label=fr("Les dés de dégâts"),
            low=0,
            high=50,
            error=InvalidWeapon,
        )
        require_int(
            self.fixed, field="fixed", label=fr("Les dégâts fixes"), low=0, error=InvalidWeapon
        )
        if self.parry is not None:
            require_int(
                self.parry,
                field="parry",
                label=fr("La valeur de parade"),
                low=0,
                high=D10,
                error=InvalidWeapon,
            )
        require_int(
            self.hands,
            field="hands",
            label=fr("Le nombre de mains"),
            low=1,
            high=2,
            error=InvalidWeapon,
        )
        require_bool(self.ranged, field="ranged", label=fr("Arme à distance"), error=InvalidWeapon)
        require_bool(self.shield, field="shield", label=fr("Bouclier"), error=InvalidWeapon)

    @classmethod
    def from_notation(cls, notation: str, **kwargs: Any) -> AethoriaWeapon:
        """Build a weapon from its damage written "4+4d" (also "4d" or "3")."""
        fixed, dice = parse_damage(notation)
        return cls(dice=dice, fixed=fixed, **kwargs)

    @property
    def can_parry(self) -> bool:
        """True if it has a parry value."""
        return self.parry is not None


_DAMAGE_NOTATION = re.compile(r"^(?:(\d+)\+)?(\d+)d(?:10)?$|^(\d+)$")


def parse_damage(notation: str) -> tuple[int, int]:
    """Parse "X+Nd" damage into (fixed part, number of d10); "4d" and "3" are accepted too."""
    text = notation.replace(" ", "").lower() if isinstance(notation, str) else ""
    match = _DAMAGE_NOTATION.match(text)
    if match is None:
        raise InvalidWeapon(
            fr("Dégâts illisibles : %(notation)r (format attendu : « 4+4d », « 4d » ou « 3 »)."),
            field="damage",
            params={"notation": notation},
        )
    fixed, dice, fixed_only = match.groups()
    if fixed_only is not None:
        return int(fixed_only), 0
    return int(fixed or 0), int(dice)


@dataclass(frozen=True)
class ArmourPiece:
    """A piece of armour: its RD on each location it covers."""

    name: str
    rd: int
    locations: tuple[str, ...]

    def __post_init__(self) -> None:
        require_int(self.rd, field="rd", label=fr("La RD"), low=0)


def location_rd(
    pieces: Iterable[ArmourPiece],
    location: str,
    house: AethoriaHouseRules = DEFAULT_HOUSE_RULES,
) -> int:
    """RD protecting a location: the best piece covering it (or their sum if layers stack)."""
    check_location(location, house)
    rds = [p.rd for p in pieces if location in p.locations]
    if not rds:
        return 0
    return sum(rds) if house.armour_layers_stack else max(rds)


def check_location(location: str, house: AethoriaHouseRules = DEFAULT_HOUSE_RULES) -> str:
    """Return `location` if the hit-location table knows it, else raise `InvalidLocation`."""
    if location not in house.locations:
        raise InvalidLocation(
            fr("Localisation inconnue : %(location)r."),
            field="location",
            params={"location": location},
        )
    return location


def hit_location(face: int, house: AethoriaHouseRules = DEFAULT_HOUSE_RULES) -> str:
    """Location hit for a d20 face, from the campaign's hit-location table."""
    check_d20(face, field="location_face")
    for low, high, location in house.hit_locations:
        if low <= face <= high:
            return location
    raise AssertionError("unreachable: the table covers 1..20")  # checked by the house rules


def cibler_location(faces: Sequence[int], chosen: int) -> int:
    """Cibler: two location d20 are rolled and the attacker keeps one; returns the kept face."""
    checked = check_faces(faces, D20, field="location_faces", count=CIBLER_LOCATION_DICE)
    require_int(
        chosen,
        field="chosen",
        label=fr("Le dé choisi"),
        low=0,
        high=len(checked) - 1,
        error=InvalidAction,
    )
    return checked[chosen]


# --- Attacks ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class AttackOutcome:
    """Attack successes minus defence successes: does it land, and with how many extra dice."""

    attack_successes: int
    defence_successes: int
    net: int
    lands: bool
    bonus_dice: int
    kept_successes: int
    location_face: int
    location: str
    hits_obstacle: bool


def max_bonus_dice(net: int) -> int:
    """Damage dice that net successes can buy: each 2 successes beyond the first give 1 die."""
    require_int(net, field="net", label=fr("Les réussites nettes"))
    return max(0, (net - 1) // EXTRA_SUCCESSES_PER_DIE)


def attack_outcome(
    attack_successes: int,
    defence_successes: int = 0,
    *,
    location_face: int,
    ranged: bool = False,
    covered: Iterable[str] = (),
    bonus_dice: int | None = None,
    house: AethoriaHouseRules = DEFAULT_HOUSE_RULES,
) -> AttackOutcome:
    """Net successes decide: >= 1 lands; extra successes become damage dice (GM's choice)."""
    require_int(attack_successes, field="attack_successes", label=fr("Les réussites"), low=0)
    require_int(
        defence_successes,
        field="defence_successes",
        label=fr("Les réussites de défense"),
        low=0,
        error=InvalidDefence,
    )
    if ranged and defence_successes:
        raise InvalidDefence(
            fr("La cible d'une attaque à distance ne peut pas se défendre."), field="defence"
        )
    location = hit_location(location_face, house)
    covered_set = {check_location(c, house) for c in covered}
    net = attack_successes - defence_successes
    lands = net >= 1
    available = max_bonus_dice(net) if lands else 0
    if bonus_dice is None:
        bonus_dice = available if house.convert_extra_successes else 0
    require_int(
        bonus_dice,
        field="bonus_dice",
        label=fr("Les dés de dégâts bonus"),
        low=0,
        high=available,
        error=InvalidAction,
    )
    return AttackOutcome(
        attack_successes=attack_successes,
        defence_successes=defence_successes,
        net=net,
        lands=lands,
        bonus_dice=bonus_dice,
        kept_successes=(net - 1 - EXTRA_SUCCESSES_PER_DIE * bonus_dice) if lands else 0,
        location_face=location_face,
        location=location,
        # A covered location means the shot that should have landed hits the obstacle instead.
        hits_obstacle=lands and location in covered_set,
    )


def damage_roll(
    weapon: AethoriaWeapon,
    force: int,
    bonus_dice: int = 0,
    *,
    second_weapon: bool = False,
    house: AethoriaHouseRules = DEFAULT_HOUSE_RULES,
) -> RollSpec:
    """Damage: the weapon's dice plus bonus dice under Force, plus the weapon's fixed part.

    The second weapon of an attaque double rolls under Force - 2, which may be 0 or less: its
    1s still count 2 successes each unless the campaign turned "un 1 réussit toujours" off.
    """
    if weapon.shield:
        raise InvalidWeapon(fr("Un bouclier ne sert pas à frapper."), field="weapon")
    f = check_characteristic(force, "force", exceptional=True)
    require_int(bonus_dice, field="bonus_dice", label=fr("Les dés bonus"), low=0)
    # The second weapon of an attaque double hits as if the character had 2 Force less.
    threshold = f + (DOUBLE_ATTACK_SECOND_FORCE_MALUS if second_weapon else 0)
    dice = weapon.dice + bonus_dice
    return RollSpec(DAMAGE, dice, threshold, PHYSICAL, weapon.fixed, house.ones_always_succeed)


@dataclass(frozen=True)
class DamageResult:
    """Damage of a landed blow: total, armour RD, what reaches the PV, and the effect proposed."""

    total: int
    rd: int
    damage: int
    location: str
    severe_effect: str


def severe_effect(
    damage: int,
    vitalite: int,
    location: str,
    house: AethoriaHouseRules = DEFAULT_HOUSE_RULES,
) -> str:
    """The extra effect the app proposes (the GM confirms): the worst threshold reached."""
    require_int(damage, field="damage", label=fr("Les dégâts"), low=0, error=InvalidDamage)
    v = check_characteristic(vitalite, "vitalite", exceptional=True)
    check_location(location, house)
    if damage >= house.instant_death_factor * v and location in house.instant_death_locations:
        return INSTANT_DEATH
    if damage >= house.fracture_factor * v:
        return FRACTURE
    if damage >= house.bleeding_factor * v:
        return BLEEDING
    return NO_EFFECT


def resolve_damage(
    roll: PoolResult,
    *,
    rd: int,
    target_vitalite: int,
    location: str,
    house: AethoriaHouseRules = DEFAULT_HOUSE_RULES,
) -> DamageResult:
    """Subtract the RD of the location hit from the damage roll; propose a severe effect."""
    if roll.spec.kind != DAMAGE:
        raise InvalidDamage(fr("Ce jet n'est pas un jet de dégâts."), field="roll")
    require_int(rd, field="rd", label=fr("La RD"), low=0, error=InvalidDamage)
    damage = max(0, roll.successes - rd)
    return DamageResult(
        total=roll.successes,
        rd=rd,
        damage=damage,
        location=location,
        severe_effect=severe_effect(damage, target_vitalite, location, house),
    )


# --- Special actions --------------------------------------------------------------------------


def check_double_attack(weapons: Sequence[AethoriaWeapon]) -> None:
    """Attaque double needs exactly two one-handed weapons (a shield does not count)."""
    if len(weapons) != 2 or any(w.hands != 1 or w.shield for w in weapons):
        raise InvalidWeapon(
            fr("L'attaque double demande deux armes à une main."),
            field="weapons",
            params={"count": len(weapons)},
        )


def can_parry_both(held: Sequence[AethoriaWeapon]) -> bool:
    """Parrying both blows of an attaque double needs two weapons or a weapon and a shield."""
    return sum(1 for item in held if item.can_parry or item.shield) >= 2


PARRY_DEFENCE = "parry"
DODGE_DEFENCE = "dodge"


@dataclass(frozen=True)
class DoubleDefence:
    """How a target answers an attaque double: a defence (or none) per blow, and dice maluses."""

    first: str | None
    second: str | None
    first_malus: int
    second_malus: int

    @property
    def defences_used(self) -> int:
        """Defences this plan spends."""
        return (self.first is not None) + (self.second is not None)


def plan_double_defence(
    first: str | None,
    second: str | None,
    *,
    defences_left: int,
    held: Sequence[AethoriaWeapon] = (),
    split: tuple[int, int] = (0, 0),
) -> DoubleDefence:
    """Validate a defence against an attaque double and return the dice malus of each roll."""
    choices = (first, second)
    for choice in choices:
        if choice is not None:
            require_choice(
                choice,
                (PARRY_DEFENCE, DODGE_DEFENCE),
                field="defence",
                label=fr("La défense"),
                error=InvalidDefence,
            )
    used = sum(c is not None for c in choices)
    if used > defences_left:
        raise InvalidDefence(
            fr("Plus assez de défenses : %(asked)s demandée(s), %(left)s disponible(s)."),
            field="defences",
            params={"asked": used, "left": defences_left},
        )
    parries = choices.count(PARRY_DEFENCE)
    if parries and not any(item.can_parry or item.shield for item in held):
        raise InvalidDefence(fr("Il faut une arme ou un bouclier pour parer."), field="defence")
    if parries == 2 and not can_parry_both(held):
        raise InvalidDefence(
            fr("Impossible de parer les deux attaques sans deux armes ou une arme et un bouclier."),
            field="defence",
        )
    if not (isinstance(split, tuple) and len(split) == 2 and all(is_int(s) for s in split)):
        raise InvalidDefence(fr("La répartition du malus est une paire d'entiers."), field="split")
    # Two defence rolls of different kinds (or two dodges) share a -3 dice malus; a double parry
    # with two weapons / weapon and shield, or a single defence, has none.
    needs_split = used == 2 and parries != 2
    if needs_split and (min(split) < 0 or sum(split) != DOUBLE_DEFENCE_SPLIT):
        raise InvalidDefence(
            fr(
                "Le malus de -%(total)s dés doit être réparti entre les deux jets "
                "(reçu : %(first)s et %(second)s)."
            ),
            field="split",
            params={"total": DOUBLE_DEFENCE_SPLIT, "first": split[0], "second": split[1]},
        )
    if not needs_split and split != (0, 0):
        raise InvalidDefence(fr("Aucun malus à répartir pour cette défense."), field="split")
    return DoubleDefence(first, second, -split[0], -split[1])


# --- Magic ------------------------------------------------------------------------------------


def check_invested(pouvoir: int, invested: int) -> int:
    """Pouvoir invested in a spell: 1..Pouvoir (a mage may invest less than it has)."""
    p = check_characteristic(pouvoir, "pouvoir", exceptional=True)
    return require_int(
        invested,
        field="invested",
        label=fr("Le Pouvoir investi"),
        low=1,
        high=p,
        error=InvalidSpell,
    )


def spell_roll(
    magic_rank: int,
    pouvoir: int,
    invested: int,
    modifiers: Iterable[int] = (),
    *,
    rank_zero_allowed: bool = False,
) -> RollSpec:
    """Spell: magic skill dice under the Pouvoir invested."""
    threshold = check_invested(pouvoir, invested)
    dice = pool_size(magic_rank, modifiers, rank_zero_allowed=rank_zero_allowed)
    return RollSpec(SPELL, dice, threshold, MENTAL)


def spell_fatigue_cost(invested: int, house: AethoriaHouseRules = DEFAULT_HOUSE_RULES) -> int:
    """Fatigue a spell costs in each pool: ceil(invested / 3) (house rule)."""
    require_int(
        invested, field="invested", label=fr("Le Pouvoir investi"), low=1, error=InvalidSpell
    )
    return -(-invested // house.fatigue_cost_divisor)


def is_erys_burn(faces: Sequence[int], threshold: int) -> bool:
    """Brûlure d'érys: every die rolled (fatigue dice included) is a success."""
    checked = check_faces(faces, D10)
    _check_threshold(threshold)
    # With no die rolled there is no roll, hence no burn.
    return bool(checked) and all(face <= threshold for face in checked)


@dataclass(frozen=True)
class SpellResult:
    """A cast spell: verdict, fatigue paid (PV for what a pool could not pay), érys burn."""

    invested: int
    verdict: Verdict
    fatigue_cost: int
    physical_paid: int
    mental_paid: int
    pv_from_fatigue: int
    burn: bool
    burn_pv: int
    delta: PoolDelta
    pools: AethoriaPools


def cast_spell(
    roll: PoolResult,
    pools: AethoriaPools,
    *,
    invested: int,
    difficulty: int = 1,
    house: AethoriaHouseRules = DEFAULT_HOUSE_RULES,
) -> SpellResult:
    """Judge a spell roll, pay its fatigue (after the roll's own fatigue dice) and burn."""
    if roll.spec.kind != SPELL or roll.spec.threshold != invested:
        raise InvalidSpell(fr("Ce jet n'est pas le jet de ce sort."), field="roll")
    verdict = judge(roll.successes, difficulty, house)
    cost = spell_fatigue_cost(invested, house)
    physical_paid = min(cost, pools.physical)
    mental_paid = min(cost, pools.mental)
    unpaid = (cost - physical_paid) + (cost - mental_paid)
    if unpaid and not house.unpaid_fatigue_to_pv:
        raise InvalidFatigueSpend(
            fr("Fatigue insuffisante pour lancer ce sort (%(cost)s de chaque réserve)."),
            field="fatigue",
            params={"cost": cost},
        )
    burn = is_erys_burn(roll.all_faces, roll.spec.threshold)
    burn_pv = house.burn_pv_per_pouvoir * invested if burn else 0  # armour never applies
    delta = PoolDelta(pv=-(unpaid + burn_pv), physical=-physical_paid, mental=-mental_paid)
    return SpellResult(
        invested=invested,
        verdict=verdict,
        fatigue_cost=cost,
        physical_paid=physical_paid,
        mental_paid=mental_paid,
        pv_from_fatigue=unpaid,
        burn=burn,
        burn_pv=burn_pv,
        delta=delta,
        pools=apply_delta(pools, delta),
    )


# --- Odds -------------------------------------------------------------------------------------


def _die_weights(threshold: int, ones: bool = True) -> tuple[int, int, int]:
    """Tenths of a d10 giving 0, 1 and 2 successes at this threshold.

    `ones`: a 1 counts 2 successes even under a threshold of 0 or less ("un 1 réussit
    toujours"); without it, such a threshold gives no success at all.
    """
    if threshold < 1:
        return (D10 - 1, 0, 1) if ones else (D10, 0, 0)
    t = min(threshold, D10)  # 10 or more: every face succeeds
    return (D10 - t, t - 1, 1)


def _success_counts(dice: int, threshold: int, ones: bool = True) -> tuple[int, ...]:
    """Ways (out of 10 ** dice) for a pool to total each number of successes."""
    return odds.die_power(_die_weights(threshold, ones), dice)


def _check_ones(value: object) -> bool:
    return require_bool(value, field="ones_always_succeed", label=fr("Un 1 réussit toujours"))


@odds.cached
def _success_distribution(
    dice: int, threshold: int, ones: bool
) -> tuple[tuple[int, Fraction], ...]:
    counts = _success_counts(dice, threshold, ones)
    return tuple(odds.from_counts(counts, D10**dice).items())


def success_distribution(
    dice: int, threshold: int, *, ones_always_succeed: bool = True
) -> dict[int, Fraction]:
    """Exact distribution of a pool's successes (keys: the totals that can happen)."""
    check_dice_count(dice)
    _check_threshold(threshold)
    return dict(_success_distribution(dice, threshold, _check_ones(ones_always_succeed)))


def success_probability(
    dice: int,
    threshold: int,
    difficulty: int,
    fixed: int = 0,
    *,
    ones_always_succeed: bool = True,
) -> Fraction:
    """Exact chance that a roll (plus a fixed part) reaches the difficulty."""
    check_dice_count(dice)
    _check_threshold(threshold)
    require_int(difficulty, field="difficulty", label=fr("La difficulté"), low=0)
    require_int(fixed, field="fixed", label=fr("La partie fixe"), low=0)
    counts = _success_counts(dice, threshold, _check_ones(ones_always_succeed))
    needed = max(0, difficulty - fixed)
    return Fraction(sum(counts[needed:]), D10**dice)


def _check_pools(
    attack_dice: int, attack_threshold: int, defence_dice: int, defence_threshold: int
) -> None:
    check_dice_count(attack_dice, field="attack_dice")
    check_dice_count(defence_dice, field="defence_dice")
    _check_threshold(attack_threshold, "attack_threshold")
    _check_threshold(defence_threshold, "defence_threshold")


def landing_probability(
    attack_dice: int,
    attack_threshold: int,
    defence_dice: int = 0,
    defence_threshold: int = DODGE_THRESHOLD,
    *,
    ones_always_succeed: bool = True,
) -> Fraction:
    """Exact chance that an attack keeps at least 1 net success against a defence roll."""
    _check_pools(attack_dice, attack_threshold, defence_dice, defence_threshold)
    ones = _check_ones(ones_always_succeed)
    ways = odds.count_difference_at_least(
        _success_counts(attack_dice, attack_threshold, ones),
        _success_counts(defence_dice, defence_threshold, ones),
        1,
    )
    return Fraction(ways, D10 ** (attack_dice + defence_dice))


def net_success_distribution(
    attack_dice: int,
    attack_threshold: int,
    defence_dice: int = 0,
    defence_threshold: int = DODGE_THRESHOLD,
    *,
    ones_always_succeed: bool = True,
) -> dict[int, Fraction]:
    """Exact distribution of attack successes minus defence successes."""
    _check_pools(attack_dice, attack_threshold, defence_dice, defence_threshold)
    counts, offset = _net_counts(
        attack_dice,
        attack_threshold,
        defence_dice,
        defence_threshold,
        _check_ones(ones_always_succeed),
    )
    return odds.from_counts(counts, D10 ** (attack_dice + defence_dice), offset)


def _net_counts(
    attack_dice: int,
    attack_threshold: int,
    defence_dice: int,
    defence_threshold: int,
    ones: bool = True,
) -> tuple[tuple[int, ...], int]:
    """Ways (out of 10 ** (attack + defence)) for each net total; index 0 is net = offset."""
    a = _success_counts(attack_dice, attack_threshold, ones)
    d = _success_counts(defence_dice, defence_threshold, ones)
    # attack - defence = attack + (top - defence) - top: convolve with the reversed defence.
    return odds.convolve_counts(a, d[::-1]), -(len(d) - 1)


@odds.cached
def _damage_counts(
    weapon_dice: int, force: int, fixed: int, rd: int, ones: bool = True
) -> tuple[int, ...]:
    """Ways (out of 10 ** weapon_dice) for the damage after RD to take each value."""
    counts = _success_counts(weapon_dice, force, ones)
    out = [0] * max(1, len(counts) + fixed - rd)
    for k, c in enumerate(counts):
        out[max(0, k + fixed - rd)] += c  # armour can absorb everything, never more
    return tuple(out)


def damage_distribution(
    weapon_dice: int,
    fixed: int,
    force: int,
    rd: int = 0,
    bonus_dice: int = 0,
    *,
    ones_always_succeed: bool = True,
) -> dict[int, Fraction]:
    """Exact distribution of damage after RD of a blow that landed (never negative)."""
    _check_damage_inputs(weapon_dice, fixed, force, rd)
    dice = check_dice_count(weapon_dice + _nonneg(bonus_dice, "bonus_dice"), field="weapon_dice")
    counts = _damage_counts(dice, force, fixed, rd, _check_ones(ones_always_succeed))
    return odds.from_counts(counts, D10**dice)


def expected_damage(
    weapon_dice: int,
    fixed: int,
    force: int,
    rd: int = 0,
    bonus_dice: int = 0,
    *,
    ones_always_succeed: bool = True,
) -> Fraction:
    """Mean damage after RD of a blow that landed."""
    return odds.mean(
        damage_distribution(
            weapon_dice, fixed, force, rd, bonus_dice, ones_always_succeed=ones_always_succeed
        )
    )


@dataclass(frozen=True)
class AttackOdds:
    """Odds shown before an attack: landing chance and damage after RD (a miss counts as 0)."""

    lands: Fraction
    damage: dict[int, Fraction]
    expected_damage: Fraction


def attack_odds(
    *,
    attack_dice: int,
    attack_threshold: int,
    defence_dice: int = 0,
    defence_threshold: int = DODGE_THRESHOLD,
    weapon_dice: int,
    fixed: int,
    force: int,
    rd: int = 0,
    convert_extra_successes: bool = True,
    ones_always_succeed: bool = True,
) -> AttackOdds:
    """Exact landing chance and damage distribution, with bonus dice from net successes.

    `ones_always_succeed` is the campaign's "un 1 réussit toujours": it matters when a threshold
    is 0 or less (the second weapon of an attaque double with Force <= 2, a parry value of 0).
    """
    _check_pools(attack_dice, attack_threshold, defence_dice, defence_threshold)
    _check_damage_inputs(weapon_dice, fixed, force, rd)
    ones = _check_ones(ones_always_succeed)
    net, offset = _net_counts(attack_dice, attack_threshold, defence_dice, defence_threshold, ones)
    # Group the net totals by the bonus dice they buy: a miss (net < 1) deals 0 damage.
    first_hit = max(0, 1 - offset)
    miss = sum(net[:first_hit])
    by_bonus: dict[int, int] = {}
    for index in range(first_hit, len(net)):
        bonus = max_bonus_dice(index + offset) if convert_extra_successes else 0
        by_bonus[bonus] = by_bonus.get(bonus, 0) + net[index]
    most_bonus = max((b for b, ways in by_bonus.items() if ways), default=0)
    check_dice_count(weapon_dice + most_bonus, field="weapon_dice")
    damage = _mixed_damage_counts(miss, by_bonus, most_bonus, weapon_dice, force, fixed, rd, ones)
    pool_outcomes = D10 ** (attack_dice + defence_dice)
    denominator = pool_outcomes * D10 ** (weapon_dice + most_bonus)
    return AttackOdds(
        lands=Fraction(pool_outcomes - miss, pool_outcomes),
        damage=odds.from_counts(damage, denominator),
        expected_damage=Fraction(sum(k * c for k, c in enumerate(damage)), denominator),
    )


def _mixed_damage_counts(
    miss: int,
    by_bonus: Mapping[int, int],
    most_bonus: int,
    weapon_dice: int,
    force: int,
    fixed: int,
    rd: int,
    ones: bool,
) -> list[int]:
    """Damage counts of the whole attack, a miss counting 0.

    Everything is counted over one common denominator 10 ** (attack + defence + weapon + most
    bonus dice), so the mix stays in integers until the very end.
    """
    damage = [miss * D10 ** (weapon_dice + most_bonus)]
    for bonus, ways in by_bonus.items():
        if not ways:
            continue
        scale = ways * D10 ** (most_bonus - bonus)
        part = _damage_counts(weapon_dice + bonus, force, fixed, rd, ones)
        if len(part) > len(damage):
            damage.extend([0] * (len(part) - len(damage)))
        for k, c in enumerate(part):
            damage[k] += scale * c
    return damage


def burn_probability(dice: int, threshold: int) -> Fraction:
    """Exact chance of a brûlure d'érys: every die succeeds, (t/10) ** n (0 with no die)."""
    check_dice_count(dice)
    _check_threshold(threshold)
    if dice == 0:
        return Fraction(0)
    t = max(0, min(threshold, D10))
    return Fraction(t, D10) ** dice


def _nonneg(value: object, field_name: str) -> int:
    return require_int(value, field=field_name, label=field_name, low=0)


def _check_damage_inputs(weapon_dice: int, fixed: int, force: int, rd: int) -> None:
    check_dice_count(weapon_dice, field="weapon_dice")
    require_int(fixed, field="fixed", label=fr("Les dégâts fixes"), low=0)
    _check_threshold(force, "force")
    require_int(rd, field="rd", label=fr("La RD"), low=0)
