"""Characters copied and rewritten by the GM: an NPC's copies, and what every system's edit
wizard shares (the lock, the log line). Each system's creation and edit services live in
its folder (``apps/systems/<code>/creation.py``)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from apps.accounts.models import User
from apps.systems import system_of

from .. import fights
from ..models import Character, Kind
from .journal import log_line


@transaction.atomic
def npc_copy(*, template: Character, count: int = 1, name: str = "") -> list[Character]:
    """Copy an NPC (typically a template) ``count`` times, sheet, ranks and gear included."""
    if template.is_pc:
        raise ValueError("Only NPCs are copied.")
    base = name or template.name
    system = system_of(template.campaign)
    source = getattr(template, system.sheet_name)
    existing = Character.objects.filter(
        campaign=template.campaign, name__startswith=base, is_template=False
    ).count()
    copies = []
    for number in range(existing + 1, existing + 1 + count):
        copy = Character.objects.create(
            campaign=template.campaign,
            kind=Kind.NPC,
            name=f"{base} {number}",
            concept=template.concept,
            equipment_notes=template.equipment_notes,
            gm_notes=template.gm_notes,
        )
        sheet = type(source).objects.get(pk=source.pk)
        sheet.pk = None
        sheet.character = copy
        sheet._state.adding = True
        sheet.save()
        system.copy_gear(source, sheet)
        copies.append(copy)
    template.campaign.touch()
    return copies


@transaction.atomic
def notes_save(*, character: Character, form) -> None:
    """Save the sheet's name, concept and notes (a valid ``NotesForm``): the campaign's pages
    follow, and so do the fights the character is in when its name changed (their rows and
    lines name it; an open console showed the old name until reloaded)."""
    form.save()
    character.campaign.touch()
    if "name" in form.changed_data:
        fights.follow([character.pk])


# --- Editing (the GM) -------------------------------------------------------------------------


def lock_for_edit(character: Character, sheet_model: type) -> Any:
    """Lock the character and its sheet (a system's wizard rewriting it): the GM's edit must
    not interleave with a spend."""
    Character.objects.select_for_update().filter(pk=character.pk).first()
    return sheet_model.objects.select_for_update().get(pk=character.pk)


def log_edit(character: Character, by: User) -> None:
    """The session log's line for a sheet the GM rewrote."""
    log_line(
        character.campaign,
        _("Fiche de %(name)s modifiée par le MJ") % {"name": character.name},
        by,
    )
