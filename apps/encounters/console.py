"""What the console and the table view show, computed once per request (C11: templates
stay dumb; a constant number of queries whatever the number of combatants or log lines)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.urls import reverse
from django.utils.translation import gettext as _

from apps.characters.bars import Bar
from apps.rules import aethoria, ew

from .fighters import is_dead, is_out
from .log import describe
from .models import Combatant, Encounter, Event, Status
from .services import (
    NOT_UNDOABLE,
    acting_combatant,
    load_combatants,
    prefetch_skills,
    redoable_event,
)

LOG_LINES = 60


@dataclass
class Row:
    combatant: Combatant
    acting: bool
    out: bool
    dead: bool
    words: str
    bars: list[Bar]
    notes: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.combatant.character.name


def _ew_row(combatant: Combatant, house: ew.EwHouseRules) -> tuple[list[Bar], list[str]]:
    sheet = combatant.character.ew
    pools = sheet.pools()
    bars = [
        Bar("superficial", _("Superficiels"), pools.superficial, pools.pv),
        Bar("lethal", _("Létaux"), pools.lethal, pools.pv),
        Bar("eclat", _("Éclat"), sheet.eclat, sheet.eclat_max),
    ]
    notes = []
    if pools.wound_malus:
        notes.append(_("malus %(malus)s") % {"malus": pools.wound_malus})
    state = combatant.state or {}
    if state.get("stance") == ew.TOTAL_ATTACK:
        notes.append(_("attaque totale"))
    elif state.get("stance") == ew.TOTAL_DEFENCE:
        notes.append(_("défense totale"))
    actions = state.get("attacks", 0), state.get("defences", 0)
    if any(actions):
        notes.append(_("%(a)s att. / %(d)s déf. ce round") % {"a": actions[0], "d": actions[1]})
    return bars, notes


def _aethoria_row(
    combatant: Combatant, house: aethoria.AethoriaHouseRules
) -> tuple[list[Bar], list[str]]:
    sheet = combatant.character.aethoria
    pools = sheet.pools(house)
    bars = [
        Bar("pv", _("PV"), pools.pv, pools.pv_max),
        Bar("physical", _("Fatigue physique"), pools.physical, pools.physical_max),
        Bar("mental", _("Fatigue mentale"), pools.mental, pools.mental_max),
    ]
    state = combatant.state or {}
    notes = [_("%(n)s défense(s)") % {"n": state.get("defences", aethoria.BASE_DEFENCES)}]
    if state.get("aim_target"):
        notes.append(_("vise") if not state.get("aim_ready") else _("visée prête (+3 dés)"))
    if state.get("prepared"):
        notes.append(_("action préparée : %(what)s") % {"what": state["prepared"]["description"]})
    if state.get("bleeding"):
        notes.append(_("saigne"))
    for effect in state.get("effects", []):
        notes.append(effect_words(effect))
    return bars, notes


def effect_words(effect: dict) -> str:
    """A lasting severe effect in the viewer's language ("fracture : right arm")."""
    from apps.systems.aethoria.log import location_words

    if effect.get("kind") == aethoria.FRACTURE and effect.get("location"):
        return _("fracture : %(where)s") % {"where": location_words(effect["location"])}
    return effect.get("label", effect.get("kind", ""))  # states saved before locations were


def rows_for(
    encounter: Encounter, combatants: list[Combatant], house, only: set | None = None
) -> list[Row]:
    """The rows of the order list (``only``: just these combatants' rows)."""
    acting = acting_combatant(encounter, combatants)
    build = _ew_row if encounter.campaign.is_ew else _aethoria_row
    rows = []
    for combatant in combatants:
        if only is not None and combatant.pk not in only:
            continue
        bars, notes = build(combatant, house)
        rows.append(
            Row(
                combatant=combatant,
                acting=acting is not None and combatant.pk == acting.pk,
                out=is_out(combatant, house),
                dead=is_dead(combatant, house),
                words=combatant.character.health(house),
                bars=bars,
                notes=notes,
            )
        )
    return rows


@dataclass(frozen=True)
class LogLine:
    event: Event
    text: str


def log_lines(encounter: Encounter) -> list[LogLine]:
    events = encounter.events.order_by("-sequence")[:LOG_LINES]
    return [LogLine(event, describe(event)) for event in events]


def load_console_fight(encounter: Encounter, *, test_panel: bool = False) -> list[Combatant]:
    """The fight as the console shows it. The attack forms load the gear of their two
    fighters themselves, so the others' is left unread; but the test forms list any
    fighter's specialties (EW) or skills (Aethoria): those are read when the test panel is
    open (``test_panel``)."""
    if encounter.campaign.is_ew:
        return load_combatants(encounter, gear=test_panel)
    combatants = load_combatants(encounter, gear=False)
    if test_panel:
        prefetch_skills(combatants)
    return combatants


def console_context(
    request,
    encounter: Encounter,
    *,
    forms: dict | None = None,
    combatants: list | None = None,
    step: StepDone | None = None,
    actions: bool = True,
) -> dict:
    """Everything the GM's console shows. ``combatants``: the fight as a step just left it
    in memory (else it is loaded). ``step``: only what that step just changed is wanted — its
    log line (and the line of the step it reverted) and the rows it touched. Without
    ``actions`` (the answer to an EW test, which leaves the actions panel as it is), the
    panel's forms and odds are not built."""
    house = encounter.campaign.house()
    if combatants is None:
        combatants = load_console_fight(encounter, test_panel=_test_panel_asked(request))
    acting = acting_combatant(encounter, combatants)
    forms = _console_forms(request, encounter, combatants, acting, forms) if actions else {}
    attack_plan = attack_plan_error = None
    attack_form = forms.get("ew_attack")
    if attack_form is not None and not attack_form.is_bound and len(combatants) > 1:
        attack_plan, attack_plan_error = _default_attack_plan(attack_form)
    if step is None:
        lines, changed_lines, only = log_lines(encounter), [], None
        can_undo, can_redo = _undo_redo(encounter)
    else:
        lines = [LogLine(step.event, describe(step.event))]
        # Undo and redo change how the line of the step they revert reads ("annulé"). An
        # open console holds at least the latest LOG_LINES lines; an older one may be gone.
        reverted = step.reverted
        shown = reverted is not None and reverted.sequence > encounter.last_sequence - LOG_LINES
        changed_lines = [LogLine(reverted, describe(reverted))] if shown else []
        only = step.rows(combatants, acting)
        can_undo, can_redo = _undo_redo_after(step, encounter)
    return {
        "encounter": encounter,
        "campaign": encounter.campaign,
        "house": house,
        "combatants": combatants,
        "rows": rows_for(encounter, combatants, house, only=only),
        "acting": acting,
        "forms": forms,
        "log": lines,
        "changed_lines": changed_lines,
        "can_undo": can_undo,
        "can_redo": can_redo,
        "rescuable": rescuable_roll(encounter),
        "attack_plan": attack_plan,
        "attack_plan_error": attack_plan_error,
        "stances_left": _stances_left(encounter, acting) if actions else [],
        "actions": actions,
        "live_url": reverse("encounters:changes", args=[encounter.pk]),
    }


def _stances_left(encounter: Encounter, acting: Combatant | None) -> list[str]:
    from apps.systems.ew.combat import stances_left

    if acting is None or not encounter.campaign.is_ew or encounter.status != Status.RUNNING:
        return []
    return stances_left(acting)


def _console_forms(request, encounter: Encounter, combatants, acting, forms) -> dict:
    """The forms of the console's panels, unbound, beside those given (bound, with errors)."""
    from .forms import (
        AddCombatantsForm,
        AwardXpForm,
        EwAttackForm,
        EwTestForm,
        FromTemplateForm,
        InitiativeForm,
    )

    forms = dict(forms or {})
    initial = {"version": encounter.version}
    if encounter.status == Status.PREPARING:
        forms.setdefault("add", AddCombatantsForm(encounter=encounter))
        forms.setdefault("from_template", FromTemplateForm(encounter=encounter))
    if encounter.status == Status.FINISHED and not encounter.summary.get("xp_awarded"):
        forms.setdefault("award", AwardXpForm(initial={"reason": encounter.name}))
    if encounter.status == Status.PREPARING:
        forms.setdefault(
            "initiative",
            InitiativeForm(
                initial=initial,
                combatants=combatants,
                sides=10 if encounter.campaign.is_ew else 20,
            ),
        )
    if encounter.campaign.is_ew and encounter.status == Status.RUNNING:
        if acting is not None:
            forms.setdefault(
                "ew_attack",
                EwAttackForm(
                    initial=initial, encounter=encounter, attacker=acting, combatants=combatants
                ),
            )
        if _test_panel_asked(request):
            forms.setdefault(
                "ew_test",
                EwTestForm(
                    initial=initial, encounter=encounter, combatants=combatants, acting=acting
                ),
            )
    if not encounter.campaign.is_ew and encounter.status == Status.RUNNING:
        from apps.systems.aethoria.forms import console_forms

        console_forms(encounter, combatants, acting, forms, test_panel=_test_panel_asked(request))
    return forms


def _test_panel_asked(request) -> bool:
    """The console opened with its test panel (a link for browsers without JavaScript:
    htmx loads the panel when the GM opens it)."""
    return request.GET.get("panel") == "test"


def _undo_redo(encounter: Encounter) -> tuple[bool, bool]:
    """Whether the console offers undo and redo: a step not yet undone remains, however far
    back in the log; the latest undo can still be redone."""
    if encounter.status not in (Status.RUNNING, Status.PAUSED):
        return False, False
    return _can_undo(encounter), redoable_event(encounter) is not None


def _undo_redo_after(step: StepDone, encounter: Encounter) -> tuple[bool, bool]:
    """Undo and redo after a step: a new step can be undone and leaves nothing to redo; what
    an undo reverted can be redone at once, and a step just redone undone again."""
    if step.event.kind == "undo":
        return _can_undo(encounter), True
    if step.event.kind == "redo":
        return True, redoable_event(encounter) is not None
    return True, False


def _can_undo(encounter: Encounter) -> bool:
    return encounter.events.exclude(kind__in=NOT_UNDOABLE).filter(undone=False).exists()


# The changes after which the console is drawn whole: the fight started, paused, resumed or
# ended (the controls and the actions panel change shape), or the order of the combatants
# changed (a new round's initiative).
RESHAPING = {("encounters.encounter", "status"), ("encounters.combatant", "position")}
# Steps that write back another step's values (``data["of"]``) instead of recording their own.
REVERTING = ("undo", "redo", "reopen")
# A fighter's row also shows its character and sheet (their key is the character's).
CHARACTER_MODELS = ("characters.character", "characters.ewsheet", "characters.aethoriasheet")


@dataclass(frozen=True)
class StepDone:
    """A step just made, with the changes it made — for an undo, a redo or a reopening,
    those of the step it reverted (``reverted``) — to answer with only what it changed."""

    event: Event
    changes: list[dict]
    reverted: Event | None = None

    @classmethod
    def of(cls, event: Event) -> StepDone:
        if event.kind in REVERTING:
            reverted = event.encounter.events.get(sequence=event.data["of"])
            return cls(event, reverted.changes, reverted)
        return cls(event, event.changes)

    @property
    def reshapes_console(self) -> bool:
        return any((change["model"], change["field"]) in RESHAPING for change in self.changes)

    def rows(self, combatants: list[Combatant], acting: Combatant | None) -> set[int]:
        """The combatants whose row may read differently: those the step names, those whose
        own state, character or sheet changed, and those whose turn ended or began."""
        by_character = {c.character_id: c.pk for c in combatants}
        rows = {self.event.actor_id, self.event.target_id, acting.pk if acting else None}
        for change in self.changes:
            if change["model"] == "encounters.combatant":
                rows.add(change["pk"])
            elif change["model"] in CHARACTER_MODELS:
                rows.add(by_character.get(change["pk"]))
            elif change["model"] == "encounters.encounter" and change["field"] == "turn":
                for turn in (change["before"], change["after"]):
                    if combatants:
                        rows.add(combatants[min(turn, len(combatants) - 1)].pk)
        return rows - {None}


def rescuable_roll(encounter: Encounter) -> Event | None:
    """The failed EW roll of a PC that a point d'éclat could still turn around: only the
    latest roll is offered, and a rescue comes after the roll it saved. One query."""
    if not encounter.campaign.is_ew or encounter.status != Status.RUNNING:
        return None
    latest = (
        encounter.events.filter(kind__in=("ew_attack", "ew_test", "ew_eclat"), undone=False)
        .select_related("actor__character")
        .order_by("-sequence")
        .first()
    )
    if latest is not None and latest.kind != "ew_eclat" and latest.data.get("rescuable"):
        return latest
    return None


def attack_step_context(request, event: Event, form) -> dict:
    """What an EW attack changed, for its out-of-band answer, built from the step's own
    combatants (already up to date in memory) without reloading the fight: the two rows,
    the new log line, undo and redo, and the odds of the same attack again. The attack form
    itself stays as the GM left it (an attack never changes who acts)."""
    from apps.systems.ew.combat import plan_attack

    from .steps import EncounterError

    encounter = event.encounter  # the step's locked instance: version, round, turn are new
    combatants = form.combatants
    house = encounter.campaign.house()
    try:
        plan, plan_error = plan_attack(encounter, form.choice(), combatants), None
    except EncounterError as error:
        plan, plan_error = None, error.message
    acting = acting_combatant(encounter, combatants)
    log = [LogLine(event, describe(event))]
    return {
        "encounter": encounter,
        "campaign": encounter.campaign,
        "house": house,
        "rows": rows_for(encounter, combatants, house, only={event.actor_id, event.target_id}),
        "acting": acting,
        "log": log,
        # The step just made can be undone; a new step leaves nothing to redo.
        "can_undo": True,
        "can_redo": False,
        # The attack is the latest roll: it is the one a point d'éclat could save.
        "rescuable": event if event.data.get("rescuable") else None,
        "stances_left": _stances_left(encounter, acting),
        "plan": plan,
        "plan_error": plan_error,
        "live_url": reverse("encounters:changes", args=[encounter.pk]),
    }


def _default_attack_plan(form) -> tuple[object | None, str | None]:
    """The odds of the EW attack form as first shown (its target, bare fists, no active
    defence), or why that attack cannot be made (an attacker in total defence...)."""
    from apps.systems.ew.combat import AttackChoice, plan_attack

    from .steps import EncounterError

    try:
        choice = AttackChoice(attacker_id=form.acting.pk, target_id=form.target_id)
        return plan_attack(form.encounter, choice, form.combatants), None
    except EncounterError as error:
        return None, error.message


def table_context(request, encounter: Encounter) -> dict:
    """The players' view: hidden combatants left out, NPCs as words only."""
    house = encounter.campaign.house()
    everyone = load_combatants(encounter, gear=False)  # names and pools: no weapons, no skills
    acting = acting_combatant(encounter, everyone)
    combatants = [c for c in everyone if not c.hidden]
    rows = rows_for(encounter, combatants, house)
    for row in rows:
        row.acting = acting is not None and row.combatant.pk == acting.pk
        if not row.combatant.character.is_pc:
            # An NPC's numbers never reach a player's screen: words only.
            row.bars, row.notes = [], []
    return {
        "encounter": encounter,
        "rows": rows,
        "live_url": reverse("encounters:changes", args=[encounter.pk]),
    }
