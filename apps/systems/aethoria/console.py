"""What the encounter console shows of an Aethoria fight: a fighter's row and what the
actions panel reads."""

from __future__ import annotations

from django.db.models import Prefetch, prefetch_related_objects
from django.utils.translation import gettext as _

from apps.characters.bars import Bar
from apps.characters.models import AethoriaSkillRank
from apps.encounters.kit import load_combatants
from apps.encounters.models import Combatant, Encounter
from apps.rules import aethoria

from .log import location_words
from .state import FighterState


def fighter_row(
    combatant: Combatant, house: aethoria.AethoriaHouseRules
) -> tuple[list[Bar], list[str]]:
    sheet = combatant.character.aethoria
    pools = sheet.pools(house)
    bars = [
        Bar("pv", _("PV"), pools.pv, pools.pv_max),
        Bar("physical", _("Fatigue physique"), pools.physical, pools.physical_max),
        Bar("mental", _("Fatigue mentale"), pools.mental, pools.mental_max),
    ]
    state = FighterState.of(combatant)
    turn = state.turn
    notes = [_("%(n)s défense(s)") % {"n": turn.defences}]
    if turn.aim_target:
        notes.append(_("vise") if not turn.aim_ready else _("visée prête (+3 dés)"))
    if turn.prepared:
        notes.append(_("action préparée : %(what)s") % {"what": turn.prepared.description})
    return bars, notes + lasting_notes(combatant, state)


def lasting_notes(combatant: Combatant, state: FighterState | None = None) -> list[str]:
    """The lasting effects the GM confirmed (bleeding, a fracture), in words: the console's
    row and the players' table say them alike."""
    state = state or FighterState.of(combatant)
    notes = [_("saigne")] if state.bleeding else []
    return notes + [effect_words(effect) for effect in state.effects]


def effect_words(effect: dict) -> str:
    """A lasting severe effect in the viewer's language ("fracture : right arm")."""
    if effect.get("kind") == aethoria.FRACTURE and effect.get("location"):
        return _("fracture : %(where)s") % {"where": location_words(effect["location"])}
    return effect.get("label", effect.get("kind", ""))  # states saved before locations were


def load_console_fight(encounter: Encounter, *, test_panel: bool) -> list[Combatant]:
    """The attack forms load their two fighters' gear themselves; the test form lists every
    fighter's skills, read only when the test panel is open."""
    combatants = load_combatants(encounter, gear=False)
    if test_panel:
        prefetch_skills(combatants)
    return combatants


def prefetch_skills(combatants: list[Combatant]) -> None:
    """The skills of these combatants' sheets, in one query (their other gear is left to
    ``prefetch_gear``)."""
    sheets = [c.character.aethoria for c in combatants]
    skills = Prefetch("skills", queryset=AethoriaSkillRank.objects.select_related("skill"))
    prefetch_related_objects(sheets, skills)
