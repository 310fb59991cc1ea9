"""Character forms: the creation wizards (validated by the rules engine), spends, XP."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from apps.accounts.models import User
from apps.campaigns.models import Campaign, Role
from apps.compendium import models as compendium
from apps.core.refusals import rules_message
from apps.rules import aethoria, ew
from apps.rules.errors import RulesError

from .models import Character, MagicType
from .services import AETHORIA_BASE_CHARACTERISTICS, AethoriaChoices, EwChoices, Improvement

# Slots shown next to a group of inputs rather than one input.
GROUP_SLOTS = ("characteristics", "generation_points")


class CreationForm(forms.Form):
    """Shared part of both wizards: the identity step and the mapping of the engine's
    problems to the input they concern."""

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
        self.choices: EwChoices | AethoriaChoices | None = None
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

    def _int(self, name: str) -> Any:
        """The cleaned value of an integer input (None when missing or not a number)."""
        return self.cleaned_data.get(name)


def _level_field(label: str, high: int) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0, "max": high}),
    )


def _characteristic_field(label: str, initial: int, low: int, high: int) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        initial=initial,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": low, "max": high}),
    )


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
            self.fields[name] = _characteristic_field(
                ew.CHARACTERISTIC_LABELS[name], 7, ew.CHARACTERISTIC_MIN, ew.CHARACTERISTIC_MAX
            )
        self.specialties = list(compendium.EwSpecialty.objects.all())
        for specialty in self.specialties:
            self.fields[f"specialty_{specialty.pk}"] = _level_field(
                specialty.name, ew.SPECIALTY_MAX
            )
        self.powers = list(compendium.EwPower.objects.all())
        for power in self.powers:
            self.fields[f"power_{power.pk}"] = _level_field(power.name, 20)
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
        factors = services_factors(self.selected_archetype)
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


def services_factors(archetype) -> ew.FieldFactors:
    from .services import archetype_factors

    return archetype_factors(archetype)


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
        for name in AETHORIA_BASE_CHARACTERISTICS:
            self.fields[name] = _characteristic_field(
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
            self.fields[f"skill_{skill.pk}"] = _level_field(label, aethoria.SKILL_RANK_MAX)

    def characteristic_fields(self):
        return [self[name] for name in AETHORIA_BASE_CHARACTERISTICS]

    def skill_fields(self):
        return [(s, self[f"skill_{s.pk}"]) for s in self.skills]

    def build_choices(self) -> AethoriaChoices:
        data = self.cleaned_data
        return AethoriaChoices(
            **{name: data.get(name) for name in AETHORIA_BASE_CHARACTERISTICS},
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


# --- On the sheet ---------------------------------------------------------------------------


class EclatSpendForm(forms.Form):
    note = forms.CharField(
        label=_("Pour quoi ?"),
        max_length=200,
        required=False,
        help_text=_("Le coup de pouce du destin demandé, noté au journal."),
    )


class FatigueSpendForm(forms.Form):
    kind = forms.ChoiceField(
        label=_("Fatigue"),
        choices=[(aethoria.PHYSICAL, _("physique")), (aethoria.MENTAL, _("mentale"))],
        widget=forms.RadioSelect,
    )
    count = forms.TypedChoiceField(
        label=_("Dés de fatigue"),
        choices=[(n, str(n)) for n in range(1, 4)],
        coerce=int,
        widget=forms.RadioSelect,
    )


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
    """One improvement to buy, as "kind:target" (characteristic:phy, specialty:12, eclat:1)."""

    improvement = forms.ChoiceField(label=_("Amélioration"))

    def __init__(self, *args: Any, options: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["improvement"].choices = options

    def clean_improvement(self) -> Improvement:
        kind, _sep, target = self.cleaned_data["improvement"].partition(":")
        if kind == "characteristic":
            return Improvement(kind, name=target)
        if kind == "eclat":
            return Improvement(kind, count=int(target))
        return Improvement(kind, target_id=int(target))


# --- Editing a sheet (the GM) -----------------------------------------------------------------


def _ew_initial(character: Character) -> dict[str, Any]:
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


def _aethoria_initial(character: Character) -> dict[str, Any]:
    sheet = character.aethoria
    initial: dict[str, Any] = {
        "name": character.name,
        "concept": character.concept,
        **{name: getattr(sheet, name) for name in AETHORIA_BASE_CHARACTERISTICS},
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


class EwEditForm(EwCreationForm):
    """The creation form, pre-filled with the sheet and checked by the same rules (an NPC
    gets what its creation allows: no archetype required, nothing more)."""

    def __init__(self, *args: Any, character: Character, **kwargs: Any) -> None:
        self.character = character
        kwargs.setdefault("initial", _ew_initial(character))
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


class AethoriaEditForm(AethoriaCreationForm):
    """The Aethoria creation form, pre-filled with the sheet, checked by the same rules."""

    def __init__(self, *args: Any, character: Character, **kwargs: Any) -> None:
        self.character = character
        kwargs.setdefault("initial", _aethoria_initial(character))
        super().__init__(*args, campaign=character.campaign, npc=not character.is_pc, **kwargs)
        self.fields.pop("is_template", None)

    def counters(self) -> dict[str, Any]:
        if self.choices is None and not hasattr(self, "cleaned_data"):
            sheet = self.character.aethoria
            self.choices = AethoriaChoices(
                *(getattr(sheet, name) for name in AETHORIA_BASE_CHARACTERISTICS)
            )
        return super().counters()
