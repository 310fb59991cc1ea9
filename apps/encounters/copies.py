"""The NPC copies a reinforcement made, as undo takes them out of the campaign and redo
brings them back.

Steps change fields and never create or delete rows: a reinforcement's fighters come in and
go out by their ``present`` flag. Copies made for it are new characters, though, and undoing
it must leave the campaign as it was: the copies (character, sheet, ranks, gear, fight row)
are deleted, and what they were goes in the undo's data, so that redo makes them again with
the same ids — and the lines of the log that name them point at them again.

A copy that changed since it arrived (its sheet edited, XP given, taken into another fight)
is not deleted: the undo is refused, as when a pool changed outside the fight.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from datetime import date, datetime, time
from decimal import Decimal
from uuid import UUID

from django.apps import apps
from django.core import serializers
from django.db import IntegrityError, connection, models, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from apps.characters.models import Character

from .models import Combatant, Encounter, Event
from .steps import EncounterError

# The event data's keys: the copies a reinforcement made ({character id: fingerprint}), and
# what an undo of it deleted.
COPIES = "copies"
REMOVED = "removed_copies"


def copies_made(encounter: Encounter, character_ids: list[int]) -> dict:
    """The reinforcement's data naming the copies it made, each with the fingerprint of
    what it is now (an undo compares it with what it has become)."""
    if not character_ids:
        return {}
    families = _families(encounter, character_ids)
    return {COPIES: {str(pk): _fingerprint(rows) for pk, rows in families.items()}}


def copies_leave(event: Event) -> dict:
    """Undoing ``event``: delete the copies it made (refused, nothing changed, when one of
    them changed since); returns what the undo keeps to make them again. No query for a
    step that made none."""
    made = event.data.get(COPIES)
    if not made:
        return {}
    encounter = event.encounter
    pks = [int(pk) for pk in made]
    families = _families(encounter, pks)
    for pk, rows in families.items():
        if rows and _fingerprint(rows) != made[str(pk)]:
            raise EncounterError(_changed_message(rows[0]))
    fighters = list(Combatant.objects.filter(encounter=encounter, character_id__in=pks))
    links = _links_to(fighters)
    removed = {
        "rows": [row for pk in pks for row in _serialized(families[pk])],
        "fighters": _serialized(fighters),
        "links": links,
    }
    Combatant.objects.filter(pk__in=[f.pk for f in fighters]).delete()
    Character.objects.filter(pk__in=pks).delete()  # its sheet, ranks and gear with it
    return {REMOVED: removed}


def copies_return(encounter: Encounter, event: Event) -> None:
    """Redoing ``event``: make again, with the same ids, the copies its latest undo
    deleted, and point the log's lines at them again. Refused when what the undo kept
    cannot be put back as it was (a fight imported from a file, whose ids are new; gear
    deleted from the compendium since)."""
    made = event.data.get(COPIES)
    if not made:
        return
    undo = (
        encounter.events.filter(kind="undo", data__of=event.sequence)
        .order_by("-sequence")
        .values_list("data", flat=True)
        .first()
    )
    removed = (undo or {}).get(REMOVED)
    if not removed or not _restorable(encounter, {int(pk) for pk in made}, removed):
        raise EncounterError(
            _("Les copies de ces renforts ne peuvent pas revenir : rien n'a été modifié.")
        )
    try:
        with transaction.atomic():
            for obj in serializers.deserialize("python", [*removed["rows"], *removed["fighters"]]):
                obj.save()
            # The rows name compendium entries (weapons, armour, skills) that the admin may
            # have deleted since the undo; the database checks such references only at
            # COMMIT, which would fail then: check them now, while this can be refused.
            connection.check_constraints()
    except IntegrityError as error:
        raise EncounterError(
            _(
                "Les copies de ces renforts ne peuvent pas revenir : une arme, une armure "
                "ou une compétence qu'elles avaient a été retirée du compendium depuis. "
                "Rien n'a été modifié."
            )
        ) from error
    fighters = {row["pk"] for row in removed["fighters"]}
    for field in ("actor", "target"):
        by_fighter = defaultdict(list)
        for event_pk, fighter in removed["links"][field]:
            if fighter in fighters:
                by_fighter[fighter].append(event_pk)
        for fighter, events in by_fighter.items():
            encounter.events.filter(pk__in=events).update(**{f"{field}_id": fighter})


def _restorable(encounter: Encounter, copies: set[int], removed: dict) -> bool:
    """Whether the rows an undo kept are the copies' own, and only theirs: characters of
    this campaign, the rows that hang on them, their rows in this fight, none of which
    exists again — deserializing any other would write over rows it does not own."""
    parents = _parent_fields()
    kept: dict[str, set] = defaultdict(set)
    for row in removed["rows"]:
        label = row["model"]
        if label == Character._meta.label_lower:
            fields = row["fields"]
            if row["pk"] not in copies or fields["campaign"] != encounter.campaign_id:
                return False
        elif label not in parents:
            return False
        else:
            parent, name = parents[label]
            # A sheet is keyed by its character: the field is then the row's own key.
            value = row["pk"] if name is None else row["fields"].get(name)
            if value not in kept[parent]:
                return False
        kept[label].add(row["pk"])
    for row in removed["fighters"]:
        fields = row["fields"]
        if row["model"] != Combatant._meta.label_lower or fields["encounter"] != encounter.pk:
            return False
        if fields["character"] not in copies:
            return False
        kept[row["model"]].add(row["pk"])
    return not any(
        apps.get_model(label)._base_manager.filter(pk__in=pks).exists()
        for label, pks in kept.items()
    )


def _parent_fields() -> dict[str, tuple[str, str | None]]:
    """{model: (the model it hangs on, the field naming it; None when that field is the
    row's key)} for the rows that hang on a character (its sheets, their ranks, its XP), as
    ``_families`` walks them."""
    parents: dict[str, tuple[str, str | None]] = {}
    frontier = [Character]
    while frontier:
        model = frontier.pop(0)
        for relation in model._meta.related_objects:
            child = relation.related_model
            if relation.many_to_many or child is Combatant:
                continue
            label = child._meta.label_lower
            if label not in parents:
                name = None if relation.field.primary_key else relation.field.name
                parents[label] = (model._meta.label_lower, name)
                frontier.append(child)
    return parents


def _families(encounter: Encounter, character_ids: list[int]) -> dict[int, list[models.Model]]:
    """Each copy with every row that hangs on it (its sheet, the sheet's ranks, its XP, its
    rows in other fights), one query per kind of row however many copies: what deleting
    it would take away. Its row in this fight is not counted (the steps change it)."""
    families: dict[int, list[models.Model]] = {pk: [] for pk in character_ids}
    owners: dict[type, dict] = {Character: {}}
    for character in Character.objects.filter(pk__in=character_ids).order_by("pk"):
        families[character.pk].append(character)
        owners[Character][character.pk] = character.pk
    frontier, seen = [Character], {Character}
    while frontier:
        model = frontier.pop(0)
        for relation in model._meta.related_objects:
            child = relation.related_model
            # A model met again (an XP line naming the one it cancels) holds no new rows.
            if relation.many_to_many or not owners[model] or child in seen:
                continue
            rows = child._base_manager.filter(**{f"{relation.field.name}__in": list(owners[model])})
            if child is Combatant:
                rows = rows.exclude(encounter=encounter)
            owners.setdefault(child, {})
            for row in rows.order_by("pk"):
                owner = owners[model][getattr(row, relation.field.attname)]
                families[owner].append(row)
                owners[child][row.pk] = owner
            seen.add(child)
            if child is not Combatant:
                frontier.append(child)
    return families


def _serialized(rows: list[models.Model]) -> list[dict]:
    """The rows as JSON-ready dicts (many-to-many gear with them) that deserialize back
    exactly (Django's JSON format would cut times to the millisecond)."""
    return json.loads(json.dumps(serializers.serialize("python", rows), default=_json_value))


def _json_value(value) -> str:
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    if isinstance(value, Decimal | UUID):
        return str(value)
    raise TypeError(f"{type(value).__name__} is not kept by an undo")


def _fingerprint(rows: list[models.Model]) -> str:
    text = json.dumps(_serialized(rows), sort_keys=True)
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def _links_to(fighters: list[Combatant]) -> dict[str, list[list[int]]]:
    """The log's lines that name these fighters (deleting them empties the link)."""
    pks = [f.pk for f in fighters]
    events = Event.objects.filter(Q(actor_id__in=pks) | Q(target_id__in=pks))
    links: dict[str, list[list[int]]] = {"actor": [], "target": []}
    for pk, actor, target in events.values_list("pk", "actor_id", "target_id"):
        if actor in pks:
            links["actor"].append([pk, actor])
        if target in pks:
            links["target"].append([pk, target])
    return links


def _changed_message(character: Character) -> str:
    return _(
        "%(name)s a changé depuis son arrivée en renfort (fiche, XP ou une autre "
        "rencontre) : annuler ces renforts l'effacerait de la campagne, rien n'a été "
        "modifié. Retirez-le du combat si besoin."
    ) % {"name": character.name}
