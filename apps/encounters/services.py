"""Encounter lifecycle: prepare, start, turns and rounds, pause, end, undo and redo.

What differs between systems (initiative, turn and round starts, pools) comes from the
campaign's ``GameSystem`` (``apps.systems``); each system's actions (attacks, tests,
spells...) live in its own folder. All of them go through ``steps.Step`` so every change
is recorded.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence

from django.db import transaction
from django.db.models import prefetch_related_objects
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from apps.campaigns.models import Campaign, LogEntry, LogKind
from apps.characters.models import Character
from apps.characters.services import npc_copy, xp_award
from apps.core.changes import write_back
from apps.core.refusals import rules_message
from apps.rules.dice import SecureDice, check_face
from apps.rules.errors import RulesError
from apps.systems import system_of

from . import conditions, lasting, requests
from .conditions import initiative_bonuses, merge_log
from .copies import COPIES, copies_leave, copies_return
from .fighters import is_dead, is_out
from .models import Combatant, DiceSource, Encounter, Event, Status
from .steps import (
    CHARACTER_TEXTS,
    EncounterError,
    Step,
    bump_version,
    check_not_changed_outside,
    follow_written,
    lock_encounter,
    require_status,
    shown_outside,
)

# Events that undo and redo never revert: they are the history of undo itself, or the
# baseline the encounter starts from.
NOT_UNDOABLE = {"start", "undo", "redo", "reopen"}
MAX_COPIES = 20


# --- Preparing -------------------------------------------------------------------------------


@transaction.atomic
def encounter_create(*, campaign: Campaign, name: str) -> Encounter:
    encounter = Encounter.objects.create(campaign=campaign, name=name.strip())
    campaign.touch()
    return encounter


@transaction.atomic
def combatants_add(
    *,
    encounter_id: int,
    characters: Sequence[Character],
    hidden: bool = False,
    version: int | None = None,
) -> list[Combatant]:
    """Add characters of the campaign to a fight being prepared (each at most once)."""
    encounter = lock_encounter(encounter_id, version)
    require_status(encounter, Status.PREPARING)
    present = set(encounter.combatants.values_list("character_id", flat=True))
    added = []
    for character in characters:
        if character.campaign_id != encounter.campaign_id:
            raise EncounterError(_("Ce personnage n'est pas de cette campagne."), "characters")
        if character.is_template:
            raise EncounterError(
                _("Un modèle de PNJ ne combat pas : créez des PNJ à partir de lui."), "characters"
            )
        if character.pk not in present:
            added.append(Combatant(encounter=encounter, character=character, hidden=hidden))
    Combatant.objects.bulk_create(added)
    bump_version(encounter)
    return added


@transaction.atomic
def combatants_from_template(
    *,
    encounter_id: int,
    template: Character,
    count: int,
    hidden: bool = False,
    version: int | None = None,
) -> list[Combatant]:
    """Make ``count`` NPCs from a template and add them to the fight being prepared."""
    encounter = lock_encounter(encounter_id, version)
    require_status(encounter, Status.PREPARING)
    if template.campaign_id != encounter.campaign_id or template.is_pc:
        raise EncounterError(_("Ce modèle n'est pas un PNJ de cette campagne."), "template")
    if not 1 <= count <= MAX_COPIES:
        raise EncounterError(_("Entre 1 et %(max)s PNJ à la fois.") % {"max": MAX_COPIES}, "count")
    added = [
        Combatant(encounter=encounter, character=npc, hidden=hidden)
        for npc in npc_copy(template=template, count=count)
    ]
    Combatant.objects.bulk_create(added)
    bump_version(encounter)
    return added


@transaction.atomic
def combatant_remove(*, encounter_id: int, combatant_id: int, version: int | None = None) -> None:
    encounter = lock_encounter(encounter_id, version)
    require_status(encounter, Status.PREPARING)
    encounter.combatants.filter(pk=combatant_id).delete()
    bump_version(encounter)


@transaction.atomic
def combatant_set_hidden(
    *, encounter_id: int, version: int | None, combatant_id: int, hidden: bool, by
) -> None:
    """Hide a combatant from the players, or reveal it (logged and undoable once running)."""
    encounter = lock_encounter(encounter_id, version)
    require_status(encounter, Status.PREPARING, Status.RUNNING, Status.PAUSED)
    combatant = combatant_of(encounter, combatant_id)
    if encounter.status == Status.PREPARING:
        combatant.hidden = hidden
        combatant.save(update_fields=["hidden"])
        bump_version(encounter)
        return
    step = Step(encounter, "reveal" if not hidden else "hide", by, actor=combatant)
    step.set(combatant, "hidden", hidden)
    step.commit({"name": combatant.character.name})


# --- Starting, turns, rounds -----------------------------------------------------------------


def load_combatants(encounter: Encounter, *, gear: bool = True) -> list[Combatant]:
    """The combatants in acting order with their sheets (fixed queries). ``gear`` also loads
    every sheet's weapons and specialties or skills; without it, ``prefetch_gear`` loads them
    for just the fighters a step involves (the rest of the list only shows names and pools)."""
    system = system_of(encounter.campaign)
    sheet = f"character__{system.sheet_name}"
    related = [f"{sheet}__{name}" for name in system.fighter_relations] or [sheet]
    combatants = list(
        encounter.combatants.filter(present=True)
        .select_related(*related)
        # A fight never shows a character's texts: leave them in the database.
        .defer(*(f"character__{name}" for name in CHARACTER_TEXTS))
        .order_by("position", "pk")
    )
    for combatant in combatants:
        # Every fighter belongs to the encounter's campaign: no need to read it 20 times.
        combatant.character.campaign = encounter.campaign
    if gear:
        prefetch_gear(encounter, combatants)
    return combatants


def prefetch_gear(encounter: Encounter, combatants: Sequence[Combatant | None]) -> None:
    """Load the gear of these combatants' sheets as their system lists it (weapons,
    specialties, armour, skills...), in a fixed number of queries; sheets already loaded
    are skipped."""
    system = system_of(encounter.campaign)
    sheets = [getattr(c.character, system.sheet_name) for c in combatants if c is not None]
    prefetch_related_objects(sheets, *system.gear_lookups())


def combatants_of(encounter: Encounter) -> list[Combatant]:
    """The fight as a start, a passed turn or an end reads it: names, pools and states, none
    of the sheets' gear (the answer's forms load the gear of the fighters they offer)."""
    return load_combatants(encounter, gear=False)


def combatant_of(encounter: Encounter, combatant_id: int | None) -> Combatant:
    """One fighter present in the fight, with its sheet (EncounterError when it is not)."""
    try:
        sheet = system_of(encounter.campaign).sheet_name
        return (
            encounter.combatants.filter(present=True)
            .select_related(f"character__{sheet}", "character__campaign")
            .get(pk=combatant_id)
        )
    except (Combatant.DoesNotExist, ValueError, TypeError):
        raise EncounterError(_("Ce combattant ne fait pas partie de la rencontre.")) from None


def _initiative_faces(
    combatants: Sequence[Combatant], typed: Mapping[int, int] | None, sides: int
) -> tuple[dict[int, int], str]:
    """Faces per combatant: those typed from physical dice, the others rolled by the app."""
    typed = {pk: face for pk, face in (typed or {}).items() if face is not None}
    faces = {}
    for combatant in combatants:
        if combatant.pk in typed:
            faces[combatant.pk] = check_face(
                typed[combatant.pk], sides, field=f"initiative_{combatant.pk}"
            )
        else:
            faces[combatant.pk] = secrets.randbelow(sides) + 1
    if not typed:
        source = DiceSource.APP
    elif len(typed) == len(combatants):
        source = DiceSource.PHYSICAL
    else:
        source = DiceSource.MIXED
    return faces, source


def _roll_initiative(
    step: Step, combatants: Sequence[Combatant], typed: Mapping[int, int] | None
) -> list[dict]:
    """Roll initiative per the system and set everyone's position; returns the rolls."""
    encounter = step.encounter
    system = system_of(encounter.campaign)
    # The faces the players answered from their phones, the GM's typed ones over them.
    answered = requests.typed_initiative(step, combatants)
    typed = {**answered, **{pk: f for pk, f in (typed or {}).items() if f is not None}}
    faces, step.dice = _initiative_faces(combatants, typed, system.initiative_sides)
    bonuses = initiative_bonuses(system, combatants)
    house = encounter.campaign.house()
    ordered = system.initiative_order(combatants, faces, SecureDice(), house, bonuses)
    by_pk = {c.pk: c for c in combatants}
    result = []
    for position, roll in enumerate(ordered):
        combatant = by_pk[roll.combatant_id]
        step.set(combatant, "position", position)
        step.set(combatant, "initiative", roll.total)
        step.set(combatant, "initiative_roll", roll.roll)
        step.set(combatant, "tie_draw", roll.draw)
        result.append(
            {
                "combatant": combatant.pk,
                "name": combatant.character.name,
                "roll": roll.roll,
                "total": roll.total,
            }
        )
    return result


@transaction.atomic
def encounter_start(
    *, encounter_id: int, version: int | None, by, initiative: Mapping[int, int] | None = None
) -> Event:
    """Roll initiative (typed faces where given) and open round 1."""
    encounter = lock_encounter(encounter_id, version)
    require_status(encounter, Status.PREPARING)
    combatants = combatants_of(encounter)
    if len(combatants) < 2:
        raise EncounterError(_("Il faut au moins deux combattants pour commencer."))
    step = Step(encounter, "start", by)
    # What the characters kept from their last fight weighs from the first roll on.
    lasting.bring_kept_conditions(step, combatants)
    try:
        rolls = _roll_initiative(step, combatants, initiative)
    except RulesError as error:
        raise EncounterError(rules_message(error), error.field) from error
    for combatant in combatants:
        step.set(combatant, "state", system_of(encounter.campaign).fresh_state())
    step.set(encounter, "status", Status.RUNNING)
    step.set(encounter, "round", 1)
    step.set(encounter, "turn", 0)
    encounter.started_at = timezone.now()
    encounter.save(update_fields=["started_at"])
    # The starting pools of everyone: with the changes of each later event, the whole fight
    # can be rebuilt from here.
    baseline = {c.pk: _sheet_values(c) for c in combatants}
    data = {"initiative": rolls, "baseline": baseline}
    data.update(_begin_turn(step, combatants))
    return step.commit(data)


def _sheet_values(combatant: Combatant) -> dict:
    """The pools a fight's summary compares with those it started with."""
    sheet = combatant.character.sheet
    fields = system_of(combatant.character.campaign).summary_pool_fields
    return {name: getattr(sheet, name) for name in fields}


def acting_combatant(encounter: Encounter, combatants: Sequence[Combatant]) -> Combatant | None:
    if encounter.status not in (Status.RUNNING, Status.PAUSED) or not combatants:
        return None
    return combatants[min(encounter.turn, len(combatants) - 1)]


@transaction.atomic
def encounter_next_turn(
    *, encounter_id: int, version: int | None, by, initiative: Mapping[int, int] | None = None
) -> Event:
    """Pass to the next combatant able to act; after the last one, a new round begins."""
    encounter = lock_encounter(encounter_id, version)
    require_status(encounter, Status.RUNNING)
    combatants = combatants_of(encounter)
    house = encounter.campaign.house()
    step = Step(encounter, "next_turn", by)
    requests.close_turn_requests(step, combatants)
    data: dict = {"from": encounter.turn}
    if encounter.turn < len(combatants):
        merge_log(data, conditions.turn_ends(step, combatants[encounter.turn], combatants))
    following = [
        index
        for index in range(encounter.turn + 1, len(combatants))
        if not is_out(combatants[index], house)
    ]
    # The fighters out of the fight whose turns the passing skips: some still bleed.
    skipped = combatants[encounter.turn + 1 : following[0] if following else None]
    if following:
        step.set(encounter, "turn", following[0])
    else:
        data.update(_new_round(step, combatants, house, initiative))
    combatants.sort(key=lambda c: (c.position, c.pk))
    if not following:
        skipped += combatants[: encounter.turn]
    for fighter in skipped:
        merge_log(data, conditions.turn_passes(step, fighter, combatants))
    data.update(system_of(encounter.campaign).skipped_turns(step, skipped))
    acting = combatants[encounter.turn]
    step.actor = acting
    step.public = not acting.hidden
    data["name"] = acting.character.name
    data.update(_begin_turn(step, combatants))
    event = step.commit(data)
    event.fight = combatants  # as the step left it: the answer draws from it, reads none
    return event


def _new_round(step: Step, combatants: list[Combatant], house, typed) -> dict:
    encounter = step.encounter
    system = system_of(encounter.campaign)
    step.set(encounter, "round", encounter.round + 1)
    data: dict = {"new_round": encounter.round}
    merge_log(data, conditions.round_starts(step, encounter.round, combatants))
    if system.initiative_each_round(encounter.round, house):
        data["initiative"] = _roll_initiative(step, combatants, typed)
    system.begin_round(step, combatants)
    combatants.sort(key=lambda c: (c.position, c.pk))
    first = next((i for i, c in enumerate(combatants) if not is_out(c, house)), 0)
    step.set(encounter, "turn", first)
    return data


def _begin_turn(step: Step, combatants: list[Combatant]) -> dict:
    """The acting combatant's turn starts: first what the framework keeps (the conditions
    it ends go, its reminders are said), then what its system does (in Aethoria its
    defences come back, bleeding costs PV...). Part of the step that passed the turn, so
    one undo steps back over all of it."""
    combatants.sort(key=lambda c: (c.position, c.pk))
    acting = combatants[step.encounter.turn]
    data = conditions.turn_starts(step, acting, combatants)
    data.update(system_of(step.encounter.campaign).begin_turn(step, combatants))
    return data


# --- Pause, resume, end ----------------------------------------------------------------------


@transaction.atomic
def encounter_pause(*, encounter_id: int, version: int | None, by) -> Event:
    encounter = lock_encounter(encounter_id, version, by=by)
    require_status(encounter, Status.RUNNING)
    step = Step(encounter, "pause", by)
    step.set(encounter, "status", Status.PAUSED)
    return step.commit()


@transaction.atomic
def encounter_resume(*, encounter_id: int, version: int | None, by) -> Event:
    encounter = lock_encounter(encounter_id, version, by=by)
    require_status(encounter, Status.PAUSED)
    step = Step(encounter, "resume", by)
    step.set(encounter, "status", Status.RUNNING)
    return step.commit()


@transaction.atomic
def encounter_award_xp(
    *, encounter_id: int, amount: int, reason: str, by, version: int | None = None
) -> None:
    """Give the PCs of a finished fight their XP in one step (a ledger line each)."""
    encounter = lock_encounter(encounter_id, version)
    require_status(encounter, Status.FINISHED)
    if encounter.summary.get("xp_awarded"):
        raise EncounterError(_("L'XP de ce combat a déjà été attribuée."), "amount")
    pcs = [c.character for c in combatants_of(encounter) if c.character.is_pc]
    if not pcs:
        raise EncounterError(_("Aucun PJ dans ce combat."), "amount")
    xp_award(campaign=encounter.campaign, characters=pcs, amount=amount, reason=reason, by=by)
    encounter.summary = {**encounter.summary, "xp_awarded": amount}
    encounter.save(update_fields=["summary"])
    bump_version(encounter)


@transaction.atomic
def encounter_end(*, encounter_id: int, version: int | None, by) -> Encounter:
    """Close the fight, write its summary and a line in the session log."""
    encounter = lock_encounter(encounter_id, version)
    require_status(encounter, Status.RUNNING, Status.PAUSED)
    combatants = combatants_of(encounter)
    summary = encounter_summary(encounter, combatants)
    step = Step(encounter, "end", by)
    step.set(encounter, "status", Status.FINISHED)
    step.commit({"summary": summary})
    encounter.ended_at = timezone.now()
    encounter.summary = summary
    encounter.save(update_fields=["ended_at", "summary"])
    LogEntry.objects.create(
        campaign=encounter.campaign,
        author=by,
        kind=LogKind.ENCOUNTER,
        text=summary_text(encounter, summary),
    )
    return encounter


@transaction.atomic
def encounter_reopen(*, encounter_id: int, version: int | None, by) -> Event:
    """Undo the end of a fight closed too soon: it runs again (or waits, if it was paused)
    at the same round and turn, and undo goes on from the step before the end. Refused once
    the fight's XP is given: ending it again would offer to give it twice."""
    encounter = lock_encounter(encounter_id, version, by=by)
    require_status(encounter, Status.FINISHED)
    if encounter.summary.get("xp_awarded"):
        raise EncounterError(
            _(
                "Ce combat a déjà donné son XP : annulez ces gains depuis le journal d'XP des "
                "fiches avant de le rouvrir."
            )
        )
    lasting.take_back_kept_conditions(encounter)
    end = encounter.events.standing().of_kind("end").order_by("-sequence").first()
    write_back(end.changes, "before")  # the status only: nothing outside the fight shares it
    end.undone = True
    end.save(update_fields=["undone"])
    encounter.refresh_from_db(fields=["status"])
    event = Step(encounter, "reopen", by, changed_outside=True).commit({"of": end.sequence})
    # The summary is written again when the fight ends again.
    Encounter.objects.filter(pk=encounter.pk).update(ended_at=None, summary={})
    LogEntry.objects.create(
        campaign=encounter.campaign,
        author=by,
        kind=LogKind.ENCOUNTER,
        text=_("Rencontre « %(name)s » rouverte.") % {"name": encounter.name},
    )
    return event


def encounter_summary(encounter: Encounter, combatants: Sequence[Combatant]) -> dict:
    """Who went down, damage taken and éclat/fatigue spent, from the start baseline; in
    Aethoria, the severe effects left undecided."""
    house = encounter.campaign.house()
    start = encounter.events.filter(kind="start").first()
    baseline = {int(pk): values for pk, values in (start.data["baseline"] if start else {}).items()}
    rows = []
    for combatant in combatants:
        before = baseline.get(combatant.pk, {})
        now = _sheet_values(combatant)
        rows.append(
            {
                "combatant": combatant.pk,
                "character": combatant.character_id,
                "name": combatant.character.name,
                "is_pc": combatant.character.is_pc,
                "down": is_out(combatant, house),
                "dead": is_dead(combatant, house),
                "lost": {k: before[k] - now[k] for k in now if k in before and before[k] > now[k]},
            }
        )
    summary = {"rounds": encounter.round, "combatants": rows}
    # The conditions still running, for the GM to keep on the character or drop.
    summary["conditions"] = [
        {
            "combatant": combatant.pk,
            "character": combatant.character_id,
            "name": combatant.character.name,
            "condition": condition,
        }
        for combatant in combatants
        for condition in combatant.conditions
    ]
    summary.update(system_of(encounter.campaign).summary_extras(encounter))
    return summary


def summary_text(encounter: Encounter, summary: dict) -> str:
    down = [row["name"] for row in summary["combatants"] if row["down"]]
    text = ngettext(
        "Rencontre « %(name)s » terminée après %(rounds)s round.",
        "Rencontre « %(name)s » terminée après %(rounds)s rounds.",
        summary["rounds"],
    ) % {"name": encounter.name, "rounds": summary["rounds"]}
    if down:
        text += " " + _("Hors de combat : %(names)s.") % {"names": ", ".join(down)}
    return text


# --- Undo and redo ---------------------------------------------------------------------------


@transaction.atomic
def encounter_undo(*, encounter_id: int, version: int | None, by) -> Event:
    """Revert the last step that is not yet undone (back to the start, one at a time)."""
    encounter = lock_encounter(encounter_id, version, by=by)
    require_status(encounter, Status.RUNNING, Status.PAUSED)
    # The step to undo and the one before it: whether undo is still offered after this one.
    standing = list(
        encounter.events.standing()
        .exclude(kind__in=NOT_UNDOABLE)
        .select_related("actor")  # the undo line names the same actor
        .order_by("-sequence")[:2]
    )
    if not standing:
        raise EncounterError(_("Rien à annuler : la rencontre est revenue à son début."))
    last = standing[0]
    check_not_changed_outside(last.changes, "before")
    write_back(last.changes, "before")
    # NPC copies a reinforcement made leave the campaign (kept in the undo for a redo).
    removed = copies_leave(last)
    last.undone = True
    last.save(update_fields=["undone"])
    follow_written(encounter, last.changes, "before")
    step = Step(encounter, "undo", by, actor=last.actor, public=last.public)
    step.changed_outside = shown_outside(last.changes) or bool(removed)
    # A copy of what was undone, so the log says it in words (not by its number).
    event = step.commit({"of": last.sequence, "kind": last.kind, "step": last.data, **removed})
    event.reverted_step = last  # the answer says what changed without reading it again
    event.undo_left = len(standing) > 1
    return event


@transaction.atomic
def encounter_redo(*, encounter_id: int, version: int | None, by) -> Event:
    """Re-apply the most recently undone step, if nothing new happened since."""
    encounter = lock_encounter(encounter_id, version, by=by)
    require_status(encounter, Status.RUNNING, Status.PAUSED)
    chain = _redo_chain(encounter)
    target = _redoable_in(encounter, chain)
    if target is None:
        raise EncounterError(_("Rien à rétablir."))
    check_not_changed_outside(target.changes, "after")
    copies_return(encounter, target)  # the NPC copies of a reinforcement, as they were
    write_back(target.changes, "after")
    target.undone = False
    target.save(update_fields=["undone"])
    follow_written(encounter, target.changes, "after")
    step = Step(encounter, "redo", by, actor=target.actor, public=target.public)
    step.changed_outside = shown_outside(target.changes) or COPIES in target.data
    event = step.commit({"of": target.sequence, "kind": target.kind, "step": target.data})
    event.reverted_step = target  # the answer says what changed without reading it again
    # Whether another undone step is still offered for a redo: the same chain, this one on top.
    event.redo_left = _redo_sequence([("redo", event.data), *chain]) is not None
    return event


def redoable_event(encounter: Encounter) -> Event | None:
    """The step a redo would restore: the one the latest un-redone undo reverted, as long as
    no new step happened since (a new step forgets what could be redone). Three queries at
    most, however long the log."""
    return _redoable_in(encounter, _redo_chain(encounter))


def _redo_chain(encounter: Encounter) -> list[tuple[str, dict]]:
    """The undos and redos since the latest other step, newest first (two queries)."""
    history = ("undo", "redo")
    last_step = (
        encounter.events.exclude(kind__in=history)
        .order_by("-sequence")
        .values_list("sequence", flat=True)
        .first()
    )
    return list(
        encounter.events.filter(kind__in=history, sequence__gt=last_step or 0)
        .order_by("-sequence")
        .values_list("kind", "data")
    )


def _redoable_in(encounter: Encounter, chain: list[tuple[str, dict]]) -> Event | None:
    sequence = _redo_sequence(chain)
    return None if sequence is None else encounter.events.get(sequence=sequence)


def _redo_sequence(chain: list[tuple[str, dict]]) -> int | None:
    """The sequence of the step a redo would restore, by walking ``chain``: each redo
    consumes the undo before it; the first undo left standing is the one to redo."""
    redone = 0
    for kind, data in chain:
        if kind == "redo":
            redone += 1
        elif redone:
            redone -= 1
        else:
            return data["of"]
    return None
