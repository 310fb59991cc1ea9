"""Rate limits of the account side (sign-ups, invitation codes), counted in PostgreSQL.

Login failures are counted by django-axes; this counts the rest the same way: rows in the
database, so that every instance agrees and a restart forgets nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.utils import timezone

from .models import Attempt

# Rows older than this are of no use to any limit.
KEEP = timedelta(days=1)


@dataclass(frozen=True)
class Limit:
    kind: str
    per_key: dict[str, int]  # "ip" / "user" -> how many in the window
    window: timedelta

    @property
    def minutes(self) -> int:
        return int(self.window.total_seconds() // 60)


def _keys(limit: Limit, keys: dict[str, str]) -> list[str]:
    return [f"{name}:{value}" for name, value in keys.items() if name in limit.per_key and value]


def exceeded(limit: Limit, keys: dict[str, str]) -> bool:
    """Whether any of ``keys`` ({"ip": "1.2.3.4", "user": "7"}) reached its limit. One query."""
    wanted = _keys(limit, keys)
    if not wanted:
        return False
    since = timezone.now() - limit.window
    rows = Attempt.objects.filter(
        kind=limit.kind, key__in=wanted, created_at__gt=since
    ).values_list("key", flat=True)
    counts: dict[str, int] = {}
    for key in rows:
        counts[key] = counts.get(key, 0) + 1
    return any(counts.get(key, 0) >= limit.per_key[key.split(":", 1)[0]] for key in wanted)


def record(limit: Limit, keys: dict[str, str]) -> None:
    """Count one action for each of ``keys``, and forget what no limit needs any more."""
    now = timezone.now()
    Attempt.objects.bulk_create(
        Attempt(kind=limit.kind, key=key, created_at=now) for key in _keys(limit, keys)
    )
    Attempt.objects.filter(created_at__lt=now - KEEP).delete()
