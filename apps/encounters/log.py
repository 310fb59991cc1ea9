"""The combat log in words: one sentence per event, written from the event's stored data."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from apps.systems.aethoria.log import AETHORIA_WRITERS

from .models import Event

STANCES = {
    "total_attack": gettext_lazy("attaque totale"),
    "total_defence": gettext_lazy("défense totale"),
}


def describe(event: Event) -> str:
    """The event as a sentence for the log (in the viewer's language; game terms French)."""
    writer = WRITERS.get(event.kind)
    return writer(event.data) if writer else event.kind


def _start(data: dict) -> str:
    order = ", ".join(f"{row['name']} ({row['total']})" for row in data.get("initiative", []))
    return _("Début du combat. Initiative : %(order)s.") % {"order": order}


def _next_turn(data: dict) -> str:
    text = ""
    if "new_round" in data:
        text = _("Round %(round)s. ") % {"round": data["new_round"]}
        if data.get("initiative"):
            order = ", ".join(f"{r['name']} ({r['total']})" for r in data["initiative"])
            text += _("Initiative : %(order)s. ") % {"order": order}
    text += _("Au tour de %(name)s.") % {"name": data.get("name", "?")}
    if data.get("bleeding"):
        text += " " + _("Saignement : %(pv)s PV perdu(s).") % {"pv": data["bleeding"]}
    return text


def _applied(applied: dict | None) -> str:
    if not applied:
        return ""
    parts = [
        ngettext("%(n)s superficiel", "%(n)s superficiels", applied["superficial"])
        % {"n": applied["superficial"]},
        ngettext("%(n)s létal", "%(n)s létaux", applied["lethal"] + applied["overflow"])
        % {"n": applied["lethal"] + applied["overflow"]},
    ]
    text = " ; " + ", ".join(parts)
    if applied["overflow"]:
        text += " " + _("(dont %(n)s reportés des superficiels)") % {"n": applied["overflow"]}
    if applied["dead"]:
        text += " — " + _("mort")
    elif applied["unconscious"]:
        text += " — " + _("inconscient")
    return text


def _roll_words(result: dict, success: str, failure: str) -> str:
    """ "14 ≤ 15, touché" or "17 > 15, raté": the d20 against the table's score."""
    sign = "≤" if result["roll"] <= result["score"] else ">"
    verdict = success if result["success"] else failure
    return f"{result['roll']} {sign} {result['score']}, {verdict}"


def _ew_attack(data: dict) -> str:
    text = _("%(attacker)s attaque %(target)s (%(weapon)s) : %(roll)s") % {
        "attacker": data["attacker"],
        "target": data["target"],
        "weapon": data["weapon"],
        "roll": _roll_words(data["to_hit"], _("touché"), _("raté")),
    }
    if data.get("defence") == "active":
        text += " " + _("(défense active)")
    return text + _applied(data.get("applied")) + "."


def _ew_test(data: dict) -> str:
    result = data["result"]
    text = _("%(name)s tente %(what)s : %(roll)s (marge %(margin)s)") % {
        "name": data["name"],
        "what": data.get("label") or _("un test"),
        "roll": _roll_words(result, _("réussi"), _("échoué")),
        "margin": result["margin"],
    }
    if data.get("opponent"):
        text += " " + _("contre %(opponent)s") % {"opponent": data["opponent"]}
    return text + "."


def _ew_eclat(data: dict) -> str:
    text = _("%(name)s dépense un point d'éclat : l'échec devient une réussite") % data
    if data.get("target"):
        text += " " + _("sur %(target)s") % data + _applied(data.get("applied"))
    return text + "."


def _ew_stance(data: dict) -> str:
    return _("%(name)s choisit : %(stance)s pour ce round.") % {
        "name": data["name"],
        "stance": STANCES.get(data["stance"], data["stance"]),
    }


def _undo(data: dict) -> str:
    return _("Annulation de l'étape n° %(of)s.") % data


def _redo(data: dict) -> str:
    return _("Rétablissement de l'étape n° %(of)s.") % data


WRITERS = {
    "start": _start,
    "next_turn": _next_turn,
    "ew_attack": _ew_attack,
    "ew_test": _ew_test,
    "ew_eclat": _ew_eclat,
    "ew_stance": _ew_stance,
    "ew_coup_de_pouce": lambda d: (
        _("%(name)s dépense un point d'éclat : coup de pouce du destin (%(note)s).") % d
    ),
    "pause": lambda d: _("Pause."),
    "resume": lambda d: _("Reprise."),
    "end": lambda d: _("Fin du combat."),
    "reopen": lambda d: _("Combat rouvert par le MJ."),
    "reveal": lambda d: _("%(name)s entre en scène.") % d,
    "hide": lambda d: _("%(name)s disparaît aux yeux des joueurs.") % d,
    "undo": _undo,
    "redo": _redo,
    **AETHORIA_WRITERS,
}
