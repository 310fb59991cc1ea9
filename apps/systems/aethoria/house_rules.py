"""Aethoria's house rules as the GM's settings page shows them (``GameSystem.house_rule_*``):
their labels, how the lists are written (the d20 hit table « de-à localisation »)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from apps.systems.base import HouseRuleKind
from apps.systems.house_rules import PAIRS, STRINGS, key, word

LABELS = {
    "requests_initiative": _("Demandes de jets : l'initiative des PJ va aux joueurs"),
    "requests_defence": _("Demandes de jets : les défenses des PJ vont aux joueurs"),
    "requests_attack": _("Demandes de jets : les attaques des PJ vont aux joueurs"),
    "odds_against_npcs": _("Montrer aux joueurs leurs chances contre un PNJ"),
    "pv_multiplier": _("PV = multiplicateur × (Force + Vitalité)"),
    "physical_fatigue_multiplier": _("Fatigue physique = multiplicateur × (Force + Vitalité)"),
    "mental_fatigue_multiplier": _("Fatigue mentale = multiplicateur × (Concentration + Esprit)"),
    "much_lower_gap": _("Écart « très inférieur » (réussites ≤ difficulté − écart)"),
    "difficulty_ladder": _("Échelle de difficulté (une ligne « libellé = valeur »)"),
    "condition_values": _(
        "États de la table et leur modificateur en dés (une ligne « état = modificateur »)"
    ),
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


class HitLocations(HouseRuleKind):
    """The d20 hit table, one « de-à localisation » line per location ("1-2 tête")."""

    def form_field(self, label: str, value, words: dict[str, str]) -> forms.Field:
        return forms.CharField(
            label=label,
            widget=forms.Textarea(attrs={"rows": 6}),
            initial="\n".join(f"{low}-{high} {word(loc, words)}" for low, high, loc in value),
        )

    def from_text(self, text: str, words: dict[str, str]) -> list[list[Any]]:
        rows = []
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            span, _sep, location = line.strip().partition(" ")
            low, _dash, high = span.partition("-")
            try:
                rows.append([int(low), int(high or low), key(location, words)])
            except ValueError:
                raise forms.ValidationError(
                    _("Ligne %(number)s : écrivez « de-à localisation », par ex. « 1-2 tête »."),
                    params={"number": number},
                ) from None
        return rows


KINDS = {
    "difficulty_ladder": PAIRS,
    "condition_values": PAIRS,
    "range_band_malus": PAIRS,
    "hit_locations": HitLocations(),
    "instant_death_locations": STRINGS,
}
