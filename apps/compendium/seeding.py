"""Load reference data from the TOML files of ``seeds/``, idempotently.

Each file names a model, the fields that identify a row (its natural key) and the rows::

    model = "compendium.EwWeapon"
    key = ["name"]

    [[rows]]
    name = "Couteau"
    damage_bonus = 1                 # a plain field
    archetype = ["Mercenaire"]       # a foreign key, by the target's natural key
    aptitudes = [["Baratin"], ["Filature"]]  # a many-to-many, a natural key per target

Missing rows are created. An existing row follows the file only while it is as the seed last
wrote it (``SeededRow`` keeps what that was): a row an admin edited since is **kept**, and
reported, unless ``Mode.RESET`` (``seed --reset``, which lists them first). A row whose values
already match is left untouched, so loading twice changes nothing. With ``Mode.MISSING_ONLY``
existing rows are never touched at all. Files load in name order, so a file can refer to rows
of an earlier one (prefix names with numbers).
"""

from __future__ import annotations

import dataclasses
import enum
import json
import tomllib
from dataclasses import dataclass
from pathlib import Path

from django.apps import apps
from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models, transaction

from .models import SeededRow


class SeedError(Exception):
    """A seed file that cannot be loaded; the message names the file and the row."""


class Mode(enum.Enum):
    KEEP_EDITS = "keep edits"  # the default: rows still as seeded follow the files
    MISSING_ONLY = "missing only"  # existing rows are never touched
    RESET = "reset"  # every row is set to the file's values, the admin's edits included


@dataclass
class SeedReport:
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    kept: list[str] = dataclasses.field(default_factory=list)  # rows edited since seeded

    def add(self, outcome: str) -> None:
        setattr(self, outcome, getattr(self, outcome) + 1)

    def __str__(self) -> str:
        return (
            f"{self.created} created, {self.updated} updated, {self.unchanged} unchanged, "
            f"{len(self.kept)} edited since seeded"
        )


def seed_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("**/*.toml"))


@transaction.atomic
def load_seeds(folder: Path, *, mode: Mode = Mode.KEEP_EDITS) -> SeedReport:
    """Load every seed file of ``folder``; all or nothing."""
    report = SeedReport()
    for path in seed_files(folder):
        load_seed_file(path, report, mode=mode)
    return report


def edited_rows(folder: Path) -> list[str]:
    """The rows an admin edited since they were seeded: what a reset would overwrite."""
    with transaction.atomic():
        report = load_seeds(folder)
        transaction.set_rollback(True)
    return report.kept


def load_seed_file(path: Path, report: SeedReport, *, mode: Mode = Mode.KEEP_EDITS) -> None:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        model = apps.get_model(data["model"])
        key_fields = data["key"]
    except (tomllib.TOMLDecodeError, KeyError, LookupError, ValueError) as error:
        raise SeedError(f"{path.name}: {error}") from error
    loader = _RowLoader(model, key_fields, report, mode)
    for number, row in enumerate(data.get("rows", []), start=1):
        try:
            loader.load(row)
        except (ValidationError, LookupError, ValueError, TypeError) as error:
            raise SeedError(f"{path.name}, row {number}: {error}") from error


class _RowLoader:
    """Loads the rows of one file, with what the seed last wrote into each row of its model."""

    def __init__(self, model: type[models.Model], key_fields: list[str], report, mode: Mode):
        self.model, self.key_fields, self.report, self.mode = model, key_fields, report, mode
        self.label = model._meta.label_lower
        self.seeded = {
            r.object_id: r for r in SeededRow.objects.filter(model=self.label).order_by()
        }

    def load(self, row: dict) -> None:
        values, many = _split_values(self.model, row)
        key = {name: values.pop(name) for name in self.key_fields}
        instance = self.model._default_manager.filter(**key).first()
        if instance is None:
            instance = self.model(**key, **values)
            self._write(instance, values, many, "created")
        elif self.mode is not Mode.MISSING_ONLY:
            self._update(instance, values, many)
        else:
            self.report.add("unchanged")

    def _update(self, instance: models.Model, values: dict, many: dict) -> None:
        wanted = _snapshot(instance.__class__, values, many)
        current = _current(instance, wanted)
        record = self.seeded.get(instance.pk)
        if current == wanted:
            self.report.add("unchanged")
            if record is None or record.values != wanted:
                self._remember(instance, wanted)
            return
        if record is None or record.values != current:  # edited since (or seeded by hand)
            changed = sorted(name for name in wanted if current.get(name) != wanted[name])
            self.report.kept.append(f"{self.model._meta.label} {instance} ({', '.join(changed)})")
            if self.mode is not Mode.RESET:
                return
        self._write(instance, values, many, "updated")

    def _write(self, instance: models.Model, values: dict, many: dict, outcome: str) -> None:
        for name, value in values.items():
            setattr(instance, name, value)
        instance.full_clean()
        instance.save()
        for name, targets in many.items():
            getattr(instance, name).set(targets)
        self.report.add(outcome)
        self._remember(instance, _snapshot(instance.__class__, values, many))

    def _remember(self, instance: models.Model, values: dict) -> None:
        SeededRow.objects.update_or_create(
            model=self.label, object_id=instance.pk, defaults={"values": values}
        )


def _snapshot(model: type[models.Model], values: dict, many: dict) -> dict:
    """The file's values as JSON, by attribute: a foreign key as its id, a many-to-many as
    sorted ids, the rest as the field prepares it for the database."""
    snapshot = {}
    for name, value in values.items():
        field = model._meta.get_field(name)
        if field.many_to_one:
            snapshot[field.attname] = value.pk if value is not None else None
        else:
            snapshot[field.attname] = field.get_prep_value(field.to_python(value))
    for name, targets in many.items():
        snapshot[name] = sorted(t.pk for t in targets)
    return _as_json(snapshot)


def _current(instance: models.Model, wanted: dict) -> dict:
    """The row's values now, in the shape of ``_snapshot``, for the fields the file sets."""
    current = {}
    for name in wanted:
        field = instance._meta.get_field(name)
        if field.many_to_many:
            current[name] = sorted(getattr(instance, name).values_list("pk", flat=True))
        else:
            current[name] = field.get_prep_value(getattr(instance, field.attname))
    return _as_json(current)


def _as_json(values: dict) -> dict:
    return json.loads(json.dumps(values, cls=DjangoJSONEncoder))


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
