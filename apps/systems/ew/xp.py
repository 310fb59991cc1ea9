"""EW-System's XP costs (``GameSystem.xp_costs``): what a character may buy with XP — a
characteristic, a specialty, a power already held, points d'éclat bought back — at the
engine's prices, and how a purchase changes the sheet and is taken back. The ledger (awards,
balance, spends and refunds) is the characters app's."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from apps.characters.models import EwPowerRank, EwSheet, EwSpecialtyRank
from apps.compendium.models import EwPower, EwSpecialty
from apps.rules import ew
from apps.rules.errors import InvalidImprovement, RulesError
from apps.systems.base import XpCosts

from .creation import archetype_factors


@dataclass(frozen=True)
class Improvement:
    """An XP purchase: what (characteristic, specialty, power, eclat) and which one."""

    kind: str
    name: str = ""  # characteristic name
    target_id: int | None = None  # specialty or power id
    count: int = 1  # points d'éclat bought back


IMPROVEMENT_KINDS = ("characteristic", "specialty", "power", "eclat")


def xp_cost(sheet: EwSheet, improvement: Improvement, house: ew.EwHouseRules) -> tuple[int, dict]:
    """XP cost of an improvement and the record needed to undo it; raises RulesError."""
    pricing = {
        "characteristic": _characteristic_cost,
        "specialty": _specialty_cost,
        "power": _power_cost,
        "eclat": _eclat_cost,
    }.get(improvement.kind)
    if pricing is None:
        raise InvalidImprovement(_("Amélioration inconnue."), field="improvement")
    return pricing(sheet, improvement, house)


def _characteristic_cost(sheet: EwSheet, improvement: Improvement, house) -> tuple[int, dict]:
    if improvement.name not in ew.CHARACTERISTICS:
        raise InvalidImprovement(_("Caractéristique inconnue."), field="improvement")
    current = getattr(sheet, improvement.name)
    cost = ew.characteristic_xp_cost(current, house)
    label = ew.CHARACTERISTIC_LABELS[improvement.name]
    return cost, {
        "kind": improvement.kind,
        "name": improvement.name,
        "label": label,
        "from": current,
    }


def _specialty_cost(sheet: EwSheet, improvement: Improvement, house) -> tuple[int, dict]:
    rank = (
        sheet.specialties.select_related("specialty")
        .filter(specialty_id=improvement.target_id)
        .first()
    )
    specialty = (
        rank.specialty if rank else EwSpecialty.objects.filter(pk=improvement.target_id).first()
    )
    if specialty is None:
        raise InvalidImprovement(_("Spécialité inconnue."), field="improvement")
    current = rank.level if rank else 0
    factor = archetype_factors(sheet.archetype).factor(specialty.field)
    cost = ew.specialty_xp_cost(current, factor, house)
    return cost, {
        "kind": improvement.kind,
        "id": specialty.pk,
        "label": specialty.name,
        "from": current,
        "created": rank is None,
    }


def _power_cost(sheet: EwSheet, improvement: Improvement, house) -> tuple[int, dict]:
    rank = sheet.powers.select_related("power").filter(power_id=improvement.target_id).first()
    if rank is None:
        raise InvalidImprovement(
            _("Seul un pouvoir déjà acquis progresse avec l'XP."), field="improvement"
        )
    cost = ew.power_xp_cost(rank.level, house)
    return cost, {
        "kind": improvement.kind,
        "id": rank.power_id,
        "label": rank.power.name,
        "from": rank.level,
    }


def _eclat_cost(sheet: EwSheet, improvement: Improvement, house) -> tuple[int, dict]:
    cost = ew.eclat_xp_cost(sheet.eclat, sheet.eclat_max, improvement.count, house)
    return cost, {
        "kind": improvement.kind,
        "label": _("points d'éclat"),
        "from": sheet.eclat,
        "count": improvement.count,
    }


def _apply(sheet: EwSheet, record: dict, direction: int) -> None:
    """Apply (+1) or revert (-1) a recorded improvement on the sheet."""
    kind = record["kind"]
    if kind == "characteristic":
        _apply_characteristic(sheet, record["name"], direction)
    elif kind == "specialty":
        _apply_specialty(sheet, record, direction)
    elif kind == "power":
        rank = EwPowerRank.objects.get(sheet=sheet, power_id=record["id"])
        rank.level += direction
        rank.save(update_fields=["level"])
    elif kind == "eclat":
        sheet.eclat += direction * record["count"]
        sheet.save(update_fields=["eclat"])


def _apply_characteristic(sheet: EwSheet, name: str, direction: int) -> None:
    old = getattr(sheet, name)
    new = old + direction
    if name == "phy":
        pools = ew.pools_after_phy_change(sheet.pools(), old, new)
        sheet.superficial_left, sheet.lethal_left = pools.superficial, pools.lethal
    setattr(sheet, name, new)
    sheet.save(update_fields=[name, "superficial_left", "lethal_left"])


def _apply_specialty(sheet: EwSheet, record: dict, direction: int) -> None:
    if direction > 0:
        rank, _created = EwSpecialtyRank.objects.get_or_create(
            sheet=sheet, specialty_id=record["id"], defaults={"level": 0}
        )
        rank.level += 1
        rank.save(update_fields=["level"])
        return
    rank = EwSpecialtyRank.objects.get(sheet=sheet, specialty_id=record["id"])
    if record.get("created") and rank.level == 1:
        rank.delete()
    else:
        rank.level -= 1
        rank.save(update_fields=["level"])


def _current_value(sheet: EwSheet, record: dict) -> int:
    kind = record["kind"]
    if kind == "characteristic":
        return getattr(sheet, record["name"])
    if kind == "specialty":
        rank = EwSpecialtyRank.objects.filter(sheet=sheet, specialty_id=record["id"]).first()
        return rank.level if rank else 0
    if kind == "power":
        rank = EwPowerRank.objects.filter(sheet=sheet, power_id=record["id"]).first()
        return rank.level if rank else 0
    return sheet.eclat


def _improvements(sheet: EwSheet) -> list[tuple[str, Improvement, str]]:
    """Every improvement the rules know for this sheet: (form value, improvement, label)."""
    offers = []
    for name in ew.CHARACTERISTICS:
        value = getattr(sheet, name)
        label = f"{ew.CHARACTERISTIC_LABELS[name]} {value} → {value + 1}"
        offers.append((f"characteristic:{name}", Improvement("characteristic", name=name), label))
    levels = {r.specialty_id: r.level for r in sheet.specialties.all()}
    for specialty in EwSpecialty.objects.all():
        level = levels.get(specialty.pk, 0)
        label = f"{specialty.name} {level} → {level + 1}"
        improvement = Improvement("specialty", target_id=specialty.pk)
        offers.append((f"specialty:{specialty.pk}", improvement, label))
    for rank in sheet.powers.select_related("power"):
        label = f"{rank.power.name} {rank.level} → {rank.level + 1}"
        improvement = Improvement("power", target_id=rank.power_id)
        offers.append((f"power:{rank.power_id}", improvement, label))
    if sheet.eclat < sheet.eclat_max:
        label = _("Racheter 1 point d'éclat (%(now)s → %(next)s)") % {
            "now": sheet.eclat,
            "next": sheet.eclat + 1,
        }
        offers.append(("eclat:1", Improvement("eclat", count=1), label))
    return offers


class EwXpCosts(XpCosts):
    """EW's XP costs, priced by the engine with the campaign's house rules."""

    sheet_relations = ("archetype",)  # a specialty's price depends on the archetype's factor
    help_text = gettext_lazy(
        "Chaque coût suit les règles maison de la campagne ; les limites (caractéristique "
        "10, spécialité 6, éclat maximum) sont déjà appliquées."
    )
    record_models = {"specialty": EwSpecialty, "power": EwPower}

    def options(self, sheet: EwSheet, house, balance: int) -> list[tuple[str, str]]:
        """Every improvement the character may buy now, with its XP cost (the engine's); one
        at its limit is not offered."""
        options = []
        for value, improvement, label in _improvements(sheet):
            try:
                cost, _record = xp_cost(sheet, improvement, house)
            except RulesError:
                continue
            short = _(" (XP insuffisants)") if cost > balance else ""
            options.append((value, f"{label} — {cost} XP{short}"))
        return options

    def improvement(self, value: str) -> Improvement:
        """The improvement a form value names ("characteristic:phy", "specialty:12", "eclat:1")."""
        kind, _sep, target = value.partition(":")
        if kind == "characteristic":
            return Improvement(kind, name=target)
        if kind == "eclat":
            return Improvement(kind, count=int(target))
        return Improvement(kind, target_id=int(target))

    def price(self, sheet: EwSheet, improvement: Improvement, house, balance: int):
        cost, record = xp_cost(sheet, improvement, house)
        ew.check_xp_affordable(balance, cost)
        return cost, record

    def apply(self, sheet: EwSheet, record: dict, direction: int) -> None:
        _apply(sheet, record, direction)

    def current_value(self, sheet: EwSheet, record: dict) -> int:
        return _current_value(sheet, record)


EW_XP_COSTS = EwXpCosts()
