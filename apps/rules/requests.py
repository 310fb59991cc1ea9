"""Roll requests' house rules, shared by every system's house rules (issue #31): which rolls
of a PC the GM's console sends to its player by default (initiative and defences, the rest
to the GM), and whether a player sees their odds against an NPC (shown by default)."""

from __future__ import annotations

from apps.rules.errors import fr

REQUEST_RULES = (
    ("requests_initiative", fr("L'initiative demandée aux joueurs")),
    ("requests_defence", fr("Les défenses demandées aux joueurs")),
    ("requests_attack", fr("Les attaques demandées aux joueurs")),
    ("odds_against_npcs", fr("Les chances montrées aux joueurs contre un PNJ")),
)
