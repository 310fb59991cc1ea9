"""Aethoria initiative and a combatant's turn: defences, aim, prepared action."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from apps.rules.aethoria.character import check_characteristic
from apps.rules.aethoria.constants import (
    ACTIONS,
    ATTACK_ACTIONS,
    BASE_DEFENCES,
    CAST,
    DEFENCE_ACTION_EXTRA,
    DEFENSE,
    MAGIC_TYPES,
    MARQUE,
    NO_MAGIC,
    PREPARER,
    VISER,
    VISER_BONUS,
)
from apps.rules.aethoria.house import DEFAULT_HOUSE_RULES, AethoriaHouseRules
from apps.rules.checks import (
    is_int,
    require_choice,
    require_int,
    require_text,
)
from apps.rules.dice import check_d20
from apps.rules.errors import (
    InvalidAction,
    InvalidDefence,
    InvalidInitiative,
    InvalidSpell,
    fr,
)
from apps.rules.initiative import order_by_initiative

# --- Initiative and turns ---------------------------------------------------------------------


@dataclass(frozen=True)
class AethoriaInitiativeRoll:
    """One combatant's initiative: a d20 (ties by Adresse, then a stored draw)."""

    key: str | int
    adresse: int
    roll: int
    draw: int = 0
    modifier: int = 0  # situational (a condition), added to the d20

    def __post_init__(self) -> None:
        check_d20(self.roll, field="roll")
        require_int(self.modifier, field="modifier", label=fr("Le modificateur"))
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
        total=lambda r: r.roll + r.modifier,
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
