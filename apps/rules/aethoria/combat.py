"""Aethoria combat: weapons, armour, hit locations, attack outcome, damage, special actions."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from apps.rules.aethoria.character import check_characteristic
from apps.rules.aethoria.constants import (
    BLEEDING,
    CIBLER_LOCATION_DICE,
    DAMAGE,
    DOUBLE_ATTACK_SECOND_FORCE_MALUS,
    DOUBLE_DEFENCE_SPLIT,
    EXTRA_SUCCESSES_PER_DIE,
    FRACTURE,
    INSTANT_DEATH,
    NO_EFFECT,
    PHYSICAL,
)
from apps.rules.aethoria.house import DEFAULT_HOUSE_RULES, AethoriaHouseRules
from apps.rules.aethoria.rolls import PoolResult, RollSpec
from apps.rules.checks import (
    is_int,
    require_bool,
    require_choice,
    require_int,
)
from apps.rules.dice import D10, D20, check_d20, check_faces
from apps.rules.errors import (
    InvalidAction,
    InvalidDamage,
    InvalidDefence,
    InvalidLocation,
    InvalidWeapon,
    fr,
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
