"""Experience: XP awarded by the GM, improvements bought at the costs of the system's rules
(its ``xp_costs``: what is for sale, at what price, how it changes the sheet), and both
taken back."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.db.models import Sum
from django.utils.translation import gettext as _

from apps.accounts.models import User
from apps.campaigns.models import Campaign, LogKind
from apps.rules.errors import (
    InvalidImprovement,
    RulesError,
)
from apps.systems import system_of

from .. import fights
from ..models import Character, XpEntry, XpKind
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


def _balance(character: Character) -> int:
    return XpEntry.objects.filter(character=character).aggregate(t=Sum("amount"))["t"] or 0


def _xp_costs(character: Character):
    """The XP costs of the character's system; InvalidImprovement when it has none."""
    system = system_of(character.campaign)
    costs = system.xp_costs()
    if costs is None:
        raise InvalidImprovement(str(system.no_xp_costs), field="improvement")
    return system, costs


@transaction.atomic
def xp_spend(*, character: Character, improvement: Any, by: User) -> XpEntry:
    """Buy an improvement (one the system's ``xp_costs`` names) with XP at the campaign's
    costs; raises NotEnoughXp/InvalidImprovement.

    The character row is locked first, so two spends pressed at once are paid one after the
    other against the same ledger.
    """
    fights.follow([character.pk])
    system, costs = _xp_costs(character)
    Character.objects.select_for_update().filter(pk=character.pk).first()
    sheets = system.sheet_model().objects.select_for_update(of=("self",))
    if costs.sheet_relations:
        sheets = sheets.select_related(*costs.sheet_relations)
    sheet = sheets.get(pk=character.pk)
    house = character.campaign.house()
    cost, record = costs.price(sheet, improvement, house, _balance(character))
    costs.apply(sheet, record, +1)
    record["to"] = costs.current_value(sheet, record)
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
    system, costs = _xp_costs(character)
    sheet = system.sheet_model().objects.select_for_update().get(pk=character.pk)
    record = entry.improvement
    if costs.current_value(sheet, record) != record["to"]:
        raise InvalidImprovement(
            _("La fiche a changé depuis cette dépense : annulez d'abord les plus récentes."),
            field="entry",
        )
    try:
        costs.apply(sheet, record, -1)
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
