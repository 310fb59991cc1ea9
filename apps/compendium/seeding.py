"""Load reference data from the TOML files of ``seeds/``, idempotently.

Each file names a model, the fields that identify a row (its natural key) and the rows::

    model = "compendium.EwWeapon"
    key = ["name"]

    [[rows]]
    name = "Couteau"
    damage_bonus = 1                 # a plain field
    archetype = ["Mercenaire"]       # a foreign key, by the target's natural key
    aptitudes = [["Baratin"], ["Filature"]]  # a many-to-many, a natural key per target

Rows are created or updated with the values of the file; a row whose values already match
is left untouched, so loading twice changes nothing. With ``missing_only`` (what `make run`
uses at every start) existing rows are never touched, so an admin's edits survive restarts.
Files load in name order, so a file
can refer to rows of an earlier one (prefix names with numbers).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from django.apps import apps
from django.core.exceptions import ValidationError
from django.db import models, transaction


class SeedError(Exception):
    """A seed file that cannot be loaded; the message names the file and the row."""


@dataclass
class SeedReport:
    created: int = 0
    updated: int = 0
    unchanged: int = 0

    def add(self, outcome: str) -> None:
        setattr(self, outcome, getattr(self, outcome) + 1)

    def __str__(self) -> str:
        return f"{self.created} created, {self.updated} updated, {self.unchanged} unchanged"


def seed_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("**/*.toml"))


@transaction.atomic
def load_seeds(folder: Path, *, missing_only: bool = False) -> SeedReport:
    """Load every seed file of ``folder``; all or nothing."""
    report = SeedReport()
    for path in seed_files(folder):
        load_seed_file(path, report, missing_only=missing_only)
    return report


def load_seed_file(path: Path, report: SeedReport, *, missing_only: bool = False) -> None:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        model = apps.get_model(data["model"])
        key_fields = data["key"]
    except (tomllib.TOMLDecodeError, KeyError, LookupError, ValueError) as error:
        raise SeedError(f"{path.name}: {error}") from error
    for number, row in enumerate(data.get("rows", []), start=1):
        try:
            report.add(_load_row(model, key_fields, row, missing_only=missing_only))
        except (ValidationError, LookupError, ValueError, TypeError) as error:
            raise SeedError(f"{path.name}, row {number}: {error}") from error


def _load_row(
    model: type[models.Model], key_fields: list[str], row: dict, *, missing_only: bool = False
) -> str:
    values, many = _split_values(model, row)
    key = {name: values.pop(name) for name in key_fields}
    instance = model._default_manager.filter(**key).first()
    if instance is not None and missing_only:
        return "unchanged"
    outcome = "unchanged"
    if instance is None:
        instance = model(**key, **values)
        outcome = "created"
    elif any(getattr(instance, name) != value for name, value in values.items()):
        for name, value in values.items():
            setattr(instance, name, value)
        outcome = "updated"
    if outcome != "unchanged":
        instance.full_clean()
        instance.save()
    for name, targets in many.items():
        manager = getattr(instance, name)
        if {t.pk for t in manager.all()} != {t.pk for t in targets}:
            manager.set(targets)
            outcome = "updated" if outcome == "unchanged" else outcome
    return outcome


def _split_values(model: type[models.Model], row: dict) -> tuple[dict, dict]:
    """Resolve foreign keys by natural key; set many-to-many aside (they need a saved row)."""
    values, many = {}, {}
    for name, value in row.items():
        field = model._meta.get_field(name)
        if field.many_to_many:
            many[name] = [_by_natural_key(field.related_model, key) for key in value]
        elif field.many_to_one and value is not None:
            values[name] = _by_natural_key(field.related_model, value)
        else:
            values[name] = value
    return values, many


def _by_natural_key(model: type[models.Model], key) -> models.Model:
    key = key if isinstance(key, list) else [key]
    try:
        return model._default_manager.get_by_natural_key(*key)
    except model.DoesNotExist:
        raise LookupError(f"no {model._meta.label} with natural key {key}") from None
