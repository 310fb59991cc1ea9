"""The campaign page's NPCs, fifty at a time: a campaign that keeps every NPC it ever met
(hundreds of guards, templates and copies) still opens at once. The page asked for is in
the address (``?pnj=2``), so the region refreshing itself stays on it."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet

NPC_PAGE = 50


@dataclass(frozen=True)
class NpcPager:
    """Which NPCs a page shows (``first`` to ``last``, counted from 1) and its neighbours."""

    page: int
    first: int
    last: int
    previous: int | None
    next: int | None


def npc_page(request, npcs: QuerySet) -> tuple[list, NpcPager | None]:
    """The NPCs of the page asked for, read in one query (one more row than shown tells
    whether a next page exists), and its pager; None when they all fit on one page. A page
    past the last shows the first."""
    page = _asked(request)
    rows = _slice(npcs, page)
    if page > 1 and not rows:
        page, rows = 1, _slice(npcs, 1)
    more = len(rows) > NPC_PAGE
    rows = rows[:NPC_PAGE]
    if page == 1 and not more:
        return rows, None
    start = (page - 1) * NPC_PAGE
    pager = NpcPager(
        page=page,
        first=start + 1,
        last=start + len(rows),
        previous=page - 1 if page > 1 else None,
        next=page + 1 if more else None,
    )
    return rows, pager


def _slice(npcs: QuerySet, page: int) -> list:
    start = (page - 1) * NPC_PAGE
    return list(npcs[start : start + NPC_PAGE + 1])


def _asked(request) -> int:
    value = request.GET.get("pnj", "")
    return int(value) if value.isdigit() and int(value) > 0 else 1
