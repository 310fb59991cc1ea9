"""A campaign to its document."""

from __future__ import annotations

import json
from typing import Any

from django.db import models
from django.utils.text import slugify

from apps.accounts.models import User
from apps.characters.models import Character, XpEntry
from apps.encounters.models import Combatant, Encounter, Event
from apps.systems import system_of
from apps.systems.base import GameSystem

from ..models import Campaign
from .values import (
    FORMAT,
    VERSION,
    _dump_value,
    _improved,
    _rewrite_changes,
    _rewrite_ids,
    _scalars,
)

# --- Export ----------------------------------------------------------------------------------


def _name(user: User | None) -> str | None:
    return user.username if user is not None else None


def _natural(obj: models.Model | None) -> Any:
    if obj is None:
        return None
    key = obj.natural_key()
    return key[0] if len(key) == 1 else list(key)


def _characters(campaign: Campaign) -> list[Character]:
    joined, prefetched = system_of(campaign).export_lookups()
    return list(
        Character.objects.filter(campaign=campaign)
        .select_related("owner", *joined)
        .prefetch_related(*prefetched)
        .order_by("pk")
    )


def _sheet_document(sheet, system: GameSystem) -> dict | None:
    if sheet is None:
        return None
    refs, ranks = system.transfer_refs()
    data = _scalars(sheet)
    for key, _model, many in refs:
        if many:
            data[key] = sorted((_natural(row) for row in getattr(sheet, key).all()), key=json.dumps)
        else:
            data[key] = _natural(getattr(sheet, key))
    for key, related, _rank_model, field, _model, value in ranks:
        data[key] = sorted(
            (
                {field: _natural(getattr(row, field)), value: getattr(row, value)}
                for row in getattr(sheet, related).all()
            ),
            key=json.dumps,
        )
    return data


def campaign_export(campaign: Campaign) -> dict:
    """The whole campaign as a JSON-ready document (a fixed number of queries)."""
    characters = _characters(campaign)
    character_keys = {c.pk: f"c{i}" for i, c in enumerate(characters, 1)}
    xp_entries = list(
        XpEntry.objects.filter(character__campaign=campaign)
        .select_related("created_by")
        .order_by("pk")
    )
    xp_keys = {x.pk: f"x{i}" for i, x in enumerate(xp_entries, 1)}
    system = system_of(campaign)
    improved: dict[type[models.Model], set] = {}
    for x in xp_entries:
        if model := _improved(x.improvement, system):
            improved.setdefault(model, set()).add(x.improvement["id"])
    improved_names = {
        model: dict(model.objects.filter(pk__in=ids).values_list("pk", "name"))
        for model, ids in improved.items()
    }

    def xp_scalars(x: XpEntry) -> dict:
        data = _scalars(x)
        if model := _improved(x.improvement, system):
            data["improvement"] = {
                **x.improvement,
                "id": improved_names[model].get(x.improvement["id"]),
            }
        return data

    encounters = list(Encounter.objects.filter(campaign=campaign).order_by("pk"))
    encounter_keys = {e.pk: f"e{i}" for i, e in enumerate(encounters, 1)}
    combatants = list(Combatant.objects.filter(encounter__campaign=campaign).order_by("pk"))
    combatant_keys = {c.pk: f"k{i}" for i, c in enumerate(combatants, 1)}
    events = list(
        Event.objects.filter(encounter__campaign=campaign)
        .select_related("created_by")
        .order_by("encounter_id", "sequence")
    )
    keys = {
        "character": character_keys,
        "combatant": combatant_keys,
        "encounter": encounter_keys,
    }

    def convert(kind: str, pk: Any) -> Any:
        """An id to its local key (None when the row is gone); anything else as it was."""
        if isinstance(pk, str) and pk.isdigit():
            pk = int(pk)
        if not isinstance(pk, int):
            return pk
        return keys[kind].get(pk)

    memberships = campaign.memberships.select_related("user").order_by("joined_at", "pk")
    return {
        "format": FORMAT,
        "version": VERSION,
        "campaign": _scalars(campaign, exclude=("invite_code", "version")),
        "members": [
            {"username": m.user.username, "role": m.role, "joined_at": _dump_value(m.joined_at)}
            for m in memberships
        ],
        "characters": [
            {
                "key": character_keys[c.pk],
                "owner": _name(c.owner),
                **_scalars(c),
                "sheet": _sheet_document(getattr(c, system.sheet_name, None), system),
            }
            for c in characters
        ],
        "xp": [
            {
                "key": xp_keys[x.pk],
                "character": character_keys[x.character_id],
                "cancels": xp_keys.get(x.cancels_id),
                "created_by": _name(x.created_by),
                **xp_scalars(x),
            }
            for x in xp_entries
        ],
        "log": [
            {
                "author": _name(entry.author),
                **_scalars(entry, exclude=("changes",)),
                "changes": _rewrite_changes(entry.changes, convert, convert),
            }
            for entry in campaign.log_entries.select_related("author").order_by("created_at", "pk")
        ],
        "encounters": [
            {
                "key": encounter_keys[e.pk],
                **_scalars(e, exclude=("summary",)),
                "summary": _rewrite_ids(e.summary, convert),
                "combatants": [
                    {
                        "key": combatant_keys[k.pk],
                        "character": character_keys.get(k.character_id),
                        **_scalars(k, exclude=("state", "conditions")),
                        "state": _rewrite_ids(k.state, convert),
                        "conditions": _rewrite_ids(k.conditions, convert),
                    }
                    for k in combatants
                    if k.encounter_id == e.pk
                ],
                "events": [
                    {
                        "actor": combatant_keys.get(v.actor_id),
                        "target": combatant_keys.get(v.target_id),
                        "created_by": _name(v.created_by),
                        **_scalars(v, exclude=("data", "changes")),
                        "data": _rewrite_ids(v.data, convert),
                        "changes": _rewrite_changes(v.changes, convert, convert),
                    }
                    for v in events
                    if v.encounter_id == e.pk
                ],
            }
            for e in encounters
        ],
    }


def export_filename(campaign: Campaign) -> str:
    return f"{slugify(campaign.name) or 'campagne'}.tablee.json"
