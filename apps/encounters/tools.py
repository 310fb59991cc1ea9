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

from . import conditions
from .conditions import MAX_MODIFIER, Condition, ConditionChoice, ConditionType
from .copies import copies_made
from .models import Combatant, DiceSource, Encounter, Event, Status
from .services import MAX_COPIES, acting_combatant, combatant_of, load_combatants
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
    bonuses = conditions.initiative_bonuses(system, everyone)
    ruled = system.initiative_order(everyone, faces, draws, encounter.campaign.house(), bonuses)
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
    combatant = combatant_of(encounter, combatant_id)
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


# --- Conditions ------------------------------------------------------------------------------


def condition_type(encounter: Encounter, kind: str) -> ConditionType | None:
    """The entry ``kind`` of the fight's system's list (None for free text)."""
    if not kind:
        return None
    house = encounter.campaign.house()
    entry = {t.key: t for t in system_of(encounter.campaign).condition_catalogue(house)}.get(kind)
    if entry is None:
        raise EncounterError(_("Cet état n'est pas dans la liste de ce système."), "kind")
    return entry


@transaction.atomic
def condition_put(*, encounter_id: int, version: int | None, by, choice: ConditionChoice) -> Event:
    """The GM puts a condition on a fighter: it lasts as chosen, weighs on the odds of the
    rolls its modifiers name, and its end is a line of the log (an undoable step)."""
    encounter = lock_encounter(encounter_id, version, fighters=False)
    require_status(encounter, *LIVE)
    fighters = load_combatants(encounter, gear=False)
    bearer = _fighter(fighters, choice.combatant_id, "combatant")
    acting = acting_combatant(encounter, fighters)
    source = _fighter(fighters, choice.source_id, "source") if choice.source_id else acting
    entry = condition_type(encounter, choice.kind)
    condition = _condition(encounter, choice, entry, bearer, source, acting)
    public = condition.public and not bearer.hidden
    step = Step(encounter, "condition_put", by, target=bearer, public=public)
    placed = conditions.add_condition(step, bearer, condition)
    names = {c.pk: c.character.name for c in fighters}
    return step.commit(
        {
            "combatant": bearer.pk,
            "name": bearer.character.name,
            "condition": placed.to_json(),
            "turn_of_name": names.get(placed.turn_of, ""),
        }
    )


def _fighter(fighters: list[Combatant], pk: int | None, field: str) -> Combatant:
    found = next((c for c in fighters if c.pk == pk), None)
    if found is None:
        raise EncounterError(_("Ce combattant ne fait pas partie de la rencontre."), field)
    return found


def _condition(
    encounter: Encounter,
    choice: ConditionChoice,
    entry: ConditionType | None,
    bearer: Combatant,
    source: Combatant | None,
    acting: Combatant | None,
) -> Condition:
    """The condition as the slot keeps it, each choice checked (EncounterError by field)."""
    label = choice.label.strip() or (entry.label if entry else "")
    if not label:
        raise EncounterError(_("Nommez l'état, ou choisissez-le dans la liste."), "label")
    if len(label) > 40:
        raise EncounterError(_("40 caractères au plus."), "label")
    ends, turn_of, round_ = _ending(encounter, choice, entry, bearer, source)
    # The list's modifiers, each replaced by the one the GM typed for that roll (0 clears).
    modifiers = {**(entry.modifiers if entry else {}), **(choice.modifiers or {})}
    rolls = system_of(encounter.campaign).condition_rolls
    for roll, value in modifiers.items():
        if roll not in rolls or not -MAX_MODIFIER <= value <= MAX_MODIFIER:
            message = _("Un modificateur va de −%(max)s à +%(max)s.") % {"max": MAX_MODIFIER}
            raise EncounterError(message, f"mod_{roll}")
    # Ended by a turn that is under way: that end does not count ("its next turn").
    skip = int(ends == conditions.TURN_END and acting is not None and turn_of == acting.pk)
    public = choice.public
    if public is None:
        # Players see what a PC bears, and a listed condition on a fighter they see; the
        # GM's own words on an NPC stay the GM's.
        public = bearer.character.is_pc or entry is not None
    return Condition(
        label=label,
        key=entry.key if entry else "",
        ends=ends,
        turn_of=turn_of,
        round=round_,
        skip=skip,
        modifiers={roll: value for roll, value in modifiers.items() if value},
        placed_by=source.pk if source else None,
        public=public,
        reminder=(choice.reminder.strip() or (entry.reminder if entry else ""))[:120],
    )


def _ending(encounter, choice, entry, bearer, source) -> tuple[str, int | None, int | None]:
    """When it ends: (ends, the fighter whose turn ends it, the round whose start ends it)."""
    if choice.duration is None:
        ends, whose = (entry.ends, entry.whose) if entry else (conditions.REMOVED, None)
        rounds = choice.rounds or (entry.rounds if entry else 1)
    elif choice.duration in conditions.DURATIONS:
        (ends, whose), rounds = conditions.DURATIONS[choice.duration], choice.rounds
    else:
        raise EncounterError(_("Durée inconnue."), "duration")
    if ends == conditions.ROUNDS:
        if rounds is None or not 1 <= rounds <= conditions.MAX_ROUNDS:
            message = _("De 1 à %(max)s rounds.") % {"max": conditions.MAX_ROUNDS}
            raise EncounterError(message, "rounds")
        return ends, None, encounter.round + rounds
    if ends in (conditions.TURN_START, conditions.TURN_END):
        holder = bearer if whose == conditions.BEARER else source
        if holder is None:
            raise EncounterError(
                _("Personne n'agit maintenant : choisissez qui l'a causé."), "source"
            )
        return ends, holder.pk, None
    return ends, None, None


@transaction.atomic
def condition_remove(
    *, encounter_id: int, version: int | None, by, combatant_id: int, condition_id: int
) -> Event:
    """The GM takes a condition off a fighter (undoable: undo puts it back as it was)."""
    encounter = lock_encounter(encounter_id, version, fighters=False)
    require_status(encounter, *LIVE)
    bearer = combatant_of(encounter, combatant_id)
    step = Step(encounter, "condition_remove", by, target=bearer)
    gone = conditions.remove_condition(step, bearer, condition_id)
    if gone is None:
        raise EncounterError(
            _("Cet état n'est plus sur %(name)s.") % {"name": bearer.character.name}, "condition"
        )
    step.public = gone.public and not bearer.hidden
    return step.commit({"combatant": bearer.pk, "name": bearer.character.name, "label": gone.label})
