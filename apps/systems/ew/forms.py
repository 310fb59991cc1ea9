"""The EW-System console's forms: attack, test, stance, éclat (C10: every input through one)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from apps.encounters.kit import (
    EncounterError,
    VersionForm,
    add_encounter_error,
    attack_target,
    optional_face,
    prefetch_gear,
)
from apps.encounters.models import Combatant, Encounter
from apps.rules import ew

from .combat import AttackChoice, plan_attack
from .defaults import defence_for_target, defence_refusal, opening_choice
from .table_tests import TestChoice, plan_test


class EwAttackForm(VersionForm):
    attacker = forms.IntegerField(widget=forms.HiddenInput)
    target = forms.TypedChoiceField(label=_("Cible"), coerce=int)
    weapon = forms.TypedChoiceField(label=_("Arme"), coerce=int, required=False, empty_value=None)
    specialty = forms.TypedChoiceField(
        label=_("Spécialité"), coerce=int, required=False, empty_value=None
    )
    defence = forms.ChoiceField(
        label=_("Le défenseur"),
        choices=[
            ("none", _("ne se défend pas (défense naturelle)")),
            ("active", _("se défend activement")),
        ],
        initial="none",
        widget=forms.RadioSelect,
    )
    defence_specialty = forms.TypedChoiceField(
        label=_("Spécialité du défenseur"), coerce=int, required=False, empty_value=None
    )
    modifier = forms.IntegerField(label=_("Modificateur"), initial=0, min_value=-20, max_value=20)
    to_hit_face = optional_face(20, _("d20 pour toucher"))
    damage_face = optional_face(10, _("d10 des dégâts (si touché)"))
    # The target the defender's specialties were listed for: when the posted target differs,
    # they are listed again for the new one, its best preselected.
    drawn_for = forms.CharField(widget=forms.HiddenInput, required=False)

    def __init__(
        self,
        *args,
        encounter: Encounter | None = None,
        attacker: Combatant | None = None,
        combatants: list[Combatant] | None = None,
        with_odds: bool = True,
        remembered: dict | None = None,
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        self.encounter = encounter
        self.acting = attacker
        self.combatants = combatants
        if combatants is None:
            self._posted_ids_only()
            return
        # The attack itself plans again under the step's lock (and reports the same refusals
        # next to the same fields): computing the odds here too would be wasted.
        self.with_odds = with_odds
        self.plan = None
        self.fields["attacker"].initial = attacker.pk
        others = [c for c in combatants if c.pk != attacker.pk]
        self.fields["target"].choices = [(c.pk, c.character.name) for c in others]
        # The other fighters' gear is never read: load only the two involved (fixed queries).
        house = encounter.campaign.house()
        remembered = remembered or {}
        target = attack_target(self, attacker, others, house, remembered.get("target_id"))
        # Unbound, the form shows the target its first odds are drawn for.
        self.target_id = target.pk if target else None
        self.fields["target"].initial = self.target_id
        # "Défense au joueur" only for a target someone plays (an NPC's is the GM's).
        self.target_has_player = bool(target and target.character.has_player)
        prefetch_gear(encounter, [attacker, target])
        if self.is_bound:
            self._redraw_for_target(target, house)
        else:
            # A copy: the console passes the same initial dict to its other forms.
            self.initial = {**self.initial, **opening_choice(attacker, target, remembered, house)}
        self.fields["drawn_for"].initial = self.target_id
        # Offer only what is possible: an active defence the rules refuse shows disabled.
        self.defence_refusal = defence_refusal(target, house)
        sheet = attacker.character.ew
        self.fields["weapon"].choices = [
            ("", _("Poings")),
            *((w.pk, w.name) for w in sheet.weapons.all()),
        ]
        self.fields["specialty"].choices = [
            ("", _("Aucune (0)")),
            *((r.pk, f"{r.specialty.name} ({r.level})") for r in sheet.specialties.all()),
        ]
        # The defender's specialties: only the chosen target's (the form is re-rendered when
        # the target changes), so the list stays short whatever the size of the fight.
        self.fields["defence_specialty"].choices = [
            ("", _("Aucune (0)")),
            *(
                (r.pk, f"{r.specialty.name} ({r.level})")
                for r in (target.character.ew.specialties.all() if target else ())
            ),
        ]

    def _posted_ids_only(self) -> None:
        """The attack as posted, without the fight: the ids are read as plain integers, and
        the step checks them against the fight (the fighters it locks, the gear on their
        sheets). No choice list is built, no query made; a refused attack is shown again
        in the form built with its lists."""
        self.with_odds, self.plan = False, None
        for name in ("target", "weapon", "specialty", "defence_specialty"):
            field = self.fields[name]
            self.fields[name] = forms.IntegerField(label=field.label, required=field.required)

    def _redraw_for_target(self, target: Combatant | None, house) -> None:
        """A posted form whose target changed lists the new target's specialties, its best
        preselected; the defence block it redraws then says which target it was drawn for."""
        drawn_for = str(self.data.get("drawn_for", ""))
        former = next((c for c in self.combatants if str(c.pk) == drawn_for), None)
        changes = defence_for_target(target, former, drawn_for, house)
        if changes:
            self.data = self.data.copy()
            for name, value in {**changes, "drawn_for": str(target.pk)}.items():
                self.data[name] = value

    def opening_choice(self) -> AttackChoice:
        """The attack as the unbound form first shows it (its first odds)."""
        initial = {name: self[name].initial for name in ("weapon", "specialty", "defence")}
        return AttackChoice(
            attacker_id=self.acting.pk,
            target_id=self.target_id,
            weapon_id=initial["weapon"] or None,
            specialty_id=initial["specialty"] or None,
            defence=initial["defence"],
            defence_specialty_id=self["defence_specialty"].initial or None,
            modifier=self["modifier"].initial or 0,
        )

    def choice(self) -> AttackChoice:
        data = self.cleaned_data
        return AttackChoice(
            attacker_id=data["attacker"],
            target_id=data["target"],
            weapon_id=data.get("weapon"),
            specialty_id=data.get("specialty"),
            defence=data["defence"],
            defence_specialty_id=data.get("defence_specialty"),
            modifier=data["modifier"],
        )

    def clean(self):
        cleaned = super().clean()
        if self.acting is not None and cleaned.get("attacker") not in (None, self.acting.pk):
            # A form left open from an earlier turn, or a forged one.
            self.add_error(None, _("Ce n'est pas son tour d'agir."))
        if self.errors or not self.with_odds:
            return cleaned
        try:
            self.plan = plan_attack(self.encounter, self.choice(), self.combatants)
        except EncounterError as error:
            add_encounter_error(self, error)
        return cleaned


NA_SOURCES = [
    *((name, label) for name, label in ew.CHARACTERISTIC_LABELS.items()),
    ("con", _("con (connaissance) + spécialité")),
    ("com", _("com (combat) + spécialité")),
    ("hab", _("hab (habileté) + spécialité")),
    ("soc", _("soc (social) + spécialité")),
]


class EwTestForm(VersionForm):
    combatant = forms.TypedChoiceField(label=_("Qui"), coerce=int)
    label = forms.CharField(label=_("Action"), required=False, max_length=80)
    na_source = forms.ChoiceField(label=_("NA"), choices=NA_SOURCES)
    specialty = forms.TypedChoiceField(
        label=_("Spécialité"), coerce=int, required=False, empty_value=None
    )
    nd = forms.IntegerField(label=_("ND (difficulté)"), required=False, min_value=0, max_value=40)
    opponent = forms.TypedChoiceField(
        label=_("ou opposé à"), coerce=int, required=False, empty_value=None
    )
    modifier = forms.IntegerField(label=_("Modificateur"), initial=0, min_value=-20, max_value=20)
    face = optional_face(20, _("d20"))

    def __init__(
        self,
        *args,
        encounter: Encounter,
        combatants: list[Combatant],
        acting: Combatant | None,
        **kwargs,
    ):
        kwargs.setdefault("auto_id", "test_%s")  # the attack form's fields have the same names
        super().__init__(*args, **kwargs)
        self.encounter = encounter
        self.plan = None
        people = [(c.pk, c.character.name) for c in combatants]
        self.fields["combatant"].choices = people
        if acting:
            self.fields["combatant"].initial = acting.pk
        self.fields["opponent"].choices = [("", "—"), *people]
        self.fields["specialty"].choices = [
            ("", _("Aucune (0)")),
            *(
                (r.pk, f"{c.character.name} — {r.specialty.name} ({r.level})")
                for c in combatants
                for r in c.character.ew.specialties.all()
            ),
        ]

    def choice(self) -> TestChoice:
        data = self.cleaned_data
        return TestChoice(
            combatant_id=data["combatant"],
            na_source=data["na_source"],
            specialty_id=data.get("specialty"),
            nd=data.get("nd"),
            opponent_id=data.get("opponent"),
            modifier=data["modifier"],
            label=data.get("label", ""),
        )

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        try:
            self.plan = plan_test(self.encounter, self.choice())
        except EncounterError as error:
            add_encounter_error(self, error)
        return cleaned


class EwStanceForm(VersionForm):
    combatant = forms.IntegerField(widget=forms.HiddenInput)
    stance = forms.ChoiceField(
        choices=[(ew.TOTAL_ATTACK, _("Attaque totale")), (ew.TOTAL_DEFENCE, _("Défense totale"))]
    )


class EwEclatForm(VersionForm):
    event = forms.IntegerField(widget=forms.HiddenInput)
    damage_face = optional_face(10, _("d10 des dégâts"))


class EwCoupDePouceForm(VersionForm):
    combatant = forms.IntegerField(widget=forms.HiddenInput)
    note = forms.CharField(label=_("Coup de pouce"), max_length=200)
