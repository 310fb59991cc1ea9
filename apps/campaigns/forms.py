"""Forms of the campaigns app; rules refusals come back next to their field (C10)."""

from __future__ import annotations

import dataclasses
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from apps.core.refusals import rules_message
from apps.rules import ew
from apps.rules.errors import RulesError
from apps.systems import system_of

from . import transfer
from .models import Campaign


class CampaignForm(forms.ModelForm):
    class Meta:
        model = Campaign
        fields = ["name", "system", "description"]
        widgets = {
            "system": forms.RadioSelect,
            "description": forms.Textarea(attrs={"rows": 3}),
        }


class ImportForm(forms.Form):
    file = forms.FileField(
        label=_("Fichier d'export (.json)"),
        help_text=_("Un fichier téléchargé avec « Exporter » depuis la page d'une campagne."),
    )

    def clean_file(self) -> dict:
        """The export document in the file; refused here when unreadable or of another format."""
        upload = self.cleaned_data["file"]
        if upload.size > transfer.MAX_BYTES:
            raise forms.ValidationError(_("Ce fichier est trop gros pour une campagne."))
        try:
            return transfer.parse_document(upload.read())
        except transfer.ImportRefused as refusal:
            raise forms.ValidationError(refusal.message) from None


class JoinForm(forms.Form):
    code = forms.CharField(label=_("Code d'invitation"), max_length=16)

    def clean_code(self) -> str:
        code = self.cleaned_data["code"].strip().upper().replace(" ", "").replace("-", "")
        self.campaign = Campaign.objects.filter(invite_code=code).first()
        if self.campaign is None:
            raise forms.ValidationError(_("Aucune campagne n'a ce code. Vérifiez-le auprès du MJ."))
        return code


class LogEntryForm(forms.Form):
    text = forms.CharField(
        label=_("Nouvelle entrée"), widget=forms.Textarea(attrs={"rows": 2}), max_length=4000
    )


# --- House rules ------------------------------------------------------------------------------

HOUSE_RULE_LABELS = {
    # EW-System
    "rounding": _("Arrondi des divisions"),
    "generation_points": _("Points de génération à la création"),
    "specialty_cost_mode": _("Coût des spécialités à la création"),
    "difficulty_ladder": _("Échelle de difficulté (une ligne « libellé = valeur »)"),
    "initiative_ties_by_com": _("Égalité d'initiative : le meilleur combat passe d'abord"),
    "extra_action_malus": _("Malus par action supplémentaire dans le round"),
    "total_defence_bonus": _("Bonus de défense totale"),
    "total_attack_bonus": _("Bonus d'attaque totale"),
    "xp_characteristic_factor": _("XP : facteur du coût d'une caractéristique (× nouvelle valeur)"),
    "xp_specialty_factor": _("XP : facteur du coût d'une spécialité (× niveau × facteur)"),
    "xp_power_factor": _("XP : facteur du coût d'un pouvoir (× nouveau niveau)"),
    "xp_eclat_cost": _("XP : coût d'un point d'éclat racheté"),
    # Aethoria
    "pv_multiplier": _("PV = multiplicateur × (Force + Vitalité)"),
    "physical_fatigue_multiplier": _("Fatigue physique = multiplicateur × (Force + Vitalité)"),
    "mental_fatigue_multiplier": _("Fatigue mentale = multiplicateur × (Concentration + Esprit)"),
    "much_lower_gap": _("Écart « très inférieur » (réussites ≤ difficulté − écart)"),
    "initiative_ties_by_adresse": _("Égalité d'initiative : la meilleure Adresse passe d'abord"),
    "initiative_reroll_each_round": _("Relancer l'initiative à chaque round"),
    "parry_force_gap": _("Parade impossible si la Force de l'attaquant dépasse de"),
    "encumbered_dodge_malus": _("Malus d'esquive (encombré), en dés"),
    "range_band_malus": _("Malus de portée, en dés (une ligne « portée = malus »)"),
    "hit_locations": _("Localisations au d20 (une ligne « de-à localisation »)"),
    "armour_layers_stack": _("Les pièces d'armure superposées s'additionnent"),
    "convert_extra_successes": _("Convertir 2 réussites en plus en 1 dé de dégâts"),
    "bleeding_factor": _("Saignement si dégâts ≥ facteur × Vitalité"),
    "fracture_factor": _("Fracture si dégâts ≥ facteur × Vitalité"),
    "instant_death_factor": _("Mort instantanée si dégâts ≥ facteur × Vitalité"),
    "instant_death_locations": _("Localisations de mort instantanée (séparées par des virgules)"),
    "bleeding_pv_per_turn": _("PV perdus par tour de saignement"),
    "death_threshold_factor": _("Mort à PV ≤ −facteur × Vitalité"),
    "fatigue_cost_divisor": _("Coût d'un sort : ⌈Pouvoir investi / diviseur⌉ de chaque fatigue"),
    "unpaid_fatigue_to_pv": _("La fatigue impayée est prise sur les PV"),
    "burn_pv_per_pouvoir": _("Brûlure d'érys : PV perdus par point de Pouvoir investi"),
    "ones_always_succeed": _(
        "Un 1 réussit toujours (2 réussites, même si le seuil est tombé à 0 ou moins)"
    ),
    "parry_best_of_weapon_skill": _("Parade : meilleur de Parade et de la compétence d'arme"),
}

CHOICES = {
    "rounding": [
        ("down", _("vers le bas")),
        ("nearest", _("au plus proche (demi vers le haut)")),
        ("up", _("vers le haut")),
    ],
    "specialty_cost_mode": [
        (ew.PER_LEVEL, _("facteur × niveau")),
        (ew.PROGRESSIVE, _("progressif (le niveau k coûte k × facteur)")),
    ],
}

# The grid has its own editor; the rest of the dataclass is edited here.
NOT_ON_SETTINGS_PAGE = {"resolution_grid"}


def _word(key: str, words: dict[str, str]) -> str:
    return str(words.get(key, key))


def _key(text: str, words: dict[str, str]) -> str:
    """A stored key from what the GM typed: its words (any case) or the key itself."""
    text = text.strip()
    keys = {str(word).casefold(): key for key, word in words.items()}
    return keys.get(text.casefold(), text)


def _pairs_to_text(pairs, words: dict[str, str]) -> str:
    return "\n".join(f"{_word(label, words)} = {value}" for label, value in pairs)


def _text_to_pairs(text: str, words: dict[str, str]) -> list[list[Any]]:
    pairs = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        label, sep, value = line.rpartition("=")
        try:
            pairs.append([_key(label, words), int(value)])
        except ValueError:
            sep = ""
        if not sep or not label.strip():
            raise forms.ValidationError(
                _("Ligne %(number)s : écrivez « libellé = nombre »."), params={"number": number}
            )
    return pairs


def _locations_to_text(table, words: dict[str, str]) -> str:
    return "\n".join(f"{low}-{high} {_word(location, words)}" for low, high, location in table)


def _text_to_locations(text: str, words: dict[str, str]) -> list[list[Any]]:
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        span, _sep, location = line.strip().partition(" ")
        low, _dash, high = span.partition("-")
        try:
            rows.append([int(low), int(high or low), _key(location, words)])
        except ValueError:
            raise forms.ValidationError(
                _("Ligne %(number)s : écrivez « de-à localisation », par ex. « 1-2 tête »."),
                params={"number": number},
            ) from None
    return rows


class HouseRulesForm(forms.Form):
    """Every field of the system's house-rule dataclass; the dataclass itself validates."""

    def __init__(self, *args: Any, campaign: Campaign, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        self.rules_class = system_of(campaign).house_rules_class
        # Keys stored in the rules shown (and typed back) as words, per house rule.
        self.words = system_of(campaign).house_rule_words()
        current = campaign.house()
        self.kinds: dict[str, str] = {}
        for field in dataclasses.fields(self.rules_class):
            name = field.name
            if name in NOT_ON_SETTINGS_PAGE:
                continue
            value = getattr(current, name)
            label = HOUSE_RULE_LABELS.get(name, name)
            if isinstance(value, bool):
                self.fields[name] = forms.BooleanField(label=label, required=False, initial=value)
                kind = "bool"
            elif isinstance(value, int):
                self.fields[name] = forms.IntegerField(label=label, initial=value)
                kind = "int"
            elif name in CHOICES:
                self.fields[name] = forms.ChoiceField(
                    label=label, choices=CHOICES[name], initial=value
                )
                kind = "choice"
            elif name == "hit_locations":
                self.fields[name] = forms.CharField(
                    label=label,
                    widget=forms.Textarea(attrs={"rows": 6}),
                    initial=_locations_to_text(value, self.words.get(name, {})),
                )
                kind = "locations"
            elif name == "instant_death_locations":
                words = self.words.get(name, {})
                initial = ", ".join(_word(key, words) for key in value)
                self.fields[name] = forms.CharField(label=label, initial=initial)
                kind = "strings"
            else:
                self.fields[name] = forms.CharField(
                    label=label,
                    widget=forms.Textarea(attrs={"rows": len(value) or 3}),
                    initial=_pairs_to_text(value, self.words.get(name, {})),
                )
                kind = "pairs"
            self.kinds[name] = kind

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        data = self.campaign.house().to_dict()
        for name, kind in self.kinds.items():
            if name not in cleaned:
                continue  # already refused by the field itself
            value, words = cleaned[name], self.words.get(name, {})
            try:
                if kind == "pairs":
                    value = _text_to_pairs(value, words)
                elif kind == "locations":
                    value = _text_to_locations(value, words)
                elif kind == "strings":
                    value = [_key(part, words) for part in value.split(",") if part.strip()]
            except forms.ValidationError as error:
                self.add_error(name, error)
                continue
            data[name] = value
        if self.errors:
            return cleaned
        try:
            self.house = self.rules_class.from_dict(data)
        except RulesError as error:
            self.add_error(
                error.field if error.field in self.fields else None, rules_message(error)
            )
        return cleaned
