"""A document to a new campaign, all or nothing, with only the importer as a member."""

from __future__ import annotations

import json
import re
from itertools import accumulate, repeat
from operator import sub
from typing import Any

from django.db import DataError, IntegrityError, models, transaction
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from apps.accounts.models import User
from apps.characters.models import Character, Kind, XpEntry
from apps.encounters.models import Combatant, Encounter, Event
from apps.systems import SYSTEMS, get_system
from apps.systems.base import GameSystem

from ..models import Campaign, LogEntry, Membership, Role
from .values import (
    FORMAT,
    MAX_BYTES,
    MAX_DEPTH,
    VERSION,
    ImportRefused,
    _improved,
    _load_scalars,
    _rewrite_changes,
    _rewrite_ids,
    _timestamps,
    too_big,
)

# --- Import ----------------------------------------------------------------------------------


# A JSON string (its escapes included): what the nesting count skips.
JSON_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
# What the count keeps of the rest: an opening bracket counts 2, a closing one 0 (minus one
# each, below: bytes are never negative).
BRACKETS = bytes.maketrans(b"[{]}", b"\x02\x02\x00\x00")
NOT_BRACKETS = bytes(byte for byte in range(256) if byte not in b"[{]}")


def nesting_depth(raw: bytes) -> int:
    """How deep the lists and objects of a JSON text nest, read from its brackets outside
    strings without parsing it: one pass, in C, whatever the depth."""
    structure = JSON_STRING.sub(b"", raw).translate(BRACKETS, NOT_BRACKETS)
    return max(accumulate(map(sub, structure, repeat(1))), default=0)


def _no_constant(name: str):
    # NaN and Infinity are not JSON, and no export writes them; Python's parser accepts them.
    raise ValueError(f"{name} is not JSON")


def parse_document(raw: bytes) -> dict:
    """The document in an uploaded file, or ImportRefused saying what is wrong with it. A
    file bigger or nested deeper than any export is refused before it is parsed."""
    if len(raw) > MAX_BYTES:
        raise too_big()
    if nesting_depth(raw) > MAX_DEPTH:
        raise ImportRefused(
            _("Ce fichier est trop imbriqué pour un export de campagne : rien n'a été importé.")
        )
    try:
        document = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError, RecursionError):
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
        if model := _improved(row["improvement"], system):
            wanted.setdefault(model, set()).add(row["improvement"]["id"])
    return wanted


def _rows_by_name(model: type[models.Model], names: set) -> dict:
    """The compendium rows the document names by their name alone."""
    return {row.name: row for row in model.objects.filter(name__in=names)}


def _resolve(
    wanted: dict[type[models.Model], set], system: GameSystem
) -> dict[type[models.Model], dict]:
    """Compendium rows by natural key (by name, else as the system finds them); refuses the
    import with the list of those missing."""
    finders = system.transfer_finders()
    found: dict[type[models.Model], dict] = {}
    missing = []
    for model, names in wanted.items():
        if model in finders:
            found[model] = finders[model](names)
        else:
            found[model] = _rows_by_name(model, names)
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
    found = _resolve(_wanted_references(document, system), system)
    report = ImportReport(_import_campaign(data, by))
    if report.campaign.name != data["name"]:
        report.renamed_from = data["name"]
    # Only the importer is known here: every other username of the file stays a name.
    users = {by.username: by}
    _import_members(document["members"], report, by)
    character_ids = _import_characters(document["characters"], report, system, found, by)
    _import_xp(document["xp"], character_ids, found, users, system)
    _import_log(document["log"], report.campaign, character_ids, users)
    _import_encounters(document["encounters"], report.campaign, character_ids, users)
    return report


def _import_campaign(data: dict, by: User) -> Campaign:
    scalars = _load_scalars(Campaign, data, ("invite_code", "version"))
    scalars["name"] = _free_name(scalars["name"], by)
    campaign = Campaign.objects.create(**scalars)
    _restore_times([campaign], [data])
    return campaign


def _import_members(rows: list[dict], report: ImportReport, by: User) -> None:
    """The importer joins as GM; the file's other members are only listed, to invite."""
    member = None
    for row in rows:
        if row["role"] not in Role.values:
            raise ValueError("Unknown role")
        if row["username"] == by.username:
            member = row
        else:
            report.to_invite.append(row["username"])
    gm = Membership.objects.create(campaign=report.campaign, user=by, role=Role.GM)
    if member is not None:
        _restore_times([gm], [member])


def _reference(found: dict, model: type[models.Model], value: Any) -> models.Model:
    """A compendium row by its natural key as the document writes it (a list for a pair)."""
    return found[model][tuple(value) if isinstance(value, list) else value]


def _import_sheet(
    character: Character, sheet: dict, system: GameSystem, found: dict
) -> models.Model:
    sheet_model = system.sheet_model()
    refs, ranks = system.transfer_refs()
    single = {
        key: _reference(found, model, sheet[key]) if sheet[key] is not None else None
        for key, model, many in refs
        if not many
    }
    sheet_obj = sheet_model.objects.create(
        character=character, **_load_scalars(sheet_model, sheet), **single
    )
    for key, model, many in refs:
        if many:
            getattr(sheet_obj, key).set([_reference(found, model, v) for v in sheet[key]])
    for key, _related, rank_model, field, model, value in ranks:
        rank_model.objects.bulk_create(
            rank_model(sheet=sheet_obj, **{field: found[model][r[field]], value: r[value]})
            for r in sheet[key]
        )
    return sheet_obj


def _import_characters(
    rows: list[dict], report: ImportReport, system: GameSystem, found: dict, by: User
) -> dict[str, int]:
    """The characters and their sheets; the ids of the new rows by the document's keys."""
    character_ids: dict[str, int] = {}
    characters = []
    for row in rows:
        # The importer's own PCs stay theirs; the others wait for the GM to assign them.
        is_pc = row["kind"] == Kind.PC
        owner = by if is_pc and row["owner"] == by.username else None
        if is_pc and owner is None:
            report.unowned.append(row["name"])
        character = Character.objects.create(
            campaign=report.campaign, owner=owner, **_load_scalars(Character, row)
        )
        characters.append(character)
        character_ids[row["key"]] = character.pk
        if row["sheet"] is not None:
            _import_sheet(character, row["sheet"], system, found)
    _restore_times(characters, rows)
    return character_ids


def _import_xp(
    rows: list[dict],
    character_ids: dict[str, int],
    found: dict,
    users: dict[str, User],
    system: GameSystem,
) -> None:
    xp_ids: dict[str, XpEntry] = {}
    for row in rows:
        values = _load_scalars(XpEntry, row)
        if model := _improved(values["improvement"], system):
            values["improvement"] = {
                **values["improvement"],
                "id": found[model][values["improvement"]["id"]].pk,
            }
        xp_ids[row["key"]] = XpEntry.objects.create(
            character_id=character_ids[row["character"]],
            cancels=xp_ids[row["cancels"]] if row["cancels"] else None,
            created_by=users.get(row["created_by"]) if row["created_by"] else None,
            **values,
        )
    _restore_times(list(xp_ids.values()), rows)


def _import_log(
    rows: list[dict], campaign: Campaign, character_ids: dict[str, int], users: dict[str, User]
) -> None:
    def character_key(kind: str, key: Any) -> int | None:
        """The sheet a table action changed: a character of the file (or one deleted since,
        whose line can no longer be undone), nothing else."""
        if kind == "character" and key is None:
            return None
        if kind != "character" or key not in character_ids:
            raise ValueError(f"Unknown {kind} key {key!r} in the log")
        return character_ids[key]

    # Files exported before table actions could be undone have no changes in their log.
    log_rows = [{"changes": [], "undone": False, **row} for row in rows]
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
            **_load_scalars(Combatant, row, ("state", "conditions")),
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
        # A file exported before fighters had conditions has none.
        combatant.conditions = _rewrite_ids(row.get("conditions", []), convert)
    Combatant.objects.bulk_update(combatants, ["state", "conditions"])
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
