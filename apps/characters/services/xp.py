"""Experience: XP awarded by the GM, improvements bought at the rules' costs, and both taken
back."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from apps.accounts.models import User
from apps.campaigns.models import Campaign, LogKind
from apps.compendium.models import EwSpecialty
from apps.rules import ew
from apps.rules.errors import (
    InvalidImprovement,
    RulesError,
)
from apps.systems import system_of

from .. import fights
from ..models import (
    Character,
    EwPowerRank,
    EwSheet,
    EwSpecialtyRank,
    XpEntry,
    XpKind,
)
from .journal import log_line

# --- Experience -------------------------------------------------------------------------------


@transaction.atomic
def xp_award(
    *, campaign: Campaign, characters: Iterable[Character], amount: int, reason: str, by: User
) -> list[XpEntry]:
    """Give XP to several characters at once: one ledger line each, one line in the log."""
    if amount <= 0:
        raise InvalidImprovement(_("Un gain d'XP est un nombre positif."), field="amount")
    characters = list(characters)
    if any(c.campaign_id != campaign.pk for c in characters):
        raise ValueError("Characters of another campaign.")
    entries = XpEntry.objects.bulk_create(
        XpEntry(character=c, kind=XpKind.AWARD, amount=amount, reason=reason, created_by=by)
        for c in characters
    )
    names = ", ".join(c.name for c in characters)
    log_line(
        campaign,
        _("%(amount)s XP à %(names)s : %(reason)s")
        % {"amount": amount, "names": names, "reason": reason},
        by,
        LogKind.XP,
    )
    campaign.touch()
    return entries


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
    kind = improvement.kind
    if kind == "characteristic":
        if improvement.name not in ew.CHARACTERISTICS:
            raise InvalidImprovement(_("Caractéristique inconnue."), field="improvement")
        current = getattr(sheet, improvement.name)
        cost = ew.characteristic_xp_cost(current, house)
        label = ew.CHARACTERISTIC_LABELS[improvement.name]
        return cost, {"kind": kind, "name": improvement.name, "label": label, "from": current}
    if kind == "specialty":
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
        factors = sheet.archetype.field_factors() if sheet.archetype else ew.FieldFactors()
        factor = factors.factor(specialty.field)
        cost = ew.specialty_xp_cost(current, factor, house)
        return cost, {
            "kind": kind,
            "id": specialty.pk,
            "label": specialty.name,
            "from": current,
            "created": rank is None,
        }
    if kind == "power":
        rank = sheet.powers.select_related("power").filter(power_id=improvement.target_id).first()
        if rank is None:
            raise InvalidImprovement(
                _("Seul un pouvoir déjà acquis progresse avec l'XP."), field="improvement"
            )
        cost = ew.power_xp_cost(rank.level, house)
        return cost, {
            "kind": kind,
            "id": rank.power_id,
            "label": rank.power.name,
            "from": rank.level,
        }
    if kind == "eclat":
        cost = ew.eclat_xp_cost(sheet.eclat, sheet.eclat_max, improvement.count, house)
        return cost, {
            "kind": kind,
            "label": _("points d'éclat"),
            "from": sheet.eclat,
            "count": improvement.count,
        }
    raise InvalidImprovement(_("Amélioration inconnue."), field="improvement")


def _apply(sheet: EwSheet, record: dict, direction: int) -> None:
    """Apply (+1) or revert (-1) a recorded improvement on the sheet."""
    kind = record["kind"]
    if kind == "characteristic":
        name = record["name"]
        old = getattr(sheet, name)
        new = old + direction
        if name == "phy":
            pools = ew.pools_after_phy_change(sheet.pools(), old, new)
            sheet.superficial_left, sheet.lethal_left = pools.superficial, pools.lethal
        setattr(sheet, name, new)
        sheet.save(update_fields=[name, "superficial_left", "lethal_left"])
    elif kind == "specialty":
        if direction > 0:
            rank, _created = EwSpecialtyRank.objects.get_or_create(
                sheet=sheet, specialty_id=record["id"], defaults={"level": 0}
            )
            rank.level += 1
            rank.save(update_fields=["level"])
        else:
            rank = EwSpecialtyRank.objects.get(sheet=sheet, specialty_id=record["id"])
            if record.get("created") and rank.level == 1:
                rank.delete()
            else:
                rank.level -= 1
                rank.save(update_fields=["level"])
    elif kind == "power":
        rank = EwPowerRank.objects.get(sheet=sheet, power_id=record["id"])
        rank.level += direction
        rank.save(update_fields=["level"])
    elif kind == "eclat":
        sheet.eclat += direction * record["count"]
        sheet.save(update_fields=["eclat"])


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


def _balance(character: Character) -> int:
    from django.db.models import Sum

    return XpEntry.objects.filter(character=character).aggregate(t=Sum("amount"))["t"] or 0


@transaction.atomic
def xp_spend(*, character: Character, improvement: Improvement, by: User) -> XpEntry:
    """Buy an improvement with XP at the campaign's costs; raises NotEnoughXp/InvalidImprovement.

    The character row is locked first, so two spends pressed at once are paid one after the
    other against the same ledger.
    """
    fights.follow([character.pk])
    system = system_of(character.campaign)
    if not system.spends_xp:
        raise InvalidImprovement(str(system.no_xp_costs), field="improvement")
    Character.objects.select_for_update().filter(pk=character.pk).first()
    sheet = (
        EwSheet.objects.select_for_update(of=("self",))
        .select_related("archetype")
        .get(pk=character.pk)
    )
    house = character.campaign.house()
    cost, record = xp_cost(sheet, improvement, house)
    ew.check_xp_affordable(_balance(character), cost)
    _apply(sheet, record, +1)
    record["to"] = _current_value(sheet, record)
    entry = XpEntry.objects.create(
        character=character,
        kind=XpKind.SPEND,
        amount=-cost,
        reason=_("%(what)s : %(old)s → %(new)s")
        % {"what": record["label"], "old": record["from"], "new": record["to"]},
        improvement=record,
        created_by=by,
    )
    character.campaign.touch()
    return entry


@transaction.atomic
def xp_award_cancel(*, entry: XpEntry, by: User) -> XpEntry:
    """The GM takes back an award (a wrong amount, the wrong character): a refund line of
    the opposite amount, unless the XP is already spent."""
    character = entry.character
    Character.objects.select_for_update().filter(pk=character.pk).first()
    entry = XpEntry.objects.select_for_update().get(pk=entry.pk)
    if entry.kind != XpKind.AWARD or XpEntry.objects.filter(cancels=entry).exists():
        raise InvalidImprovement(_("Ce gain est déjà annulé."), field="entry")
    if _balance(character) < entry.amount:
        raise InvalidImprovement(
            _("%(name)s a déjà dépensé ces XP : annulez d'abord ses dépenses.")
            % {"name": character.name},
            field="entry",
        )
    cancel = _refund(entry, by)
    log_line(
        character.campaign,
        _("Gain de %(amount)s XP de %(name)s annulé : %(reason)s")
        % {"amount": entry.amount, "name": character.name, "reason": entry.reason},
        by,
        LogKind.XP,
    )
    character.campaign.touch()
    return cancel


@transaction.atomic
def xp_spend_undo(*, entry: XpEntry, by: User) -> XpEntry:
    """The GM cancels a spend: the improvement is reverted and the XP given back."""
    character = entry.character
    fights.follow([character.pk])
    Character.objects.select_for_update().filter(pk=character.pk).first()
    entry = XpEntry.objects.select_for_update().get(pk=entry.pk)
    if entry.kind != XpKind.SPEND or XpEntry.objects.filter(cancels=entry).exists():
        raise InvalidImprovement(_("Cette dépense est déjà annulée."), field="entry")
    sheet = EwSheet.objects.select_for_update().get(pk=character.pk)
    record = entry.improvement
    if _current_value(sheet, record) != record["to"]:
        raise InvalidImprovement(
            _("La fiche a changé depuis cette dépense : annulez d'abord les plus récentes."),
            field="entry",
        )
    try:
        _apply(sheet, record, -1)
    except RulesError as error:
        raise InvalidImprovement(error.template, field="entry", params=error.params) from error
    refund = _refund(entry, by)
    character.campaign.touch()
    return refund


def _refund(entry: XpEntry, by: User) -> XpEntry:
    """The ledger line that cancels ``entry``: the opposite amount, pointing at it."""
    return XpEntry.objects.create(
        character_id=entry.character_id,
        kind=XpKind.REFUND,
        amount=-entry.amount,
        reason=_("Annulation : %(reason)s") % {"reason": entry.reason},
        cancels=entry,
        created_by=by,
    )
