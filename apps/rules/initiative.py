"""Initiative ordering shared by both systems: descending total, then tie-breaks."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from apps.rules.errors import InvalidInitiative, fr

T = TypeVar("T")


def order_by_initiative(
    entries: Sequence[T],
    *,
    key: Callable[[T], object],
    total: Callable[[T], int],
    tie: Callable[[T], int] | None,
    draw: Callable[[T], int],
) -> tuple[T, ...]:
    """Sort entries by descending total, then descending tie value (if used), then stored draw.

    The draw is rolled once by the app and stored, so reloading the encounter gives the same
    order; if two draws are equal too, the input order is kept (Python's sort is stable).
    """
    seen: set[object] = set()
    for entry in entries:
        k = key(entry)
        if k in seen:
            raise InvalidInitiative(
                fr("Le combattant %(key)r apparaît deux fois dans l'initiative."),
                field="key",
                params={"key": k},
            )
        seen.add(k)

    def rank(entry: T) -> tuple[int, int, int]:
        return (-total(entry), -tie(entry) if tie is not None else 0, -draw(entry))

    return tuple(sorted(entries, key=rank))
