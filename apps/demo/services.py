"""The demo table a newcomer finds after `make run`: three accounts and a campaign per system
(each system builds its own: ``apps/systems/<code>/demo.py``).

It is made once: the demo remembers what it created (``DemoRecord``), so what a user renamed
or deleted afterwards stays so.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from apps.accounts.models import User
from apps.campaigns.models import Campaign, Role
from apps.systems import all_systems
from apps.systems.base import GameSystem

from .models import DemoRecord


@dataclass(frozen=True)
class DemoAccount:
    username: str
    password: str
    first_name: str
    role: str
    is_staff: bool = False


# Written in the README too: keep both in step.
DEMO_ACCOUNTS = (
    DemoAccount("mj", "tablee-mj", "Morgane", "MJ", is_staff=True),
    DemoAccount("alice", "tablee-alice", "Alice", "joueuse"),
    DemoAccount("bruno", "tablee-bruno", "Bruno", "joueur"),
)


@transaction.atomic
def create_demo_accounts() -> list[DemoAccount]:
    """Create the demo accounts the demo never made before; return those created.

    An account made once is never made again, even deleted or renamed, and never touched (its
    password may have been changed on purpose).
    """
    created = []
    for account in DEMO_ACCOUNTS:
        key = f"account:{account.username}"
        if DemoRecord.objects.filter(key=key).exists():
            continue
        # Made by a demo that kept no records yet: adopt it rather than fail on the username.
        user = User.objects.filter(username=account.username).first()
        if user is None:
            user = _create_account(account)
            created.append(account)
        DemoRecord.objects.create(key=key, object_id=user.pk)
    return created


def _create_account(account: DemoAccount) -> User:
    user = User(
        username=account.username,
        first_name=account.first_name,
        is_staff=account.is_staff,
        is_superuser=account.is_staff,
    )
    user.set_password(account.password)
    user.save()
    return user


def demo_users() -> dict[str, User] | None:
    """The demo accounts by their demo username (whatever they are called now), or None when
    one of them is gone."""
    records = dict(
        DemoRecord.objects.filter(key__startswith="account:").values_list("object_id", "key")
    )
    users = User.objects.in_bulk(records)
    by_name = {records[pk].removeprefix("account:"): user for pk, user in users.items()}
    if set(by_name) != {account.username for account in DEMO_ACCOUNTS}:
        return None
    return by_name


# --- The demo table: one campaign per system (its ``demo_campaign`` hook), the demo
# players' PCs and a few NPCs ---------------------------------------------------------------


def create_demo_table() -> list[str]:
    """Create the demo campaigns the demo never made before; return the names of those created.

    Runs after `create_demo_accounts` (and after `seed`, whose compendium rows it uses when
    they are there). Every registered system with a demo campaign (``demo_campaign_name``)
    gets one, in the registry's order. The demo remembers what it made (``DemoRecord``): a
    demo campaign that was renamed or deleted stays so, and none is ever touched again (the
    GM may have played it).
    """
    users = demo_users()
    if users is None:
        return []
    created = []
    for system in all_systems():
        if system.demo_campaign_name is not None and _create_once(system, users):
            created.append(system.demo_campaign_name)
    return created


@transaction.atomic
def _create_once(system: GameSystem, users: dict[str, User]) -> bool:
    """Build the system's demo campaign unless the demo made it before; True when built."""
    key = f"campaign:{system.code}"
    if DemoRecord.objects.filter(key=key).exists():
        return False
    gm = users["mj"]
    # Made by a demo that kept no records yet: adopt it rather than make a second one.
    campaign = Campaign.objects.filter(
        name=system.demo_campaign_name, memberships__user=gm, memberships__role=Role.GM
    ).first()
    built = campaign is None
    if built:
        players = [users[account.username] for account in DEMO_ACCOUNTS if not account.is_staff]
        campaign = system.demo_campaign(gm=gm, players=players)
    DemoRecord.objects.create(key=key, object_id=campaign.pk)
    return built
