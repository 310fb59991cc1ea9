"""Dice of the Aethoria console: typed faces or the app's roll, the stored form of a pool roll,
and fatigue dice spent on a roll.
"""

from __future__ import annotations

from django.utils.translation import gettext

from apps.encounters.kit import EncounterError, Step
from apps.encounters.models import DiceSource
from apps.rules import aethoria
from apps.rules.dice import D10, SecureDice, check_faces
from apps.rules.errors import RulesError

from .fighters import rules_refusal


class DiceBag:
    """Faces typed from physical dice (exact count checked) or rolled by the app."""

    def __init__(self) -> None:
        self.secure = SecureDice()
        self.typed = 0
        self.rolled = 0

    def take(
        self, typed: tuple[int, ...] | None, count: int, sides: int, field: str, label: str
    ) -> tuple[int, ...]:
        if typed is None:
            if count:
                self.rolled += 1
            return self.secure.d10(count) if sides == D10 else self.secure.d20(count)
        try:
            faces = check_faces(typed, sides, field=field)
        except RulesError as error:
            raise rules_refusal(error, field) from error
        if len(faces) != count:
            raise EncounterError(
                gettext(
                    "%(label)s : il faut exactement %(count)s d%(sides)s (reçu : %(received)s)."
                )
                % {"label": label, "count": count, "sides": sides, "received": len(faces)},
                field,
            )
        self.typed += 1
        return faces

    @property
    def source(self) -> str:
        if self.typed and self.rolled:
            return "mixed"
        if self.typed:
            return DiceSource.PHYSICAL
        return DiceSource.APP if self.rolled else DiceSource.NONE


def roll_json(result: aethoria.PoolResult) -> dict:
    return {
        "kind": result.spec.kind,
        "dice": result.spec.dice,
        "threshold": result.spec.threshold,
        "fixed": result.spec.fixed,
        "fatigue": result.spec.fatigue,
        "faces": list(result.faces),
        "fatigue_faces": list(result.fatigue_faces),
        "fatigue_timing": result.fatigue_timing,
        "successes": result.successes,
        "ones_always_succeed": result.spec.ones_always_succeed,
    }


def roll_from_json(data: dict) -> aethoria.PoolResult:
    # Rolls stored before "un 1 réussit toujours" counted no 1 under a threshold below 1.
    ones = data.get("ones_always_succeed", False)
    spec = aethoria.RollSpec(
        data["kind"], data["dice"], data["threshold"], data["fatigue"], data["fixed"], ones
    )
    return aethoria.roll_pool(
        spec,
        data["faces"],
        data["fatigue_faces"],
        fatigue_timing=data["fatigue_timing"] or aethoria.BEFORE,
    )


def spend_fatigue_dice(
    pools: aethoria.AethoriaPools, kind: str, count: int
) -> tuple[aethoria.AethoriaPools, aethoria.PoolDelta]:
    if not count:
        return pools, aethoria.PoolDelta()
    try:
        return aethoria.spend_fatigue(pools, kind, count)
    except RulesError as error:
        raise rules_refusal(error, "fatigue") from error


def set_pools(step: Step, sheet, pools: aethoria.AethoriaPools) -> None:
    step.set(sheet, "pv", pools.pv)
    step.set(sheet, "fatigue_physical", pools.physical)
    step.set(sheet, "fatigue_mental", pools.mental)
