"""EW-System's creation and edit wizard: archetype → characteristics → specialties → traits,
aptitudes and powers → equipment, checked by the rules engine as the user types."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from apps.characters.forms import CreationForm, characteristic_field, level_field
from apps.characters.models import Character
from apps.compendium import models as compendium
from apps.rules import ew

from .creation import EwChoices, archetype_factors

# Slots shown next to a group of inputs rather than one input.
GROUP_SLOTS = ("characteristics", "generation_points")


class EwCreationForm(CreationForm):
    """EW-System: archetype → characteristics (28 points) → specialties → traits, aptitudes,
    powers (generation points) → equipment."""

    group_slots = GROUP_SLOTS
    step_titles = (
        _("Identité"),
        _("Caractéristiques"),
        _("Spécialités"),
        _("Traits et pouvoirs"),
        _("Équipement"),
    )

    archetype = forms.ModelChoiceField(
        label=_("Archétype"), queryset=compendium.EwArchetype.objects.none(), required=False
    )
    traits = forms.ModelMultipleChoiceField(
        label=_("Traits"),
        queryset=compendium.EwTrait.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    aptitudes = forms.ModelMultipleChoiceField(
        label=_("Aptitudes"),
        queryset=compendium.EwAptitude.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    weapons = forms.ModelMultipleChoiceField(
        label=_("Armes"),
        queryset=compendium.EwWeapon.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    armour = forms.ModelChoiceField(
        label=_("Armure"), queryset=compendium.EwArmour.objects.none(), required=False
    )

    def options_changed(self) -> bool:
        """The archetype sets which aptitudes may be chosen: a new one redraws them."""
        return self.data.get("aptitudes_for", "") != self.data.get("archetype", "")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.house = self.campaign.house()
        self.fields["archetype"].queryset = compendium.EwArchetype.objects.all()
        self.fields["archetype"].required = not self.npc
        self.fields["traits"].queryset = compendium.EwTrait.objects.all()
        self.fields["weapons"].queryset = compendium.EwWeapon.objects.all()
        self.fields["armour"].queryset = compendium.EwArmour.objects.all()
        for name in ew.CHARACTERISTICS:
            self.fields[name] = characteristic_field(
                ew.CHARACTERISTIC_LABELS[name], 7, ew.CHARACTERISTIC_MIN, ew.CHARACTERISTIC_MAX
            )
        self.specialties = list(compendium.EwSpecialty.objects.all())
        for specialty in self.specialties:
            self.fields[f"specialty_{specialty.pk}"] = level_field(specialty.name, ew.SPECIALTY_MAX)
        self.powers = list(compendium.EwPower.objects.all())
        for power in self.powers:
            self.fields[f"power_{power.pk}"] = level_field(power.name, 20)
        self.selected_archetype = self._selected_archetype()
        aptitudes = compendium.EwAptitude.objects.all()
        if self.selected_archetype is not None:
            aptitudes = aptitudes.filter(archetype=self.selected_archetype)
        self.fields["aptitudes"].queryset = aptitudes

    def _selected_archetype(self):
        value = self.data.get("archetype") if self.is_bound else None
        if not value:
            return None
        try:
            return self.fields["archetype"].queryset.filter(pk=int(value)).first()
        except ValueError:
            return None

    def characteristic_fields(self):
        return [self[name] for name in ew.CHARACTERISTICS]

    def specialty_groups(self):
        """Specialty inputs grouped by field (con, com, hab, soc), with the factor."""
        factors = archetype_factors(self.selected_archetype)
        groups = []
        for field_name in ew.FIELDS:
            rows = [self[f"specialty_{s.pk}"] for s in self.specialties if s.field == field_name]
            if rows:
                groups.append((field_name, factors.factor(field_name), rows))
        return groups

    def power_fields(self):
        return [(p, self[f"power_{p.pk}"]) for p in self.powers]

    def slot_for(self, problem_field: str) -> str | None:
        parts = problem_field.split(".")
        if parts[0] == "specialties" and len(parts) > 1:
            index = int(parts[1])
            if index < len(self.choices.specialties):
                return f"specialty_{self.choices.specialties[index][0].pk}"
        if parts[0] == "powers" and len(parts) > 1:
            index = int(parts[1])
            if index < len(self.choices.powers):
                return f"power_{self.choices.powers[index][0].pk}"
        if parts[0] in ("traits", "aptitudes"):
            return parts[0]
        return super().slot_for(problem_field)

    def build_choices(self) -> EwChoices:
        data = self.cleaned_data
        levels = [(s, data.get(f"specialty_{s.pk}")) for s in self.specialties]
        powers = [(p, data.get(f"power_{p.pk}")) for p in self.powers]
        return EwChoices(
            phy=data.get("phy"),
            men=data.get("men"),
            per=data.get("per"),
            pre=data.get("pre"),
            archetype=data.get("archetype"),
            specialties=[(s, level) for s, level in levels if level],
            traits=list(data.get("traits") or []),
            aptitudes=list(data.get("aptitudes") or []),
            powers=[(p, level) for p, level in powers if level],
            weapons=list(data.get("weapons") or []),
            armour=data.get("armour"),
        )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        self.choices = self.build_choices()
        self.add_problems(self.rule_problems())
        return cleaned

    def rule_problems(self) -> list:
        return self.choices.problems(self.house)

    def counters(self) -> dict[str, Any]:
        """Live counters: characteristic points left and the generation budget."""
        if self.choices is None:
            self.choices = (
                self.build_choices() if hasattr(self, "cleaned_data") else self._initial_choices()
            )
        c = self.choices
        values = [c.phy, c.men, c.per, c.pre]
        return {
            "characteristics_left": ew.characteristic_points_left(*values),
            "characteristics_total": ew.CREATION_CHARACTERISTIC_POINTS,
            "budget": ew.generation_budget(c.as_creation(), self.house),
        }

    def _initial_choices(self) -> EwChoices:
        return EwChoices(phy=7, men=7, per=7, pre=7)


# --- Editing a sheet (the GM) -----------------------------------------------------------------


def _initial(character: Character) -> dict[str, Any]:
    sheet = character.ew
    initial: dict[str, Any] = {
        "name": character.name,
        "concept": character.concept,
        "archetype": sheet.archetype_id,
        **{name: getattr(sheet, name) for name in ew.CHARACTERISTICS},
        "traits": [t.pk for t in sheet.traits.all()],
        "aptitudes": [a.pk for a in sheet.aptitudes.all()],
        "weapons": [w.pk for w in sheet.weapons.all()],
        "armour": sheet.armour_id,
    }
    initial.update({f"specialty_{r.specialty_id}": r.level for r in sheet.specialties.all()})
    initial.update({f"power_{r.power_id}": r.level for r in sheet.powers.all()})
    return initial


class EwEditForm(EwCreationForm):
    """The creation form, pre-filled with the sheet and checked by the same rules (an NPC
    gets what its creation allows: no archetype required, nothing more)."""

    def __init__(self, *args: Any, character: Character, **kwargs: Any) -> None:
        self.character = character
        kwargs.setdefault("initial", _initial(character))
        super().__init__(*args, campaign=character.campaign, npc=not character.is_pc, **kwargs)
        self.fields.pop("is_template", None)

    def rule_problems(self) -> list:
        # An edited sheet keeps every range but not the creation budgets (XP goes past them).
        return self.choices.edit_problems(self.house)

    def _selected_archetype(self):
        if self.is_bound:
            return super()._selected_archetype()
        return self.character.ew.archetype

    def _initial_choices(self) -> EwChoices:
        sheet = self.character.ew
        return EwChoices(
            phy=sheet.phy,
            men=sheet.men,
            per=sheet.per,
            pre=sheet.pre,
            archetype=sheet.archetype,
            specialties=[(r.specialty, r.level) for r in sheet.specialties.all()],
            traits=list(sheet.traits.all()),
            aptitudes=list(sheet.aptitudes.all()),
            powers=[(r.power, r.level) for r in sheet.powers.all()],
        )
