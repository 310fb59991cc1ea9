"""Aethoria's creation and edit wizard: characteristics → skills → magic type, domain or
god, Pouvoir → equipment, checked by the rules as the user types."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from apps.characters.forms import CreationForm, characteristic_field, level_field
from apps.characters.models import Character, MagicType
from apps.compendium import models as compendium
from apps.rules import aethoria
from apps.rules.errors import RulesError

from .creation import BASE_CHARACTERISTICS, AethoriaChoices


class AethoriaCreationForm(CreationForm):
    """Aethoria: characteristics → skills → magic type, domain or god, Pouvoir → equipment."""

    step_titles = (
        _("Identité"),
        _("Caractéristiques"),
        _("Compétences"),
        _("Magie"),
        _("Équipement"),
    )

    magic_type = forms.ChoiceField(
        label=_("Magie"),
        choices=MagicType.choices,
        initial=MagicType.NONE,
        widget=forms.RadioSelect,
    )
    pouvoir = forms.IntegerField(
        label=_("Pouvoir"),
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0, "max": 12}),
        help_text=_("Mages seulement (doués et marqués), 1 à 9."),
    )
    domain = forms.ModelChoiceField(
        label=_("Domaine (doué)"),
        queryset=compendium.AethoriaMagicDomain.objects.none(),
        required=False,
    )
    god = forms.ModelChoiceField(
        label=_("Dieu (marqué)"), queryset=compendium.AethoriaGod.objects.none(), required=False
    )
    weapons = forms.ModelMultipleChoiceField(
        label=_("Armes"),
        queryset=compendium.AethoriaWeapon.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    shield = forms.ModelChoiceField(
        label=_("Bouclier"), queryset=compendium.AethoriaShield.objects.none(), required=False
    )
    armour_pieces = forms.ModelMultipleChoiceField(
        label=_("Pièces d'armure"),
        queryset=compendium.AethoriaArmourPiece.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.house = self.campaign.house()
        for name in BASE_CHARACTERISTICS:
            self.fields[name] = characteristic_field(
                aethoria.CHARACTERISTIC_LABELS[name],
                5,
                aethoria.CHARACTERISTIC_MIN,
                aethoria.EXCEPTIONAL_CHARACTERISTIC_MAX
                if self.npc
                else aethoria.CHARACTERISTIC_MAX,
            )
        if self.npc:
            self.fields["exceptional"] = forms.BooleanField(
                label=_("Valeurs exceptionnelles permises (jusqu'à 12)"), required=False
            )
        self.fields["domain"].queryset = compendium.AethoriaMagicDomain.objects.all()
        self.fields["god"].queryset = compendium.AethoriaGod.objects.all()
        self.fields["weapons"].queryset = compendium.AethoriaWeapon.objects.all()
        self.fields["shield"].queryset = compendium.AethoriaShield.objects.all()
        self.fields["armour_pieces"].queryset = compendium.AethoriaArmourPiece.objects.all()
        self.skills = list(compendium.AethoriaSkill.objects.all())
        for skill in self.skills:
            label = f"{skill.name} ({skill.get_characteristic_display()})"
            self.fields[f"skill_{skill.pk}"] = level_field(label, aethoria.SKILL_RANK_MAX)

    def characteristic_fields(self):
        return [self[name] for name in BASE_CHARACTERISTICS]

    def skill_fields(self):
        return [(s, self[f"skill_{s.pk}"]) for s in self.skills]

    def build_choices(self) -> AethoriaChoices:
        data = self.cleaned_data
        return AethoriaChoices(
            **{name: data.get(name) for name in BASE_CHARACTERISTICS},
            magic_type=data.get("magic_type") or MagicType.NONE,
            pouvoir=data.get("pouvoir") or 0,
            domain=data.get("domain"),
            god=data.get("god"),
            exceptional=bool(data.get("exceptional")),
            skills=[
                (s, data.get(f"skill_{s.pk}"))
                for s in self.skills
                if data.get(f"skill_{s.pk}") is not None
            ],
            weapons=list(data.get("weapons") or []),
            shield=data.get("shield"),
            armour_pieces=list(data.get("armour_pieces") or []),
        )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        self.choices = self.build_choices()
        self.add_problems(self.choices.problems())
        return cleaned

    def counters(self) -> dict[str, Any]:
        """Derived values of the characteristics typed so far (None while incomplete)."""
        if self.choices is None:
            self.choices = self.build_choices() if hasattr(self, "cleaned_data") else None
        c = self.choices
        if c is None:
            c = AethoriaChoices(5, 5, 5, 5, 5, 5)
        try:
            derived = aethoria.derive(c.force, c.vitalite, c.concentration, c.esprit, self.house)
        except RulesError:
            derived = None
        return {"derived": derived}


# --- Editing a sheet (the GM) -----------------------------------------------------------------


def _initial(character: Character) -> dict[str, Any]:
    sheet = character.aethoria
    initial: dict[str, Any] = {
        "name": character.name,
        "concept": character.concept,
        **{name: getattr(sheet, name) for name in BASE_CHARACTERISTICS},
        "exceptional": sheet.exceptional,
        "magic_type": sheet.magic_type,
        "pouvoir": sheet.pouvoir or None,
        "domain": sheet.domain_id,
        "god": sheet.god_id,
        "weapons": [w.pk for w in sheet.weapons.all()],
        "shield": sheet.shield_id,
        "armour_pieces": [p.pk for p in sheet.armour_pieces.all()],
    }
    initial.update({f"skill_{r.skill_id}": r.rank for r in sheet.skills.all()})
    return initial


class AethoriaEditForm(AethoriaCreationForm):
    """The Aethoria creation form, pre-filled with the sheet, checked by the same rules."""

    def __init__(self, *args: Any, character: Character, **kwargs: Any) -> None:
        self.character = character
        kwargs.setdefault("initial", _initial(character))
        super().__init__(*args, campaign=character.campaign, npc=not character.is_pc, **kwargs)
        self.fields.pop("is_template", None)

    def counters(self) -> dict[str, Any]:
        if self.choices is None and not hasattr(self, "cleaned_data"):
            sheet = self.character.aethoria
            self.choices = AethoriaChoices(*(getattr(sheet, name) for name in BASE_CHARACTERISTICS))
        return super().counters()
