"""EW-System's house rules as the GM's settings page shows them (``GameSystem.house_rule_*``):
their labels, the choices of those with fixed values, how the lists are written."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from apps.rules import ew
from apps.systems.house_rules import PAIRS

# Every rule but the resolution grid, which has its own editor (grid.py).
LABELS = {
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

KINDS = {"difficulty_ladder": PAIRS}
