"""Log sentences of the Aethoria events (merged into log.WRITERS).

Written from the event's stored data only, so editing the compendium later changes no line.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from apps.encounters.kit import SECRET

from .events import (
    ACTION_EVENT,
    AIM_LOST_EVENT,
    ATTACK_EVENT,
    ATTACK_FATIGUE_EVENT,
    EFFECT_EVENT,
    FATIGUE_EVENT,
    FIRE_EVENT,
    SPELL_EVENT,
    TEST_EVENT,
    TREAT_EVENT,
)

# The words of the default hit-location table; a GM's own locations are shown as typed.
LOCATIONS = {
    "head": gettext_noop("à la tête"),
    "torso": gettext_noop("au torse"),
    "right_arm": gettext_noop("au bras droit"),
    "left_arm": gettext_noop("au bras gauche"),
    "right_leg": gettext_noop("à la jambe droite"),
    "left_leg": gettext_noop("à la jambe gauche"),
}
WORDS = {
    "head": gettext_noop("tête"),
    "torso": gettext_noop("torse"),
    "right_arm": gettext_noop("bras droit"),
    "left_arm": gettext_noop("bras gauche"),
    "right_leg": gettext_noop("jambe droite"),
    "left_leg": gettext_noop("jambe gauche"),
}
DEFENCES = {"dodge": "esquive", "parry": "parade"}
EFFECTS = {"bleeding": "saignement", "fracture": "fracture", "instant_death": "mort instantanée"}
MODES = {"cibler": gettext_noop("cible"), "double": gettext_noop("attaque double")}
ACTIONS = {
    "defense": gettext_noop("se met en défense (+1 défense)"),
    "move": gettext_noop("se déplace"),
}
PREPARED = {
    "attack": gettext_noop("une attaque"),
    "spell": gettext_noop("un sort"),
    "other": gettext_noop("autre chose"),
}
RANGES = {"short": "courte", "medium": "moyenne", "long": "longue", "extreme": "extrême"}


def _at(location: str) -> str:
    if location in LOCATIONS:
        return _(LOCATIONS[location])
    return _("à %(location)s") % {"location": location.replace("_", " ")}


def location_words(location: str) -> str:
    """A hit location in the viewer's language ("bras droit", "right arm")."""
    return _(WORDS[location]) if location in WORDS else location.replace("_", " ")


def npc_target_for_players(kind: str, data: dict) -> dict:
    """An NPC's damage and armour (RD) are the GM's: the players read where it was hit;
    the fatigue dice it added to its defence, that it did, not how many."""
    if "blows" not in data:
        return data
    blows = [{k: v for k, v in blow.items() if k != "damage"} for blow in data["blows"]]
    data = {**data, "blows": blows}
    if data.get("defence_fatigue"):
        data["defence_fatigue"] = SECRET
    if kind == ATTACK_FATIGUE_EVENT and data["roll"] == "defence":
        data["count"] = SECRET
    return data


# What an NPC that acts spent or lost, by event: a number replaced by SECRET still shows
# that it happened; one left out does not show. The power put in a spell goes too: the
# burn's PV are that power, and it tells the caster's Pouvoir.
NPC_ACTOR_SECRETS = {
    ATTACK_EVENT: ("fatigue", "damage_fatigue"),
    SPELL_EVENT: ("burn_pv",),
    FATIGUE_EVENT: ("count", "burn_pv"),
}
NPC_ACTOR_LEFT_OUT = {
    SPELL_EVENT: ("invested", "physical_paid", "mental_paid", "pv_from_fatigue"),
}


def npc_actor_for_players(kind: str, data: dict) -> dict:
    """An NPC's spends and losses (fatigue, PV, its érys burn) are the GM's: the players
    read that it burned or added fatigue dice, and the roll's outcome."""
    data = {k: v for k, v in data.items() if k not in NPC_ACTOR_LEFT_OUT.get(kind, ())}
    for key in NPC_ACTOR_SECRETS.get(kind, ()):
        if data.get(key):
            data[key] = SECRET
    if kind == ATTACK_FATIGUE_EVENT and data["roll"] != "defence":
        data["count"] = SECRET
    return data


def _secret(value) -> bool:
    return value == SECRET


def _successes(n: int) -> str:
    return ngettext("%(n)s réussite", "%(n)s réussites", n) % {"n": n}


def _blow(blow: dict, data: dict) -> str:
    attack = blow["attack"]["successes"]
    text = _successes(attack)
    defence = blow.get("defence")
    if defence:
        what = DEFENCES.get(defence["kind"], defence["kind"])
        if defence.get("item"):
            what += " " + _("avec %(item)s") % {"item": defence["item"]}
        text += " " + _("contre %(n)s (%(what)s)") % {"n": defence["successes"], "what": what}
    outcome = blow["outcome"]
    if not outcome["lands"]:
        return text + ", " + _("raté")
    if outcome["hits_obstacle"]:
        return (
            text
            + ", "
            + _("touché %(at)s, couvert : le tir frappe l'obstacle")
            % {"at": _at(outcome["location"])}
        )
    text += ", " + _("touché %(at)s") % {"at": _at(outcome["location"])}
    damage = blow.get("damage")
    if damage:
        text += " ; " + _("%(total)s dégâts − RD %(rd)s = %(pv)s PV") % {
            "total": damage["total"],
            "rd": damage["rd"],
            "pv": damage["damage"],
        }
        if outcome["bonus_dice"]:
            text += " " + ngettext(
                "(dont %(n)s dé bonus)", "(dont %(n)s dés bonus)", outcome["bonus_dice"]
            ) % {"n": outcome["bonus_dice"]}
    kept = outcome.get("kept_successes", 0)
    if data.get("convert") is False and kept:
        # The GM kept them for a special capability: say how many, the table needs to know.
        text += ", " + ngettext(
            "%(n)s réussite nette en plus gardée pour une capacité spéciale",
            "%(n)s réussites nettes en plus gardées pour une capacité spéciale",
            kept,
        ) % {"n": kept}
    if blow.get("severe", "none") != "none":
        text += " — " + _("effet proposé : %(effect)s") % {
            "effect": _(EFFECTS.get(blow["severe"], blow["severe"]))
        }
    return text


def _attack(data: dict) -> str:
    blows = data["blows"]
    weapons = " et ".join(b["weapon"]["name"] for b in blows)
    intro = _("%(attacker)s attaque %(target)s (%(weapon)s)") % {
        "attacker": data["attacker"],
        "target": data["target"],
        "weapon": weapons,
    }
    details = []
    if data.get("fired"):
        details.append(_("action préparée"))
    if data.get("mode") in MODES:
        details.append(_(MODES[data["mode"]]))
    if data.get("ranged"):
        details.append(_("tir, portée %(band)s") % {"band": RANGES.get(data["range_band"], "")})
    if data.get("aim_bonus"):
        details.append(_("visée +%(n)s dés") % {"n": data["aim_bonus"]})
    details += _fatigue_details(data)
    if details:
        intro += " [" + ", ".join(details) + "]"
    parts = [_blow(blow, data) for blow in blows]
    if len(parts) == 2:
        text = (
            intro + " : " + _("1re arme, %(a)s ; 2e arme, %(b)s") % {"a": parts[0], "b": parts[1]}
        )
    else:
        text = intro + " : " + parts[0]
    text += _condition(data) + "."
    if data.get("asked"):
        text += " " + _("(jet de %(name)s depuis son téléphone)") % {"name": data["asked"]}
    return text


def _fatigue_details(data: dict) -> list[str]:
    """The fatigue dice of an attack (an NPC's without their number on a player's line)."""
    details = []
    fatigue = data.get("fatigue")
    if _secret(fatigue):
        details.append(_("dés de fatigue"))
    elif fatigue:
        details.append(
            ngettext("%(n)s dé de fatigue", "%(n)s dés de fatigue", fatigue) % {"n": fatigue}
        )
    defence = data.get("defence_fatigue")
    if _secret(defence):
        details.append(_("défense + dés de fatigue"))
    elif defence:
        details.append(_("défense +%(n)s dé(s) de fatigue") % {"n": defence})
    damage = data.get("damage_fatigue")
    if _secret(damage):
        details.append(_("dégâts + dés de fatigue"))
    elif damage and any(b.get("damage") for b in data["blows"]):
        details.append(_("dégâts +%(n)s dé(s) de fatigue") % {"n": damage})
    return details


def _condition(data: dict) -> str:
    if data.get("dead"):
        return " — " + _("mort")
    if data.get("out"):
        return " — " + _("hors de combat")
    return ""


ROLLS = {
    "attack": gettext_noop("jet d'attaque"),
    "defence": gettext_noop("jet de défense"),
    "damage": gettext_noop("jet de dégâts"),
}


def _attack_fatigue(data: dict) -> str:
    """Fatigue dice after one roll of an attack: the blow as it now ends."""
    # The defender's dice are against the attacker; the attacker's, against the target.
    other = data["attacker"] if data["roll"] == "defence" else data["target"]
    if _secret(data["count"]):
        text = _("%(name)s ajoute des dés de fatigue à son %(roll)s contre %(other)s") % {
            "name": data["roller"],
            "roll": _(ROLLS[data["roll"]]),
            "other": other,
        }
    else:
        text = _counted_attack_fatigue(data, other)
    if len(data["blows"]) == 2:
        text += ", " + (_("1re arme") if data["blow"] == 0 else _("2e arme"))
    blow = _blow(data["blows"][data["blow"]], data)
    return text + " : " + blow + _condition(data) + "."


def _counted_attack_fatigue(data: dict, other: str) -> str:
    return ngettext(
        "%(name)s ajoute %(n)s dé de fatigue à son %(roll)s contre %(other)s",
        "%(name)s ajoute %(n)s dés de fatigue à son %(roll)s contre %(other)s",
        data["count"],
    ) % {
        "name": data["roller"],
        "n": data["count"],
        "roll": _(ROLLS[data["roll"]]),
        "other": other,
    }


def _aim_lost(data: dict) -> str:
    if data.get("target"):
        return _("%(target)s passe hors d'atteinte : %(name)s perd sa visée.") % data
    return _("%(name)s perd sa visée.") % data


def _verdict(verdict: dict) -> str:
    text = _("%(s)s contre difficulté %(d)s, ") % {
        "s": _successes(verdict["successes"]),
        "d": verdict["difficulty"],
    }
    text += _("réussi") if verdict["success"] else _("échoué")
    if verdict["much_lower"]:
        text += " " + _("(très en dessous)")
    return text


def _test(data: dict) -> str:
    what = data["what"]
    if data.get("label"):
        what = f"{data['label']} ({what})"
    text = _("%(name)s tente %(what)s : %(verdict)s") % {
        "name": data["name"],
        "what": what,
        "verdict": _verdict(data["verdict"]),
    }
    text += "."
    if data.get("asked"):
        text += " " + _("(jet de %(name)s depuis son téléphone)") % {"name": data["asked"]}
    return text


def _spell(data: dict) -> str:
    what = data.get("label") or _("un sort")
    verdict = _verdict(data["verdict"])
    if "invested" in data:
        text = _("%(name)s lance %(what)s (Pouvoir investi %(p)s) : %(verdict)s") % {
            "name": data["name"],
            "what": what,
            "p": data["invested"],
            "verdict": verdict,
        }
    else:  # an NPC's, on a player's line
        text = _("%(name)s lance %(what)s : %(verdict)s") % {
            "name": data["name"],
            "what": what,
            "verdict": verdict,
        }
    if data.get("fired"):
        text += " [" + _("action préparée") + "]"
    if "physical_paid" in data:
        text += " ; " + _("fatigue %(phys)s physique, %(ment)s mentale") % {
            "phys": data["physical_paid"],
            "ment": data["mental_paid"],
        }
    if data.get("pv_from_fatigue"):
        text += " " + _("(%(n)s PV faute de fatigue)") % {"n": data["pv_from_fatigue"]}
    if data.get("burn"):
        text += " — " + _burn(data)
    return text + "."


def _burn(data: dict) -> str:
    if _secret(data["burn_pv"]):
        return _("brûlure d'érys")
    return _("brûlure d'érys : %(n)s PV") % {"n": data["burn_pv"]}


def _fatigue(data: dict) -> str:
    # The roll by what it was, not by its step number (older lines only know the number).
    what = data.get("what")
    roll = _("son jet (%(what)s)") % {"what": what} if what else _("son dernier jet")
    words = {"name": data["name"], "roll": roll, "verdict": _verdict(data["verdict"])}
    if _secret(data["count"]):
        text = _("%(name)s ajoute des dés de fatigue à %(roll)s : %(verdict)s") % words
    else:
        text = ngettext(
            "%(name)s ajoute %(n)s dé de fatigue à %(roll)s : %(verdict)s",
            "%(name)s ajoute %(n)s dés de fatigue à %(roll)s : %(verdict)s",
            data["count"],
        ) % {**words, "n": data["count"]}
    if data.get("burn") and not data.get("burn_before"):
        text += " — " + _burn(data)
    elif data.get("burn_before") and not data.get("burn"):
        text += " — " + _("plus de brûlure d'érys")
    return text + "."


def _action(data: dict) -> str:
    action = data["action"]
    if action == "viser":
        return _("%(name)s vise %(target)s (+3 dés au prochain tour).") % data
    if action == "preparer":
        kind = PREPARED.get(data.get("prepared_kind", "attack"), "")
        return _("%(name)s prépare une action (%(kind)s) : %(description)s, si %(trigger)s.") % {
            **data,
            "kind": _(kind),
        }
    if action == "other":
        return _("%(name)s : %(note)s.") % data
    return f"{data['name']} {_(ACTIONS.get(action, action))}."


def _fire(data: dict) -> str:
    return _("%(name)s déclenche son action préparée (%(trigger)s) : %(description)s.") % data


def _effect(data: dict) -> str:
    effect = _(EFFECTS.get(data["effect"], data["effect"]))
    if data["confirm"]:
        return _("Le MJ confirme : %(effect)s pour %(target)s (%(at)s).") % {
            "effect": effect,
            "target": data["target"],
            "at": _(WORDS.get(data["location"], data["location"])),
        }
    return _("Le MJ écarte l'effet proposé (%(effect)s) pour %(target)s.") % {
        "effect": effect,
        "target": data["target"],
    }


def _without_proposals(data: dict) -> dict:
    """An attack's blows without the severe effect each proposed: the GM has yet to decide
    it, and the players read only what was decided (``_effect_for_players``)."""
    blows = [{k: v for k, v in blow.items() if k != "severe"} for blow in data["blows"]]
    return {**data, "blows": blows}


# A confirmed severe effect as the table tells it.
EFFECTS_DECIDED = {
    "bleeding": gettext_noop("%(target)s saigne (blessure %(at)s)."),
    "fracture": gettext_noop("%(target)s a une fracture %(at)s."),
    "instant_death": gettext_noop("%(target)s meurt sur le coup (touché %(at)s)."),
}


def _effect_for_players(data: dict) -> str | None:
    """What the GM decided, in the table's words ("Marco a une fracture au bras droit.");
    a proposal dismissed is no news to players who never read it."""
    if not data["confirm"]:
        return None
    words = {"target": data["target"], "at": _at(data["location"])}
    if data["effect"] in EFFECTS_DECIDED:
        return _(EFFECTS_DECIDED[data["effect"]]) % words
    return _("%(target)s : %(effect)s.") % {**words, "effect": data["effect"]}


def _taken(blow: dict, target: str) -> str:
    """A blow as its target took it, without naming who struck."""
    outcome = blow["outcome"]
    if not outcome["lands"]:
        return _("un coup manque %(target)s") % {"target": target}
    if outcome["hits_obstacle"]:
        return _("un tir vers %(target)s frappe l'obstacle qui le couvre") % {"target": target}
    text = _("%(target)s reçoit un coup %(at)s") % {
        "target": target,
        "at": _at(outcome["location"]),
    }
    damage = blow.get("damage")
    if damage:
        text += " ; " + _("%(total)s dégâts − RD %(rd)s = %(pv)s PV") % {
            "total": damage["total"],
            "rd": damage["rd"],
            "pv": damage["damage"],
        }
    return text


def _sentence(parts: list[str], data: dict) -> str:
    text = " ; ".join(parts) + _condition(data) + "."
    return text[:1].upper() + text[1:]


def _attack_unseen(data: dict) -> str:
    """A hidden fighter's attack: what became of its target."""
    return _sentence([_taken(blow, data["target"]) for blow in data["blows"]], data)


def _attack_fatigue_unseen(data: dict) -> str:
    """Fatigue dice added to a hidden fighter's attack: the blow as its target now took it."""
    return _sentence([_taken(data["blows"][data["blow"]], data["target"])], data)


AETHORIA_PLAYERS_WRITERS: dict = {
    ATTACK_EVENT: lambda data: _attack(_without_proposals(data)),
    ATTACK_FATIGUE_EVENT: lambda data: _attack_fatigue(_without_proposals(data)),
    EFFECT_EVENT: _effect_for_players,
}
AETHORIA_UNSEEN_ACTOR_WRITERS: dict = {
    ATTACK_EVENT: _attack_unseen,
    ATTACK_FATIGUE_EVENT: _attack_fatigue_unseen,
    # Its actor is the target; made unseen by a hidden attacker's blow.
    EFFECT_EVENT: _effect_for_players,
}


AETHORIA_WRITERS: dict = {
    ATTACK_EVENT: _attack,
    TEST_EVENT: _test,
    SPELL_EVENT: _spell,
    FATIGUE_EVENT: _fatigue,
    ACTION_EVENT: _action,
    FIRE_EVENT: _fire,
    EFFECT_EVENT: _effect,
    ATTACK_FATIGUE_EVENT: _attack_fatigue,
    AIM_LOST_EVENT: _aim_lost,
    TREAT_EVENT: lambda data: _("Le saignement de %(name)s est soigné.") % data,
    "aethoria_request_defence": lambda data: (
        _("%(attacker)s attaque %(target)s : défense demandée au joueur.") % data
    ),
    "aethoria_request_test": lambda data: (
        _("%(name)s : %(what)s demandé au joueur.")
        % {"name": data["name"], "what": data.get("label") or data.get("what") or _("un test")}
    ),
    "aethoria_request_attack": lambda data: (
        _("Attaque de %(attacker)s sur %(target)s demandée au joueur.") % data
    ),
}
