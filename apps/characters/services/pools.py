"""Pools restored outside a fight (a rest; each system's own spends from a sheet are in its
folder and record themselves here), their undo from the sheet or the log, and a character
deleted."""

from __future__ import annotations

import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.accounts.models import User
from apps.campaigns.models import LogEntry
from apps.core.changes import changed_since, write_back
from apps.systems import all_systems, system_of

from .. import fights
from ..models import Character
from .journal import log_line

# --- Pools ------------------------------------------------------------------------------------


class CharacterInUse(Exception):
    """The character took part in a fight: deleting it would erase that fight's history."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@transaction.atomic
def character_delete(*, character: Character, by: User) -> None:
    """Delete a character with its sheet and XP ledger (the GM's mistaken NPC, an unused
    template, a PC to start again). Refused for one that fought: an encounter's log and undo
    history name it, and nothing of a fight may be lost."""
    fought = fights.names(character)
    if fought:
        raise CharacterInUse(
            _(
                "%(name)s a pris part à un combat (%(fights)s) : le supprimer effacerait "
                "l'histoire de ce combat."
            )
            % {"name": character.name, "fights": ", ".join(f"« {f} »" for f in fought)}
        )
    campaign, name = character.campaign, character.name
    character.delete()
    log_line(campaign, _("Personnage %(name)s supprimé par le MJ.") % {"name": name}, by)
    campaign.touch()


def _pool_fields() -> dict[type, tuple[str, ...]]:
    """The sheet values a table action outside a fight may change, and its undo writes back:
    the pools a fight's summary compares (health, and éclat or fatigue), by sheet model."""
    return {system.sheet_model(): system.summary_pool_fields for system in all_systems()}


def pools_of(sheet) -> dict[str, int]:
    """The sheet's pools a table action may change, as they are now (its ``before``)."""
    return {name: getattr(sheet, name) for name in _pool_fields()[type(sheet)]}


def _changes(sheet, before: dict[str, int]) -> list[dict]:
    """What an action changed on the sheet since ``before``, recorded as an encounter step
    records its changes, for the GM's undo from the session log."""
    return [
        {
            "model": sheet._meta.label_lower,
            "pk": sheet.pk,
            "field": name,
            "before": value,
            "after": getattr(sheet, name),
        }
        for name, value in before.items()
        if getattr(sheet, name) != value
    ]


def table_action_record(
    *, character: Character, sheet, before: dict[str, int], text: str, by: User
) -> None:
    """Write a table action's line in the session log (a spend, a rest: each system's own
    from a sheet too), with what it changed on the sheet since ``before`` (``pools_of``),
    which the GM's undo writes back; then open screens refresh."""
    log_line(character.campaign, text, by, changes=_changes(sheet, before))
    character.campaign.touch()


@transaction.atomic
def character_rest(
    *, character: Character, by: User, health: bool = True, resources: bool = True
) -> None:
    """The GM restores a character: PV pools to full (health) and éclat or fatigue (resources)."""
    fights.follow([character.pk])
    house = character.campaign.house()
    system = system_of(character.campaign)
    sheet = system.sheet_model().objects.select_for_update().get(pk=character.pk)
    before = pools_of(sheet)
    system.rest(sheet, house, health=health, resources=resources)
    text = _("%(name)s se repose.") % {"name": character.name}
    table_action_record(character=character, sheet=sheet, before=before, text=text, by=by)


class UndoRefused(Exception):
    """A table action that cannot be undone (nothing was changed); ``message`` says why."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


# How long the author of a spend or a rest may take it back from the sheet (a mis-tap);
# later, only the GM can, from the session log.
OWN_UNDO_WINDOW = datetime.timedelta(minutes=15)


def own_undoable(character: Character, user: User) -> LogEntry | None:
    """The latest table action on this character's sheet, when ``user`` made it in the last
    minutes and it is not undone: what its author may take back from the sheet."""
    latest = character.campaign.log_entries.filter(changes__contains=[{"pk": character.pk}]).first()
    if (
        latest is None
        or latest.undone
        or latest.author_id != user.pk
        or latest.created_at < timezone.now() - OWN_UNDO_WINDOW
    ):
        return None
    return latest


@transaction.atomic
def table_action_undo(*, entry: LogEntry, by: User) -> None:
    """Undo a table action of the session log (a spend, a rest) — the GM from the log, its
    author from the sheet (``own_undoable``): the sheet values it changed go back, unless
    something changed them since — then nothing is written, as a later action would be
    lost. The line stays, marked undone, and a new one says who undid it."""
    entry = LogEntry.objects.select_for_update().get(pk=entry.pk)
    if entry.undone:
        raise UndoRefused(_("Cette action est déjà annulée."))
    if not entry.changes:
        raise UndoRefused(_("Cette ligne du journal n'est pas une action à annuler."))
    pool_fields = {model._meta.label_lower: fields for model, fields in _pool_fields().items()}
    for change in entry.changes:
        if change["field"] not in pool_fields.get(change["model"], ()):
            raise UndoRefused(_("Cette ligne du journal n'est pas une action à annuler."))
    fights.follow(change["pk"] for change in entry.changes)
    stale = changed_since(entry.changes, "before", lock=True)  # the sheets stay locked
    if stale:
        _row, sheet = stale[0]
        if sheet is None:
            raise UndoRefused(_("Ce personnage n'existe plus."))
        raise UndoRefused(
            _(
                "La fiche a changé depuis (un combat, une autre dépense) : l'annuler "
                "effacerait ce qui a suivi."
            )
        )
    write_back(entry.changes, "before")
    entry.undone = True
    entry.save(update_fields=["undone"])
    who = by.display_name if by is not None else "?"
    log_line(
        entry.campaign, _("Annulé par %(who)s : %(text)s") % {"who": who, "text": entry.text}, by
    )
    entry.campaign.touch()
