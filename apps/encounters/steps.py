"""The plumbing every encounter step shares: lock, version check, recorded changes, event.

A service opens a ``Step`` on a locked encounter, changes model fields only through
``step.set(obj, field, value)`` (which remembers the value before and after), and ends with
``step.commit(data)``: the touched rows are saved, the event is appended, the encounter's
version goes up and the campaign's screens are told. Undo writes the "before" values back.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from django.apps import apps
from django.db import models
from django.db.models import Max
from django.utils.translation import gettext as _

from apps.characters.models import AethoriaSheet, Character, EwSheet

from .models import Combatant, DiceSource, Encounter, Event, Status


class EncounterError(Exception):
    """A refused step, with a message fit to show next to ``field`` (nothing was changed)."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field


class StaleVersion(EncounterError):
    """The action was made on an older version of the encounter: someone acted first."""


def lock_encounter(encounter_id: int, version: int | None = None) -> Encounter:
    """The encounter, locked until the transaction ends; refuses a stale version."""
    encounter = (
        Encounter.objects.select_for_update(of=("self",))
        .select_related("campaign")
        .get(pk=encounter_id)
    )
    if version is not None and encounter.version != version:
        raise StaleVersion(
            _(
                "Quelqu'un a agi entre-temps : la console a été actualisée, "
                "vérifiez puis recommencez."
            )
        )
    lock_fighters(encounter)
    return encounter


def lock_fighters(encounter: Encounter) -> None:
    """Lock the fight's characters and their sheets too: a player spending éclat, fatigue or
    XP from their sheet (those services lock the same rows) waits for the step, and the step
    then reads their pools fresh — neither can overwrite the other's change."""
    sheet_model = EwSheet if encounter.campaign.is_ew else AethoriaSheet
    # Characters before sheets, each by primary key, as the sheet services do: no deadlock.
    for model, path in (
        (Character, "combatants__encounter"),
        (sheet_model, "character__combatants__encounter"),
    ):
        list(
            model.objects.select_for_update(of=("self",))
            .filter(**{path: encounter})
            .order_by("pk")
            .values_list("pk", flat=True)
        )


def require_status(encounter: Encounter, *statuses: str) -> None:
    if encounter.status not in statuses:
        labels = {
            Status.PREPARING: _("Impossible maintenant : la rencontre est en préparation."),
            Status.RUNNING: _("Impossible maintenant : la rencontre est en cours."),
            Status.PAUSED: _("Impossible maintenant : la rencontre est en pause."),
            Status.FINISHED: _("Impossible maintenant : la rencontre est terminée."),
        }
        raise EncounterError(labels[encounter.status])


@dataclass
class Step:
    encounter: Encounter
    kind: str
    by: Any
    actor: Combatant | None = None
    target: Combatant | None = None
    dice: str = DiceSource.NONE
    public: bool = True
    changes: list[dict] = field(default_factory=list)
    _dirty: dict[int, tuple[models.Model, set[str]]] = field(default_factory=dict)

    def set(self, obj: models.Model, field_name: str, value: Any) -> None:
        """Change one field of one row, remembering its value before and after."""
        before = getattr(obj, field_name)
        if before == value:
            return
        self.changes.append(
            {
                "model": obj._meta.label_lower,
                "pk": obj.pk,
                "field": field_name,
                "before": copy.deepcopy(before),
                "after": copy.deepcopy(value),
            }
        )
        setattr(obj, field_name, value)
        self._dirty.setdefault(id(obj), (obj, set()))[1].add(field_name)

    def commit(self, data: dict | None = None) -> Event:
        """Save the touched rows, append the event, bump the versions."""
        for obj, fields in self._dirty.values():
            obj.save(update_fields=sorted(fields))
        last = self.encounter.events.aggregate(last=Max("sequence"))["last"] or 0
        event = Event.objects.create(
            encounter=self.encounter,
            sequence=last + 1,
            kind=self.kind,
            round=self.encounter.round,
            actor=self.actor,
            target=self.target,
            dice=self.dice,
            data=data or {},
            changes=self.changes,
            public=self.public,
            created_by=self.by,
        )
        bump_version(self.encounter)
        return event


def bump_version(encounter: Encounter) -> None:
    """Mark the encounter (and so its campaign's screens) as changed."""
    encounter.version += 1
    encounter.save(update_fields=["version"])
    encounter.campaign.touch()


def write_back(changes: list[dict], side: str) -> None:
    """Write the ``before`` (undo) or ``after`` (redo) values of recorded changes."""
    ordered = reversed(changes) if side == "before" else changes
    rows: dict[tuple[str, int], dict[str, Any]] = {}
    for change in ordered:
        rows.setdefault((change["model"], change["pk"]), {})[change["field"]] = change[side]
    for (label, pk), values in rows.items():
        apps.get_model(label).objects.filter(pk=pk).update(**values)
