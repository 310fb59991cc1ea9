"""The GM's tools while a fight runs: reinforcements, a fighter taken out, a pool set by hand.

Each one is a step, logged and undone like the others. Steps change fields and never create
or delete rows: a reinforcement's row is made out of the fight (``present`` false) and the
step brings it in; a fighter taken out of the fight is only marked so. Undo writes the flag
(and the order, and the turn) back. The one exception: NPC copies made for a reinforcement
leave the campaign with its undo and come back with its redo (``copies.py``).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from django.db import transaction
from django.utils.translation import gettext as _

from apps.characters.models import Character
from apps.characters.services import npc_copy
from apps.rules.dice import SecureDice
from apps.systems import system_of

from .copies import copies_made
from .models import Combatant, DiceSource, Encounter, Event, Status
from .services import MAX_COPIES, _combatant, acting_combatant, load_combatants
from .steps import EncounterError, Step, lock_and_refresh_pools, lock_encounter, require_status

LIVE = (Status.RUNNING, Status.PAUSED)


class _KeptDraws:
    """Tie draws for the initiative rule: the stored one of a fighter already in the order,
    a new one for a newcomer (handed out in the order the system asks for them)."""

    def __init__(self, combatants: Sequence[Combatant], newcomers: set[int]):
        self._queue = [None if c.pk in newcomers else c.tie_draw for c in combatants]
        self._fresh = SecureDice()

    def draw(self) -> int:
        stored = self._queue.pop(0) if self._queue else None
        return self._fresh.draw() if stored is None else stored


def _place_newcomers(
    step: Step, present: list[Combatant], newcomers: list[Combatant], typed=None
) -> list:
    """Roll the newcomers' initiative (app dice, or the faces ``typed`` from physical dice,
    one per newcomer in their order) and give everyone a place: the system's rule
    sorts the whole fight (the others with their stored faces and draws), then those already
    there keep the order they had, the newcomers taking the places the rule gave them. The
    acting fighter keeps its turn: a newcomer placed before it acts from the next round."""
    encounter = step.encounter
    system = system_of(encounter.campaign)
    acting = acting_combatant(encounter, present)
    everyone = [*present, *newcomers]
    new_pks = {c.pk for c in newcomers}
    faces = {c.pk: c.initiative_roll or 1 for c in present}
    if typed is None:
        typed = [secrets.randbelow(system.initiative_sides) + 1 for _c in newcomers]
    faces.update({c.pk: face for c, face in zip(newcomers, typed, strict=True)})
    draws = _KeptDraws(everyone, new_pks)
    ruled = system.initiative_order(everyone, faces, draws, encounter.campaign.house())
    by_pk = {c.pk: c for c in everyone}
    kept = iter(present)
    rolls = {roll.combatant_id: roll for roll in ruled}
    order = [by_pk[r.combatant_id] if r.combatant_id in new_pks else next(kept) for r in ruled]
    for position, combatant in enumerate(order):
        step.set(combatant, "position", position)
        if combatant.pk in new_pks:
            roll = rolls[combatant.pk]
            step.set(combatant, "initiative", roll.total)
            step.set(combatant, "initiative_roll", roll.roll)
            step.set(combatant, "tie_draw", roll.draw)
    if acting is not None:
        step.set(encounter, "turn", order.index(acting))
    return [{"combatant": c.pk, "name": c.character.name, "total": c.initiative} for c in newcomers]


def _newcomers(
    encounter: Encounter, characters: Sequence[Character], template, count: int, hidden: bool
) -> tuple[list[Combatant], list[int]]:
    """The rows of the arriving fighters, still out of the fight (the step brings them in):
    a character taken out earlier comes back on its own row. With them, the characters
    copied for them (an undo takes those out of the campaign)."""
    copies: list[Character] = []
    for character in characters:
        if character.campaign_id != encounter.campaign_id or character.is_template:
            raise EncounterError(_("Ce personnage ne peut pas rejoindre ce combat."), "character")
    if template is not None:
        if template.campaign_id != encounter.campaign_id or template.is_pc:
            raise EncounterError(_("Ce modèle n'est pas un PNJ de cette campagne."), "template")
        if not 1 <= count <= MAX_COPIES:
            raise EncounterError(
                _("Entre 1 et %(max)s PNJ à la fois.") % {"max": MAX_COPIES}, "count"
            )
        copies = npc_copy(template=template, count=count)
        characters = [*characters, *copies]
    if not characters:
        raise EncounterError(_("Choisissez un personnage ou un modèle de PNJ."), "character")
    rows = {c.character_id: c for c in encounter.combatants.filter(character__in=characters)}
    if any(row.present for row in rows.values()):
        raise EncounterError(_("Ce personnage est déjà dans le combat."), "character")
    fresh = [
        Combatant(encounter=encounter, character=c, hidden=hidden, present=False)
        for c in characters
        if c.pk not in rows
    ]
    Combatant.objects.bulk_create(fresh)
    return list(rows.values()) + fresh, [c.pk for c in copies]


@transaction.atomic
def encounter_reinforce(
    *,
    encounter_id: int,
    version: int | None,
    by,
    characters: Sequence[Character] = (),
    template: Character | None = None,
    count: int = 0,
    hidden: bool = False,
    faces: Sequence[int] | None = None,
) -> Event:
    """Fighters join the running fight: characters of the campaign, or ``count`` copies of
    an NPC; they enter the order by the system's initiative rule (``faces``: their
    initiative dice typed from physical dice, in the order they arrive)."""
    encounter = lock_encounter(encounter_id, version, fighters=False)
    require_status(encounter, *LIVE)
    present = load_combatants(encounter, gear=False)
    made, copies = _newcomers(encounter, characters, template, count, hidden)
    arriving = load_combatants_by_pk(encounter, [c.pk for c in made])
    system = system_of(encounter.campaign)
    if faces is not None and len(faces) != len(arriving):
        raise EncounterError(_("Une face d'initiative par arrivant."), "faces")
    dice = DiceSource.APP if faces is None else DiceSource.PHYSICAL
    step = Step(encounter, "reinforce", by, dice=dice)
    step.public = not all(c.hidden for c in arriving)
    for combatant in arriving:
        step.set(combatant, "present", True)
        step.set(combatant, "hidden", hidden)
        step.set(combatant, "state", system.fresh_state())
    rows = _place_newcomers(step, present, _arrival_order(arriving, characters), faces)
    return step.commit({"arrivals": rows, **copies_made(encounter, copies)})


def _arrival_order(arriving: list[Combatant], characters: Sequence[Character]) -> list:
    """The arrivals in the order the GM's faces name them: the character first, then the
    copies in their numbering (made in that order)."""
    first = {c.pk for c in characters}
    return sorted(arriving, key=lambda c: (c.character_id not in first, c.character_id))


def load_combatants_by_pk(encounter: Encounter, pks: list[int]) -> list[Combatant]:
    """These combatants of the fight with their sheets (the initiative rule reads them)."""
    sheet = f"character__{system_of(encounter.campaign).sheet_name}"
    combatants = list(encounter.combatants.select_related(sheet).filter(pk__in=pks).order_by("pk"))
    for combatant in combatants:
        combatant.character.campaign = encounter.campaign  # the same for all: not read again
    return combatants


@transaction.atomic
def combatant_withdraw(*, encounter_id: int, version: int | None, by, combatant_id: int) -> Event:
    """A fighter leaves the running fight (fled, sent away): out of the order, undoable."""
    encounter = lock_encounter(encounter_id, version, fighters=False)
    require_status(encounter, *LIVE)
    present = load_combatants(encounter, gear=False)
    leaving = next((c for c in present if c.pk == combatant_id), None)
    if leaving is None:
        raise EncounterError(_("Ce combattant ne fait pas partie de la rencontre."), "combatant")
    acting = acting_combatant(encounter, present)
    if acting is not None and acting.pk == leaving.pk:
        raise EncounterError(
            _("C'est son tour : passez au suivant avant de le retirer."), "combatant"
        )
    if len(present) <= 2:
        raise EncounterError(_("Un combat garde au moins deux combattants."), "combatant")
    step = Step(encounter, "withdraw", by, actor=leaving, public=not leaving.hidden)
    step.set(leaving, "present", False)
    staying = [c for c in present if c.pk != leaving.pk]
    for position, combatant in enumerate(staying):
        step.set(combatant, "position", position)
    if acting is not None:
        step.set(encounter, "turn", staying.index(acting))
    return step.commit({"name": leaving.character.name})


@transaction.atomic
def combatant_correct_pool(
    *,
    encounter_id: int,
    version: int | None,
    by,
    combatant_id: int,
    pool: str,
    value: int,
    reason: str,
) -> Event:
    """The GM sets one pool of a fighter by hand (a forgotten blow, a potion), with a reason."""
    encounter = lock_encounter(encounter_id, version, fighters=False)
    require_status(encounter, *LIVE)
    combatant = _combatant(encounter, combatant_id)
    lock_and_refresh_pools(encounter, [combatant], combatant.pk)
    system = system_of(encounter.campaign)
    sheet = getattr(combatant.character, system.sheet_name)
    fields = {f.name: f for f in system.correctable_pools(sheet, encounter.campaign.house())}
    field = fields.get(pool)
    if field is None:
        raise EncounterError(_("Cette réserve ne se corrige pas ici."), "pool")
    if not field.low <= value <= field.high:
        raise EncounterError(pool_range_message(field), "value")
    if not reason.strip():
        raise EncounterError(_("Dites pourquoi (le journal le gardera)."), "reason")
    before = getattr(sheet, pool)
    if before == value:
        raise EncounterError(_("C'est déjà sa valeur : rien à corriger."), "value")
    # An NPC's numbers never reach the players' screens: its correction is the GM's line.
    public = combatant.character.is_pc and not combatant.hidden
    step = Step(encounter, "correct", by, actor=combatant, public=public)
    step.set(sheet, pool, value)
    return step.commit(
        {
            "name": combatant.character.name,
            "pool": pool,
            "before": before,
            "after": value,
            "reason": reason.strip(),
        }
    )


def pool_range_message(field) -> str:
    return _("%(label)s : de %(low)s à %(high)s.") % {
        "label": field.label,
        "low": field.low,
        "high": field.high,
    }
