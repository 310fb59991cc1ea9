"""EW tests on the table (NA against ND, 1d20 <= score) and points d'éclat."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from apps.rules.checks import (
    require_int,
    require_ints,
)
from apps.rules.dice import D20, check_d20
from apps.rules.errors import (
    InvalidEclatSpend,
    fr,
)
from apps.rules.ew.constants import ECLAT_COUP_DE_POUCE, ECLAT_RESCUE
from apps.rules.ew.house import _DEFAULT_TABLE
from apps.rules.ew.table import ResolutionTable

# --- Tests on the table -----------------------------------------------------------------------


@dataclass(frozen=True)
class EwTestResult:
    """A roll on the table: success iff the d20 roll is at most the score."""

    na: int
    modifier: int
    nd: int
    score: int
    roll: int
    success: bool
    margin: int
    eclat_rescue: bool = False


def _sum_modifiers(modifiers: Iterable[int], field_name: str = "modifiers") -> int:
    return sum(require_ints(modifiers, field=field_name, label=fr("Les modificateurs")))


def _table(table: ResolutionTable | None) -> ResolutionTable:
    return _DEFAULT_TABLE if table is None else table


def resolve_test(
    na: int,
    nd: int,
    roll: int,
    modifiers: Iterable[int] = (),
    table: ResolutionTable | None = None,
) -> EwTestResult:
    """Cross NA (plus modifiers) and ND on the table; success iff d20 <= score.

    ND may be any integer: an opponent's wound and extra-action maluses lower it (they weigh on
    all its actions, resisting included), below 0 if need be; the table then clamps the score.
    """
    require_int(na, field="na", label=fr("Le NA"), low=0)
    require_int(nd, field="nd", label=fr("Le ND"))
    check_d20(roll, field="roll")
    modifier = _sum_modifiers(modifiers)
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


def success_probability(
    na: int, nd: int, modifiers: Iterable[int] = (), table: ResolutionTable | None = None
) -> Fraction:
    """Exact chance that a test succeeds: score / 20 (ND may be any integer, see resolve_test)."""
    require_int(na, field="na", label=fr("Le NA"), low=0)
    require_int(nd, field="nd", label=fr("Le ND"))
    score = _table(table).score(na + _sum_modifiers(modifiers), nd)
    return Fraction(score, D20)


# --- Points d'éclat ---------------------------------------------------------------------------


@dataclass(frozen=True)
class EclatSpend:
    """A logged spend of one point d'éclat (kept so it can be undone)."""

    reason: str
    before: int
    after: int
    note: str = ""


def _spend_one_eclat(eclat: int, reason: str, note: str) -> EclatSpend:
    require_int(
        eclat, field="eclat", label=fr("Les points d'éclat"), low=0, error=InvalidEclatSpend
    )
    if eclat == 0:
        raise InvalidEclatSpend(fr("Plus aucun point d'éclat à dépenser."), field="eclat")
    return EclatSpend(reason=reason, before=eclat, after=eclat - 1, note=note)


def rescue_with_eclat(result: EwTestResult, eclat: int) -> tuple[EwTestResult, EclatSpend]:
    """Spend 1 point d'éclat to turn a failed roll into a success."""
    if result.success:
        raise InvalidEclatSpend(
            fr("Ce jet est déjà réussi : inutile de dépenser un point d'éclat."), field="eclat"
        )
    spend = _spend_one_eclat(eclat, ECLAT_RESCUE, "")
    rescued = EwTestResult(
        na=result.na,
        modifier=result.modifier,
        nd=result.nd,
        score=result.score,
        roll=result.roll,
        success=True,
        margin=result.margin,  # the dice still failed; the margin says by how much
        eclat_rescue=True,
    )
    return rescued, spend


def spend_coup_de_pouce(eclat: int, note: str = "") -> EclatSpend:
    """Spend 1 point d'éclat for a narrative helping hand ("coup de pouce du destin")."""
    if not isinstance(note, str):
        raise InvalidEclatSpend(fr("La note du coup de pouce doit être un texte."), field="note")
    return _spend_one_eclat(eclat, ECLAT_COUP_DE_POUCE, note.strip())


def revert_eclat_spend(eclat: int, spend: EclatSpend, maximum: int | None = None) -> int:
    """Give back the point of an undone spend; returns the new éclat total."""
    require_int(
        eclat, field="eclat", label=fr("Les points d'éclat"), low=0, error=InvalidEclatSpend
    )
    restored = eclat + (spend.before - spend.after)
    if maximum is not None and restored > maximum:
        raise InvalidEclatSpend(
            fr("Annuler cette dépense dépasserait le maximum de %(maximum)s points d'éclat."),
            field="eclat",
            params={"maximum": maximum},
        )
    return restored
