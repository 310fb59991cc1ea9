"""EW combat: initiative, a round's actions, attacks, damage and the two damage pools."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from apps.rules.checks import (
    is_int,
    require_choice,
    require_int,
)
from apps.rules.dice import check_d10, check_d20
from apps.rules.errors import (
    InvalidAction,
    InvalidDamage,
    InvalidInitiative,
    InvalidWeapon,
    fr,
)
from apps.rules.ew.character import check_characteristic, check_specialty_level, natural_defence
from apps.rules.ew.constants import (
    FISTS,
    FISTS_IMPACT_DIVISOR,
    HALF_PV_MALUS,
    MELEE,
    NORMAL,
    QUARTER_PV_MALUS,
    RANGED,
    TOTAL_ATTACK,
    TOTAL_DEFENCE,
    WEAPON_KINDS,
    divide,
)
from apps.rules.ew.house import DEFAULT_HOUSE_RULES, EwHouseRules
from apps.rules.ew.resolution import EwTestResult, _sum_modifiers, _table
from apps.rules.ew.table import ResolutionTable
from apps.rules.initiative import order_by_initiative

# --- Initiative -------------------------------------------------------------------------------


@dataclass(frozen=True)
class EwInitiativeRoll:
    """One combatant's initiative for a round: 1d10 + initiative score (com)."""

    key: str | int
    com: int
    roll: int
    draw: int = 0  # stored random tie-break, so the order does not change on reload
    modifier: int = 0  # situational (a condition), added like any modifier
    total: int = field(init=False)

    def __post_init__(self) -> None:
        check_d10(self.roll, field="roll")
        require_int(self.com, field="com", label=fr("Le score de combat"), low=0)
        require_int(self.modifier, field="modifier", label=fr("Le modificateur"))
        if not is_int(self.draw):
            raise InvalidInitiative(fr("Le tirage de départage doit être un entier."), field="draw")
        object.__setattr__(self, "total", self.roll + self.com + self.modifier)


def initiative_order(
    rolls: Sequence[EwInitiativeRoll], house: EwHouseRules = DEFAULT_HOUSE_RULES
) -> tuple[EwInitiativeRoll, ...]:
    """Acting order of a round: highest total first; ties by com (house rule) then the draw."""
    return order_by_initiative(
        rolls,
        key=lambda r: r.key,
        total=lambda r: r.total,
        tie=(lambda r: r.com) if house.initiative_ties_by_com else None,
        draw=lambda r: r.draw,
    )


# --- Actions of a round -----------------------------------------------------------------------


@dataclass(frozen=True)
class RoundActions:
    """What one character did this round; transitions return a new state (start each round
    from `RoundActions()`)."""

    attacks: int = 0
    defences: int = 0
    stance: str = NORMAL

    @property
    def extra_actions(self) -> int:
        """Attacks and defences beyond the free one of each."""
        return max(0, self.attacks - 1) + max(0, self.defences - 1)

    def malus(self, house: EwHouseRules = DEFAULT_HOUSE_RULES) -> int:
        """Cumulative extra-action malus now applying to all this character's actions."""
        return self.extra_actions * house.extra_action_malus

    def declare_total_attack(self) -> RoundActions:
        """Give up defending this round for a bonus on attacks."""
        self._check_normal_stance()
        if self.defences:
            raise InvalidAction(
                fr("Attaque totale impossible : le personnage s'est déjà défendu ce round."),
                field="stance",
            )
        return RoundActions(self.attacks, self.defences, TOTAL_ATTACK)

    def declare_total_defence(self) -> RoundActions:
        """Give up attacking this round for a bonus on defences."""
        self._check_normal_stance()
        if self.attacks:
            raise InvalidAction(
                fr("Défense totale impossible : le personnage a déjà attaqué ce round."),
                field="stance",
            )
        return RoundActions(self.attacks, self.defences, TOTAL_DEFENCE)

    def attack(self, house: EwHouseRules = DEFAULT_HOUSE_RULES) -> tuple[RoundActions, int]:
        """Record an attack; returns the new state and the round modifier of this attack."""
        if self.stance == TOTAL_DEFENCE:
            raise InvalidAction(
                fr("En défense totale, le personnage ne peut pas attaquer ce round."),
                field="stance",
            )
        after = RoundActions(self.attacks + 1, self.defences, self.stance)
        bonus = house.total_attack_bonus if self.stance == TOTAL_ATTACK else 0
        return after, after.malus(house) + bonus

    def defend(self, house: EwHouseRules = DEFAULT_HOUSE_RULES) -> tuple[RoundActions, int]:
        """Record an active defence; returns the new state and the round modifier of it."""
        if self.stance == TOTAL_ATTACK:
            raise InvalidAction(
                fr("En attaque totale, le personnage ne peut pas se défendre ce round."),
                field="stance",
            )
        after = RoundActions(self.attacks, self.defences + 1, self.stance)
        bonus = house.total_defence_bonus if self.stance == TOTAL_DEFENCE else 0
        return after, after.malus(house) + bonus

    def _check_normal_stance(self) -> None:
        if self.stance != NORMAL:
            raise InvalidAction(fr("Une posture a déjà été choisie ce round."), field="stance")


# --- Attacks and damage -----------------------------------------------------------------------


@dataclass(frozen=True)
class EwWeapon:
    """A weapon: fists, melee (PHY/4 + damage bonus) or ranged (its own impact)."""

    kind: str = FISTS
    damage_bonus: int = 0
    impact: int = 0
    name: str = ""

    def __post_init__(self) -> None:
        require_choice(
            self.kind, WEAPON_KINDS, field="kind", label=fr("Le type d'arme"), error=InvalidWeapon
        )
        require_int(
            self.damage_bonus,
            field="damage_bonus",
            label=fr("Le bonus aux dégâts"),
            low=0,
            error=InvalidWeapon,
        )
        require_int(self.impact, field="impact", label=fr("L'impact"), low=0, error=InvalidWeapon)


BARE_FISTS = EwWeapon(FISTS, name="poings")


def weapon_impact(weapon: EwWeapon, attacker_phy: int, rounding: str = "down") -> int:
    """Impact: fists = PHY/4; melee = PHY/4 + damage bonus; ranged = the weapon's impact only."""
    if weapon.kind == RANGED:
        return weapon.impact
    strength = divide(check_characteristic(attacker_phy, "phy"), FISTS_IMPACT_DIVISOR, rounding)
    return strength + (weapon.damage_bonus if weapon.kind == MELEE else 0)


@dataclass(frozen=True)
class EwActiveDefence:
    """A defender actively defending: its com, weapon specialty and own modifiers."""

    com: int
    specialty: int
    modifiers: tuple[int, ...] = ()

    @property
    def level(self) -> int:
        """ND opposed to the attacker: com + specialty + the defender's own modifiers."""
        return self.com + self.specialty + _sum_modifiers(self.modifiers, "defence_modifiers")


def to_hit_nd(natural_defence_value: int, active_defence: EwActiveDefence | None) -> int:
    """ND of an attack: the active defence if the target defends, else its natural defence."""
    require_int(
        natural_defence_value, field="natural_defence", label=fr("La défense naturelle"), low=0
    )
    if active_defence is None:
        return natural_defence_value
    require_int(active_defence.com, field="defender_com", label=fr("Le combat du défenseur"), low=0)
    check_specialty_level(active_defence.specialty, "defender_specialty")
    # Wounds or extra actions can push a defence below 0; the table handles that (see score()).
    return active_defence.level


def resolve_to_hit(
    *,
    attacker_com: int,
    weapon_specialty: int,
    target_natural_defence: int,
    roll: int,
    active_defence: EwActiveDefence | None = None,
    modifiers: Iterable[int] = (),
    table: ResolutionTable | None = None,
) -> EwTestResult:
    """Attack roll: NA = com + weapon specialty (+ modifiers) against the defence's ND."""
    require_int(attacker_com, field="attacker_com", label=fr("Le combat de l'attaquant"), low=0)
    check_specialty_level(weapon_specialty, "weapon_specialty")
    nd = to_hit_nd(target_natural_defence, active_defence)
    check_d20(roll, field="roll")
    modifier = _sum_modifiers(modifiers)
    na = attacker_com + weapon_specialty
    score = _table(table).score(na + modifier, nd)
    return EwTestResult(
        na=na,
        modifier=modifier,
        nd=nd,
        score=score,
        roll=roll,
        success=roll <= score,
        margin=score - roll,
    )


def superficial_damage(face: int, target_natural_defence: int) -> int:
    """Superficial points lost: 1d10 - the target's natural defence, at least 0."""
    check_d10(face, field="damage_roll")
    require_int(
        target_natural_defence, field="natural_defence", label=fr("La défense naturelle"), low=0
    )
    return max(0, face - target_natural_defence)


def lethal_damage(impact: int, protection: int) -> int:
    """Lethal points lost: the weapon's impact - the armour's protection, at least 0."""
    require_int(impact, field="impact", label=fr("L'impact"), low=0, error=InvalidDamage)
    require_int(
        protection, field="protection", label=fr("La protection"), low=0, error=InvalidDamage
    )
    return max(0, impact - protection)


@dataclass(frozen=True)
class EwDamage:
    """The damage of a blow that landed."""

    face: int
    superficial: int
    impact: int
    protection: int
    lethal: int


def roll_damage(
    face: int, *, impact: int, target_natural_defence: int, target_protection: int
) -> EwDamage:
    """Damage of a landed blow from its d10 face."""
    return EwDamage(
        face=face,
        superficial=superficial_damage(face, target_natural_defence),
        impact=impact,
        protection=target_protection,
        lethal=lethal_damage(impact, target_protection),
    )


@dataclass(frozen=True)
class EwAttackResult:
    """A whole attack: the to-hit roll and, if it landed, the damage."""

    to_hit: EwTestResult
    damage: EwDamage | None


def resolve_attack(
    *,
    attacker_com: int,
    attacker_phy: int,
    weapon: EwWeapon,
    weapon_specialty: int,
    target_phy: int,
    target_protection: int,
    to_hit_roll: int,
    damage_roll: int | None,
    active_defence: EwActiveDefence | None = None,
    modifiers: Iterable[int] = (),
    house: EwHouseRules = DEFAULT_HOUSE_RULES,
) -> EwAttackResult:
    """To-hit then, if it lands, damage (the damage d10 is only needed when it lands)."""
    target_nd = natural_defence(target_phy, house.rounding)
    to_hit = resolve_to_hit(
        attacker_com=attacker_com,
        weapon_specialty=weapon_specialty,
        target_natural_defence=target_nd,
        roll=to_hit_roll,
        active_defence=active_defence,
        modifiers=modifiers,
        table=house.table,
    )
    if not to_hit.success:
        return EwAttackResult(to_hit, None)
    if damage_roll is None:
        raise InvalidDamage(fr("Le coup porte : il faut le d10 des dégâts."), field="damage_roll")
    damage = roll_damage(
        damage_roll,
        impact=weapon_impact(weapon, attacker_phy, house.rounding),
        target_natural_defence=target_nd,
        target_protection=target_protection,
    )
    return EwAttackResult(to_hit, damage)


# --- Damage pools -----------------------------------------------------------------------------


def wound_malus(pv: int, superficial_left: int, lethal_left: int) -> int:
    """Malus to all actions: -4 below a quarter of PV, -2 below half (worse pool applies)."""
    require_int(pv, field="pv", label=fr("Les PV"), low=1)
    require_int(
        superficial_left, field="superficial", label=fr("Les points superficiels"), low=0, high=pv
    )
    require_int(lethal_left, field="lethal", label=fr("Les points létaux"), low=0, high=pv)
    worst = min(superficial_left, lethal_left)
    # Exact comparisons (no rounding of PV/2 or PV/4): "below the threshold" means 4 x left < PV.
    if 4 * worst < pv:
        return QUARTER_PV_MALUS
    if 2 * worst < pv:
        return HALF_PV_MALUS
    return 0


@dataclass(frozen=True)
class EwPools:
    """Current superficial and lethal points; both pools have PV as maximum."""

    pv: int
    superficial: int
    lethal: int

    def __post_init__(self) -> None:
        require_int(self.pv, field="pv", label=fr("Les PV"), low=1)
        require_int(
            self.superficial,
            field="superficial",
            label=fr("Les points superficiels"),
            low=0,
            high=self.pv,
        )
        require_int(self.lethal, field="lethal", label=fr("Les points létaux"), low=0, high=self.pv)

    @classmethod
    def full(cls, pv: int) -> EwPools:
        """Both pools at their maximum."""
        return cls(pv, pv, pv)

    @property
    def unconscious(self) -> bool:
        """Superficial points at 0."""
        return self.superficial == 0

    @property
    def dead(self) -> bool:
        """Lethal points at 0."""
        return self.lethal == 0

    @property
    def wound_malus(self) -> int:
        """Malus to all actions from wounds (0, -2 or -4)."""
        return wound_malus(self.pv, self.superficial, self.lethal)


@dataclass(frozen=True)
class EwDamageApplied:
    """What a blow really removed from each pool (stored so undo is exact)."""

    superficial: int
    lethal: int
    from_superficial: int
    overflow: int
    from_lethal: int
    lost: int
    before: EwPools
    after: EwPools

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> EwDamageApplied:
        """Rebuild a stored record (the output of `dataclasses.asdict`), e.g. to undo it."""
        fields = dict(data)
        fields["before"] = EwPools(**fields["before"])
        fields["after"] = EwPools(**fields["after"])
        return cls(**fields)


def apply_damage(pools: EwPools, superficial: int, lethal: int) -> EwDamageApplied:
    """Take damage: superficial beyond the superficial pool overflows into the lethal pool."""
    require_int(
        superficial,
        field="superficial",
        label=fr("Les dégâts superficiels"),
        low=0,
        error=InvalidDamage,
    )
    require_int(lethal, field="lethal", label=fr("Les dégâts létaux"), low=0, error=InvalidDamage)
    from_superficial = min(superficial, pools.superficial)
    overflow = superficial - from_superficial
    wanted_from_lethal = overflow + lethal
    from_lethal = min(wanted_from_lethal, pools.lethal)
    after = EwPools(pools.pv, pools.superficial - from_superficial, pools.lethal - from_lethal)
    return EwDamageApplied(
        superficial=superficial,
        lethal=lethal,
        from_superficial=from_superficial,
        overflow=overflow,
        from_lethal=from_lethal,
        lost=wanted_from_lethal - from_lethal,  # points beyond death: nothing left to take
        before=pools,
        after=after,
    )


def revert_damage(pools: EwPools, applied: EwDamageApplied) -> EwPools:
    """Undo a blow exactly: give back what it really removed."""
    superficial = pools.superficial + applied.from_superficial
    lethal = pools.lethal + applied.from_lethal
    if pools.pv != applied.before.pv or superficial > pools.pv or lethal > pools.pv:
        raise InvalidDamage(
            fr("Impossible d'annuler ces dégâts : les réserves ont changé depuis."), field="pools"
        )
    return EwPools(pools.pv, superficial, lethal)
