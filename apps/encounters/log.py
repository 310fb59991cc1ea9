"""The combat log in words: one sentence per event, written from the event's stored data."""

from __future__ import annotations

from functools import cache

from django.utils.translation import gettext as _

from apps.systems import all_systems

from .models import Event
from .templatetags.odds import pool_label

# What a player's line holds instead of an NPC's number (``console._for_players`` and the
# systems' ``npc_*_for_players``): the line says that it happened, not how much.
SECRET = "secret"


def describe(event: Event) -> str:
    """The event as a sentence for the log (in the viewer's language; game terms French)."""
    writer = _writers().get(event.kind)
    return writer(event.data) if writer else event.kind


def _in_order(rows: list[dict]) -> str:
    """Fighters with their initiative ("Ysolde (17), Brandon"): an NPC's total, taken out
    of a player's line, leaves its name."""
    return ", ".join(
        f"{row['name']} ({row['total']})" if "total" in row else row["name"] for row in rows
    )


def _start(data: dict) -> str:
    order = _in_order(data.get("initiative", []))
    return _("Début du combat. Initiative : %(order)s.") % {"order": order}


def _next_turn(data: dict) -> str:
    text = ""
    if "new_round" in data:
        text = _("Round %(round)s. ") % {"round": data["new_round"]}
        if data.get("initiative"):
            order = _in_order(data["initiative"])
            text += _("Initiative : %(order)s. ") % {"order": order}
    text += _("Au tour de %(name)s.") % {"name": data.get("name", "?")}
    return text + _bleeding(data)


def _bleeding(data: dict) -> str:
    """Who bled as the turn passed: the acting fighter, and those out of the fight."""
    text = ""
    if data.get("bleeding") == SECRET:
        text += " " + _("%(name)s saigne.") % {"name": data.get("name", "?")}
    elif data.get("bleeding"):
        text += " " + _("Saignement : %(pv)s PV perdu(s).") % {"pv": data["bleeding"]}
    for row in data.get("bled", ()):
        if row["pv"] == SECRET:
            text += " " + _("%(name)s, hors de combat, saigne.") % row
        else:
            text += " " + _("%(name)s, hors de combat, saigne : %(pv)s PV perdu(s).") % row
        if row.get("dead"):
            text += " " + _("%(name)s meurt.") % row
    return text


def _undone(data: dict) -> str:
    """The step an undo or a redo names, in words: from the copy of its data taken then (an
    older line, without that copy, says only that a step was)."""
    if "step" not in data:
        return _("une étape.")
    writer = _writers().get(data.get("kind", ""))
    return writer(data["step"]) if writer else data.get("kind", "")


def _reinforce(data: dict) -> str:
    arrivals = _in_order(data.get("arrivals", []))
    return _("Renforts : %(arrivals)s rejoignent le combat.") % {"arrivals": arrivals}


def _correct(data: dict) -> str:
    return _("Correction du MJ : %(name)s, %(pool)s %(before)s → %(after)s (%(reason)s).") % {
        **data,
        "pool": pool_label(data["pool"]),
    }


def _undo(data: dict) -> str:
    return _("Annulé : %(step)s") % {"step": _undone(data)}


def _redo(data: dict) -> str:
    return _("Rétabli : %(step)s") % {"step": _undone(data)}


WRITERS = {
    "start": _start,
    "next_turn": _next_turn,
    "pause": lambda d: _("Pause."),
    "resume": lambda d: _("Reprise."),
    "end": lambda d: _("Fin du combat."),
    "reopen": lambda d: _("Combat rouvert par le MJ."),
    "reveal": lambda d: _("%(name)s entre en scène.") % d,
    "hide": lambda d: _("%(name)s disparaît aux yeux des joueurs.") % d,
    "reinforce": _reinforce,
    "withdraw": lambda d: _("%(name)s quitte le combat.") % d,
    "correct": _correct,
    "undo": _undo,
    "redo": _redo,
}


@cache
def _writers() -> dict:
    """The generic writers with those of every game system (gathered on first use: the
    systems' modules import this one)."""
    merged = dict(WRITERS)
    for system in all_systems():
        merged.update(system.log_writers())
    return merged
