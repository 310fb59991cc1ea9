"""A whole campaign to one JSON document and back (product §3: export and import, losslessly).

The document holds no database id: characters, XP lines, encounters and combatants get local
keys ("c1", "x1", "e1", "k1") in creation order, and every reference is rewritten to them —
owners and authors become usernames, compendium rows their natural keys, and the ids inside
the encounters' JSON (events' ``changes``, aim targets, initiative rolls, the start baseline,
the end summary) local keys. Import maps every key back to the new rows' ids, so undo works
on an imported fight exactly as it did on the original.
"""

from .export import campaign_export, export_filename
from .imports import ImportReport, campaign_import, parse_document
from .values import FORMAT, MAX_BYTES, MAX_DEPTH, VERSION, ImportRefused, too_big

__all__ = [
    "FORMAT",
    "MAX_BYTES",
    "MAX_DEPTH",
    "VERSION",
    "ImportRefused",
    "ImportReport",
    "campaign_export",
    "campaign_import",
    "export_filename",
    "parse_document",
    "too_big",
]
