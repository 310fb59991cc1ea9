"""Every input of the encounter console goes through one of these forms (C10)."""

from __future__ import annotations

from django import forms
from django.db.models import Q
from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from apps.characters.models import Character
from apps.systems import system_of

from .models import Combatant, Encounter
from .steps import EncounterError


class EncounterForm(forms.ModelForm):
    class Meta:
        model = Encounter
        fields = ["name"]


class VersionInput(forms.HiddenInput):
    """The encounter's version, as every form of the console carries it: with the class a
    step's answer uses to refresh them all at once, and no id (the forms would repeat it,
    and the refreshed inputs could not keep each its own)."""

    def __init__(self):
        super().__init__(attrs={"class": "encounter-version"})

    def get_context(self, name, value, attrs):
        context = super().get_context(name, value, attrs)
        context["widget"]["attrs"].pop("id", None)
        return context


class VersionForm(forms.Form):
    """Every action carries the version of the encounter it was made on."""

    version = forms.IntegerField(widget=VersionInput(), min_value=1)


def add_encounter_error(form: forms.Form, error: EncounterError) -> None:
    """Put a refused step's message next to its field, or above the form when the field is
    not one the user sees."""
    field = form.fields.get(error.field or "")
    form.add_error(
        error.field if field is not None and not field.widget.is_hidden else None, error.message
    )


def _face_range(sides: int) -> str:
    return gettext("Un d%(sides)s donne de 1 à %(sides)s.") % {"sides": sides}


# Forms are built at import time: the refusal is put in words when shown, in the viewer's
# language (a gettext_lazy text formatted with % here would be French for everyone).
face_range = lazy(_face_range, str)


def optional_face(sides: int, label: str) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        required=False,
        min_value=1,
        max_value=sides,
        help_text=_("Vide : l'application lance le dé."),
        error_messages={
            "min_value": face_range(sides),
            "max_value": face_range(sides),
        },
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "face-input"}),
    )


class InitiativeForm(VersionForm):
    """Optional physical-dice faces for initiative, one per combatant."""

    def __init__(self, *args, combatants: list[Combatant], sides: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.sides = sides
        for combatant in combatants:
            self.fields[f"face_{combatant.pk}"] = optional_face(sides, combatant.character.name)

    def faces(self) -> dict[int, int]:
        return {
            int(name.removeprefix("face_")): value
            for name, value in self.cleaned_data.items()
            if name.startswith("face_") and value is not None
        }


class AddCombatantsForm(forms.Form):
    characters = forms.ModelMultipleChoiceField(
        label=_("Personnages"),
        queryset=None,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    hidden = forms.BooleanField(label=_("Cachés aux joueurs"), required=False)

    def __init__(self, *args, encounter: Encounter, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["characters"].queryset = (
            Character.objects.for_campaign(encounter.campaign)
            .filter(is_template=False)
            .exclude(combatants__encounter=encounter)
            .order_by("-kind", "name")  # "pc" after "npc" backwards: the party first
        )


class FromTemplateForm(forms.Form):
    template = forms.ModelChoiceField(label=_("Modèle de PNJ"), queryset=None)
    count = forms.IntegerField(label=_("Combien"), min_value=1, max_value=20, initial=1)
    hidden = forms.BooleanField(label=_("Cachés aux joueurs"), required=False)

    def __init__(self, *args, encounter: Encounter, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["template"].queryset = (
            Character.objects.for_campaign(encounter.campaign)
            .npcs()
            .filter(is_template=True)
            .order_by("name")
        )


class AwardXpForm(forms.Form):
    amount = forms.IntegerField(label=_("XP pour chaque PJ"), min_value=1, max_value=50, initial=2)
    reason = forms.CharField(label=_("Raison"), max_length=200)


def _copies_range() -> str:
    return gettext("Entre 1 et %(max)s PNJ à la fois.") % {"max": 20}


copies_range = lazy(_copies_range, str)()


class ReinforcementForm(VersionForm):
    """Fighters joining a running fight: a character of the campaign, or copies of an NPC."""

    character = forms.ModelChoiceField(
        label=_("Personnage de la campagne"), queryset=None, required=False
    )
    template = forms.ModelChoiceField(
        label=_("ou des copies du PNJ"), queryset=None, required=False
    )
    count = forms.IntegerField(
        label=_("Combien de copies"),
        min_value=1,
        max_value=20,
        initial=1,
        required=False,
        error_messages={"min_value": copies_range, "max_value": copies_range},
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    hidden = forms.BooleanField(label=_("Cachés aux joueurs"), required=False)
    # The GM with physical dice types each arrival's initiative face, in the order they
    # arrive (the character, or the copies in their numbering).
    faces = forms.CharField(
        label=_("Initiative (dés physiques)"),
        required=False,
        max_length=200,
        help_text=_(
            "Une face par arrivant, séparées par des espaces ; vide : l'application lance."
        ),
        widget=forms.TextInput(
            attrs={"inputmode": "numeric", "class": "faces-input", "autocomplete": "off"}
        ),
    )

    def __init__(self, *args, encounter: Encounter, **kwargs):
        super().__init__(*args, **kwargs)
        self.sides = system_of(encounter.campaign).initiative_sides
        campaign = Character.objects.for_campaign(encounter.campaign)
        in_fight = Q(combatants__encounter=encounter, combatants__present=True)
        self.fields["character"].queryset = (
            campaign.filter(is_template=False)
            .exclude(pk__in=campaign.filter(in_fight).values("pk"))
            .order_by("-kind", "name")
        )
        self.fields["template"].queryset = campaign.npcs().order_by("-is_template", "name")

    def clean(self):
        data = super().clean()
        if not data.get("character") and not data.get("template") and not self.errors:
            self.add_error("character", gettext("Choisissez un personnage ou un PNJ à copier."))
        if data.get("template") and data.get("count") is None and "count" not in self.errors:
            self.add_error("count", copies_range)
        if not self.errors:
            data["faces"] = self._arrival_faces(data)
        return data

    def _arrival_faces(self, data) -> tuple[int, ...] | None:
        """The typed faces (None: the app rolls), one per arrival, each a face of the die."""
        words = data.get("faces", "").split()
        if not words:
            return None
        arrivals = (1 if data.get("character") else 0) + (
            data["count"] if data.get("template") else 0
        )
        if not all(word.isdigit() and 1 <= int(word) <= self.sides for word in words):
            self.add_error("faces", face_range(self.sides))
            return None
        if len(words) != arrivals:
            self.add_error(
                "faces",
                gettext("Il faut %(n)s face(s), une par arrivant (ou laissez vide).")
                % {"n": arrivals},
            )
            return None
        return tuple(int(word) for word in words)


class PoolCorrectionForm(VersionForm):
    """One pool of a fighter set by hand, with the reason the log keeps."""

    pool = forms.ChoiceField(label=_("Réserve"))
    value = forms.IntegerField(
        label=_("Nouvelle valeur"), widget=forms.NumberInput(attrs={"inputmode": "numeric"})
    )
    reason = forms.CharField(label=_("Raison"), max_length=200)

    def __init__(self, *args, pools: list, **kwargs):
        super().__init__(*args, **kwargs)
        self.pools = {field.name: field for field in pools}
        self.fields["pool"].choices = [(field.name, field.label) for field in pools]

    def clean(self):
        data = super().clean()
        field = self.pools.get(data.get("pool", ""))
        value = data.get("value")
        if field is not None and value is not None and not field.low <= value <= field.high:
            self.add_error(
                "value",
                gettext("De %(low)s à %(high)s pour cette réserve.")
                % {"low": field.low, "high": field.high},
            )
        return data
