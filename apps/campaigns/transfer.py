"""A whole campaign to one JSON document and back (product §3: export and import, losslessly).

The document holds no database id: characters, XP lines, encounters and combatants get local
keys ("c1", "x1", "e1", "k1") in creation order, and every reference is rewritten to them —
owners and authors become usernames, compendium rows their natural keys, and the ids inside
the encounters' JSON (events' ``changes``, aim targets, initiative rolls, the start baseline,
the end summary) local keys. Import maps every key back to the new rows' ids, so undo works
on an imported fight exactly as it did on the original.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable, Iterable
from typing import Any

from django.apps import apps as django_apps
from django.core.exceptions import FieldDoesNotExist
from django.db import DataError, IntegrityError, models, transaction
from django.utils.dateparse import parse_datetime
from django.utils.text import slugify
from django.utils.translation import gettext as _

from apps.accounts.models import User
from apps.characters.models import Character, Kind, XpEntry
from apps.compendium import models as compendium
from apps.encounters.models import Combatant, Encounter, Event
from apps.systems import SYSTEMS, get_system, sheet_models, system_of
from apps.systems.base import GameSystem

from .models import Campaign, LogEntry, Membership, Role

FORMAT = "tablee-campaign"
VERSION = 1
MAX_BYTES = 20 * 1024 * 1024


# Which local keys the rows named in events' ``changes`` get: a sheet shares its character's.
def change_keys() -> dict[str, str]:
    return {
        "characters.character": "character",
        **{model._meta.label_lower: "character" for model in sheet_models()},
        "encounters.combatant": "combatant",
        "encounters.encounter": "encounter",
    }


# Keys of the encounters' JSON whose integer values are ids.
ID_FIELDS = {"combatant": "combatant", "aim_target": "combatant", "character": "character"}

# XP spends record the compendium row they improved by id (to undo them): named instead.
IMPROVED = {"specialty": compendium.EwSpecialty, "power": compendium.EwPower}


def _improved(entry: dict) -> type[models.Model] | None:
    if isinstance(entry, dict) and "id" in entry:
        return IMPROVED.get(entry.get("kind"))
    return None


class ImportRefused(Exception):
    """The file cannot be imported; ``message`` says why, fit to show next to the field."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


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
    """The model's values from the document; every one must be there."""
    values = {}
    for field in _scalar_fields(model, exclude):
        value = data[field.name]
        if isinstance(field, models.DateTimeField) and value is not None:
            parsed = parse_datetime(value)
            if parsed is None:
                raise ValueError(f"Bad date: {value!r}")
            value = parsed
        values[field.name] = value
    return values


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
    improved: dict[type[models.Model], set] = {}
    for x in xp_entries:
        if model := _improved(x.improvement):
            improved.setdefault(model, set()).add(x.improvement["id"])
    improved_names = {
        model: dict(model.objects.filter(pk__in=ids).values_list("pk", "name"))
        for model, ids in improved.items()
    }

    def xp_scalars(x: XpEntry) -> dict:
        data = _scalars(x)
        if model := _improved(x.improvement):
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
    system = system_of(campaign)
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
                        **_scalars(k, exclude=("state",)),
                        "state": _rewrite_ids(k.state, convert),
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


# --- Import ----------------------------------------------------------------------------------


def parse_document(raw: bytes) -> dict:
    """The document in an uploaded file, or ImportRefused saying what is wrong with it."""
    if len(raw) > MAX_BYTES:
        raise ImportRefused(_("Ce fichier est trop gros pour une campagne."))
    try:
        document = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        # RecursionError: lists nested deeper than the parser goes ("[" × 100 000).
        raise ImportRefused(_("Ce fichier n'est pas un export JSON lisible.")) from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ImportRefused(_("Ce fichier n'est pas un export de campagne Tablée."))
    if document.get("version") != VERSION:
        raise ImportRefused(
            _("Version de format %(version)s inconnue : seule la version %(expected)s est lue.")
            % {"version": document.get("version"), "expected": VERSION}
        )
    return document


def _wanted_references(document: dict, system: GameSystem) -> dict[type[models.Model], set]:
    refs, ranks = system.transfer_refs()
    wanted: dict[type[models.Model], set] = {}
    for character in document["characters"]:
        sheet = character["sheet"]
        if sheet is None:
            continue
        for key, model, many in refs:
            values = sheet[key] if many else [sheet[key]]
            wanted.setdefault(model, set()).update(
                tuple(v) if isinstance(v, list) else v for v in values if v is not None
            )
        for key, _related, _rank_model, field, model, _value in ranks:
            wanted.setdefault(model, set()).update(row[field] for row in sheet[key])
    for row in document["xp"]:
        if model := _improved(row["improvement"]):
            wanted.setdefault(model, set()).add(row["improvement"]["id"])
    return wanted


def _resolve(wanted: dict[type[models.Model], set]) -> dict[type[models.Model], dict]:
    """Compendium rows by natural key; refuses the import with the list of those missing."""
    found: dict[type[models.Model], dict] = {}
    missing = []
    for model, names in wanted.items():
        if model is compendium.EwAptitude:
            rows = model.objects.select_related("archetype").filter(
                name__in=[n[1] for n in names], archetype__name__in=[n[0] for n in names]
            )
            found[model] = {(r.archetype.name, r.name): r for r in rows}
        else:
            found[model] = {r.name: r for r in model.objects.filter(name__in=names)}
        for name in sorted(names - set(found[model]), key=str):
            label = " / ".join(name) if isinstance(name, tuple) else name
            missing.append(f"{model._meta.verbose_name} « {label} »")
    if missing:
        raise ImportRefused(
            _("Ces entrées du compendium manquent ici : %(missing)s. Rien n'a été importé.")
            % {"missing": ", ".join(missing)}
        )
    return found


def _restore_times(objs: list[models.Model], data: list[dict]) -> None:
    """Put back the dates Django overwrote on insert (auto_now_add / auto_now)."""
    if not objs:
        return
    model = type(objs[0])
    fields = _timestamps(model)
    for obj, row in zip(objs, data, strict=True):
        for name in fields:
            setattr(obj, name, parse_datetime(row[name]) if row[name] else None)
    model.objects.bulk_update(objs, fields)


class ImportReport:
    """What the importer should be told: who in the file was left to invite, which PCs wait
    for their player."""

    def __init__(self, campaign: Campaign):
        self.campaign = campaign
        # The file's other members, as the file names them: none is added (an import must
        # not put people in a campaign unasked), and none is looked up (whether an account
        # of that name exists here is nobody's business).
        self.to_invite: list[str] = []
        self.unowned: list[str] = []
        self.renamed_from: str | None = None

    def messages(self) -> list[str]:
        """What the importer is told besides success: whom to invite, which PCs to assign."""
        lines = []
        if self.renamed_from:
            lines.append(
                _("Vous avez déjà une campagne « %(old)s » : celle-ci s'appelle « %(new)s ».")
                % {"old": self.renamed_from, "new": self.campaign.name}
            )
        if self.to_invite:
            lines.append(
                _(
                    "Membres de la campagne exportée, non ajoutés : invitez-les avec le lien "
                    "d'invitation : %(names)s."
                )
                % {"names": ", ".join(self.to_invite)}
            )
        if self.unowned:
            lines.append(
                _(
                    "Ces PJ n'ont pas de joueur : attribuez-les depuis leur fiche quand leur "
                    "joueur aura rejoint : %(names)s."
                )
                % {"names": ", ".join(self.unowned)}
            )
        return lines


def campaign_import(*, document: dict, by: User) -> ImportReport:
    """A new campaign from an export document, with ``by`` as its GM; all or nothing."""
    try:
        with transaction.atomic():
            return _import(document, by)
    except ImportRefused:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IntegrityError, DataError):
        raise ImportRefused(
            _("Ce fichier est incomplet ou abîmé : rien n'a été importé.")
        ) from None


def _free_name(name: str, user: User) -> str:
    """The name, or "name (2)", "(3)"... when the importer already has a campaign of that name
    (a backup imported next to its original): two same-named cards would be told apart by
    nothing on their dashboard."""
    taken = set(Campaign.objects.filter(memberships__user=user).values_list("name", flat=True))
    candidate, number = name, 1
    while candidate in taken:
        number += 1
        suffix = f" ({number})"
        candidate = name[: Campaign._meta.get_field("name").max_length - len(suffix)] + suffix
    return candidate


def _import(document: dict, by: User) -> ImportReport:
    data = document["campaign"]
    if data["system"] not in SYSTEMS:
        raise ValueError("Unknown system")
    system = get_system(data["system"])
    # Only checked: the stored dict is kept as it was, lossless.
    system.house_rules_class.from_dict(data["house_rules"])
    found = _resolve(_wanted_references(document, system))

    scalars = _load_scalars(Campaign, data, ("invite_code", "version"))
    scalars["name"] = _free_name(scalars["name"], by)
    campaign = Campaign.objects.create(**scalars)
    _restore_times([campaign], [data])
    report = ImportReport(campaign)
    if campaign.name != data["name"]:
        report.renamed_from = data["name"]

    # Only the importer is known here: every other username of the file stays a name.
    users = {by.username: by}
    member = None
    for row in document["members"]:
        if row["role"] not in Role.values:
            raise ValueError("Unknown role")
        if row["username"] == by.username:
            member = row
        else:
            report.to_invite.append(row["username"])
    gm = Membership.objects.create(campaign=campaign, user=by, role=Role.GM)
    if member is not None:
        _restore_times([gm], [member])

    character_ids: dict[str, int] = {}
    characters = []
    sheet_model = system.sheet_model()
    refs, ranks = system.transfer_refs()
    for row in document["characters"]:
        # The importer's own PCs stay theirs; the others wait for the GM to assign them.
        owner = by if row["kind"] == Kind.PC and row["owner"] == by.username else None
        if row["kind"] == Kind.PC and owner is None:
            report.unowned.append(row["name"])
        character = Character.objects.create(
            campaign=campaign, owner=owner, **_load_scalars(Character, row)
        )
        characters.append(character)
        character_ids[row["key"]] = character.pk
        sheet = row["sheet"]
        if sheet is None:
            continue
        single = {
            key: found[model][tuple(sheet[key]) if isinstance(sheet[key], list) else sheet[key]]
            if sheet[key] is not None
            else None
            for key, model, many in refs
            if not many
        }
        sheet_obj = sheet_model.objects.create(
            character=character, **_load_scalars(sheet_model, sheet), **single
        )
        for key, model, many in refs:
            if many:
                getattr(sheet_obj, key).set(
                    [found[model][tuple(v) if isinstance(v, list) else v] for v in sheet[key]]
                )
        for key, _related, rank_model, field, model, value in ranks:
            rank_model.objects.bulk_create(
                rank_model(sheet=sheet_obj, **{field: found[model][r[field]], value: r[value]})
                for r in sheet[key]
            )
    _restore_times(characters, document["characters"])

    xp_ids: dict[str, XpEntry] = {}
    xp_entries = []
    for row in document["xp"]:
        values = _load_scalars(XpEntry, row)
        if model := _improved(values["improvement"]):
            values["improvement"] = {
                **values["improvement"],
                "id": found[model][values["improvement"]["id"]].pk,
            }
        entry = XpEntry.objects.create(
            character_id=character_ids[row["character"]],
            cancels=xp_ids[row["cancels"]] if row["cancels"] else None,
            created_by=users.get(row["created_by"]) if row["created_by"] else None,
            **values,
        )
        xp_ids[row["key"]] = entry
        xp_entries.append(entry)
    _restore_times(xp_entries, document["xp"])

    def character_key(kind: str, key: Any) -> int | None:
        """The sheet a table action changed: a character of the file (or one deleted since,
        whose line can no longer be undone), nothing else."""
        if kind == "character" and key is None:
            return None
        if kind != "character" or key not in character_ids:
            raise ValueError(f"Unknown {kind} key {key!r} in the log")
        return character_ids[key]

    # Files exported before table actions could be undone have no changes in their log.
    log_rows = [{"changes": [], "undone": False, **row} for row in document["log"]]
    log_entries = LogEntry.objects.bulk_create(
        LogEntry(
            campaign=campaign,
            author=users.get(row["author"]) if row["author"] else None,
            changes=_rewrite_changes(row["changes"], lambda _kind, value: value, character_key),
            **_load_scalars(LogEntry, row, ("changes",)),
        )
        for row in log_rows
    )
    _restore_times(log_entries, log_rows)

    _import_encounters(document["encounters"], campaign, character_ids, users)
    return report


def _import_encounters(
    rows: list[dict], campaign: Campaign, character_ids: dict[str, int], users: dict[str, User]
) -> None:
    encounters = [
        Encounter.objects.create(
            campaign=campaign, **_load_scalars(Encounter, row, ("summary",)), summary={}
        )
        for row in rows
    ]
    _restore_times(encounters, rows)
    keys: dict[str, dict[str, int]] = {
        "character": character_ids,
        "encounter": {row["key"]: e.pk for row, e in zip(rows, encounters, strict=True)},
        "combatant": {},
    }
    combatant_rows = [
        (e, k) for e, row in zip(encounters, rows, strict=True) for k in row["combatants"]
    ]
    combatants = Combatant.objects.bulk_create(
        Combatant(
            encounter=encounter,
            character_id=character_ids[row["character"]],
            **_load_scalars(Combatant, row, ("state",)),
        )
        for encounter, row in combatant_rows
    )
    for (_encounter, row), combatant in zip(combatant_rows, combatants, strict=True):
        keys["combatant"][row["key"]] = combatant.pk

    def convert(kind: str, key: Any) -> Any:
        """A local key back to the new row's id; anything else as it was."""
        return keys[kind].get(key, key) if isinstance(key, str) else key

    def lookup(kind: str, key: Any) -> int | None:
        """A reference that must be a known key (or nothing)."""
        if key is None:
            return None
        if not isinstance(key, str) or key not in keys[kind]:
            raise ValueError(f"Unknown {kind} key {key!r}")
        return keys[kind][key]

    for (_encounter, row), combatant in zip(combatant_rows, combatants, strict=True):
        combatant.state = _rewrite_ids(row["state"], convert)
    Combatant.objects.bulk_update(combatants, ["state"])
    for encounter, row in zip(encounters, rows, strict=True):
        encounter.summary = _rewrite_ids(row["summary"], convert)
    Encounter.objects.bulk_update(encounters, ["summary"])

    event_rows = [(e, v) for e, row in zip(encounters, rows, strict=True) for v in row["events"]]
    events = Event.objects.bulk_create(
        Event(
            encounter=encounter,
            actor_id=lookup("combatant", row["actor"]),
            target_id=lookup("combatant", row["target"]),
            created_by=users.get(row["created_by"]) if row["created_by"] else None,
            data=_rewrite_ids(row["data"], convert),
            changes=_rewrite_changes(row["changes"], convert, lookup),
            **_load_scalars(Event, row, ("data", "changes")),
        )
        for encounter, row in event_rows
    )
    _restore_times(events, [row for _e, row in event_rows])
