"""Roll requests (issue #31): the GM's console sends a roll of a PC to its player, who answers
from the table view on their phone.

A request lives in the framework's slot on the fighter (``Combatant.request``), written only
through ``Step.set``: opening it is a step, and so is answering it — the answer, what the
player spends and every consequence of the roll in the one step the system's own service
makes (``close_request`` inside it), so the GM's one undo takes all of it back and reopens
the request. A request carries a random id: an answer names it, and an answer to a request
that is no longer the open one (answered, taken over, cancelled, undone) is refused in French
and changes nothing.

Initiative is the framework's own (its rule is the system's ``initiative_order``): the answer
keeps the player's face on the request, and the step that rolls the initiative (the start,
a new round) takes it as a typed face and closes the request.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from django.db import transaction
from django.utils.translation import gettext as _

from apps.campaigns.models import Role
from apps.rules.dice import check_face
from apps.rules.errors import RulesError
from apps.systems import get_system, system_of

from .models import Combatant, DiceSource, Encounter, Event, Status
from .steps import EncounterError, Step, lock_encounter, lock_fight, require_status

INITIATIVE = "initiative"
DEFENCE = "defence"
ATTACK = "attack"
TEST = "test"
KINDS = (INITIATIVE, DEFENCE, ATTACK, TEST)


def kind_label(kind: str) -> str:
    return {
        INITIATIVE: _("son initiative"),
        DEFENCE: _("sa défense"),
        ATTACK: _("son attaque"),
        TEST: _("son test"),
    }.get(kind, kind)


def open_request(step: Step, combatant: Combatant, kind: str, **data) -> dict:
    """Open a request of ``kind`` for the fighter's player, as part of ``step``."""
    if not combatant.character.has_player:
        raise EncounterError(
            _("%(name)s n'a pas de joueur : le MJ lance pour lui.")
            % {"name": combatant.character.name}
        )
    request = {"id": secrets.token_hex(8), "kind": kind, "round": step.encounter.round, **data}
    step.set(combatant, "request", request)
    return request


def close_request(step: Step, combatant: Combatant) -> None:
    """The fighter's request is answered, taken over or cancelled, as part of ``step``."""
    step.set(combatant, "request", {})


def check_open(combatant: Combatant, request_id: str, kind: str | None = None) -> dict:
    """The fighter's open request named ``request_id``; refused in French otherwise (the GM
    took over, cancelled or undid it, or it was answered already)."""
    request = combatant.request or {}
    if not request_id or request.get("id") != request_id or request.get("face"):
        raise EncounterError(
            _(
                "Cette demande n'est plus ouverte (le MJ a lancé à ta place, l'a annulée "
                "ou a annulé son coup) : rien n'a changé."
            ),
            "request",
        )
    if kind is not None and request.get("kind") != kind:
        raise EncounterError(_("Cette demande n'est pas de ce genre."), "request")
    return request


def check_answerer(encounter, combatant: Combatant, by, *, take_over: bool = False) -> None:
    """Only the fighter's own player answers its request; the GM may roll in their place.
    ``encounter.role``: the viewer's, read in the lock query (``lock_fight(member=...)``)."""
    if take_over:
        if getattr(encounter, "role", None) != Role.GM:
            raise EncounterError(_("Seul le MJ lance à la place d'un joueur."), "request")
        return
    if combatant.character.owner_id != by.pk:
        raise EncounterError(
            _("Ce personnage n'est pas le tien : tu ne réponds qu'aux demandes du tien."),
            "request",
        )


@transaction.atomic
def request_answer_initiative(
    *,
    encounter_id: int,
    by,
    combatant_id: int,
    request_id: str,
    face: int | None,
    take_over: bool = False,
) -> Event:
    """The player's initiative die (typed from a physical die, or rolled by the app), kept
    on the request until the step that rolls the initiative takes it."""
    system = _system_of_encounter(encounter_id)
    fight = lock_fight(encounter_id, [combatant_id], system=system, member=by)
    if fight is None:
        raise EncounterError(_("Ce combattant ne fait pas partie de la rencontre."), "request")
    encounter, combatant = fight.encounter, fight.fighters[combatant_id]
    check_answerer(encounter, combatant, by, take_over=take_over)
    check_open(combatant, request_id, INITIATIVE)
    require_status(encounter, Status.PREPARING, Status.RUNNING, Status.PAUSED)
    step = Step(encounter, "request_answer", by, actor=combatant, public=not combatant.hidden)
    return step.commit(answer_initiative(step, combatant, face))


def _system_of_encounter(encounter_id: int):
    code = (
        Encounter.objects.filter(pk=encounter_id).values_list("campaign__system", flat=True).first()
    )
    if code is None:
        raise EncounterError(_("Ce combattant ne fait pas partie de la rencontre."), "request")
    return get_system(code)


def waiting(combatants: Sequence[Combatant]) -> list[tuple[Combatant, dict]]:
    """The fighters whose player is asked a roll, with the request (answered initiatives
    included: the next roll of the initiative takes their face)."""
    return [(c, c.request) for c in combatants if c.request]


def typed_initiative(step: Step, combatants: Sequence[Combatant]) -> dict[int, int]:
    """The initiative faces the players answered, by fighter, their requests closed by the
    step that rolls the initiative; unanswered initiative requests close too (the app rolls
    for them, or the faces the GM typed)."""
    faces = {}
    for combatant in combatants:
        request = combatant.request or {}
        if request.get("kind") != INITIATIVE:
            continue
        if request.get("face"):
            faces[combatant.pk] = request["face"]
        close_request(step, combatant)
    return faces


def close_turn_requests(step: Step, combatants: Sequence[Combatant]) -> None:
    """The turn passes: a defence, an attack or a test still asked belongs to the turn that
    ends (its attacker acts no more), so it closes with the step that passes it."""
    for combatant in combatants:
        if (combatant.request or {}).get("kind") in (DEFENCE, ATTACK, TEST):
            close_request(step, combatant)


# --- Initiative requests -----------------------------------------------------------------------


def _initiative_rolled_next(encounter, house) -> bool:
    """Whether the next step rolls initiative: the start, or a new round whose initiative
    is rolled again."""
    if encounter.status == Status.PREPARING:
        return True
    system = system_of(encounter.campaign)
    return encounter.status == Status.RUNNING and system.initiative_each_round(
        encounter.round + 1, house
    )


@transaction.atomic
def request_initiative(*, encounter_id: int, version: int | None, by) -> Event:
    """The GM asks every PC's player for their initiative die, for the next roll of the
    initiative (the start, or the next round)."""
    encounter = lock_encounter(encounter_id, version, by=by)
    require_status(encounter, Status.PREPARING, Status.RUNNING)
    house = encounter.campaign.house()
    if not _initiative_rolled_next(encounter, house):
        raise EncounterError(_("L'initiative n'est pas relancée au prochain round."))
    step = Step(encounter, "request_initiative", by)
    asked = []
    for combatant in _present_with_sheets(encounter):
        character = combatant.character
        if character.has_player and not combatant.request:
            open_request(step, combatant, INITIATIVE)
            asked.append({"combatant": combatant.pk, "name": character.name})
    if not asked:
        raise EncounterError(_("Aucun joueur à qui demander son initiative."))
    return step.commit({"asked": asked, "kind": INITIATIVE})


def _present_with_sheets(encounter) -> list[Combatant]:
    return list(
        encounter.combatants.filter(present=True)
        .select_related("character")
        .only(
            "request",
            "encounter_id",
            "hidden",
            "character__name",
            "character__kind",
            "character__owner_id",
        )
    )


def answer_initiative(step: Step, combatant: Combatant, face: int | None) -> dict:
    """The player's initiative die, kept on the request for the step that rolls it."""
    system = system_of(step.encounter.campaign)
    request = combatant.request
    if face is None:
        face, step.dice = secrets.randbelow(system.initiative_sides) + 1, DiceSource.APP
    else:
        try:
            check_face(face, system.initiative_sides, field="face")
        except RulesError as error:
            raise EncounterError(
                _("Un d%(sides)s donne de 1 à %(sides)s.") % {"sides": system.initiative_sides},
                "face",
            ) from error
        step.dice = DiceSource.PHYSICAL
    step.set(combatant, "request", {**request, "face": face, "dice": step.dice})
    return {"name": combatant.character.name, "face": face, "kind": INITIATIVE}


@transaction.atomic
def request_cancel(*, encounter_id: int, version: int | None, by, combatant_id: int) -> Event:
    """The GM cancels the request of one fighter: the GM rolls it at the console."""
    encounter = lock_encounter(encounter_id, version, fighters=False, by=by)
    combatant = encounter.combatants.select_related("character").filter(pk=combatant_id).first()
    if combatant is None or not combatant.request:
        raise EncounterError(_("Aucune demande en cours pour ce combattant."))
    step = Step(encounter, "request_cancel", by, actor=combatant, public=not combatant.hidden)
    kind = combatant.request.get("kind", "")
    close_request(step, combatant)
    return step.commit({"name": combatant.character.name, "kind": kind})
