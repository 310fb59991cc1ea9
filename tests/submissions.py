"""Form data as a rendered form sends it: with its one-time key (apps/core/once.py)."""

from apps.core.once import FIELD, new_key


def once(data: dict | None = None, **fields) -> dict:
    """``data`` and ``fields`` with a fresh one-time key, the one a form that acts at most
    once carries (sheet spends, XP, campaign actions, creations)."""
    return {**(data or {}), **fields, FIELD: new_key()}
