"""Fatigue spent from an Aethoria sheet (1 to 3 points for as many extra dice on a roll made
at the table): its form, the service that spends it, and the sheet's view (its route:
``urls.sheet_urlpatterns``, in the ``characters`` namespace)."""

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
from apps.characters.models import AethoriaSheet, Character
from apps.characters.services import pools_of, table_action_record
from apps.characters.views import sheet_refusal, sheet_refused, sheet_response
from apps.core.http import HtmxHttpRequest
from apps.core.once import once_per_submission
from apps.encounters.models import asked_a_roll
from apps.rules import aethoria
from apps.rules.errors import InvalidFatigueSpend, RulesError, fr


class FatigueSpendForm(forms.Form):
    kind = forms.ChoiceField(
        label=gettext_lazy("Fatigue"),
        choices=[
            (aethoria.PHYSICAL, gettext_lazy("physique")),
            (aethoria.MENTAL, gettext_lazy("mentale")),
        ],
        widget=forms.RadioSelect,
    )
    count = forms.TypedChoiceField(
        label=gettext_lazy("Dés de fatigue"),
        choices=[(n, str(n)) for n in range(1, 4)],
        coerce=int,
        widget=forms.RadioSelect,
    )


@transaction.atomic
def fatigue_spend(*, character: Character, kind: str, count: int, by: User) -> AethoriaSheet:
    """Pay 1 to 3 fatigue points for as many extra dice on a roll made at the table."""
    fights.follow([character.pk])
    sheet = AethoriaSheet.objects.select_for_update().get(pk=character.pk)
    if asked_a_roll(character.pk):
        raise InvalidFatigueSpend(
            fr(
                "Un jet t'est demandé dans le combat : ses dés de fatigue se dépensent "
                "depuis la demande."
            ),
            field="count",
        )
    before = pools_of(sheet)
    house = character.campaign.house()
    pools, _delta = aethoria.spend_fatigue(sheet.pools(house), kind, count)
    sheet.set_pools(pools)
    word = _("physique") if kind == aethoria.PHYSICAL else _("mentale")
    text = _("%(name)s dépense %(count)s point(s) de fatigue %(kind)s.") % {
        "name": character.name,
        "count": count,
        "kind": word,
    }
    table_action_record(character=character, sheet=sheet, before=before, text=text, by=by)
    return sheet


@require_POST
@once_per_submission(sheet_refused)
def sheet_fatigue_spend(request: HtmxHttpRequest, character_id: int) -> HttpResponse:
    """Aethoria: the owner (or the GM) pays 1 to 3 fatigue points for extra dice."""
    character = get_character_for_user(request, character_id, write=True)
    if character.campaign.system != "aethoria":
        raise Http404("This system has no fatigue dice.")
    form = FatigueSpendForm(request.POST)
    if not form.is_valid():
        return sheet_response(request, character, "fatigue_form", form)
    try:
        fatigue_spend(
            character=character,
            kind=form.cleaned_data["kind"],
            count=form.cleaned_data["count"],
            by=request.user,
        )
    except RulesError as error:
        return sheet_refusal(request, character, form, "fatigue_form", error, "count")
    return sheet_response(request, character)
