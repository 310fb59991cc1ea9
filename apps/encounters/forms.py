"""Every input of the encounter console goes through one of these forms (C10)."""

from __future__ import annotations

from django import forms
from django.db.models import Q
from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from apps.characters.models import Character
from apps.systems import system_of

from . import conditions
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


no_version = _(
    "Ce formulaire ne dit pas sur quel état du combat il a été fait (version manquante ou "
    "illisible) : rien n'a été fait, la console a été actualisée, recommencez."
)


class VersionForm(forms.Form):
    """Every action carries the version of the encounter it was made on: a step made on
    another one is refused (someone acted first, or the same form was sent twice), and so is
    a step without one — never taken as "no check"."""

    version = forms.IntegerField(
        widget=VersionInput(),
        min_value=1,
        error_messages={"required": no_version, "invalid": no_version, "min_value": no_version},
    )

    def version_refused(self) -> str | None:
        """The refusal of a missing or malformed version, if that is what is wrong: it is
        said at the top of the console, the version being no field the GM sees."""
        if not self.is_bound or "version" not in self.errors:
            return None
        return str(self.errors["version"][0])


class VisibilityForm(VersionForm):
    """Hide a fighter from the players (1) or show it (0): nothing else means either."""

    hidden = forms.TypedChoiceField(
        choices=[("0", "0"), ("1", "1")],
        coerce=lambda value: value == "1",
        error_messages={
            "required": _("Cacher ou révéler ? La demande ne le disait pas : rien n'a été fait."),
            "invalid_choice": _(
                "Cacher ou révéler ? La demande ne le disait pas : rien n'a été fait."
            ),
        },
    )


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


class AddCombatantsForm(VersionForm):
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


class FromTemplateForm(VersionForm):
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


class AwardXpForm(VersionForm):
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


# --- Conditions ------------------------------------------------------------------------------

DURATION_CHOICES = [
    ("", _("selon l'état")),
    (f"{conditions.TURN_END}:bearer", _("jusqu'à la fin de son prochain tour")),
    (f"{conditions.TURN_START}:bearer", _("jusqu'au début de son prochain tour")),
    (f"{conditions.TURN_END}:placer", _("jusqu'à la fin du prochain tour de qui l'a causé")),
    (f"{conditions.TURN_START}:placer", _("jusqu'au début du prochain tour de qui l'a causé")),
    (conditions.ROUNDS, _("pendant un nombre de rounds")),
    (conditions.REMOVED, _("jusqu'à ce qu'on le retire")),
]
MODIFIER_LABELS = {
    conditions.Roll.ATTACK: _("Attaque"),
    conditions.Roll.DEFENCE: _("Défense"),
    conditions.Roll.TEST: _("Test"),
    conditions.Roll.DAMAGE: _("Dégâts"),
    conditions.Roll.MAGIC: _("Sort"),
    conditions.Roll.INITIATIVE: _("Initiative"),
    conditions.Roll.ATTACKED: _("Attaques contre lui"),
}
PUBLIC_CHOICES = [
    ("", _("par défaut")),
    ("1", _("vu des joueurs")),
    ("0", _("secret (MJ seul)")),
]


def _modifier_field(label) -> forms.IntegerField:
    bound = conditions.MAX_MODIFIER
    return forms.IntegerField(
        label=label,
        required=False,
        min_value=-bound,
        max_value=bound,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "modifier-input"}),
    )


class ConditionForm(VersionForm):
    """A condition put on a fighter: one of the system's list in one tap (the other fields
    left empty take the list's defaults), or the GM's own words, how long it lasts and what
    it changes. ``place``: where the GM opened it (a fighter's row, or the actions panel,
    which also asks whom it is for)."""

    combatant = forms.TypedChoiceField(label=_("Sur"), coerce=int)
    kind = forms.ChoiceField(label=_("État"), required=False)
    # One tap on a condition of the list (its button): the other fields may stay empty.
    quick = forms.ChoiceField(required=False)
    label = forms.CharField(label=_("Ou en vos mots"), max_length=40, required=False)
    duration = forms.ChoiceField(label=_("Durée"), choices=DURATION_CHOICES, required=False)
    rounds = forms.IntegerField(
        label=_("Rounds"), required=False, min_value=1, max_value=conditions.MAX_ROUNDS
    )
    source = forms.TypedChoiceField(
        label=_("Causé par"), coerce=int, required=False, empty_value=None
    )
    public = forms.ChoiceField(label=_("Joueurs"), choices=PUBLIC_CHOICES, required=False)
    reminder = forms.CharField(
        label=_("Rappel au début de son tour"), max_length=120, required=False
    )
    place = forms.CharField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, encounter: Encounter, combatants, catalogue, **kwargs):
        super().__init__(*args, **kwargs)
        fighters = [(c.pk, c.character.name) for c in combatants]
        self.fields["combatant"].choices = fighters
        self.fields["source"].choices = [("", _("personne")), *fighters]
        self.fields["kind"].choices = [
            ("", _("autre (en vos mots)")),
            *((entry.key, entry.label) for entry in catalogue),
        ]
        self.fields["quick"].choices = self.fields["kind"].choices
        self.catalogue = catalogue
        # The rolls the system's plans read: a modifier elsewhere would change nothing.
        self.rolls = [
            r for r in MODIFIER_LABELS if r in system_of(encounter.campaign).condition_rolls
        ]
        for roll in self.rolls:
            self.fields[f"mod_{roll}"] = _modifier_field(MODIFIER_LABELS[roll])

    def modifier_fields(self):
        return [self[f"mod_{roll}"] for roll in self.rolls]

    def choice(self) -> conditions.ConditionChoice:
        data = self.cleaned_data
        typed = {
            roll: data[f"mod_{roll}"] for roll in self.rolls if data.get(f"mod_{roll}") is not None
        }
        public = data.get("public")
        return conditions.ConditionChoice(
            combatant_id=data["combatant"],
            kind=data.get("quick") or data.get("kind") or "",
            label=data.get("label") or "",
            duration=data.get("duration") or None,
            rounds=data.get("rounds"),
            source_id=data.get("source"),
            modifiers=typed or None,
            public=None if not public else public == "1",
            reminder=data.get("reminder") or "",
        )


class ConditionRemoveForm(VersionForm):
    combatant = forms.IntegerField(widget=forms.HiddenInput)
    condition = forms.IntegerField(widget=forms.HiddenInput)


class ConditionAfterForm(forms.Form):
    """After the fight: keep a condition on the character, or drop it."""

    combatant = forms.IntegerField(widget=forms.HiddenInput)
    condition = forms.IntegerField(widget=forms.HiddenInput)
    decision = forms.ChoiceField(choices=[("keep", _("garder")), ("drop", _("laisser"))])
