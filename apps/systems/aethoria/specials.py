"""Aethoria special actions that take the turn without a roll (défense, préparer, viser, move,
other), firing a prepared action, and losing an aim.
"""

from __future__ import annotations

from dataclasses import replace

from django.db import transaction
from django.utils.translation import gettext

from apps.encounters.kit import (
    EncounterError,
    Step,
    acting_combatant,
    combatant_of,
    combatants_of,
    is_dead,
    is_out,
    lock_and_refresh_pools,
    lock_encounter,
    require_status,
)
from apps.encounters.models import Combatant, Encounter, Event, Status
from apps.rules import aethoria
from apps.rules.errors import RulesError

from .events import ACTION_EVENT, AIM_LOST_EVENT, FIRE_EVENT
from .fighters import pick_combatant, rules_refusal, turn_state_after
from .state import (
    PREPARED_ATTACK,
    PREPARED_KINDS,
    PREPARED_OTHER,
    PREPARED_SPELL,
    FighterState,
    Fired,
)
from .turns import aethoria_turn_state

# The special actions that take the turn without a roll.
SPECIAL_ACTIONS = (aethoria.DEFENSE, aethoria.PREPARER, aethoria.VISER, aethoria.MOVE, "other")


def fired_kind(combatant: Combatant) -> str:
    """What the fired prepared action is."""
    fired = FighterState.of(combatant).fired
    return fired.kind if fired else PREPARED_ATTACK


def has_fired(encounter: Encounter, combatant: Combatant, kind: str | None = None) -> bool:
    """Its prepared action was fired this turn and not used yet (as ``kind``, if given)."""
    return FighterState.of(combatant).has_fired(encounter.round, encounter.turn, kind)


def without_fired(combatant: Combatant) -> dict:
    """Its stored state once the fired action has taken place."""
    return replace(FighterState.of(combatant), fired=None).to_json()


def check_actor(
    encounter: Encounter,
    combatants: list[Combatant],
    combatant_id: int,
    kind: str = PREPARED_ATTACK,
    field: str = "attacker",
) -> None:
    """The acting combatant, or one whose prepared ``kind`` of action was just fired."""
    acting = acting_combatant(encounter, combatants)
    if acting is not None and acting.pk == combatant_id:
        return
    fired = next((c for c in combatants if c.pk == combatant_id), None)
    if fired is not None and has_fired(encounter, fired, kind):
        return
    raise EncounterError(gettext("Ce n'est pas son tour d'agir."), field)


@transaction.atomic
def aethoria_special(
    *,
    encounter_id: int,
    version: int | None,
    by,
    combatant_id: int,
    action: str,
    target_id: int | None = None,
    description: str = "",
    trigger: str = "",
    note: str = "",
    prepared_kind: str = PREPARED_ATTACK,
    combatants: list[Combatant] | None = None,
) -> Event:
    """Défense, préparer, viser, se déplacer or another action: the turn's one action.

    ``combatants``: the fight as the console loaded it, as for an attack (the version proves
    no step happened since; the pools of the actor and its target are read again)."""
    encounter = lock_encounter(encounter_id, version, fighters=False)
    require_status(encounter, Status.RUNNING)
    if combatants is None:
        combatants = combatants_of(encounter)
    lock_and_refresh_pools(encounter, combatants, combatant_id, target_id)
    acting = acting_combatant(encounter, combatants)
    if acting is None or acting.pk != combatant_id:
        raise EncounterError(gettext("Ce n'est pas son tour d'agir."), "combatant")
    if action not in SPECIAL_ACTIONS:
        raise EncounterError(gettext("Action inconnue."), "action")
    target = (
        _aim_target(encounter, combatants, acting, target_id) if action == aethoria.VISER else None
    )
    if action == "other" and not note.strip():
        raise EncounterError(gettext("Décrivez l'action."), "note")
    extra = {}
    if action == aethoria.PREPARER:
        extra["prepared_kind"] = _prepared_kind(acting, prepared_kind)
    try:
        after, _bonus = aethoria_turn_state(acting).act(
            aethoria.OTHER if action == "other" else action,
            target=target.pk if target else None,
            description=description,
            trigger=trigger,
        )
    except RulesError as error:
        raise rules_refusal(error) from error
    step = Step(encounter, ACTION_EVENT, by, actor=acting, target=target)
    step.public = not acting.hidden
    step.set(acting, "state", turn_state_after(acting, after, **extra))
    return step.commit(
        {
            "name": acting.character.name,
            "action": action,
            "target": target.character.name if target else "",
            "description": description.strip(),
            "trigger": trigger.strip(),
            "note": note.strip(),
            **extra,
        }
    )


def _aim_target(encounter, combatants, acting: Combatant, target_id: int | None) -> Combatant:
    """Viser watches another living fighter of the fight."""
    if not target_id:
        raise EncounterError(gettext("Viser demande une cible à portée."), "target")
    target = pick_combatant(encounter, combatants, target_id, "target")
    if target.pk == acting.pk:
        raise EncounterError(gettext("Un combattant ne se vise pas lui-même."), "target")
    if is_dead(target, encounter.campaign.house()):
        raise EncounterError(
            gettext("%(name)s est déjà mort.") % {"name": target.character.name}, "target"
        )
    return target


def _prepared_kind(acting: Combatant, kind: str) -> str:
    """What is prepared: an attack, a spell (a doué's only: a marqué prays for minutes
    first), or another action told in words."""
    if kind not in PREPARED_KINDS:
        raise EncounterError(gettext("Choisissez ce qui est préparé."), "prepared_kind")
    if kind == PREPARED_SPELL:
        try:
            aethoria.check_can_cast_in_combat(acting.character.aethoria.magic_type)
        except RulesError as error:
            raise rules_refusal(error, "prepared_kind") from error
    return kind


@transaction.atomic
def aethoria_fire(*, encounter_id: int, version: int | None, by, combatant_id: int) -> Event:
    """The trigger happened: the prepared action takes place now, out of turn."""
    encounter = lock_encounter(encounter_id, version)
    require_status(encounter, Status.RUNNING)
    combatant = combatant_of(encounter, combatant_id)
    if is_out(combatant, encounter.campaign.house()):
        raise EncounterError(
            gettext("%(name)s est hors de combat.") % {"name": combatant.character.name},
            "combatant",
        )
    try:
        after, prepared = aethoria_turn_state(combatant).fire_prepared()
    except RulesError as error:
        raise rules_refusal(error, "combatant") from error
    state = FighterState.of(combatant)
    kind = state.prepared_kind or PREPARED_ATTACK
    fired = None
    if kind != PREPARED_OTHER:
        # An attack or a spell still has its dice to roll: its form shows for this turn.
        fired = Fired(round=encounter.round, turn=encounter.turn, kind=kind)
    step = Step(encounter, FIRE_EVENT, by, actor=combatant, public=not combatant.hidden)
    step.set(combatant, "state", state.with_turn(after, prepared_kind="", fired=fired).to_json())
    return step.commit(
        {
            "name": combatant.character.name,
            "description": prepared.description,
            "trigger": prepared.trigger,
            "kind": kind,
        }
    )


@transaction.atomic
def aethoria_lose_aim(*, encounter_id: int, version: int | None, by, combatant_id: int) -> Event:
    """Viser: the watched target got out of reach, so the aim bonus is lost."""
    encounter = lock_encounter(encounter_id, version)
    require_status(encounter, Status.RUNNING)
    combatant = combatant_of(encounter, combatant_id)
    state = aethoria_turn_state(combatant)
    if state.aim_target is None:
        raise EncounterError(
            gettext("%(name)s ne vise personne.") % {"name": combatant.character.name},
            "combatant",
        )
    target = encounter.combatants.filter(pk=state.aim_target).select_related("character").first()
    step = Step(encounter, AIM_LOST_EVENT, by, actor=combatant, target=target)
    step.public = not combatant.hidden
    step.set(combatant, "state", turn_state_after(combatant, state.lose_aim()))
    return step.commit(
        {
            "name": combatant.character.name,
            "target": target.character.name if target else "",
        }
    )
