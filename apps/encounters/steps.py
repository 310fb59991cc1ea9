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

from django.db import connection, models
from django.db.models import F
from django.utils.translation import gettext as _

from apps.campaigns.models import Role
from apps.core.changes import changed_since, values_by_row
from apps.systems import sheet_labels, system_of

from .models import Combatant, DiceSource, Encounter, Event, Status


class EncounterError(Exception):
    """A refused step, with a message fit to show next to ``field`` (nothing was changed)."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field


class StaleVersion(EncounterError):
    """The action was made on an older version of the encounter: someone acted first."""


class NotTheGm(EncounterError):
    """The step was asked by someone who is not the GM of the fight's campaign (or no
    member at all): the view answers as its access helper does (404 or 403)."""


def lock_encounter(
    encounter_id: int,
    version: int | None = None,
    *,
    fighters: bool = True,
    by=None,
    system=None,
) -> Encounter:
    """The encounter, locked until the transaction ends; refuses a stale version. With
    ``fighters``, every fighter's character and sheet are locked too (``lock_fighters``); a
    step that touches only a few of them locks just those (``lock_fight``,
    ``lock_and_refresh_pools``).
    With ``by``, only the campaign's GM may step, checked in the lock query itself: the
    console's small steps read nothing before it (``NotTheGm`` otherwise); with ``system``
    too, only in a fight of that system (a system's own step)."""
    query = Encounter.objects.select_for_update(of=("self",)).select_related("campaign")
    if by is not None:
        query = query.filter(campaign__memberships__user=by, campaign__memberships__role=Role.GM)
    if system is not None:
        query = query.filter(campaign__system=system.code)
    try:
        encounter = query.get(pk=encounter_id)
    except Encounter.DoesNotExist:
        if by is None:
            raise
        raise NotTheGm(_("Seul le MJ de la campagne mène ce combat.")) from None
    check_version(encounter, version)
    if fighters:
        lock_fighters(encounter)
    return encounter


def check_version(encounter: Encounter, version: int | None) -> None:
    """Refuse a step made on another version than the locked encounter's (``None``: any)."""
    if version is not None and encounter.version != version:
        raise StaleVersion(
            _(
                "Quelqu'un a agi entre-temps : la console a été actualisée, "
                "vérifiez puis recommencez."
            )
        )


@dataclass(frozen=True)
class Fight:
    """The locked encounter and the fighters one step acts on (``lock_fight``)."""

    encounter: Encounter
    fighters: dict[int, Combatant]  # by combatant id: only those asked for and found
    acting: Combatant | None  # the one of them whose turn it is, if any


# What no step reads of a fighter's character (its lasting conditions are read once, by the
# start of the fight).
CHARACTER_TEXTS = (
    "concept",
    "equipment_notes",
    "notes",
    "gm_notes",
    "conditions",
    "created_at",
    "updated_at",
)
# What no step reads of the encounter and its campaign: fewer columns to compile and fetch in
# the lock query every step makes (the end-of-fight summary is read by its own queries).
FIGHT_UNUSED = (
    "encounter__summary",
    "encounter__created_at",
    "encounter__started_at",
    "encounter__ended_at",
    "encounter__campaign__description",
    "encounter__campaign__invite_code",
    "encounter__campaign__created_at",
)


def lock_fight(
    encounter_id: int, fighter_ids, *, system, version: int | None = None, member=None
) -> Fight | None:
    """The fighters ``fighter_ids`` of the encounter with their characters and sheets, the
    encounter and its campaign, in one query: the encounter, the characters and the sheets
    locked until the transaction ends (in that order, as every step and sheet service takes
    them). The combatant rows need no lock: only steps write them, under the encounter's.
    With ``member``, only an encounter of a campaign they belong to, their role annotated
    (``role``): the access check and the lock are the same query. None when none of the
    fighters is found (the caller tells why). A step touching two fighters of twenty reads
    two, not twenty. Which of them acts is read from its position: initiative numbers the
    positions 0, 1, 2... in acting order, so the turn's index is the acting one's position
    (``acting_combatant`` of the whole list gives the same one; a test holds them equal)."""
    sheet = f"character__{system.sheet_name}"
    rows = (
        Combatant.objects.select_for_update(of=("encounter", "character", sheet))
        .select_related(sheet, "encounter__campaign")
        .select_related(*(f"{sheet}__{relation}" for relation in system.fighter_relations))
        .defer(*(f"character__{name}" for name in CHARACTER_TEXTS), *FIGHT_UNUSED)
        # The join to the sheet must be an inner one to lock it.
        # A fighter taken out of the fight (or a reinforcement not yet in) keeps a stale
        # position: only present ones may act or be acted on.
        .filter(encounter_id=encounter_id, pk__in=list(fighter_ids), present=True)
        .filter(**{f"{sheet}__isnull": False})
        .order_by("character_id")
    )
    if member is not None:
        rows = rows.filter(encounter__campaign__memberships__user=member).annotate(
            role=F("encounter__campaign__memberships__role")
        )
    annotations = system.sheet_annotations()
    fighters = {row.pk: row for row in rows.annotate(**annotations)}
    if not fighters:
        return None
    first = next(iter(fighters.values()))
    encounter = first.encounter
    encounter.role = getattr(first, "role", None)
    started = encounter.status in (Status.RUNNING, Status.PAUSED)
    acting = None
    for fighter in fighters.values():
        # Each row brought its own copy of the encounter: the step changes one.
        fighter.encounter = encounter
        fighter.character.campaign = encounter.campaign
        for name in annotations:
            setattr(getattr(fighter.character, system.sheet_name), name, getattr(fighter, name))
        if started and fighter.position == encounter.turn:
            acting = fighter
    check_version(encounter, version)
    return Fight(encounter, fighters, acting)


def lock_fighters(encounter: Encounter) -> None:
    """Lock the fight's characters and their sheets too: a player spending éclat, fatigue or
    XP from their sheet (those services lock the same rows) waits for the step, and the step
    then reads their pools fresh — neither can overwrite the other's change."""
    list(_sheets_for_update(encounter, character__combatants__encounter=encounter))


def lock_sheets(encounter: Encounter, character_ids, fields: tuple[str, ...]) -> dict[int, dict]:
    """Lock these characters and their sheets (as ``lock_fighters`` does for all) and read
    the sheets' ``fields`` fresh, in one query: {character id: {field: value}}."""
    sheets = _sheets_for_update(encounter, character_id__in=character_ids).only(
        "character__id", *fields
    )
    return {sheet.character_id: {name: getattr(sheet, name) for name in fields} for sheet in sheets}


def lock_and_refresh_pools(encounter: Encounter, combatants, *pks: int) -> None:
    """Lock the sheets of the combatants ``pks`` among those loaded and read their pools
    again. Their round or turn state needs no re-read: only steps change it, and the version
    checked under the encounter's lock proves that no step happened since they were loaded."""
    system = system_of(encounter.campaign)
    involved = {c.character_id: c for c in combatants if c.pk in pks}
    fresh = lock_sheets(encounter, list(involved), system.live_pool_fields)
    for character_id, values in fresh.items():
        sheet = getattr(involved[character_id].character, system.sheet_name)
        for name, value in values.items():
            setattr(sheet, name, value)


def _sheets_for_update(encounter: Encounter, **where) -> models.QuerySet:
    sheet_model = system_of(encounter.campaign).sheet_model()
    # One query locks each character with its sheet, in character order: the sheet services
    # lock a character, then its sheet, so the two can never wait on each other in a cycle.
    return (
        sheet_model.objects.select_for_update(of=("self", "character"))
        .select_related("character")
        .filter(**where)
        .order_by("character_id")
        .only("character__id")
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


# What the campaign's other screens show of a fight: the sheets' pools (any field of every
# system's sheet, ``shared_sheets``) and the banner of the fight under way (its name, status
# and round), the campaign page's party and encounter list. A step that changes none of it
# (a turn passed, a miss, a stance) leaves the campaign's version alone: the players' sheets
# are not fetched again for nothing.
SHOWN_OUTSIDE = {
    "characters.character": None,  # any field
    "encounters.encounter": {"status", "round", "name"},
}


def shared_sheets() -> frozenset[str]:
    """The rows a fight shares with the rest of the table: every system's sheet (a player
    spends éclat or fatigue from it, the GM lets a character rest or sells it XP, while a
    fight runs or after it)."""
    return sheet_labels()


def shown_outside(changes: list[dict]) -> bool:
    """Whether these recorded changes touch what the campaign's other screens show."""
    shown = dict.fromkeys(shared_sheets()) | SHOWN_OUTSIDE
    for change in changes:
        if change["model"] in shown:
            fields = shown[change["model"]]
            if fields is None or change["field"] in fields:
                return True
    return False


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
    # Undo, redo and reopen write their values back themselves: they say here whether what
    # they wrote is shown outside the fight (``shown_outside`` of the changes they reverted).
    changed_outside: bool = False
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
        self.encounter.last_sequence += 1
        encounter_fields = {"last_sequence"}
        same_change: dict[tuple[type, tuple[str, ...]], list[models.Model]] = {}
        # A request answered with a blow: the two fighters' rows in one query, each written
        # with the fields either changed (only steps write them, under the encounter's lock).
        fighters = [f for o, f in self._dirty.values() if isinstance(o, Combatant)]
        together = set().union(*fighters) if any("request" in f for f in fighters) else None
        for obj, fields in self._dirty.values():
            if together is not None and isinstance(obj, Combatant):
                fields = together
            if obj is self.encounter:
                encounter_fields |= fields  # saved with the version, in the same query
            else:
                same_change.setdefault((type(obj), tuple(sorted(fields))), []).append(obj)
        for (model, fields), objs in same_change.items():
            # An attacker's and a defender's round state: one query for both.
            if len(objs) == 1:
                objs[0].save(update_fields=fields)
            else:
                model.objects.bulk_update(objs, fields)
        event = Event.objects.create(
            encounter=self.encounter,
            sequence=self.encounter.last_sequence,
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
        outside = self.changed_outside or shown_outside(self.changes)
        bump_version(self.encounter, *sorted(encounter_fields), campaign=outside)
        return event


def bump_version(encounter: Encounter, *also: str, campaign: bool = True) -> None:
    """Mark the encounter (and, with ``campaign``, its campaign's screens) as changed;
    ``also`` names other fields of the locked encounter to save with it.

    One statement updates both rows: every step pays for it, and a round trip to the
    database costs more than the rest of a small step.
    """
    encounter.version += 1
    fields = [Encounter._meta.get_field(name) for name in ("version", *also)]
    quote = connection.ops.quote_name
    assignments = ", ".join(f"{quote(field.column)} = %s" for field in fields)
    values = [
        field.get_db_prep_save(getattr(encounter, field.attname), connection) for field in fields
    ]
    update = (
        f"UPDATE {quote(Encounter._meta.db_table)} SET {assignments} "
        f"WHERE {quote(Encounter._meta.pk.column)} = %s"
    )
    if campaign:
        campaign_table = quote(encounter.campaign._meta.db_table)
        update = (
            f"WITH bumped AS ({update} RETURNING campaign_id) "
            f"UPDATE {campaign_table} SET version = version + 1 "
            f"WHERE id = (SELECT campaign_id FROM bumped)"
        )
    with connection.cursor() as cursor:
        cursor.execute(update, [*values, encounter.pk])


def follow_written(encounter: Encounter, changes: list[dict], side: str) -> None:
    """The locked encounter's fields as undo (``side`` "before") or redo ("after") just
    wrote them back (its status, round, turn): set in memory rather than read again."""
    for (label, pk), values in values_by_row(changes, side).items():
        if label == Encounter._meta.label_lower and pk == encounter.pk:
            for name, value in values.items():
                setattr(encounter, name, value)


def check_not_changed_outside(changes: list[dict], side: str) -> None:
    """Before undo (``side`` "before") or redo ("after") writes a step's values back: refuse
    when a sheet value it would overwrite was changed outside the fight since the step — that
    change would be lost. The fighters' sheets are locked (``lock_fighters``)."""
    stale = changed_since(changes, side, shared_sheets())
    if stale:
        _row, sheet = stale[0]
        raise EncounterError(
            _(
                "Les réserves de %(name)s ont changé hors du combat depuis ce coup "
                "(dépense ou repos depuis sa fiche) : y revenir effacerait ce "
                "changement, rien n'a été modifié. Une dépense ou un repos s'annule "
                "depuis le journal de la campagne."
            )
            % {"name": sheet.character.name}
        )
