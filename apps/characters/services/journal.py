"""The campaign log lines the character services write (each undoable from it)."""

from __future__ import annotations

from apps.accounts.models import User
from apps.campaigns.models import Campaign, LogEntry, LogKind


def log_line(
    campaign: Campaign,
    text: str,
    by: User | None,
    kind: str = LogKind.NOTE,
    changes: list[dict] | None = None,
) -> None:
    LogEntry.objects.create(
        campaign=campaign, text=text, author=by, kind=kind, changes=changes or []
    )
