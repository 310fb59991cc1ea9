"""Writes of the campaigns app that span several rows or must be all-or-nothing (C5)."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from apps.accounts.forms import SignupForm
from apps.accounts.models import User
from apps.accounts.services import reset_link_create
from apps.rules import aethoria, ew

from .models import Campaign, LogEntry, LogKind, Membership, Role, System


def default_grid() -> tuple[tuple[int, ...], ...] | None:
    """The compendium's default resolution grid, or None when it is the formula's."""
    from apps.compendium.models import EwResolutionTable

    table = ew.ResolutionTable.from_grid(EwResolutionTable.default_grid())
    return None if table.is_default() else table.grid


def default_house_rules(system: str) -> ew.EwHouseRules | aethoria.AethoriaHouseRules:
    """The rules pages' defaults; an EW campaign copies the admin's default resolution grid."""
    if system == System.EW:
        return ew.EwHouseRules(resolution_grid=default_grid())
    return aethoria.AethoriaHouseRules()


@transaction.atomic
def campaign_create(*, name: str, system: str, gm: User, description: str = "") -> Campaign:
    """A new campaign of one system, with default house rules and its creator as GM."""
    house = default_house_rules(system)
    campaign = Campaign.objects.create(
        name=name, system=system, description=description, house_rules=house.to_dict()
    )
    Membership.objects.create(campaign=campaign, user=gm, role=Role.GM)
    return campaign


def campaign_join(*, campaign: Campaign, user: User) -> tuple[Membership, bool]:
    """Make the user a player of the campaign; (membership, created). Joining twice is harmless,
    and the GM stays GM."""
    try:
        with transaction.atomic():
            membership, created = Membership.objects.get_or_create(
                campaign=campaign, user=user, defaults={"role": Role.PLAYER}
            )
    except IntegrityError:  # two clicks at once: the other one created it
        return Membership.objects.get(campaign=campaign, user=user), False
    if created:
        campaign.touch()
    return membership, created


@transaction.atomic
def campaign_sign_up(*, campaign: Campaign, form: SignupForm) -> User:
    """A new account from the invitation link, already a player of the campaign."""
    user = form.save()
    campaign_join(campaign=campaign, user=user)
    return user


@transaction.atomic
def membership_remove(*, membership: Membership) -> None:
    """Remove a player from a campaign (never the GM). Their characters stay with the GM.
    The invitation code changes: the link the player still has no longer lets them back."""
    if membership.role == Role.GM:
        raise ValueError("The GM cannot be removed from their campaign.")
    membership.delete()
    membership.campaign.regenerate_invite_code()
    membership.campaign.touch()


@transaction.atomic
def member_reset_link_create(*, membership: Membership, by: User) -> str:
    """A one-time password link for a player, written in the session log; the raw token."""
    token = reset_link_create(user=membership.user, by=by)
    text = _("%(gm)s a créé un lien de nouveau mot de passe pour %(player)s.") % {
        "gm": by.display_name,
        "player": membership.user.display_name,
    }
    log_add(campaign=membership.campaign, text=text, by=by)
    return token


@transaction.atomic
def campaign_house_rules_set(
    *, campaign: Campaign, house: ew.EwHouseRules | aethoria.AethoriaHouseRules
) -> None:
    """Store new house rules; every open screen recomputes with them."""
    campaign.set_house_rules(house)
    campaign.touch()


@transaction.atomic
def log_add(
    *, campaign: Campaign, text: str, by: User | None, kind: str = LogKind.NOTE
) -> LogEntry:
    """Add a dated line to the session log."""
    entry = LogEntry.objects.create(campaign=campaign, text=text, author=by, kind=kind)
    campaign.touch()
    return entry
