"""Severe effects of Aethoria blows: proposed by an attack, then confirmed or dismissed by the GM
(a confirmed fracture stays on the target until the fight ends).
"""

from __future__ import annotations

from dataclasses import replace

from django.db import transaction
from django.utils.translation import gettext

from apps.encounters.kit import EncounterError, Step, combatant_of, lock_encounter, require_status
from apps.encounters.models import Encounter, Event, Status
from apps.rules import aethoria

from .events import ATTACK_EVENT, ATTACK_FATIGUE_EVENT, EFFECT_EVENT
from .log import WORDS, location_words
from .state import FighterState


def pending_effects(events) -> list[dict]:
    """Severe effects proposed by attacks and not yet confirmed or dismissed, newest first.

    ``events``: attack and effect events, not undone, newest first. Fatigue dice added after
    an attack's rolls resolve it again: its latest revision's proposals are the ones."""
    decided = {(e.data.get("of"), e.data.get("blow")) for e in events if e.kind == EFFECT_EVENT}
    revised: dict[int, list] = {}
    for event in events:
        if event.kind == ATTACK_FATIGUE_EVENT:
            revised.setdefault(event.data["of"], event.data["blows"])
    pending = []
    for event in events:
        if event.kind != ATTACK_EVENT:
            continue
        blows = revised.get(event.sequence, event.data.get("blows", []))
        for index, blow in enumerate(blows):
            effect = blow.get("severe", aethoria.NO_EFFECT)
            if effect != aethoria.NO_EFFECT and (event.sequence, index) not in decided:
                pending.append(
                    {
                        "event": event,
                        "blow": index,
                        "effect": effect,
                        "location": blow["outcome"]["location"],
                        "where": location_words(blow["outcome"]["location"]),
                        "target": event.data["target"],
                        "source": blow_words(event, index, len(blows)),
                    }
                )
    return pending


def blow_words(event: Event, index: int, count: int) -> str:
    """The blow that proposed an effect ("coup de Ysolde, round 2"), so that two proposals
    alike (the same effect on the same target and location) are told apart."""
    words = {"attacker": event.data.get("attacker", ""), "round": event.round}
    if count > 1:
        words |= {"n": index + 1, "count": count}
        return gettext("coup %(n)s sur %(count)s de %(attacker)s, round %(round)s") % words
    return gettext("coup de %(attacker)s, round %(round)s") % words


def undecided_effects(encounter: Encounter) -> list[dict]:
    """The severe effects still proposed when a fight ends — neither confirmed nor
    dismissed — as the summary keeps them: whom, which effect, where (keys, put in words
    when shown)."""
    events = (
        encounter.events.standing()
        .of_kind(ATTACK_EVENT, EFFECT_EVENT, ATTACK_FATIGUE_EVENT)
        .order_by("-sequence")
    )
    return [
        {"target": pending["target"], "effect": pending["effect"], "location": pending["location"]}
        for pending in pending_effects(events)
    ]


@transaction.atomic
def aethoria_effect(
    *, encounter_id: int, version: int | None, by, event_id: int, blow: int, confirm: bool
) -> Event:
    """The GM confirms (or dismisses) the severe effect an attack proposed."""
    encounter = lock_encounter(encounter_id, version)
    require_status(encounter, Status.RUNNING, Status.PAUSED)
    attack = encounter.events.standing().filter(pk=event_id, kind=ATTACK_EVENT).first()
    blows = current_blows(encounter, attack) if attack else []
    if attack is None or not 0 <= blow < len(blows):
        raise EncounterError(gettext("Aucun effet grave à décider pour ce coup."), "event")
    effect = blows[blow].get("severe", aethoria.NO_EFFECT)
    already = (
        encounter.events.standing()
        .filter(kind=EFFECT_EVENT, data__of=attack.sequence, data__blow=blow)
        .exists()
    )
    if effect == aethoria.NO_EFFECT or already:
        raise EncounterError(gettext("Cet effet a déjà été décidé."), "event")
    if attack.target_id is None:
        raise EncounterError(gettext("Ce combattant ne fait plus partie de la rencontre."), "event")
    target = combatant_of(encounter, attack.target_id)
    house = encounter.campaign.house()
    location = blows[blow]["outcome"]["location"]
    step = Step(encounter, EFFECT_EVENT, by, actor=target, public=attack.public)
    if confirm:
        state = FighterState.of(target)
        if effect == aethoria.BLEEDING:
            step.set(target, "state", replace(state, bleeding=True).to_json())
        elif effect == aethoria.FRACTURE:
            # The label is the French text, for anything that reads the state without a
            # viewer; the console shows the kind and location in the viewer's language.
            label = f"fracture : {WORDS.get(location, location.replace('_', ' '))}"
            fracture = {"kind": effect, "location": location, "label": label}
            effects = (*state.effects, fracture)
            step.set(target, "state", replace(state, effects=effects).to_json())
        elif effect == aethoria.INSTANT_DEATH:
            sheet = target.character.aethoria
            death = -house.death_threshold_factor * sheet.vitalite
            step.set(sheet, "pv", min(sheet.pv, death))
    return step.commit(
        {
            "of": attack.sequence,
            "blow": blow,
            "confirm": confirm,
            "effect": effect,
            "location": location,
            "target": target.character.name,
        }
    )


def current_blows(encounter: Encounter, attack: Event) -> list[dict]:
    """The attack's blows as its latest fatigue-after-the-roll revision resolved them."""
    revision = (
        encounter.events.standing()
        .filter(kind=ATTACK_FATIGUE_EVENT, data__of=attack.sequence)
        .order_by("-sequence")
        .first()
    )
    return (revision or attack).data.get("blows", [])
