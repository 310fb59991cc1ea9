"""The document's plain values and the ids inside the encounters' JSON, both ways; what
the format is (its name, version, size limit) and the refusal an import raises."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable
from typing import Any

from django.apps import apps as django_apps
from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db import models
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from apps.systems import sheet_models
from apps.systems.base import GameSystem

FORMAT = "tablee-campaign"
VERSION = 1
MAX_BYTES = 20 * 1024 * 1024
# How deep a document's lists and objects may nest. An export goes 10 levels deep at most
# (an ended fight's summary, in the events of its encounter); the rest leaves a system room
# for a richer fight state. Deeper is no export: refused before it is parsed, since parsing
# and rewriting it recurse.
MAX_DEPTH = 20


# Which local keys the rows named in events' ``changes`` get: a sheet shares its character's.
def change_keys() -> dict[str, str]:
    return {
        "characters.character": "character",
        **{model._meta.label_lower: "character" for model in sheet_models()},
        "encounters.combatant": "combatant",
        "encounters.encounter": "encounter",
    }


# Keys of the encounters' JSON whose integer values are ids.
ID_FIELDS = {
    "combatant": "combatant",
    "aim_target": "combatant",
    "character": "character",
    # A condition's (``apps/encounters/conditions.py``): whose turn ends it, who put it.
    "turn_of": "combatant",
    "placed_by": "combatant",
}


def _improved(entry: dict, system: GameSystem) -> type[models.Model] | None:
    """The compendium model of the row an XP spend's record names by id (to undo it), as the
    system's XP costs say: the document names that row instead."""
    costs = system.xp_costs()
    if costs is not None and isinstance(entry, dict) and "id" in entry:
        return costs.record_models.get(entry.get("kind"))
    return None


class ImportRefused(Exception):
    """The file cannot be imported; ``message`` says why, fit to show next to the field."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def too_big() -> ImportRefused:
    """The refusal of a file bigger than any export."""
    return ImportRefused(
        _("Ce fichier est trop gros pour un export de campagne (%(limit)s Mo au plus).")
        % {"limit": MAX_BYTES // 2**20}
    )


# --- Plain values ----------------------------------------------------------------------------


def _scalar_fields(model: type[models.Model], exclude: Iterable[str] = ()) -> list[models.Field]:
    """The model's own values: no primary key, no relation, nothing in ``exclude``."""
    return [
        f
        for f in model._meta.concrete_fields
        if not f.primary_key and not f.is_relation and f.name not in exclude
    ]


def _dump_value(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime.datetime) else value


def _scalars(obj: models.Model, exclude: Iterable[str] = ()) -> dict:
    return {f.name: _dump_value(getattr(obj, f.name)) for f in _scalar_fields(type(obj), exclude)}


def _load_scalars(model: type[models.Model], data: dict, exclude: Iterable[str] = ()) -> dict:
    """The model's values from the document; every one must be there, but one that a file
    written before it existed lacks and that has a default (a character's kept conditions),
    and be what the field stores (ValueError otherwise, as for any broken file)."""
    values = {}
    for field in _scalar_fields(model, exclude):
        if field.name not in data and field.has_default():
            values[field.name] = field.get_default()
            continue
        value = data[field.name]
        if isinstance(field, models.DateTimeField) and value is not None:
            parsed = parse_datetime(value)
            if parsed is None:
                raise ValueError(f"Bad date: {value!r}")
            value = parsed
        values[field.name] = _checked(field, value)
    return values


def _checked(field: models.Field, value: Any) -> Any:
    """The value as ``field`` would store it, within its range and choices: a file must not
    store what no form could (a yes/no that is a list, a number past the column's range)."""
    try:
        value = field.to_python(value)
        if value is None:
            if not field.null:
                raise ValueError(f"{field.name} may not be null")
            return None
        field.run_validators(value)
    except ValidationError:
        raise ValueError(f"Bad value for {field.name}") from None
    if field.choices and value not in {choice for choice, _label in field.flatchoices}:
        raise ValueError(f"{value!r} is not a choice of {field.name}")
    return value


def _timestamps(model: type[models.Model]) -> list[str]:
    """Fields Django fills itself on save (auto_now/auto_now_add): restored afterwards."""
    return [
        f.name
        for f in model._meta.concrete_fields
        if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
    ]


def _rewrite_ids(value: Any, convert: Callable[[str, Any], Any]) -> Any:
    """A copy of an encounter's JSON with its ids (or keys) passed through ``convert``."""
    if isinstance(value, list):
        return [_rewrite_ids(item, convert) for item in value]
    if not isinstance(value, dict):
        return value
    result = {}
    for name, item in value.items():
        if name in ID_FIELDS and not isinstance(item, (dict, list, bool)):
            result[name] = convert(ID_FIELDS[name], item)
        elif name == "baseline" and isinstance(item, dict):
            # The start event's pools of each fighter, keyed by combatant.
            result[name] = {
                str(convert("combatant", key)): _rewrite_ids(v, convert) for key, v in item.items()
            }
        else:
            result[name] = _rewrite_ids(item, convert)
    return result


def _check_step_field(label: str, name: str) -> None:
    """Undo writes a change's values back: a change may only name a plain value of a fight's
    rows, never a relation (a crafted file could otherwise move a character into another
    campaign) nor another model. Raises ValueError, as for any broken file."""
    if label not in change_keys():
        raise ValueError(f"Changes of {label!r} rows are not a step's")
    try:
        field = django_apps.get_model(label)._meta.get_field(name)
    except (LookupError, FieldDoesNotExist):
        raise ValueError(f"No field {name!r} on {label!r}") from None
    if field.is_relation or field.primary_key:
        raise ValueError(f"{label}.{name} is not a value a step changes")


def _rewrite_changes(
    changes: list, convert: Callable[[str, Any], Any], lookup: Callable[[str, Any], Any]
) -> list:
    """Changes recorded by events or by the log's table actions, with the rows they name
    (and ids in their values) rewritten."""
    rewritten = []
    for change in changes:
        change = dict(change)
        _check_step_field(change["model"], change["field"])
        kind = change_keys()[change["model"]]
        change["pk"] = lookup(kind, change["pk"])
        for side in ("before", "after"):
            if side in change:
                change[side] = _rewrite_ids(change[side], convert)
        rewritten.append(change)
    return rewritten
