"""EW-System's creation and edit wizard, wired to the character services that save it."""

from __future__ import annotations

from apps.characters import services
from apps.characters.forms import EwCreationForm, EwEditForm


def creation_form(data, *, campaign, npc: bool) -> EwCreationForm:
    return EwCreationForm(data, campaign=campaign, npc=npc)


def edit_form(data, *, character) -> EwEditForm:
    return EwEditForm(data, character=character)


def character_create(*, campaign, form, owner, is_template: bool):
    return services.character_create_ew(
        campaign=campaign,
        name=form.cleaned_data["name"],
        concept=form.cleaned_data["concept"],
        choices=form.choices,
        owner=owner,
        is_template=is_template,
    )


def character_update(*, character, form, by) -> None:
    services.character_update_ew(
        character=character,
        name=form.cleaned_data["name"],
        concept=form.cleaned_data["concept"],
        choices=form.choices,
        by=by,
    )
