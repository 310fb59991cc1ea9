"""Recorded changes, as encounter steps and the session log's table actions keep them:
``[{"model": "characters.ewsheet", "pk": 7, "field": "eclat", "before": 3, "after": 2}]``,
and what undo ("before") and redo ("after") do with them.

Writing one side back must never erase a change made since by something else: callers ask
``changed_since`` first and refuse, with their own words, when a row moved on.
"""

from __future__ import annotations

from typing import Any

from django.apps import apps

Row = tuple[str, Any]  # (model label, primary key)


def values_by_row(changes: list[dict], side: str) -> dict[Row, dict[str, Any]]:
    """The values ``side`` holds for each row: for "before" the first change of a field (its
    value before the whole action), for "after" the last (its value after it)."""
    ordered = reversed(changes) if side == "before" else changes
    rows: dict[Row, dict[str, Any]] = {}
    for change in ordered:
        rows.setdefault((change["model"], change["pk"]), {})[change["field"]] = change[side]
    return rows


def changed_since(
    changes: list[dict], side: str, labels=None, *, lock: bool = False
) -> list[tuple[Row, Any]]:
    """The rows (of the models ``labels``, or all) that no longer hold what the action left
    on the other side — writing ``side`` back over them would lose a later change — each
    with the row as it is now (None when it is gone). With ``lock``, the rows are locked."""
    other = "after" if side == "before" else "before"
    expected = values_by_row(changes, other)
    by_label: dict[str, dict[Any, dict[str, Any]]] = {}
    for (label, pk), values in expected.items():
        if labels is None or label in labels:
            by_label.setdefault(label, {})[pk] = values
    stale = []
    for label, rows in by_label.items():
        found = apps.get_model(label).objects.filter(pk__in=[pk for pk in rows if pk is not None])
        if lock:
            found = found.select_for_update().order_by("pk")
        current = {obj.pk: obj for obj in found}
        for pk, values in rows.items():
            obj = current.get(pk)
            if obj is None or any(getattr(obj, name) != value for name, value in values.items()):
                stale.append(((label, pk), obj))
    return stale


def write_back(changes: list[dict], side: str) -> None:
    """Write the ``before`` (undo) or ``after`` (redo) values of recorded changes."""
    for (label, pk), values in values_by_row(changes, side).items():
        apps.get_model(label).objects.filter(pk=pk).update(**values)
