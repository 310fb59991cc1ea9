"""Writes of the characters app (C5): creation, copies, pools spent and restored, XP.

Every function is keyword-only, atomic, locks the rows two people could change at once
(a player's phone and the GM's laptop), and touches the campaign version so that open
screens refresh. One module per topic — ``creation`` (made, copied, rewritten), ``pools``
(spends, rests, their undo, deletion), ``xp``, ``journal`` (the log lines they write) — and
every public name importable from here.
"""

from .creation import (
    AETHORIA_BASE_CHARACTERISTICS,
    CREATION_BUDGET_CODES,
    AethoriaChoices,
    EwChoices,
    archetype_factors,
    character_create_aethoria,
    character_create_ew,
    character_update_aethoria,
    character_update_ew,
    npc_copy,
)
from .pools import (
    OWN_UNDO_WINDOW,
    CharacterInUse,
    UndoRefused,
    character_delete,
    character_rest,
    eclat_spend,
    fatigue_spend,
    own_undoable,
    table_action_undo,
)
from .xp import (
    IMPROVEMENT_KINDS,
    Improvement,
    xp_award,
    xp_award_cancel,
    xp_cost,
    xp_spend,
    xp_spend_undo,
)

__all__ = [
    "AETHORIA_BASE_CHARACTERISTICS",
    "CREATION_BUDGET_CODES",
    "IMPROVEMENT_KINDS",
    "OWN_UNDO_WINDOW",
    "AethoriaChoices",
    "CharacterInUse",
    "EwChoices",
    "Improvement",
    "UndoRefused",
    "archetype_factors",
    "character_create_aethoria",
    "character_create_ew",
    "character_delete",
    "character_rest",
    "character_update_aethoria",
    "character_update_ew",
    "eclat_spend",
    "fatigue_spend",
    "npc_copy",
    "own_undoable",
    "table_action_undo",
    "xp_award",
    "xp_award_cancel",
    "xp_cost",
    "xp_spend",
    "xp_spend_undo",
]
