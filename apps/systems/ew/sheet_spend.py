"""A point d'éclat spent from an EW sheet (a "coup de pouce du destin"): its form, the
service that spends it, and the sheet's view (its route: ``urls.sheet_urlpatterns``, in the
``characters`` namespace). A rescue of a failed roll is spent from the console instead."""

from __future__ import annotations

from django import forms
from django.db import transaction
from django.http import Http404, HttpResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from apps.accounts.models import User
from apps.characters import fights
from apps.characters.access import get_character_for_user
from apps.characters.models import Character, EwSheet
from apps.characters.services import pools_of, table_action_record
from apps.characters.views import sheet_refused, sheet_response, sheet_with_form
from apps.core.http import HtmxHttpRequest
from apps.core.once import once_per_submission
from apps.core.refusals import rules_message
from apps.encounters.models import asked_a_roll
from apps.rules import ew
from apps.rules.errors import InvalidEclatSpend, RulesError, fr


class EclatSpendForm(forms.Form):
    """A point d'éclat does not come back by itself: its reason first, then a confirmation
    (``confirmed`` is set by the confirmation step's button)."""

    note = forms.CharField(
        label=gettext_lazy("Pour quoi ?"),
        max_length=200,
        help_text=gettext_lazy("Le coup de pouce du destin demandé, noté au journal."),
        error_messages={"required": gettext_lazy("Dites pour quoi : c'est noté au journal du MJ.")},
    )
    confirmed = forms.BooleanField(required=False, widget=forms.HiddenInput)

    @property
    def asks_confirmation(self) -> bool:
        """The reason is given but not yet confirmed: the sheet shows the confirmation."""
        return self.is_bound and not self.errors and not self.cleaned_data["confirmed"]


@transaction.atomic
def eclat_spend(*, character: Character, by: User, note: str = "") -> int:
    """Spend 1 point d'éclat (a "coup de pouce du destin"); returns the points left.

    Raises InvalidEclatSpend when none is left. A rescue of a failed roll is spent from the
    encounter console, where the roll is.
    """
    fights.follow([character.pk])
    sheet = EwSheet.objects.select_for_update().get(pk=character.pk)
    if asked_a_roll(character.pk):
        raise InvalidEclatSpend(
            fr("Un jet t'est demandé dans le combat : dépense ton éclat depuis la demande."),
            field="eclat",
        )
    before = pools_of(sheet)
    spend = ew.spend_coup_de_pouce(sheet.eclat, note)
    sheet.eclat = spend.after
    sheet.save(update_fields=["eclat"])
    text = _("%(name)s dépense un point d'éclat") % {"name": character.name}
    text = f"{text}{' : ' + spend.note if spend.note else ''}."
    table_action_record(character=character, sheet=sheet, before=before, text=text, by=by)
    return sheet.eclat


@require_POST
@once_per_submission(sheet_refused)
def sheet_eclat_spend(request: HtmxHttpRequest, character_id: int) -> HttpResponse:
    """EW: the owner (or the GM) spends a point d'éclat for a coup de pouce du destin."""
    character = get_character_for_user(request, character_id, write=True)
    if character.campaign.system != "ew":
        raise Http404("This system has no points d'éclat.")
    form = EclatSpendForm(request.POST)
    if not form.is_valid() or form.asks_confirmation:
        return sheet_with_form(request, character, "eclat_form", form)
    try:
        eclat_spend(character=character, by=request.user, note=form.cleaned_data["note"])
    except RulesError as error:
        form.add_error("note", rules_message(error))
        return sheet_with_form(request, character, "eclat_form", form)
    return sheet_response(request, character)
