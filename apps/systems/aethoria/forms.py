"""Forms of the Aethoria actions: every choice and every typed die goes through one (C10)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django import forms
from django.utils.translation import gettext_lazy as _

from apps.compendium.models import AethoriaLocation
from apps.encounters.kit import (
    EncounterError,
    VersionForm,
    add_encounter_error,
    attack_target,
    prefetch_gear,
)
from apps.encounters.models import Combatant, Encounter
from apps.rules import aethoria

from .attack import BlowFaces
from .attack_plan import ATTACK, CIBLER, CONVERT, DOUBLE, KEEP, AttackChoice, plan_attack
from .defaults import (
    best_defence,
    defence_for_new_target,
    one_handed_pair,
    other_one_handed,
    remembered_defence,
    remembered_initial,
)
from .defences import DODGE, NO_DEFENCE, PARRY, SHIELD
from .options import folded_open
from .state import PREPARED_ATTACK, PREPARED_OTHER, PREPARED_SPELL

RANGE_LABELS = {
    "short": _("courte"),
    "medium": _("moyenne"),
    "long": _("longue"),
    "extreme": _("extrême"),
}
DEFENCES = [
    (NO_DEFENCE, _("aucune")),
    (DODGE, _("esquive")),
    (PARRY, _("parade")),
]
FATIGUE_CHOICES = [(0, _("aucun")), (1, "1"), (2, "2"), (3, "3")]


class FacesField(forms.CharField):
    """A list of die faces typed from physical dice ("3 7 1 9"); empty: the app rolls."""

    def __init__(self, sides: int, label: str, **kwargs):
        self.sides = sides
        kwargs.setdefault("required", False)
        kwargs.setdefault("max_length", 200)
        kwargs.setdefault(
            "widget",
            forms.TextInput(
                attrs={"inputmode": "numeric", "class": "faces-input", "autocomplete": "off"}
            ),
        )
        super().__init__(label=label, **kwargs)

    def to_python(self, value):
        text = super().to_python(value).strip()
        if not text:
            return None
        parts = [p for p in re.split(r"[\s,;]+", text) if p]
        if not all(p.isdigit() for p in parts):
            raise forms.ValidationError(
                _("Tapez les faces en chiffres, séparées par des espaces (ex. « 3 7 1 9 »).")
            )
        faces = tuple(int(p) for p in parts)
        if any(not 1 <= face <= self.sides for face in faces):
            raise forms.ValidationError(
                _("Un d%(sides)s donne de 1 à %(sides)s.") % {"sides": self.sides}
            )
        return faces


@dataclass(frozen=True)
class DiceGroup:
    """Typed faces (and fatigue dice) fields that _aethoria_dice.html shows together, each
    labelled, under a summary that opens by itself once one is filled in or refused."""

    fields: tuple
    summary: str = ""  # none: the fields show without a <details>

    @property
    def open(self) -> bool:
        return any(field.errors or field.value() for field in self.fields)


def dice_group(form: forms.Form, names: tuple[str, ...], summary: str = "") -> DiceGroup:
    return DiceGroup(tuple(form[name] for name in names if name in form.fields), summary)


PHYSICAL_DICE = _("Dés physiques (faces séparées par des espaces ; vide : l'application lance)")


def fatigue_field(label):
    return forms.TypedChoiceField(
        label=label, choices=FATIGUE_CHOICES, coerce=int, initial=0, required=False, empty_value=0
    )


def modifier_field():
    return forms.IntegerField(
        label=_("Dés en plus / en moins"), initial=0, min_value=-10, max_value=10, required=False
    )


def rank_zero_field():
    return forms.BooleanField(label=_("Le MJ autorise les jets à rang 0 (1 dé)"), required=False)


def difficulty_field():
    return forms.IntegerField(label=_("Difficulté"), initial=1, min_value=0, max_value=30)


class PlanForm(VersionForm):
    """A form whose clean() builds the plan of the action (odds included)."""

    def __init__(self, *args, with_plan: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        self.plan = None
        # A form posted to make the step: the step plans under its lock and puts its
        # refusals next to the same fields, so planning here too would be done twice.
        self.with_plan = with_plan

    def make_plan(self):  # pragma: no cover - overridden
        raise NotImplementedError

    def check_actor(self, cleaned: dict) -> None:
        """Refuse early a form left open from an earlier turn (or a forged one)."""

    def clean(self):
        cleaned = super().clean()
        self.plan = None
        self.check_actor(cleaned)
        if self.errors or not self.with_plan:
            return cleaned
        try:
            self.plan = self.make_plan()
        except EncounterError as error:
            add_encounter_error(self, error)
        return cleaned


class AethoriaAttackForm(PlanForm):
    attacker = forms.IntegerField(widget=forms.HiddenInput)
    target = forms.TypedChoiceField(label=_("Cible"), coerce=int)
    mode = forms.ChoiceField(
        label=_("Action"),
        choices=[
            (ATTACK, _("Attaque")),
            (CIBLER, _("Cibler (−4 dés, deux d20 de localisation)")),
            (DOUBLE, _("Attaque double (−3 dés par attaque)")),
        ],
        initial=ATTACK,
    )
    weapon = forms.TypedChoiceField(label=_("Arme"), coerce=int)
    second_weapon = forms.TypedChoiceField(
        label=_("Seconde arme (attaque double)"), coerce=int, required=False, empty_value=None
    )
    range_band = forms.ChoiceField(label=_("Portée (arme à distance)"), required=False)
    covered = forms.MultipleChoiceField(
        label=_("Localisations couvertes (tir)"),
        choices=AethoriaLocation.choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    defence = forms.ChoiceField(label=_("Défense"), choices=DEFENCES, initial=NO_DEFENCE)
    parry_with = forms.ChoiceField(label=_("Pare avec"), required=False)
    encumbered = forms.BooleanField(label=_("Défenseur encombré (esquive −2 dés)"), required=False)
    defence2 = forms.ChoiceField(
        label=_("Défense contre la 2e attaque"),
        choices=DEFENCES,
        initial=NO_DEFENCE,
        required=False,
    )
    parry_with2 = forms.ChoiceField(label=_("Pare la 2e avec"), required=False)
    split1 = forms.IntegerField(
        label=_("Malus −3 : dés retirés à la 1re défense"),
        initial=0,
        min_value=0,
        max_value=3,
        required=False,
    )
    prefer_location = forms.ChoiceField(
        label=_("Cibler : localisation voulue"),
        choices=[("", "—"), *AethoriaLocation.choices],
        required=False,
    )
    keep = forms.TypedChoiceField(
        label=_("Cibler : sinon garder"),
        choices=[(0, _("le 1er d20")), (1, _("le 2e d20"))],
        coerce=int,
        initial=0,
        required=False,
        empty_value=0,
    )
    extra_successes = forms.ChoiceField(
        label=_("Réussites nettes en plus"),
        choices=[
            (CONVERT, _("converties en dés de dégâts (2 pour 1)")),
            (KEEP, _("gardées pour une capacité spéciale")),
        ],
        required=False,
    )
    modifier = modifier_field()
    fatigue = fatigue_field(_("Dés de fatigue (physique, avant le jet)"))
    defence_fatigue = fatigue_field(_("Dés de fatigue du défenseur (avant sa défense)"))
    damage_fatigue = fatigue_field(_("Dés de fatigue sur les dégâts (si touché)"))
    rank_zero_allowed = rank_zero_field()
    attack_faces = FacesField(10, _("d10 d'attaque"))
    fatigue_faces = FacesField(10, _("d10 de fatigue"))
    location_faces = FacesField(20, _("d20 de localisation"))
    defence_faces = FacesField(10, _("d10 de défense"))
    damage_faces = FacesField(10, _("d10 de dégâts (si touché : arme + bonus)"))
    defence_fatigue_faces = FacesField(10, _("d10 de fatigue de la défense"))
    damage_fatigue_faces = FacesField(10, _("d10 de fatigue des dégâts"))
    attack_faces2 = FacesField(10, _("2e attaque : d10"))
    location_faces2 = FacesField(20, _("2e attaque : d20 de localisation"))
    defence_faces2 = FacesField(10, _("2e attaque : d10 de défense"))
    damage_faces2 = FacesField(10, _("2e attaque : d10 de dégâts"))
    # The target the defence was drawn for: when the posted target differs and that one
    # could not defend, the defence is drawn again for the new one.
    drawn_for = forms.CharField(widget=forms.HiddenInput, required=False)

    def __init__(
        self,
        *args,
        encounter: Encounter | None = None,
        attacker: Combatant | None = None,
        combatants: list[Combatant] | None = None,
        fired: bool = False,
        refresh: bool = False,
        last_target: int | None = None,
        remembered: dict | None = None,
        **kwargs,
    ):
        if fired:
            kwargs.setdefault("auto_id", "fired_%s")
        super().__init__(*args, **kwargs)
        self.encounter = encounter
        self.acting = attacker
        self.combatants = combatants
        self.fired = fired
        if combatants is None:
            self._posted_ids_only()
            return
        self.fields["attacker"].initial = attacker.pk
        others = [c for c in combatants if c.pk != attacker.pk]
        self.fields["target"].choices = [(c.pk, c.character.name) for c in others]
        target = attack_target(self, attacker, others, encounter.campaign.house(), last_target)
        # Unbound, the form shows the target its first odds are drawn for.
        self.target_id = target.pk if target else None
        self.fields["target"].initial = self.target_id
        # "Défense au joueur" only for a target someone plays (an NPC's is the GM's).
        self.target_has_player = bool(target and target.character.has_player)
        # The gear of the two fighters only (fixed queries), whatever the size of the fight.
        prefetch_gear(encounter, [attacker, target])
        weapons = [
            (w.pk, f"{w.name} ({w.damage})") for w in attacker.character.aethoria.weapons.all()
        ]
        self.fields["weapon"].choices = weapons
        house = encounter.campaign.house()
        # The campaign's house rule is the default; the GM may choose otherwise per attack.
        self.fields["extra_successes"].initial = CONVERT if house.convert_extra_successes else KEEP
        self.fields["range_band"].choices = [
            ("", "—"),
            *(
                (band, f"{RANGE_LABELS.get(band, band)} ({malus:+d})")
                for band, malus in house.range_band_malus
            ),
        ]
        items = self._parry_items(target)
        self.fields["parry_with"].choices = items
        self.fields["parry_with2"].choices = items
        self.fields["drawn_for"].initial = self.target_id
        if refresh:
            self._forget_other_targets_items(items)
            self._redraw_defence(items)
        if self.data.get("mode") != DOUBLE and not one_handed_pair(attacker.character.aethoria):
            # Offer only what is possible: an attaque double needs two one-handed weapons
            # (posted anyway, the rules refuse it with their reason). The same list whether
            # the form is drawn or redrawn: an answer never brings an option the page lacks.
            self.fields["mode"].choices = [c for c in self.fields["mode"].choices if c[0] != DOUBLE]
        first = weapons[0][0] if weapons else None
        # Folded under "Plus d'options": picking "attaque double" alone is enough.
        self.fields["second_weapon"].initial = other_one_handed(attacker.character.aethoria, first)
        if not self.is_bound:
            self._open_on(remembered or {}, [w for w, _label in weapons], first, items)
        self._fit_to_gear(attacker.character.aethoria, items)

    def _fit_to_gear(self, sheet, items: list[tuple[str, str]]) -> None:
        """Offer only what the gear makes a choice: a second weapon among the fighter's
        one-handed ones (none without a pair: not the only weapon again); no range band for
        a melee weapon (it would be ignored); the defender's only parrying item set."""
        pair = one_handed_pair(sheet)
        self.fields["second_weapon"].choices = [
            ("", "—"),
            *(
                (w.pk, f"{w.name} ({w.damage})")
                for w in sheet.weapons.all()
                if pair and w.hands == 1
            ),
        ]
        weapons = list(sheet.weapons.all())
        chosen = str(self._value("weapon") or (weapons[0].pk if weapons else ""))
        weapon = next((w for w in weapons if str(w.pk) == chosen), None)
        if weapon is not None and not weapon.is_ranged:
            field = self.fields["range_band"]
            field.choices = [("", _("— (arme de mêlée)"))]
            field.disabled = True
        parrying = [value for value, _label in items if value]
        if len(parrying) == 1 and not self._value("parry_with"):
            self._set("parry_with", parrying[0])

    def _value(self, name: str):
        """A field's value as the form will show it: posted, else its initial one."""
        if self.is_bound:
            return self.data.get(name)
        return self.initial.get(name, self.fields[name].initial)

    def _set(self, name: str, value) -> None:
        if self.is_bound:
            data = self.data.copy()
            data[name] = value
            self.data = data
        else:
            self.initial = {**self.initial, name: value}

    def _open_on(self, remembered: dict, weapon_ids: list, first, items) -> None:
        """Unbound: the fighter's last choices where they still hold (a repeat is one tap),
        the defender's best defence otherwise."""
        opening = remembered_initial(self, remembered, weapon_ids)
        defence = best_defence(self, opening.get("weapon", first), items)
        if defence.get("defence") != NO_DEFENCE:
            defence.update(remembered_defence(remembered, self.target_id, items))
        # A copy: the console passes the same initial dict to its other forms.
        self.initial = {**self.initial, **opening, **defence}

    def _posted_ids_only(self) -> None:
        """The attack as posted, without the fight: the ids and items are read as plain
        values, and the step checks them against the fight (the fighters it locks, the gear
        on their sheets, the campaign's range bands). No choice list is built, no query
        made; a refused attack is shown again in the form built with its lists."""
        self.with_plan = False
        for name in ("target", "weapon", "second_weapon"):
            field = self.fields[name]
            self.fields[name] = forms.IntegerField(label=field.label, required=field.required)
        for name in ("range_band", "parry_with", "parry_with2"):
            field = self.fields[name]
            self.fields[name] = forms.CharField(label=field.label, required=False)

    def _parry_items(self, target: Combatant | None) -> list[tuple[str, str]]:
        """What the chosen target can parry with: its weapons that parry, its shield."""
        items = [("", "—")]
        if target is None:
            return items
        sheet = target.character.aethoria
        for weapon in sheet.weapons.all():
            if weapon.parry_value is not None:
                items.append((str(weapon.pk), f"{weapon.name} ({weapon.parry_value})"))
        if sheet.shield is not None:
            items.append((SHIELD, f"{_('Bouclier')} ({_('parade')} {sheet.shield.parry_value})"))
        return items

    def _redraw_defence(self, items: list[tuple[str, str]]) -> None:
        """The form drawn again for another target: a defence the former target was forced
        to (it could not defend) gives way to the new target's best; the form then says
        which target its defence was drawn for."""
        drawn_for = str(self.data.get("drawn_for", ""))
        if self.target_id is None or not drawn_for or drawn_for == str(self.target_id):
            return
        former = next((c for c in self.combatants if str(c.pk) == drawn_for), None)
        weapon = self.data.get("weapon")
        weapon_id = int(weapon) if str(weapon).isdigit() else None
        house = self.encounter.campaign.house()
        data = self.data.copy()
        target = next(c for c in self.combatants if c.pk == self.target_id)
        redrawn = defence_for_new_target(self, target, former, weapon_id, items, house)
        for name, value in redrawn.items():
            data[name] = value
        data["drawn_for"] = str(self.target_id)
        self.data = data

    def _forget_other_targets_items(self, items: list[tuple[str, str]]) -> None:
        """The form drawn again for another target: a parrying item of the former one goes
        back to "—" rather than showing as an error the GM did not make."""
        values = {value for value, _label in items}
        data = self.data.copy()
        for name in ("parry_with", "parry_with2"):
            if data.get(name) not in values:
                data[name] = ""
        self.data = data

    def choice(self) -> AttackChoice:
        data = self.cleaned_data
        split1 = data.get("split1") or 0
        return AttackChoice(
            attacker_id=data["attacker"],
            target_id=data["target"],
            mode=data["mode"],
            weapon_id=data["weapon"],
            second_weapon_id=data.get("second_weapon"),
            range_band=data.get("range_band") or "",
            covered=tuple(data.get("covered") or ()),
            defence=data["defence"],
            parry_with=data.get("parry_with") or "",
            defence2=data.get("defence2") or NO_DEFENCE,
            parry_with2=data.get("parry_with2") or "",
            split=(split1, aethoria.DOUBLE_DEFENCE_SPLIT - split1),
            encumbered=data.get("encumbered", False),
            modifier=data.get("modifier") or 0,
            fatigue=data.get("fatigue") or 0,
            defence_fatigue=data.get("defence_fatigue") or 0,
            damage_fatigue=data.get("damage_fatigue") or 0,
            rank_zero_allowed=data.get("rank_zero_allowed", False),
            prefer_location=data.get("prefer_location") or "",
            keep=data.get("keep") or 0,
            extra_successes=data.get("extra_successes") or "",
        )

    def faces(self) -> tuple[BlowFaces, ...]:
        data = self.cleaned_data
        return (
            BlowFaces(
                attack=data.get("attack_faces"),
                fatigue=data.get("fatigue_faces"),
                location=data.get("location_faces"),
                defence=data.get("defence_faces"),
                damage=data.get("damage_faces"),
                defence_fatigue=data.get("defence_fatigue_faces"),
                damage_fatigue=data.get("damage_fatigue_faces"),
            ),
            BlowFaces(
                attack=data.get("attack_faces2"),
                location=data.get("location_faces2"),
                defence=data.get("defence_faces2"),
                damage=data.get("damage_faces2"),
            ),
        )

    def check_actor(self, cleaned: dict) -> None:
        if self.acting is not None and cleaned.get("attacker") not in (None, self.acting.pk):
            self.add_error(None, _("Ce n'est pas son tour d'agir."))

    def make_plan(self):
        if not self.fields["weapon"].choices:
            raise EncounterError(str(_("Aucune arme sur sa fiche.")), "weapon")
        return plan_attack(self.encounter, self.choice(), self.combatants)

    @property
    def odds_id(self) -> str:
        return "aethoria-fired-odds" if self.fired else "aethoria-attack-odds"

    @property
    def more_options_open(self) -> bool:
        return folded_open(self)

    DICE = (
        "attack_faces",
        "fatigue_faces",
        "location_faces",
        "defence_faces",
        "damage_faces",
        "defence_fatigue_faces",
        "damage_fatigue_faces",
        "attack_faces2",
        "location_faces2",
        "defence_faces2",
        "damage_faces2",
    )

    @property
    def dice(self) -> DiceGroup:
        return dice_group(self, self.DICE, PHYSICAL_DICE)


SPECIAL_LABELS = [
    (aethoria.DEFENSE, _("Défense (+1 défense jusqu'à sa prochaine action)")),
    (aethoria.VISER, _("Viser (+3 dés au prochain tour contre cette cible)")),
    (aethoria.PREPARER, _("Préparer une action (avec déclencheur)")),
    (aethoria.MOVE, _("Se déplacer")),
    ("other", _("Autre action")),
]


class AethoriaSpecialForm(VersionForm):
    combatant = forms.IntegerField(widget=forms.HiddenInput)
    action = forms.ChoiceField(label=_("Action"), choices=SPECIAL_LABELS)
    target = forms.TypedChoiceField(
        label=_("Cible (viser)"), coerce=int, required=False, empty_value=None
    )
    prepared_kind = forms.ChoiceField(
        label=_("Ce qui est préparé"),
        choices=[
            (PREPARED_ATTACK, _("une attaque")),
            (PREPARED_SPELL, _("un sort")),
            (PREPARED_OTHER, _("autre chose (noté au journal)")),
        ],
        initial=PREPARED_ATTACK,
        required=False,
    )
    description = forms.CharField(label=_("Action préparée"), max_length=200, required=False)
    trigger = forms.CharField(label=_("Déclencheur"), max_length=200, required=False)
    note = forms.CharField(label=_("Quoi (autre action)"), max_length=200, required=False)

    def __init__(self, *args, acting: Combatant, combatants: list[Combatant], **kwargs):
        kwargs.setdefault("auto_id", "special_%s")  # the attack form has a "target" too
        super().__init__(*args, **kwargs)
        self.fields["combatant"].initial = acting.pk
        self.fields["target"].choices = [
            ("", "—"),
            *((c.pk, c.character.name) for c in combatants if c.pk != acting.pk),
        ]
        if acting.character.aethoria.magic_type != aethoria.DOUE:
            # Only a doué casts in a fight; the service refuses a forged choice too.
            self.fields["prepared_kind"].choices = [
                c for c in self.fields["prepared_kind"].choices if c[0] != PREPARED_SPELL
            ]


class AethoriaEffectForm(VersionForm):
    event = forms.IntegerField(widget=forms.HiddenInput)
    blow = forms.IntegerField(widget=forms.HiddenInput, min_value=0, max_value=1)
    decision = forms.ChoiceField(choices=[("confirm", _("Confirmer")), ("dismiss", _("Écarter"))])


class AethoriaCombatantForm(VersionForm):
    """A button that acts for one combatant (fire its prepared action, lose its aim)."""

    combatant = forms.IntegerField(widget=forms.HiddenInput)
