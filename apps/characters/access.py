"""The one way views get a character (C6)."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db.models import F
from django.http import Http404

from apps.campaigns.models import Role
from apps.core.http import HtmxHttpRequest
from apps.systems import all_systems

from .models import Character


def get_character_for_user(
    request: HtmxHttpRequest, character_id: int, *, write: bool = False
) -> Character:
    """The character with its sheets and campaign, in one query.

    The GM sees and edits everything of their campaign; a player edits their own PCs and sees
    the rest of the party and the NPCs the GM revealed (public view); anything else is 404.
    Sets ``campaign.role``, ``is_gm``, ``can_write`` and ``full_view`` for the view.
    """
    character = (
        Character.objects.with_sheets()
        .select_related(*(name for system in all_systems() for name in system.sheet_relations))
        .filter(pk=character_id, campaign__memberships__user=request.user)
        .annotate(viewer_role=F("campaign__memberships__role"))
        .first()
    )
    if character is None:
        raise Http404("No such character.")
    character.campaign.role = character.viewer_role
    character.is_gm = character.viewer_role == Role.GM
    character.can_write = character.is_gm or (
        character.owner_id is not None and character.owner_id == request.user.pk
    )
    character.full_view = character.can_write
    if not character.can_write:
        visible = character.is_pc or (character.revealed and not character.is_template)
        if not visible:
            raise Http404("No such character.")
        if write:
            raise PermissionDenied
    return character


def require_gm(character: Character) -> None:
    """403 unless the viewer is the campaign's GM (after get_character_for_user)."""
    if not character.is_gm:
        raise PermissionDenied
