"""The players' table view: the fight as the players may see it (hidden fighters left out,
NPCs in words, the last actions told without their secrets), its region rendered once per
version for every phone that follows it."""

from __future__ import annotations

import hashlib
import json
import time

from django.core.cache import cache
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import get_language

from apps.campaigns.handouts import shown_handout
from apps.campaigns.models import Role
from apps.core.push import streams_served
from apps.systems import system_of

from .console import LogLine, rows_for
from .fighters import next_in_view
from .log import SECRET, players_sentence
from .models import Encounter, Event, Status
from .services import acting_combatant, load_combatants

TABLE_BODY = "encounters/table.html#table-body"
# The latest region of a fight, kept while phones may follow it.
TABLE_BODY_SECONDS = 300
# A region a phone asks for again is served from the last render while younger than this,
# if that render is not older than what the phone shows: a GM stepping without pause then
# costs a few renders a second, not one per phone (each phone refreshes at its own moment,
# so each would see a version of its own). The phone then still knows it is behind (it was
# told of the newer version) and refreshes again, paced, until it shows the latest.
TABLE_BODY_REUSE_SECONDS = 0.25


def table_context(request, encounter: Encounter) -> dict:
    """The players' view: hidden combatants left out, NPCs as words only; with the handout
    the GM shows the table (the table screen shows the same, apps/screens). Before the
    fight starts, players see only that it has not yet (who is in it is the GM's to
    prepare)."""
    live_url = reverse("encounters:changes", args=[encounter.pk])
    # ``role``: the viewer's, set by the access helper (the table screen shows live fights).
    if encounter.status == Status.PREPARING and getattr(encounter, "role", None) != Role.GM:
        return {"encounter": encounter, "waiting": True, "live_url": live_url}
    house = encounter.campaign.house()
    everyone = load_combatants(encounter, gear=False)  # names and pools: no weapons, no skills
    acting = acting_combatant(encounter, everyone)
    combatants = [c for c in everyone if not c.hidden]
    rows = rows_for(encounter, combatants, house, gm_tools=False, players=True)
    system = system_of(encounter.campaign)
    for row in rows:
        row.acting = acting is not None and row.combatant.pk == acting.pk
        # What the table tells of every fighter's state: the lasting effects decided, in
        # words (the console's notes are the GM's: defences left, actions prepared).
        row.notes = system.lasting_notes(row.combatant, house)
        if not row.combatant.character.is_pc:
            # An NPC's numbers never reach a player's screen: words only.
            row.bars = []
    hidden = {c.pk for c in everyone if c.hidden}
    pcs = {c.pk for c in everyone if c.character.is_pc}
    upcoming = next_in_view(everyone, acting, house)
    return {
        "encounter": encounter,
        "rows": rows,
        "upcoming": next((r for r in rows if r.combatant == upcoming), None),
        "lines": table_lines(encounter, hidden, pcs),
        "handout": shown_handout(encounter.campaign),
        "live_url": live_url,
    }


TABLE_LINES = 5
# The steps read to find them: some tell the players nothing (a hidden NPC's own test), and
# are left out after the query.
TABLE_LINES_READ = 20
# Lines the players' view leaves out: undo and redo name other steps, not actions (the step
# an undo reverted shows as "annulé" on its own line).
NOT_FOR_TABLE = ("undo", "redo")
# The lists of fighters an event's data may hold (an initiative order, the arrivals, those
# who bled while out of the fight): the hidden ones are taken out before a player reads it.
FIGHTER_LISTS = ("initiative", "arrivals", "bled", "conditions_ended", "reminders")


def table_lines(encounter: Encounter, hidden: set[int], pcs: set[int]) -> list[LogLine]:
    """The last few actions in words, as the players may read them (one query): none naming
    a hidden fighter — a step of one they do not see tells only what became of the fighters
    they see —, an NPC's wounds without their numbers, an undone step marked so (its
    ``event.undone``). ``pcs``: the fighters known as PCs; anyone else is taken for an NPC."""
    events = (
        encounter.events.exclude(kind__in=NOT_FOR_TABLE)
        .exclude(target_id__in=hidden)
        .order_by("-sequence")[:TABLE_LINES_READ]
    )
    system = system_of(encounter.campaign)
    lines = []
    for event in events:
        # A step made while someone in it was hidden (``public`` false), or by a fighter
        # hidden now: the players did not see who acted.
        seen = event.public and event.actor_id not in hidden
        text = players_sentence(_for_players(event, hidden, pcs, system), actor_seen=seen)
        if text:
            lines.append(LogLine(event, text))
        if len(lines) == TABLE_LINES:
            break
    return lines


def players_line(event: Event) -> str:
    """A step just made, as the players' table tells it (a phone's answer says what became
    of it): an NPC's numbers left out. Its fighters are in memory (no query)."""
    fighters = [c for c in (event.actor, event.target) if c is not None]
    pcs = {c.pk for c in fighters if c.character.is_pc}
    system = system_of(event.encounter.campaign)
    return players_sentence(_for_players(event, set(), pcs, system), actor_seen=True) or ""


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
                # A condition the GM keeps secret is not said either (nor its end).
                if row.get("combatant") not in hidden and row.get("public", True)
            ]
    if data.get("condition", {}).get("turn_of") in hidden:
        data["turn_of_name"] = ""  # "until someone's turn": a hidden fighter is not named
    if event.target_id is not None and event.target_id not in pcs:
        data = system.npc_target_for_players(event.kind, data)
    if event.actor_id is not None and event.actor_id not in pcs:
        data = _npc_actor_for_players(data)
        data = system.npc_actor_for_players(event.kind, data)
    return Event(kind=event.kind, round=event.round, data=data, undone=event.undone)


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
