"""Character forms: the creation wizards' shared part (each system's wizard is in its
folder, ``apps/systems/<code>/creation_forms.py``), spends, XP."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from apps.accounts.models import User
from apps.campaigns.models import Campaign, Role
from apps.core.refusals import rules_message
from apps.systems.base import XpCosts

from .models import Character


class CreationForm(forms.Form):
    """Shared part of every system's wizard: the identity step and the mapping of the
    engine's problems to the input they concern."""

    group_slots: tuple[str, ...] = ()

    name = forms.CharField(label=_("Nom"), max_length=80)
    concept = forms.CharField(
        label=_("Concept"),
        max_length=160,
        required=False,
        help_text=_("En quelques mots : « contrebandière au grand cœur »."),
    )

    def __init__(self, *args: Any, campaign: Campaign, npc: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        self.npc = npc
        self.group_errors: dict[str, list[str]] = {slot: [] for slot in self.group_slots}
        # What the system's wizard collected (its ``build_choices``), once cleaned.
        self.choices: Any = None
        if npc:
            self.fields["is_template"] = forms.BooleanField(
                label=_("Modèle de PNJ (à copier pour en faire plusieurs)"), required=False
            )

    def slot_for(self, problem_field: str) -> str | None:
        """Input (or group) a problem of the engine belongs next to."""
        if problem_field in self.fields or problem_field in self.group_slots:
            return problem_field
        return None

    def options_changed(self) -> bool:
        """Whether a choice that sets the other options changed as the user typed (the live
        check then redraws those options); none by default."""
        return False

    def add_problems(self, problems) -> None:
        for problem in problems:
            slot = self.slot_for(problem.field)
            message = rules_message(problem)
            if slot in self.group_slots:
                self.group_errors[slot].append(message)
                self.add_error(None, message)
            elif slot is not None and slot not in self.errors:
                self.add_error(slot, message)
            elif slot is None:
                self.add_error(None, message)

    def error_slots(self) -> list[tuple[str, list[str]]]:
        """Every input's error slot with its messages, for the out-of-band refresh while the
        user types ("this field is required" waits for the real submit)."""
        errors = self.errors.as_data()
        slots = [
            (name, [m for e in errors.get(name, []) if e.code != "required" for m in e.messages])
            for name in self.fields
        ]
        return slots + [(slot, messages) for slot, messages in self.group_errors.items()]

    def problem_count(self) -> int:
        """Broken rules (a missing name is not counted while typing)."""
        return sum(len(messages) for _slot, messages in self.error_slots())

    def missing_labels(self) -> list[str]:
        """The labels of the required inputs still empty (a bound form's): no error shows
        under them while the user types, but the sheet is not valid until they are filled."""
        errors = self.errors.as_data()
        return [
            str(self.fields[name].label)
            for name in self.fields
            if any(error.code == "required" for error in errors.get(name, []))
        ]

    def _int(self, name: str) -> Any:
        """The cleaned value of an integer input (None when missing or not a number)."""
        return self.cleaned_data.get(name)


def level_field(label: str, high: int) -> forms.IntegerField:
    """A level or rank input of a wizard (a specialty, a skill), empty for none."""
    return forms.IntegerField(
        label=label,
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0, "max": high}),
    )


def characteristic_field(label: str, initial: int, low: int, high: int) -> forms.IntegerField:
    """A characteristic's input of a wizard, within the rules' range."""
    return forms.IntegerField(
        label=label,
        initial=initial,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": low, "max": high}),
    )


# --- On the sheet (each system's own spends: in its folder) ------------------------------


class NotesForm(forms.ModelForm):
    """The owner's notes; the GM also keeps private notes (and renames an NPC)."""

    class Meta:
        model = Character
        fields = ["name", "concept", "notes", "gm_notes"]
        widgets = {
            "notes": forms.Textarea(attrs={"rows": 4}),
            "gm_notes": forms.Textarea(attrs={"rows": 4}),
        }

    def __init__(self, *args: Any, is_gm: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not is_gm:
            del self.fields["gm_notes"]  # the GM's private notes never reach a player


class AssignForm(forms.Form):
    """The GM gives a PC to one of the campaign's players (an imported PC has none)."""

    player = forms.ModelChoiceField(
        label=_("Joueur"),
        queryset=User.objects.none(),
        empty_label=None,
        error_messages={
            "required": _("Choisissez un joueur de la campagne."),
            "invalid_choice": _("Ce joueur n'est pas dans la campagne."),
        },
    )

    def __init__(self, *args: Any, campaign: Campaign, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = User.objects.filter(
            memberships__campaign=campaign, memberships__role=Role.PLAYER
        ).order_by("first_name", "username")
        self.fields["player"].label_from_instance = lambda user: user.display_name


class RestForm(forms.Form):
    health = forms.BooleanField(label=_("Soigner (PV au maximum)"), required=False, initial=True)
    resources = forms.BooleanField(
        label=_("Récupérer (éclat ou fatigue au maximum)"), required=False, initial=True
    )


class XpAwardForm(forms.Form):
    characters = forms.ModelMultipleChoiceField(
        label=_("Personnages"),
        queryset=Character.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": _("Choisissez au moins un personnage.")},
    )
    amount = forms.IntegerField(label=_("XP"), min_value=1, max_value=100, initial=2)
    reason = forms.CharField(
        label=_("Raison"),
        max_length=200,
        help_text=_("Par exemple : fin du scénario « La Crypte »"),
    )

    def __init__(self, *args: Any, campaign: Campaign, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["characters"].queryset = (
            Character.objects.for_campaign(campaign).pcs().select_related("owner")
        )


class XpSpendForm(forms.Form):
    """One improvement to buy among those the system's XP costs offer; cleaned, the
    improvement they name."""

    improvement = forms.ChoiceField(label=_("Amélioration"))

    def __init__(self, *args: Any, costs: XpCosts, options: list[tuple[str, str]], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.costs = costs
        self.fields["improvement"].choices = options

    def clean_improvement(self) -> Any:
        return self.costs.improvement(self.cleaned_data["improvement"])
