"""Writes of the characters app (C5): copies, pools spent and restored, XP.

Every function is keyword-only, atomic, locks the rows two people could change at once
(a player's phone and the GM's laptop), and touches the campaign version so that open
screens refresh. One module per topic — ``editing`` (copies, what every system's edit
wizard shares), ``pools`` (spends, rests, their undo, deletion), ``xp``, ``journal`` (the log
lines they write) — and every public name importable from here. What a system's rules make
(its creation wizard's services) lives in its folder, ``apps/systems/<code>/``.
"""

from .editing import lock_for_edit, log_edit, notes_save, npc_copy
from .pools import (
    OWN_UNDO_WINDOW,
    CharacterInUse,
    UndoRefused,
    character_delete,
    character_rest,
    own_undoable,
    pools_of,
    table_action_record,
    table_action_undo,
)
from .xp import xp_award, xp_award_cancel, xp_spend, xp_spend_undo

__all__ = [
    "OWN_UNDO_WINDOW",
    "CharacterInUse",
    "UndoRefused",
    "character_delete",
    "character_rest",
    "lock_for_edit",
    "log_edit",
    "notes_save",
    "npc_copy",
    "own_undoable",
    "pools_of",
    "table_action_record",
    "table_action_undo",
    "xp_award",
    "xp_award_cancel",
    "xp_spend",
    "xp_spend_undo",
]
