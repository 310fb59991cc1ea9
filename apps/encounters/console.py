"""What the console shows, computed once per request (C11: templates stay dumb; a constant
number of queries whatever the number of combatants or log lines). The players' table view,
built from the same rows, is ``table.py``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from apps.characters.bars import Bar
from apps.systems import system_of

from .condition_words import condition_form, condition_rules, shown_conditions
from .conditions import conditions_of
from .fighters import is_dead, is_out
from .folding import FULL_ORDER_PARAMETER, is_big, light_rows, near_rows
from .forms import (
    AddCombatantsForm,
    AwardXpForm,
    FromTemplateForm,
    InitiativeForm,
    PoolCorrectionForm,
    ReinforcementForm,
)
from .log import describe
from .models import Combatant, Encounter, Event, Status
from .requests import waiting
from .services import (
    NOT_UNDOABLE,
    acting_combatant,
    load_combatants,
    redoable_event,
)
from .steps import Fight, shared_sheets

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
    # The GM's tools of the row while the fight runs, folded under it. They load when the
    # GM opens them (``combatant_tools``); built here only for the row that shows them open
    # (the system's buttons, the pool correction form).
    gm_tools: bool = False
    tools: list = field(default_factory=list)
    correction: Any = None
    # The conditions on the fighter, in words (``condition_words``), and the form to put one,
    # built only for the row that shows it open (a refused one, ``?etat=``).
    conditions: list = field(default_factory=list)
    condition_form: Any = None
    # A far row of a big fight, drawn light: no bars, buttons or tools (``folding``).
    light: bool = False

    @property
    def name(self) -> str:
        return self.combatant.character.name


def rows_for(
    encounter: Encounter,
    combatants: list[Combatant],
    house,
    only: set | None = None,
    *,
    gm_tools: bool = True,
    refused=None,
    opened: int | None = None,
    players: bool = False,
    condition_refused=None,
    light: set | None = None,
) -> list[Row]:
    """The rows of the order list (``only``: just these combatants' rows; ``light``: those
    drawn light); with ``gm_tools``, their tools while the fight runs (``refused``: a pool
    correction sent back with its messages; ``opened``: the fighter whose tools show open)."""
    acting = acting_combatant(encounter, combatants)
    shown = [c for c in combatants if only is None or c.pk in only]
    names = {c.pk: c.character.name for c in combatants}
    return fighter_rows(
        encounter,
        shown,
        house,
        acting,
        gm_tools=gm_tools,
        refused=refused,
        opened=opened,
        names=names,
        players=players,
        fighters=combatants,
        condition_refused=condition_refused,
        light=light,
    )


def fighter_rows(
    encounter: Encounter,
    combatants: list[Combatant],
    house,
    acting: Combatant | None,
    *,
    gm_tools: bool = True,
    refused=None,
    opened: int | None = None,
    names: dict[int, str] | None = None,
    players: bool = False,
    fighters: list[Combatant] | None = None,
    condition_refused=None,
    light: set | None = None,
) -> list[Row]:
    """The rows of these combatants, ``acting`` being the one whose turn it is (if any): a
    step that loaded only its fighters answers with their rows. ``names``: every fighter's
    (a condition may last until another one's turn); ``players``: their conditions as the
    players see them."""
    build = system_of(encounter.campaign).fighter_row
    if names is None:
        names = {c.pk: c.character.name for c in combatants}
    # The rule texts are read only when someone bears a condition.
    rules = condition_rules(encounter) if any(c.conditions for c in combatants) else ({}, "")
    rows = []
    for combatant in combatants:
        folded = light is not None and combatant.pk in light
        bars, notes = ([], []) if folded else build(combatant, house)
        rows.append(
            Row(
                combatant=combatant,
                acting=acting is not None and combatant.pk == acting.pk,
                out=is_out(combatant, house),
                dead=is_dead(combatant, house),
                words=combatant.character.health(house),
                bars=bars,
                notes=notes,
                conditions=shown_conditions(combatant, names, rules, players=players),
                light=folded,
            )
        )
    if gm_tools and encounter.status in (Status.RUNNING, Status.PAUSED):
        tools_of = _RowTools(encounter, house, fighters or combatants, refused, condition_refused)
        for row in rows:
            if not row.light:
                tools_of.add(row, opened=opened)
    return rows


def tools_row(encounter: Encounter, combatant: Combatant) -> Row:
    """One fighter's row with its GM tools built, as ``combatant_tools`` shows them."""
    running = encounter.status in (Status.RUNNING, Status.PAUSED)
    acting = combatant if running and combatant.position == encounter.turn else None
    house = encounter.campaign.house()
    fighters = load_combatants(encounter, gear=False)  # whose turn may end a condition
    return fighter_rows(
        encounter, [combatant], house, acting, opened=combatant.pk, fighters=fighters
    )[0]


@dataclass(frozen=True)
class LogLine:
    event: Event
    text: str


def log_lines(encounter: Encounter) -> list[LogLine]:
    events = encounter.events.order_by("-sequence")[:LOG_LINES]
    return [LogLine(event, describe(event)) for event in events]


def load_console_fight(encounter: Encounter, *, test_panel: bool = False) -> list[Combatant]:
    """The fight as the console shows it: each system loads what its panels read (the test
    forms list any fighter's specialties or skills: read when the test panel is open)."""
    return system_of(encounter.campaign).load_console_fight(encounter, test_panel=test_panel)


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
    kept = _kept_panel(encounter, step, acting, combatants) if actions else None
    actions = actions and kept is None
    forms = (
        _console_forms(request, encounter, combatants, acting, forms, whole=step is None)
        if actions
        else {}
    )
    if step is None:
        lines, changed_lines, only = log_lines(encounter), [], None
        can_undo, can_redo = _undo_redo(encounter)
        light = light_rows(request, combatants, acting, house, forms)
    else:
        lines = [LogLine(step.event, describe(step.event))]
        # Undo and redo change how the line of the step they revert reads ("annulé"). An
        # open console holds at least the latest LOG_LINES lines; an older one may be gone.
        reverted = step.reverted
        shown = reverted is not None and reverted.sequence > encounter.last_sequence - LOG_LINES
        changed_lines = [LogLine(reverted, describe(reverted))] if shown else []
        only = step.rows(combatants, acting)
        if is_big(combatants):
            # The turn may have moved on: who comes next is drawn whole, as a reload would.
            only |= near_rows(combatants, acting, house, forms)
        can_undo, can_redo = _undo_redo_after(step, encounter)
        light = None
    system = system_of(encounter.campaign)
    condition = forms.get("condition")
    on_a_row = condition if condition is not None and condition.shown_in == "row" else None
    rows = rows_for(
        encounter,
        combatants,
        house,
        only=only,
        refused=forms.get("correct"),
        opened=_tools_asked(request),
        condition_refused=on_a_row,
        light=light,
    )
    context = {
        "encounter": encounter,
        "campaign": encounter.campaign,
        "system": system,
        "house": house,
        "combatants": combatants,
        "rows": rows,
        "acting": acting,
        "forms": forms,
        "log": lines,
        "changed_lines": changed_lines,
        "can_undo": can_undo,
        "can_redo": can_redo,
        "actions": actions,
        "asks_new_round": rolls_new_round(encounter, combatants),
        "waiting": waiting(combatants),
        # Players not yet asked for their initiative (the button goes once all are).
        "to_ask": any(c.character.has_player and not c.request for c in combatants),
        "live_url": reverse("encounters:changes", args=[encounter.pk]),
        "gm": True,
        "folded_rows": len(light or ()),
        "full_order": "=".join(FULL_ORDER_PARAMETER),
    }
    if encounter.status == Status.RUNNING:
        context.update(system.console_extras(encounter, acting, forms, actions=actions))
        context.update(kept or {})
    _place_condition_form(request, encounter, combatants, rows, forms, context)
    return context


def _kept_panel(encounter: Encounter, step, acting, combatants) -> dict | None:
    """An undo or a redo whose answer leaves the actions panel's forms as they are, with
    what its system still refreshes in it (``kept_panel``); None: the panel is drawn."""
    if step is None or step.reverted is None or encounter.status != Status.RUNNING:
        return None
    if any(change["field"] == "request" for change in step.changes):
        return None  # a roll request opened or closed: its list, in the panel, changes
    return system_of(encounter.campaign).kept_panel(encounter, step, acting, combatants)


def _place_condition_form(request, encounter, combatants, rows, forms, context) -> None:
    """The panel's form putting a condition when it comes back refused (a row's shows in
    that row's tools), the acting fighter's reminders atop the panel, and, once the fight
    is over, the conditions left to keep or drop."""
    refused = forms.get("condition")
    if refused is not None and refused.shown_in == "panel":
        context["panel_condition_form"] = refused
    acting = context["acting"]
    if acting is not None:
        context["reminders"] = [c for c in conditions_of(acting) if c.reminder]
    if encounter.status == Status.FINISHED:
        context["summary_conditions"] = summary_conditions(encounter.summary)


def summary_conditions(summary: dict) -> list[dict]:
    """The conditions a finished fight left running, each with the GM's decision (None:
    not yet; True: kept on the character; False: dropped) and the buttons to make it."""
    decided = summary.get("conditions_decided", {})
    choices = [("keep", _("Garder sur la fiche")), ("drop", _("Laisser"))]
    return [
        {
            "combatant": entry["combatant"],
            "id": entry["condition"]["id"],
            "name": entry["name"],
            "label": entry["condition"]["label"],
            "decided": decided.get(f"{entry['combatant']}:{entry['condition']['id']}"),
            "choices": choices,
        }
        for entry in summary.get("conditions", [])
    ]


@dataclass
class _RowTools:
    """Each row's GM tools, folded: they load when the GM opens them, so a step's answer
    (and the console) renders no form nobody opened — a dozen widgets a row, most of a row's
    cost. Built here for the row they show open in: a refused pool correction or condition
    as the GM sent it, with its messages, or the fighter asked for by ``opened`` (the
    console's ``?outils=`` link, for browsers without JavaScript, and the tools' own
    fragment). ``fighters``: the fight's (whose turn may end a condition)."""

    encounter: Encounter
    house: Any
    fighters: list[Combatant]
    refused: Any = None
    condition_refused: Any = None

    def add(self, row: Row, *, opened: int | None) -> None:
        row.gm_tools = True
        pk = row.combatant.pk
        refused = self.refused
        correction = refused if refused is not None and refused.combatant.pk == pk else None
        condition = self.condition_refused
        if condition is not None and str(condition.data.get("combatant")) != str(pk):
            condition = None
        if correction is None and condition is None and opened != pk:
            return
        row.correction = correction or correction_form(self.encounter, row.combatant)
        row.condition_form = condition or condition_form(
            self.encounter, self.fighters, target=row.combatant
        )
        row.tools = system_of(self.encounter.campaign).row_tools(row.combatant, self.house)


def correction_target(encounter: Encounter, combatant_id: int) -> Combatant | None:
    """The fighter whose pool is corrected, with its sheet (None if not in the fight)."""
    sheet = f"character__{system_of(encounter.campaign).sheet_name}"
    combatant = (
        encounter.combatants.filter(present=True, pk=combatant_id).select_related(sheet).first()
    )
    if combatant is not None:
        combatant.character.campaign = encounter.campaign
    return combatant


def correction_form(encounter: Encounter, combatant: Combatant, data=None) -> PoolCorrectionForm:
    """The pool correction of one fighter's row (its ids its own: one form per row)."""
    system = system_of(encounter.campaign)
    sheet = getattr(combatant.character, system.sheet_name)
    form = PoolCorrectionForm(
        data,
        pools=system.correctable_pools(sheet, encounter.campaign.house()),
        initial={"version": encounter.version},
        auto_id=f"id_correct{combatant.pk}_%s",
    )
    form.combatant = combatant
    return form


def opens_new_round(encounter: Encounter, combatants: list[Combatant], house) -> bool:
    """Whether "next turn" now begins a new round: nobody after the acting fighter can act."""
    return all(is_out(c, house) for c in combatants[encounter.turn + 1 :])


def rolls_new_round(encounter: Encounter, combatants: list[Combatant]) -> bool:
    """Whether "next turn" now opens a new round whose initiative is rolled again: the
    console then asks how (the app's dice or physical ones) before opening it."""
    if encounter.status != Status.RUNNING:
        return False
    house = encounter.campaign.house()
    system = system_of(encounter.campaign)
    return opens_new_round(encounter, combatants, house) and system.initiative_each_round(
        encounter.round + 1, house
    )


def ends_the_round_early(fight: Fight, event: Event) -> bool:
    """Whether a step of the acting fighter put out of the fight its target, who was still to
    act this round: "next turn" may now open a new round, and the console then offers its
    physical-dice faces, which an answer of the step's fragments alone would not draw."""
    acting, target = fight.acting, fight.fighters.get(event.target_id)
    if acting is None or target is None or event.actor_id != acting.pk:
        return False
    if (target.position, target.pk) < (acting.position, acting.pk):
        return False
    encounter = fight.encounter
    house = encounter.campaign.house()
    system = system_of(encounter.campaign)
    return is_out(target, house) and system.initiative_each_round(encounter.round + 1, house)


def _running_forms(encounter: Encounter, combatants, forms: dict, *, whole: bool) -> None:
    """The GM's tools of a fight under way: reinforcements (with the ``whole`` console: a
    step's answer leaves their form as it is); when the next turn opens a new round whose
    initiative is rolled again, the faces of physical dice for it."""
    if whole:
        forms.setdefault(
            "reinforce",
            ReinforcementForm(encounter=encounter, initial={"version": encounter.version}),
        )
    system = system_of(encounter.campaign)
    if rolls_new_round(encounter, combatants):
        forms.setdefault(
            "new_round",
            InitiativeForm(
                initial={"version": encounter.version},
                combatants=combatants,
                sides=system.initiative_sides,
                auto_id="id_round_%s",
            ),
        )


def _console_forms(
    request, encounter: Encounter, combatants, acting, forms, *, whole: bool = True
) -> dict:
    """The forms of the console's panels, unbound, beside those given (bound, with errors);
    without the ``whole`` console, only the actions panel's."""
    forms = dict(forms or {})
    system = system_of(encounter.campaign)
    if encounter.status == Status.PREPARING:
        forms.setdefault("add", AddCombatantsForm(encounter=encounter))
        forms.setdefault("from_template", FromTemplateForm(encounter=encounter))
        forms.setdefault(
            "initiative",
            InitiativeForm(
                initial={"version": encounter.version},
                combatants=combatants,
                sides=system.initiative_sides,
            ),
        )
    if encounter.status == Status.FINISHED and not encounter.summary.get("xp_awarded"):
        forms.setdefault("award", AwardXpForm(initial={"reason": encounter.name}))
    if encounter.status in (Status.RUNNING, Status.PAUSED):
        _running_forms(encounter, combatants, forms, whole=whole)
    if encounter.status == Status.RUNNING:
        system.console_forms(
            encounter, combatants, acting, forms, test_panel=_test_panel_asked(request)
        )
    return forms


def _tools_asked(request) -> int | None:
    """The fighter whose GM tools the console opens with (``?outils=<id>``: the link in a
    folded row, for browsers without JavaScript), if any; a malformed value asks for none."""
    value = request.GET.get("outils", "")
    return int(value) if value.isdigit() else None


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
        # The undo read whether another step is left to undo (``undo_left``).
        left = getattr(step.event, "undo_left", None)
        return (_can_undo(encounter) if left is None else left), True
    if step.event.kind == "redo":
        # The redo read whether another undone step is left to redo (``redo_left``).
        left = getattr(step.event, "redo_left", None)
        return True, (redoable_event(encounter) is not None if left is None else left)
    return True, False


def _can_undo(encounter: Encounter) -> bool:
    return encounter.events.standing().exclude(kind__in=NOT_UNDOABLE).exists()


# The changes after which the console is drawn whole: the fight started, paused, resumed or
# ended (the controls and the actions panel change shape), or the order of the combatants
# changed (a new round's initiative).
RESHAPING = {("encounters.encounter", "status"), ("encounters.combatant", "position")}
# Steps that write back another step's values (``data["of"]``) instead of recording their own.
REVERTING = ("undo", "redo", "reopen")


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
            # Undo and redo hand over the step they reverted (``reverted_step``): no read.
            reverted = getattr(event, "reverted_step", None)
            if reverted is None:
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
        # A fighter's row also shows its character and sheet (their key is the character's).
        sheets = shared_sheets()
        for change in self.changes:
            if change["model"] == "encounters.combatant":
                rows.add(change["pk"])
            elif change["model"] == "characters.character" or change["model"] in sheets:
                rows.add(by_character.get(change["pk"]))
            elif change["model"] == "encounters.encounter" and change["field"] == "turn":
                for turn in (change["before"], change["after"]):
                    if combatants:
                        rows.add(combatants[min(turn, len(combatants) - 1)].pk)
        return rows - {None}
