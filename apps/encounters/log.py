"""The combat log in words: one sentence per event, written from the event's stored data."""

from __future__ import annotations

from functools import cache

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from apps.systems import SYSTEMS, all_systems, pool_words

from .conditions import Condition, duration_words
from .models import Event

# What a player's line holds instead of an NPC's number (``table._for_players`` and the
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
    return _("Début du combat. Initiative : %(order)s.") % {"order": order} + _conditions(data)


def _next_turn(data: dict) -> str:
    text = ""
    if "new_round" in data:
        text = _("Round %(round)s. ") % {"round": data["new_round"]}
        if data.get("initiative"):
            order = _in_order(data["initiative"])
            text += _("Initiative : %(order)s. ") % {"order": order}
    text += _("Au tour de %(name)s.") % {"name": data.get("name", "?")}
    return text + _bleeding(data) + _conditions(data)


def _conditions(data: dict) -> str:
    """The conditions that ended as the turn passed, and the acting fighter's reminders."""
    text = ""
    for row in data.get("conditions_ended", ()):
        text += " " + _("%(name)s : fin de « %(label)s ».") % row
    for row in data.get("reminders", ()):
        text += " " + _("Rappel : %(label)s — %(reminder)s.") % row
    return text


def _next_turn_unseen(data: dict) -> str | None:
    """A turn passing to a fighter the players do not see: the round it opened, who bled
    out of the fight, the conditions that ended — not whose turn it is."""
    text = ""
    if "new_round" in data:
        text = _("Round %(round)s. ") % {"round": data["new_round"]}
        if data.get("initiative"):
            order = _in_order(data["initiative"])
            text += _("Initiative : %(order)s. ") % {"order": order}
    text = (text.strip() + _bled(data) + _conditions(data)).strip()
    return text or None


def _bleeding(data: dict) -> str:
    """Who bled as the turn passed: the acting fighter, and those out of the fight."""
    text = ""
    if data.get("bleeding") == SECRET:
        text += " " + _("%(name)s saigne.") % {"name": data.get("name", "?")}
    elif data.get("bleeding"):
        text += " " + _("Saignement : %(pv)s PV perdu(s).") % {"pv": data["bleeding"]}
    return text + _bled(data)


def _bled(data: dict) -> str:
    """The fighters out of the fight who bled as the turn passed."""
    text = ""
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
    rows = data.get("arrivals", [])
    return ngettext(
        "Renfort : %(arrivals)s rejoint le combat.",
        "Renforts : %(arrivals)s rejoignent le combat.",
        len(rows),
    ) % {"arrivals": _in_order(rows)}


def _correct(data: dict) -> str:
    return _("Correction du MJ : %(name)s, %(pool)s %(before)s → %(after)s (%(reason)s).") % {
        **data,
        "pool": pool_words(data["pool"]),
    }


def _condition_put(data: dict) -> str:
    condition = Condition.from_json(data["condition"])
    names = {condition.turn_of: data.get("turn_of_name", "")}
    duration = duration_words(condition, data.get("combatant"), names)
    return _("%(name)s : « %(label)s », %(duration)s.") % {
        "name": data["name"],
        "label": condition.label,
        "duration": duration,
    }


def _condition_remove(data: dict) -> str:
    return _("%(name)s : « %(label)s » retiré.") % data


def _request_initiative(data: dict) -> str:
    names = ", ".join(row["name"] for row in data.get("asked", ()))
    return _("Initiative demandée aux joueurs : %(names)s.") % {"names": names}


def _request_answer(data: dict) -> str:
    return _("%(name)s a lancé son dé d'initiative : %(face)s.") % data


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
    "condition_put": _condition_put,
    "condition_remove": _condition_remove,
    "request_initiative": _request_initiative,
    "request_answer": _request_answer,
    "request_cancel": lambda d: _("Le MJ reprend la main sur le jet de %(name)s.") % d,
}


# What the players read of a generic step whose actor they do not see (``players_sentence``).
UNSEEN_ACTOR_WRITERS = {
    "next_turn": _next_turn_unseen,
    # Hidden arrivals are taken out of the players' list: with none left, nothing to say.
    "reinforce": lambda d: _reinforce(d) if d.get("arrivals") else None,
}


def players_sentence(event: Event, *, actor_seen: bool) -> str | None:
    """The event as the players' table tells it (``event.data`` already as they may read it:
    no hidden fighter, no NPC's number): the system's players' sentence where it differs
    from the GM's; with ``actor_seen`` false (a hidden NPC acted), only what became of the
    fighters they see, without the actor's name. None: the players read no line of it."""
    if not actor_seen:
        writer = _unseen_writers_of(tuple(SYSTEMS.items())).get(event.kind)
        return writer(event.data) if writer else None
    writer = _players_writers_of(tuple(SYSTEMS.items())).get(event.kind)
    return writer(event.data) if writer else describe(event)


@cache
def _unseen_writers_of(registry: tuple) -> dict:
    merged = dict(UNSEEN_ACTOR_WRITERS)
    for system in all_systems():
        merged.update(system.unseen_actor_writers())
    return merged


@cache
def _players_writers_of(registry: tuple) -> dict:
    merged = {}
    for system in all_systems():
        merged.update(system.players_log_writers())
    return merged


def _writers() -> dict:
    """The generic writers with those of every game system (gathered on first use: the
    systems' modules import this one), again whenever the registry changes."""
    return _writers_of(tuple(SYSTEMS.items()))


@cache
def _writers_of(registry: tuple) -> dict:
    merged = dict(WRITERS)
    for system in all_systems():
        merged.update(system.log_writers())
    return merged
