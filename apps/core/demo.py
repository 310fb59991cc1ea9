"""The demo table a newcomer finds after `make run`: accounts now, campaigns as they come."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from apps.accounts.models import User


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
    """Create the demo accounts that do not exist yet; return those created.

    An existing account is left as it is (its password may have been changed on purpose).
    """
    created = []
    for account in DEMO_ACCOUNTS:
        if User.objects.filter(username=account.username).exists():
            continue
        user = User(
            username=account.username,
            first_name=account.first_name,
            is_staff=account.is_staff,
            is_superuser=account.is_staff,
        )
        user.set_password(account.password)
        user.save()
        created.append(account)
    return created
