"""The light answer to an Aethoria attack: only what it changed, as out-of-band fragments
built from the step's own locked fighters and its event, without reading the fight again."""

from __future__ import annotations

from django.urls import reverse

from apps.encounters.kit import (
    Fight,
    LogLine,
    StepDone,
    describe,
    ends_the_round_early,
    fighter_rows,
)
from apps.encounters.models import Event
from apps.rules import aethoria

from .effects import pending_effects
from .fatigue import offers_attack_fatigue
from .panel import roll_result
from .state import FighterState


def answers_light(event: Event, fight: Fight) -> bool:
    """Whether the fragments say all the attack changed: made by the acting fighter (a fired
    prepared action changes which forms the panel holds), leaving the console's shape and
    both fighters' aims and prepared actions alone (the panel's cards of aims and prepared
    actions list every fighter: they are left as they are on screen), and not opening the
    way to a new round whose dice the panel must now offer."""
    if StepDone.of(event).reshapes_console:
        return False
    if fight.acting is None or fight.acting.pk != event.actor_id:
        return False
    if ends_the_round_early(fight, event):
        return False
    return all(
        _panel_cards(change["before"]) == _panel_cards(change["after"])
        for change in event.changes
        if (change["model"], change["field"]) == ("encounters.combatant", "state")
    )


def _panel_cards(state: dict | None) -> tuple:
    """What of a fighter's state the panel's other cards show."""
    parsed = FighterState.from_json(state)
    turn = parsed.turn
    return turn.aim_target, turn.aim_ready, turn.prepared, parsed.prepared_kind, parsed.fired


def attack_answer_context(event: Event, fight: Fight) -> dict:
    """The fragments' context: the two rows, the log line, undo and redo, the roll's result,
    its severe effects to decide and the offer of fatigue dice after its rolls (folded)."""
    encounter = fight.encounter  # the step's locked instance: version, round, turn are new
    house = encounter.campaign.house()
    fighters = sorted(fight.fighters.values(), key=lambda c: (c.position, c.pk))
    return {
        "encounter": encounter,
        "campaign": encounter.campaign,
        "house": house,
        "rows": fighter_rows(encounter, fighters, house, fight.acting),
        "acting": fight.acting,
        "log": [LogLine(event, describe(event))],
        # The step just made can be undone; a new step leaves nothing to redo.
        "can_undo": True,
        "can_redo": False,
        "roll": roll_result(event),
        "pending_effects": pending_effects([event]),
        # The offer of fatigue dice, folded: its form and odds load when opened.
        "attack_fatigue_offer": event if offers_attack_fatigue(event.data) else None,
        # A doué's spell form was there too: gone with the turn's one action.
        "spell_form": fight.acting.character.aethoria.magic_type == aethoria.DOUE,
        "live_url": reverse("encounters:changes", args=[encounter.pk]),
    }
