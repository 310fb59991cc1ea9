"""Forms of the Aethoria rolls besides attacks: a spell, a test on the table, and fatigue dice
added after a roll (a test's or a spell's, or one of the last attack's rolls)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from apps.encounters.kit import EncounterError, VersionForm
from apps.encounters.models import Combatant, Encounter, Event
from apps.rules import aethoria

from .fatigue import (
    ATTACK_ROLL,
    DAMAGE_ROLL,
    DEFENCE_ROLL,
    FatigueOption,
    attack_fatigue_options,
)
from .forms import (
    FATIGUE_CHOICES,
    PHYSICAL_DICE,
    DiceGroup,
    FacesField,
    PlanForm,
    dice_group,
    difficulty_field,
    fatigue_field,
    modifier_field,
    rank_zero_field,
)
from .magic import SpellChoice, plan_spell
from .table_tests import TestChoice, TestPlan, plan_test


class AethoriaSpellForm(PlanForm):
    caster = forms.IntegerField(widget=forms.HiddenInput)
    label = forms.CharField(label=_("Sort"), max_length=80, required=False)
    invested = forms.IntegerField(label=_("Pouvoir investi"), min_value=1, max_value=12)
    difficulty = difficulty_field()
    modifier = modifier_field()
    fatigue = fatigue_field(_("Dés de fatigue (mentale, avant le jet)"))
    rank_zero_allowed = rank_zero_field()
    faces = FacesField(10, _("d10 du sort"))
    fatigue_faces = FacesField(10, _("d10 de fatigue"))

    def __init__(
        self,
        *args,
        encounter: Encounter,
        caster: Combatant,
        combatants,
        fired: bool = False,
        **kwargs,
    ):
        # Ids unique on the page: the attack and test forms have fields of the same names.
        kwargs.setdefault("auto_id", "fired_spell_%s" if fired else "spell_%s")
        super().__init__(*args, **kwargs)
        self.encounter = encounter
        self.combatants = combatants
        self.caster = caster
        self.acting = caster  # templates: form.caster is the hidden field
        self.fired = fired
        self.fields["caster"].initial = caster.pk
        pouvoir = caster.character.aethoria.pouvoir
        self.fields["invested"].initial = pouvoir
        self.fields["invested"].max_value = pouvoir
        self.fields["invested"].widget.attrs["max"] = pouvoir

    def choice(self) -> SpellChoice:
        data = self.cleaned_data
        return SpellChoice(
            caster_id=data["caster"],
            invested=data["invested"],
            difficulty=data["difficulty"],
            modifier=data.get("modifier") or 0,
            fatigue=data.get("fatigue") or 0,
            label=data.get("label", ""),
            rank_zero_allowed=data.get("rank_zero_allowed", False),
        )

    def check_actor(self, cleaned: dict) -> None:
        if cleaned.get("caster") not in (None, self.caster.pk):
            self.add_error(None, _("Ce n'est pas son tour d'agir."))

    def make_plan(self):
        return plan_spell(self.encounter, self.choice(), self.combatants)

    @property
    def odds_id(self) -> str:
        return "aethoria-fired-spell-odds" if self.fired else "aethoria-spell-odds"

    @property
    def dice(self) -> DiceGroup:
        return dice_group(self, ("faces", "fatigue_faces"), PHYSICAL_DICE)


class AethoriaTestForm(PlanForm):
    combatant = forms.TypedChoiceField(label=_("Qui"), coerce=int)
    label = forms.CharField(label=_("Action"), max_length=80, required=False)
    source = forms.ChoiceField(label=_("Jet de"))
    characteristic = forms.ChoiceField(
        label=_("Sous (le MJ peut changer la caractéristique)"), required=False
    )
    difficulty = difficulty_field()
    modifier = modifier_field()
    fatigue = fatigue_field(_("Dés de fatigue (avant le jet)"))
    rank_zero_allowed = rank_zero_field()
    faces = FacesField(10, _("d10"))
    fatigue_faces = FacesField(10, _("d10 de fatigue"))

    def __init__(self, *args, encounter: Encounter, combatants, acting: Combatant | None, **kwargs):
        kwargs.setdefault("auto_id", "test_%s")  # the attack form's fields have the same names
        super().__init__(*args, **kwargs)
        self.encounter = encounter
        self.combatants = combatants
        self.fields["combatant"].choices = [(c.pk, c.character.name) for c in combatants]
        if acting is not None:
            self.fields["combatant"].initial = acting.pk
            own = next(iter(acting.character.aethoria.skills.all()), None)
            self.fields["source"].initial = f"skill:{own.skill_id}" if own else "force"
        characteristics = [
            (name, f"{label} ({_('seuil 6')})")
            for name, label in aethoria.CHARACTERISTIC_LABELS.items()
        ]
        skills = {}
        for c in combatants:
            for rank in c.character.aethoria.skills.all():
                skills[rank.skill_id] = rank.skill
        skill_choices = [
            (f"skill:{skill.pk}", f"{skill.name} ({skill.get_characteristic_display()})")
            for skill in sorted(skills.values(), key=lambda s: s.name)
        ]
        self.fields["source"].choices = [
            (_("Compétences"), skill_choices),
            (_("Caractéristiques"), characteristics),
        ]
        self.fields["characteristic"].choices = [
            ("", _("la caractéristique liée")),
            *aethoria.CHARACTERISTIC_LABELS.items(),
        ]

    def choice(self, values: dict | None = None) -> TestChoice:
        """The test the form describes: its cleaned data, or ``values`` (its initial ones)."""
        data = self.cleaned_data if values is None else values
        return TestChoice(
            combatant_id=data["combatant"],
            source=data["source"],
            characteristic=data.get("characteristic") or "",
            difficulty=data["difficulty"],
            modifier=data.get("modifier") or 0,
            fatigue=data.get("fatigue") or 0,
            label=data.get("label") or "",
            rank_zero_allowed=bool(data.get("rank_zero_allowed")),
        )

    def make_plan(self):
        return plan_test(self.encounter, self.choice(), self.combatants)

    def initial_plan(self) -> TestPlan | None:
        """The odds of the test as the unbound form first shows it (the acting fighter's
        first skill; after a test, the same test again), or None if it cannot be rolled."""
        values = {name: self[name].initial for name in self.fields}
        if values["combatant"] is None or values["source"] is None:
            return None
        try:
            return plan_test(self.encounter, self.choice(values), self.combatants)
        except EncounterError:
            return None

    def again(self, encounter: Encounter, combatants: list[Combatant]) -> AethoriaTestForm:
        """After this test was rolled, the same test for the next player: the panel stays as
        the GM set it (everyone often rolls the same test); the dice — typed faces, fatigue
        dice — were the roller's own and are emptied."""
        kept = {
            name: value
            for name, value in self.cleaned_data.items()
            if name not in ("version", "fatigue", "faces", "fatigue_faces")
        }
        return AethoriaTestForm(
            initial={**kept, "version": encounter.version},
            encounter=encounter,
            combatants=combatants,
            acting=None,
        )

    @property
    def dice(self) -> DiceGroup:
        return dice_group(self, ("faces", "fatigue_faces"), PHYSICAL_DICE)


class AethoriaFatigueForm(VersionForm):
    """Fatigue dice after the roll of a test or a spell."""

    event = forms.IntegerField(widget=forms.HiddenInput)
    count = forms.TypedChoiceField(
        label=_("Dés de fatigue"), choices=FATIGUE_CHOICES[1:], coerce=int
    )
    faces = FacesField(10, _("d10 de fatigue (dés physiques, sinon vide)"))

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "fatigue_after_%s")
        super().__init__(*args, **kwargs)

    @property
    def dice(self) -> DiceGroup:
        return dice_group(self, ("count", "faces"))


ROLL_LABELS = {
    ATTACK_ROLL: _("Attaque de %(name)s"),
    DEFENCE_ROLL: _("Défense de %(name)s"),
    DAMAGE_ROLL: _("Dégâts de %(name)s"),
}


def roll_label(option: FatigueOption, double: bool) -> str:
    """ "Défense de Brandon (3 réussites)", with the weapon in an attaque double; a damage
    roll shows its damage (its successes with the weapon's fixed part)."""
    if option.roll == DAMAGE_ROLL:
        result = _("%(n)s dégâts") % {"n": option.successes}
    else:
        result = ngettext("%(n)s réussite", "%(n)s réussites", option.successes) % {
            "n": option.successes
        }
    label = f"{ROLL_LABELS[option.roll] % {'name': option.roller}} ({result})"
    if double:
        weapon = _("1re arme") if option.blow == 0 else _("2e arme")
        label = f"{weapon} — {label}"
    return label


class AethoriaAttackFatigueForm(VersionForm):
    """Fatigue dice after one roll of the last attack (attack, defence or damage)."""

    event = forms.IntegerField(widget=forms.HiddenInput)
    roll = forms.ChoiceField(label=_("Jet"))
    count = forms.TypedChoiceField(
        label=_("Dés de fatigue"), choices=FATIGUE_CHOICES[1:], coerce=int
    )
    faces = FacesField(10, _("d10 de fatigue (dés physiques, sinon vide)"))
    damage_faces = FacesField(
        10, _("d10 de dégâts en plus, si le coup touche désormais ou gagne des dés bonus")
    )

    def __init__(self, *args, event: Event, **kwargs):
        kwargs.setdefault("auto_id", "attack_fatigue_%s")
        super().__init__(*args, **kwargs)
        self.options = attack_fatigue_options(event.data)
        # An attaque double has two blows: the labels and odds name the weapon.
        self.double = len(event.data["blows"]) > 1
        self.fields["event"].initial = event.pk
        self.rows = [(roll_label(o, self.double), o) for o in self.options]
        self.fields["roll"].choices = [(o.value, label) for label, o in self.rows]

    @property
    def dice(self) -> DiceGroup:
        return dice_group(self, ("roll", "count", "faces", "damage_faces"))
