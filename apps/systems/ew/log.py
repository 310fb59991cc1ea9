"""The EW-System lines of the combat log, written from each event's stored data."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

STANCES = {
    "total_attack": gettext_lazy("attaque totale"),
    "total_defence": gettext_lazy("défense totale"),
}


def npc_target_for_players(kind: str, data: dict) -> dict:
    """The points an NPC lost are the GM's: the players read only what became of it. The
    score of a roll against it is too (the grid crosses the NPC's level): its face and
    verdict are the table's."""
    data = _without_score(data)
    applied = data.get("applied")
    if not applied:
        return data
    state = {"dead": applied["dead"], "unconscious": applied["unconscious"], "secret": True}
    return {**data, "applied": state}


def npc_actor_for_players(kind: str, data: dict) -> dict:
    """An NPC's score (its level through the grid) and so the margin of its roll are the
    GM's: the players read the die's face and whether it succeeded."""
    return _without_score(data)


# The rolls an EW event stores against the grid's score (an attack's, a test's).
SCORED = ("to_hit", "result")


def _without_score(data: dict) -> dict:
    data = dict(data)
    for key in SCORED:
        if isinstance(data.get(key), dict):
            data[key] = {k: v for k, v in data[key].items() if k not in ("score", "margin")}
    return data


def _applied(applied: dict | None) -> str:
    if not applied:
        return ""
    if applied.get("secret"):
        return _state_words(applied)
    parts = [
        ngettext("%(n)s superficiel", "%(n)s superficiels", applied["superficial"])
        % {"n": applied["superficial"]},
        ngettext("%(n)s létal", "%(n)s létaux", applied["lethal"] + applied["overflow"])
        % {"n": applied["lethal"] + applied["overflow"]},
    ]
    text = " ; " + ", ".join(parts)
    if applied["overflow"]:
        text += " " + _("(dont %(n)s reportés des superficiels)") % {"n": applied["overflow"]}
    return text + _state_words(applied)


def _state_words(applied: dict) -> str:
    if applied["dead"]:
        return " — " + _("mort")
    if applied["unconscious"]:
        return " — " + _("sans connaissance")
    return ""


def _roll_words(result: dict, success: str, failure: str) -> str:
    """ "14 ≤ 15, touché" or "17 > 15, raté": the d20 against the table's score ("14,
    touché" on a player's line when the score is an NPC's)."""
    verdict = success if result["success"] else failure
    if "score" not in result:
        return f"{result['roll']}, {verdict}"
    sign = "≤" if result["roll"] <= result["score"] else ">"
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
    if data.get("eclat_spent"):
        text += " " + _("grâce à un point d'éclat")
    text += _applied(data.get("applied")) + "."
    if data.get("asked"):
        text += " " + _("(jet de %(name)s depuis son téléphone)") % {"name": data["asked"]}
    return text


def _ew_request(data: dict) -> str:
    if data.get("kind") == "test":
        what = data.get("label") or _("un test")
        return _("%(name)s : %(what)s demandé au joueur.") % {"name": data["name"], "what": what}
    if data.get("kind") == "defence":
        return _("%(attacker)s attaque %(target)s : défense demandée au joueur.") % data
    return _("Attaque de %(attacker)s sur %(target)s demandée au joueur.") % data


def _ew_test(data: dict) -> str:
    result = data["result"]
    words = {
        "name": data["name"],
        "what": data.get("label") or _("un test"),
        "roll": _roll_words(result, _("réussi"), _("échoué")),
    }
    if "margin" in result:
        text = _("%(name)s tente %(what)s : %(roll)s (marge %(margin)s)") % {
            **words,
            "margin": result["margin"],
        }
    else:  # a score the players may not read, on their line
        text = _("%(name)s tente %(what)s : %(roll)s") % words
    if data.get("opponent"):
        text += " " + _("contre %(opponent)s") % {"opponent": data["opponent"]}
    if result.get("eclat_rescue"):
        text += " " + _("grâce à un point d'éclat")
    text += "."
    if data.get("asked"):
        text += " " + _("(jet de %(name)s depuis son téléphone)") % {"name": data["asked"]}
    return text


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


def _ew_coup_de_pouce(data: dict) -> str:
    return _("%(name)s dépense un point d'éclat : coup de pouce du destin (%(note)s).") % data


EW_WRITERS = {
    "ew_attack": _ew_attack,
    "ew_test": _ew_test,
    "ew_eclat": _ew_eclat,
    "ew_stance": _ew_stance,
    "ew_coup_de_pouce": _ew_coup_de_pouce,
    "ew_request_defence": _ew_request,
    "ew_request_attack": _ew_request,
    "ew_request_test": _ew_request,
}


def _blow_taken(data: dict) -> str | None:
    """A blow as the players read it when they do not see who struck: what became of its
    target ("Marco reçoit un coup ; 8 superficiels, 0 létal — sans connaissance.")."""
    if not data.get("target"):
        return None
    if not data.get("applied") and not data.get("to_hit", {}).get("success", True):
        return _("Un coup manque %(target)s.") % data
    return _("%(target)s reçoit un coup") % data + _applied(data.get("applied")) + "."


# What the players read of a step by a fighter they do not see (a hidden NPC): what became
# of its visible target; its tests, stances and spends tell them nothing.
EW_UNSEEN_ACTOR_WRITERS = {
    "ew_attack": _blow_taken,
    "ew_eclat": _blow_taken,
}
