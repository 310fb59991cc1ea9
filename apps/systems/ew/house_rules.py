"""EW-System's house rules as the GM's settings page shows them (``GameSystem.house_rule_*``):
their labels, the choices of those with fixed values, how the lists are written."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from apps.rules import ew
from apps.systems.house_rules import PAIRS

# Every rule but the resolution grid, which has its own editor (grid.py).
LABELS = {
    "requests_initiative": _("Demandes de jets : l'initiative des PJ va aux joueurs"),
    "requests_defence": _("Demandes de jets : les défenses des PJ vont aux joueurs"),
    "requests_attack": _("Demandes de jets : les attaques des PJ vont aux joueurs"),
    "odds_against_npcs": _("Montrer aux joueurs leurs chances contre un PNJ"),
    "rounding": _("Arrondi des divisions"),
    "generation_points": _("Points de génération à la création"),
    "specialty_cost_mode": _("Coût des spécialités à la création"),
    "difficulty_ladder": _("Échelle de difficulté (une ligne « libellé = valeur »)"),
    "condition_values": _(
        "États de la table et leur modificateur au NA (une ligne « état = modificateur »)"
    ),
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

KINDS = {"difficulty_ladder": PAIRS, "condition_values": PAIRS}
