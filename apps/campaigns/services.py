"""Writes of the campaigns app that span several rows or must be all-or-nothing (C5)."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from apps.accounts.forms import SignupForm
from apps.accounts.models import ResetLink, User
from apps.accounts.services import reset_link_make
from apps.systems import get_system

from .models import Campaign, Handout, LogEntry, LogKind, Membership, Role


@transaction.atomic
def campaign_create(*, name: str, system: str, gm: User, description: str = "") -> Campaign:
    """A new campaign of one system, with default house rules and its creator as GM."""
    house = get_system(system).default_house_rules()
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


class NoPasswordRequest(Exception):
    """The player asked for no new password: no link can be made for them."""


@transaction.atomic
def member_reset_link_create(*, membership: Membership, by: User) -> str:
    """The one-time link answering a player's pending request for a new password, written in
    the session log; the raw token. NoPasswordRequest when they made none (or have an email:
    they reset by mail alone)."""
    user = membership.user
    request = ResetLink.objects.pending().filter(user=user).first()
    if request is None or user.email:
        raise NoPasswordRequest
    token = reset_link_make(link=request, by=by)
    text = _("%(gm)s a donné un lien de nouveau mot de passe à %(player)s, à sa demande.")
    log_add(
        campaign=membership.campaign,
        text=text % {"gm": by.display_name, "player": user.display_name},
        by=by,
    )
    return token


@transaction.atomic
def campaign_house_rules_set(*, campaign: Campaign, house) -> None:
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


@transaction.atomic
def campaigns_delete(*, campaigns) -> None:
    """Delete campaigns (the admin's way: the app never deletes one). Their rows cascade;
    their handouts' images, which no row holds once they are gone, leave the storage when
    the deletion is committed (not before: a rollback keeps them)."""
    images = [
        (handout.image.storage, handout.image.name)
        for handout in Handout.objects.filter(campaign__in=campaigns).exclude(image="")
    ]
    campaigns.delete()
    transaction.on_commit(lambda: _delete_files(images))


def _delete_files(images: list) -> None:
    for storage, name in images:
        storage.delete(name)
