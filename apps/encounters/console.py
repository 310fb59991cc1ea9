"""What the console and the table view show, computed once per request (C11: templates
stay dumb; a constant number of queries whatever the number of combatants or log lines)."""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import get_language

from apps.characters.bars import Bar
from apps.core.push import streams_served
from apps.systems import system_of

from .fighters import is_dead, is_out
from .forms import (
    AddCombatantsForm,
    AwardXpForm,
    FromTemplateForm,
    InitiativeForm,
    PoolCorrectionForm,
    ReinforcementForm,
)
from .log import SECRET, describe
from .models import Combatant, Encounter, Event, Status
from .services import (
    NOT_UNDOABLE,
    acting_combatant,
    load_combatants,
    redoable_event,
)
from .steps import Fight

LOG_LINES = 60
TABLE_BODY = "encounters/table.html#table-body"
# The latest region of a fight, kept while phones may follow it.
TABLE_BODY_SECONDS = 300
# A region a phone asks for again is served from the last render while younger than this,
# if that render is not older than what the phone shows: a GM stepping without pause then
# costs a few renders a second, not one per phone (each phone refreshes at its own moment,
# so each would see a version of its own). The phone then still knows it is behind (it was
# told of the newer version) and refreshes again, paced, until it shows the latest.
TABLE_BODY_REUSE_SECONDS = 0.25


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
) -> list[Row]:
    """The rows of the order list (``only``: just these combatants' rows); with
    ``gm_tools``, their tools while the fight runs (``refused``: a pool correction sent back
    with its messages; ``opened``: the fighter whose tools show open)."""
    acting = acting_combatant(encounter, combatants)
    shown = [c for c in combatants if only is None or c.pk in only]
    return fighter_rows(
        encounter, shown, house, acting, gm_tools=gm_tools, refused=refused, opened=opened
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
) -> list[Row]:
    """The rows of these combatants, ``acting`` being the one whose turn it is (if any): a
    step that loaded only its fighters answers with their rows."""
    build = system_of(encounter.campaign).fighter_row
    rows = []
    for combatant in combatants:
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
    if gm_tools and encounter.status in (Status.RUNNING, Status.PAUSED):
        _add_row_tools(encounter, rows, house, refused=refused, opened=opened)
    return rows


def tools_row(encounter: Encounter, combatant: Combatant) -> Row:
    """One fighter's row with its GM tools built, as ``combatant_tools`` shows them."""
    running = encounter.status in (Status.RUNNING, Status.PAUSED)
    acting = combatant if running and combatant.position == encounter.turn else None
    house = encounter.campaign.house()
    return fighter_rows(encounter, [combatant], house, acting, opened=combatant.pk)[0]


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
    forms = _console_forms(request, encounter, combatants, acting, forms) if actions else {}
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
    system = system_of(encounter.campaign)
    rows = rows_for(
        encounter,
        combatants,
        house,
        only=only,
        refused=forms.get("correct"),
        opened=_tools_asked(request),
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
        "live_url": reverse("encounters:changes", args=[encounter.pk]),
    }
    if encounter.status == Status.RUNNING:
        context.update(system.console_extras(encounter, acting, forms, actions=actions))
    return context


def _add_row_tools(encounter: Encounter, rows: list[Row], house, *, refused, opened) -> None:
    """Each row's GM tools, folded: they load when the GM opens them, so a step's answer
    (and the console) renders no form nobody opened — six widgets a row, most of a row's
    cost. Built here for the row they show open in: the refused pool correction as the GM
    sent it, with its messages, or the fighter asked for by ``opened`` (the console's
    ``?outils=`` link, for browsers without JavaScript, and the tools' own fragment)."""
    system = system_of(encounter.campaign)
    for row in rows:
        row.gm_tools = True
        if refused is not None and refused.combatant.pk == row.combatant.pk:
            row.correction = refused
        elif opened == row.combatant.pk:
            row.correction = correction_form(encounter, row.combatant)
        else:
            continue
        row.tools = system.row_tools(row.combatant, house)


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


def _running_forms(encounter: Encounter, combatants, forms: dict) -> None:
    """The GM's tools of a fight under way: reinforcements; when the next turn opens a new
    round whose initiative is rolled again, the faces of physical dice for it."""
    forms.setdefault(
        "reinforce", ReinforcementForm(encounter=encounter, initial={"version": encounter.version})
    )
    system = system_of(encounter.campaign)
    house = encounter.campaign.house()
    new_round = encounter.round + 1
    if opens_new_round(encounter, combatants, house) and system.initiative_each_round(
        new_round, house
    ):
        forms.setdefault(
            "new_round",
            InitiativeForm(
                initial={"version": encounter.version},
                combatants=combatants,
                sides=system.initiative_sides,
                auto_id="id_round_%s",
            ),
        )


def _console_forms(request, encounter: Encounter, combatants, acting, forms) -> dict:
    """The forms of the console's panels, unbound, beside those given (bound, with errors)."""
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
        _running_forms(encounter, combatants, forms)
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


def table_context(request, encounter: Encounter) -> dict:
    """The players' view: hidden combatants left out, NPCs as words only."""
    house = encounter.campaign.house()
    everyone = load_combatants(encounter, gear=False)  # names and pools: no weapons, no skills
    acting = acting_combatant(encounter, everyone)
    combatants = [c for c in everyone if not c.hidden]
    rows = rows_for(encounter, combatants, house, gm_tools=False)
    for row in rows:
        row.acting = acting is not None and row.combatant.pk == acting.pk
        if not row.combatant.character.is_pc:
            # An NPC's numbers never reach a player's screen: words only.
            row.bars, row.notes = [], []
    hidden = {c.pk for c in everyone if c.hidden}
    pcs = {c.pk for c in everyone if c.character.is_pc}
    return {
        "encounter": encounter,
        "rows": rows,
        "lines": table_lines(encounter, hidden, pcs),
        "live_url": reverse("encounters:changes", args=[encounter.pk]),
    }


TABLE_LINES = 5
# Lines the players' view leaves out: undo and redo name other steps, not actions.
NOT_FOR_TABLE = ("undo", "redo")
# The lists of fighters an event's data may hold (an initiative order, the arrivals, those
# who bled while out of the fight): the hidden ones are taken out before a player reads it.
FIGHTER_LISTS = ("initiative", "arrivals", "bled")


def table_lines(encounter: Encounter, hidden: set[int], pcs: set[int]) -> list[LogLine]:
    """The last few actions in words, as the players may read them: public steps not undone,
    none naming a hidden fighter, an NPC's wounds without their numbers (one query). ``pcs``:
    the fighters known as PCs; any other target is taken for an NPC."""
    events = (
        encounter.events.filter(public=True, undone=False)
        .exclude(kind__in=NOT_FOR_TABLE)
        .exclude(actor_id__in=hidden)
        .exclude(target_id__in=hidden)
        .order_by("-sequence")[:TABLE_LINES]
    )
    system = system_of(encounter.campaign)
    return [LogLine(event, describe(_for_players(event, hidden, pcs, system))) for event in events]


def _for_players(event: Event, hidden: set[int], pcs: set[int], system) -> Event:
    """The event as a player may read it: no hidden fighter, no NPC's number — neither of
    an NPC it targets (its wounds, its armour) nor of one that acts (what it spent or lost,
    its scores), nor in a list of fighters (initiative totals, PV bled). ``pcs``: the
    fighters known as PCs; anyone else is taken for an NPC."""
    data = dict(event.data)
    for key in FIGHTER_LISTS:
        if isinstance(data.get(key), list):
            data[key] = [
                _row_for_players(row, pcs)
                for row in data[key]
                if row.get("combatant") not in hidden
            ]
    if event.target_id is not None and event.target_id not in pcs:
        data = system.npc_target_for_players(event.kind, data)
    if event.actor_id is not None and event.actor_id not in pcs:
        data = _npc_actor_for_players(data)
        data = system.npc_actor_for_players(event.kind, data)
    return Event(kind=event.kind, round=event.round, data=data)


# An NPC's numbers in a list of fighters: its initiative (a total adds its characteristic)
# and the PV it bled.
ROW_NUMBERS = ("total", "roll")


def _row_for_players(row: dict, pcs: set[int]) -> dict:
    if row.get("combatant") in pcs:
        return row
    row = {key: value for key, value in row.items() if key not in ROW_NUMBERS}
    if "pv" in row:
        row["pv"] = SECRET
    return row


def _npc_actor_for_players(data: dict) -> dict:
    """What the generic lines tell of the NPC whose turn begins: that it bleeds, not how
    much."""
    if data.get("bleeding"):
        return {**data, "bleeding": SECRET}
    return data


def players_table_body(request, encounter: Encounter, shown: int | None = None) -> str:
    """The players' #table-body, rendered once per version and language in each process.
    Every player of an encounter sees the same region (hidden combatants left out, NPCs as
    words; nothing of the viewer in it), so 100 phones refreshing after a step cost one
    render. ``shown``: the version the asking page shows (a render younger than
    ``TABLE_BODY_REUSE_SECONDS`` and not older than it is served again). The caller has
    checked the viewer may see it; the GM's view never comes from here."""
    key = _table_body_key(request, encounter)
    versions = (encounter.version, encounter.campaign.version)
    now = time.monotonic()
    cached = cache.get(key)
    if cached is not None:
        rendered, rendered_at, html = cached
        if rendered == versions or (
            shown is not None
            and rendered[0] >= shown
            and now - rendered_at < TABLE_BODY_REUSE_SECONDS
        ):
            return html
    html = render_to_string(TABLE_BODY, table_context(request, encounter), request=request)
    cache.set(key, (versions, now, html), TABLE_BODY_SECONDS)
    return html


def _table_body_key(request, encounter: Encounter) -> str:
    """Everything the region's HTML depends on but its versions (kept with it): the
    encounter's moves with every step and every sheet change of its fighters
    (``SheetFights.follow``), the campaign's with what can change without it; its house
    rules (the health words) and the server kind (whether the region carries the stream's
    element, ``live_stream_url``) are in the key."""
    campaign = encounter.campaign
    house = json.dumps(campaign.house_rules, sort_keys=True).encode()
    return ":".join(
        str(part)
        for part in (
            "table-body",
            encounter.pk,
            get_language(),
            "streamed" if streams_served(request) else "polled",
            hashlib.blake2b(house, digest_size=8).hexdigest(),
        )
    )
