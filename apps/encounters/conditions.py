"""Conditions: what lies on a fighter for a while ("étourdi jusqu'à son prochain tour",
"aveuglé 2 rounds", "saigne"), kept in the framework's own slot, ``Combatant.conditions``.

The slot is a JSON list written only through ``Step.set`` (``add_condition``,
``remove_condition``, the turn and round ticks below), so undo and redo restore it exactly,
an expiry included, and the export, the log and the push carry it. Game systems never write
it directly; their own fight state stays in ``Combatant.state``.

A condition ends:
- ``removed``: when the GM takes it off;
- ``rounds``: as round ``round`` begins (placed in round R for N rounds: R + N) — tied to the
  round counter, so initiative changes, arrivals and departures never move it;
- ``turn_start`` / ``turn_end``: at the start or the end of the next turn of the fighter
  ``turn_of`` (who put it, or its bearer). Placed during that fighter's own turn, a ``turn_end``
  skips the end of that turn (``skip``): "until the end of its next turn" means the next one.
A fighter out of the fight whose turn is skipped still has its turn start and end for its
conditions: the clock runs for everyone.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

if TYPE_CHECKING:
    from apps.systems.base import GameSystem

    from .models import Combatant
    from .steps import Step


class Roll(StrEnum):
    """The rolls a modifier may apply to; ``ATTACKED`` is every attack roll made against
    the bearer (someone "à terre" is easier to hit)."""

    ATTACK = "attack"
    DEFENCE = "defence"
    TEST = "test"
    DAMAGE = "damage"
    MAGIC = "magic"
    INITIATIVE = "initiative"
    ATTACKED = "attacked"


ROLL_KINDS = tuple(Roll)

REMOVED, ROUNDS, TURN_START, TURN_END = "removed", "rounds", "turn_start", "turn_end"
ENDINGS = (REMOVED, ROUNDS, TURN_START, TURN_END)


@dataclass(frozen=True)
class Modifier:
    """One situational modifier of a roll, named so that the odds line can say it."""

    label: str
    value: int


@dataclass(frozen=True)
class Condition:
    """One condition on a fighter, as its slot stores it (``to_json``/``from_json``)."""

    label: str  # in words, as the GM and the players read it
    key: str = ""  # the system's rule-defined condition, "" for free text
    ends: str = REMOVED
    # Combatant ids (named so that a campaign's export and import rewrite them):
    turn_of: int | None = None  # whose turn ends it (TURN_START, TURN_END)
    round: int | None = None  # the round whose start ends it (ROUNDS)
    skip: int = 0  # ends of that turn still to let pass (TURN_END placed during that turn)
    modifiers: dict[str, int] = field(default_factory=dict)  # {roll kind: value}
    placed_by: int | None = None  # the fighter who put it, if any
    public: bool = True
    reminder: str = ""  # said at the start of the bearer's turn
    id: int = 0  # unique on its bearer, given by ``add_condition``

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Condition:
        return cls(**data)

    def modifier(self, roll: str) -> Modifier | None:
        value = self.modifiers.get(roll, 0)
        return Modifier(self.label, value) if value else None


# Whose next turn ends a TURN_START or TURN_END condition: its bearer's or the fighter's who
# put it.
BEARER, PLACER = "bearer", "placer"


@dataclass(frozen=True)
class ConditionType:
    """A condition a system's list offers (``GameSystem.condition_catalogue``): its words,
    its rule text (shown on tap), the modifiers it carries and how long it lasts unless the
    GM says otherwise. ``by_the_rules``: defined by the game's rules (on a visible NPC the
    players see it by default), not a table condition of the campaign's house rules."""

    key: str
    label: str
    rule: str
    modifiers: dict[str, int] = field(default_factory=dict)
    ends: str = REMOVED
    whose: str = BEARER  # whose turn ends it (TURN_START, TURN_END)
    rounds: int = 1  # for ROUNDS
    reminder: str = ""
    by_the_rules: bool = False


# The rolls the usual table conditions weigh on (a house rule gives each its value); a
# condition of the GM's own list weighs on all the bearer's rolls.
TABLE_ROLLS = {
    "étourdi": (Roll.ATTACK, Roll.DEFENCE, Roll.TEST, Roll.MAGIC),
    "à terre": (Roll.ATTACK, Roll.DEFENCE),
    "aveuglé": (Roll.ATTACK, Roll.DEFENCE, Roll.TEST),
    "entravé": (Roll.ATTACK, Roll.DEFENCE),
    "effrayé": (Roll.ATTACK, Roll.TEST, Roll.MAGIC),
    "à couvert": (Roll.ATTACKED,),
}
ALL_OWN_ROLLS = (Roll.ATTACK, Roll.DEFENCE, Roll.TEST, Roll.MAGIC)
# "Étourdi" lasts until the end of its bearer's next turn; the others until the GM takes
# them off (someone on the ground gets up when they say so).
TABLE_ENDS = {"étourdi": TURN_END}


def table_conditions(
    values: Sequence[tuple[str, int]], rule: str, rolls_read: Sequence[str] = ROLL_KINDS
) -> list[ConditionType]:
    """The campaign's table conditions (a house rule: « état = modificateur » lines) as
    list entries; ``rule`` words what a value does, with ``%(value)s`` and ``%(rolls)s``
    ("à ses attaques et à ses défenses"); ``rolls_read``: the rolls the system has."""
    entries = []
    for label, value in values:
        rolls = TABLE_ROLLS.get(label.casefold(), ALL_OWN_ROLLS)
        rolls = tuple(roll for roll in rolls if roll in rolls_read)
        text = rule % {"value": f"{value:+d}".replace("-", "−"), "rolls": roll_words(rolls)}
        entries.append(
            ConditionType(
                key=f"table:{label}",
                label=label,
                rule=text,
                modifiers=dict.fromkeys(rolls, value) if value else {},
                ends=TABLE_ENDS.get(label.casefold(), REMOVED),
            )
        )
    return entries


def roll_words(rolls: Iterable[str]) -> str:
    """ "ses attaques, ses défenses et ses tests": the rolls a modifier weighs on."""
    words = [str(ROLL_WORDS[roll]) for roll in rolls]
    if len(words) < 2:
        return "".join(words)
    return _("%(first)s et %(last)s") % {"first": ", ".join(words[:-1]), "last": words[-1]}


ROLL_WORDS = {
    Roll.ATTACK: gettext_lazy("à ses attaques"),
    Roll.DEFENCE: gettext_lazy("à ses défenses"),
    Roll.TEST: gettext_lazy("à ses tests"),
    Roll.DAMAGE: gettext_lazy("à ses dégâts"),
    Roll.MAGIC: gettext_lazy("à ses sorts"),
    Roll.INITIATIVE: gettext_lazy("à son initiative"),
    Roll.ATTACKED: gettext_lazy("aux attaques contre lui"),
}


# How long a condition lasts, as the GM picks it: (``Condition.ends``, whose turn ends it).
DURATIONS = {
    TURN_END + ":bearer": (TURN_END, BEARER),
    TURN_START + ":bearer": (TURN_START, BEARER),
    TURN_END + ":placer": (TURN_END, PLACER),
    TURN_START + ":placer": (TURN_START, PLACER),
    ROUNDS: (ROUNDS, None),
    REMOVED: (REMOVED, None),
}
MAX_ROUNDS = 99
MAX_MODIFIER = 20


@dataclass(frozen=True)
class ConditionChoice:
    """What the GM asked for: a condition of the system's list (``kind``) or their own words
    (``label``), and anything they changed from the list's defaults (None: the default)."""

    combatant_id: int
    kind: str = ""
    label: str = ""
    duration: str | None = None
    rounds: int | None = None
    source_id: int | None = None
    modifiers: dict[str, int] | None = None  # by roll, those the GM typed
    public: bool | None = None
    reminder: str = ""


def duration_words(condition: Condition, bearer: int, names: dict[int, str]) -> str:
    """How long it lasts, in words: "jusqu'à la fin de son prochain tour", "jusqu'à la fin
    du prochain tour de Garnier", "jusqu'au round 5", "jusqu'à ce qu'on le retire"."""
    if condition.ends == ROUNDS:
        return _("jusqu'au round %(round)s") % {"round": condition.round}
    if condition.ends in (TURN_START, TURN_END):
        own = condition.turn_of == bearer
        start = condition.ends == TURN_START
        if own:
            return (
                _("jusqu'au début de son prochain tour")
                if start
                else _("jusqu'à la fin de son prochain tour")
            )
        # A fighter the viewer may not see (hidden from the players) is not named.
        name = {"name": names.get(condition.turn_of) or _("quelqu'un")}
        if start:
            return _("jusqu'au début du prochain tour de %(name)s") % name
        return _("jusqu'à la fin du prochain tour de %(name)s") % name
    return _("jusqu'à ce qu'on le retire")


def modifier_words(condition: Condition, unit: str = "") -> str:
    """ "−2 à ses attaques et ses défenses": what a condition adds, grouped by value."""
    by_value: dict[int, list[str]] = {}
    for roll in ROLL_KINDS:
        if value := condition.modifiers.get(roll, 0):
            by_value.setdefault(value, []).append(roll)
    return " ; ".join(
        f"{value:+d}{unit} {roll_words(rolls)}" for value, rolls in by_value.items()
    ).replace("-", "−")


def to_lasting(condition: Condition, current_round: int, encounter_id: int) -> dict:
    """A condition kept on a character when its fight ends, free of that fight: its rounds
    left, a turn's end counted on its bearer's turns (the other fighter may not be in the
    next fight), and the fight it comes from (reopening that fight takes it back)."""
    data = condition.to_json()
    if condition.ends == ROUNDS and condition.round is not None:
        data["rounds_left"] = max(1, condition.round - current_round)
    data.update(turn_of=None, placed_by=None, round=None, skip=0, from_encounter=encounter_id)
    return data


def from_lasting(data: dict, bearer: int, number: int) -> Condition:
    """A character's kept condition as its next fight starts (round 1): number ``number``."""
    data = dict(data)
    rounds_left = data.pop("rounds_left", None)
    data.pop("from_encounter", None)
    condition = Condition.from_json({**data, "id": number})
    if condition.ends == ROUNDS:
        return replace(condition, round=1 + (rounds_left or 1))
    if condition.ends in (TURN_START, TURN_END):
        return replace(condition, turn_of=bearer)
    return condition


def conditions_of(combatant: Combatant) -> list[Condition]:
    return [Condition.from_json(data) for data in combatant.conditions]


def _write(step: Step, combatant: Combatant, conditions: Iterable[Condition]) -> None:
    step.set(combatant, "conditions", [c.to_json() for c in conditions])


def add_condition(step: Step, combatant: Combatant, condition: Condition) -> Condition:
    """Put ``condition`` on ``combatant`` as part of ``step``; returns it with its id."""
    present = conditions_of(combatant)
    placed = replace(condition, id=max((c.id for c in present), default=0) + 1)
    _write(step, combatant, [*present, placed])
    return placed


def remove_condition(step: Step, combatant: Combatant, condition_id: int) -> Condition | None:
    """Take a condition off as part of ``step``; None when it is not (or no longer) there."""
    present = conditions_of(combatant)
    gone = next((c for c in present if c.id == condition_id), None)
    if gone is not None:
        _write(step, combatant, [c for c in present if c.id != condition_id])
    return gone


def _expire(step: Step, combatants: Sequence[Combatant], ends) -> list[dict]:
    """Take off every condition for which ``ends(condition)`` holds (it may also return a
    changed condition to keep); returns the log data of those that ended."""
    ended = []
    for combatant in combatants:
        kept, changed = [], False
        for condition in conditions_of(combatant):
            after = ends(condition)
            if after is True:
                ended.append(
                    {
                        "combatant": combatant.pk,
                        "name": combatant.character.name,
                        "label": condition.label,
                        "public": condition.public,
                    }
                )
                changed = True
            elif after is False:
                kept.append(condition)
            else:
                kept.append(after)
                changed = True
        if changed:
            _write(step, combatant, kept)
    return ended


def turn_starts(step: Step, acting: Combatant, combatants: Sequence[Combatant]) -> dict:
    """``acting``'s turn starts: the conditions it ends go, and its own reminders are said.
    Returns the log data (nothing when nothing happened)."""
    ended = _expire(step, combatants, lambda c: c.ends == TURN_START and c.turn_of == acting.pk)
    reminders = [
        {
            "combatant": acting.pk,
            "name": acting.character.name,
            "label": c.label,
            "reminder": c.reminder,
            "public": c.public,
        }
        for c in conditions_of(acting)
        if c.reminder
    ]
    return _log(ended, reminders)


def turn_ends(step: Step, ending: Combatant, combatants: Sequence[Combatant]) -> dict:
    """``ending``'s turn ends: the conditions it ends go (a first end skipped when asked)."""

    def ends(condition: Condition) -> bool | Condition:
        if condition.ends != TURN_END or condition.turn_of != ending.pk:
            return False
        return replace(condition, skip=condition.skip - 1) if condition.skip else True

    return _log(_expire(step, combatants, ends), [])


def turn_passes(step: Step, skipped: Combatant, combatants: Sequence[Combatant]) -> dict:
    """The turn of a fighter out of the fight is skipped: it starts and ends all the same
    for the conditions it ends (without reminders: it does not act)."""
    starts = _expire(step, combatants, lambda c: c.ends == TURN_START and c.turn_of == skipped.pk)
    data = _log(starts, [])
    merge_log(data, turn_ends(step, skipped, combatants))
    return data


def round_starts(step: Step, round_number: int, combatants: Sequence[Combatant]) -> dict:
    """A new round begins: the conditions that last until it go."""
    ended = _expire(
        step,
        combatants,
        lambda c: c.ends == ROUNDS and c.round is not None and c.round <= round_number,
    )
    return _log(ended, [])


def _log(ended: list[dict], reminders: list[dict]) -> dict:
    data: dict = {}
    if ended:
        data["conditions_ended"] = ended
    if reminders:
        data["reminders"] = reminders
    return data


def merge_log(data: dict, more: dict) -> None:
    """Add ``more``'s ended conditions and reminders to a step's log data."""
    for key, values in more.items():
        data[key] = [*data.get(key, []), *values]


def condition_modifiers(combatant: Combatant, roll: str) -> list[Modifier]:
    """What the fighter's conditions add to a roll of that kind."""
    if not combatant.conditions:  # most fighters, most of the time: nothing to read
        return []
    found = (c.modifier(roll) for c in conditions_of(combatant))
    return [m for m in found if m is not None]


def situational(
    system: GameSystem, combatant: Combatant, roll: str, *, against: Combatant | None = None
) -> list[Modifier]:
    """Every situational modifier of a roll of ``combatant``: its conditions', those of the
    fighter it attacks that apply to attacks against it (``attacked``), then what the
    system's ``situational_modifiers`` hook adds (a stance, cover...)."""
    found = condition_modifiers(combatant, roll)
    if against is not None and roll == Roll.ATTACK:
        found += condition_modifiers(against, Roll.ATTACKED)
    return found + system.situational_modifiers(combatant, roll, against=against)


def situational_values(
    system: GameSystem, combatant: Combatant, roll: str, *, against: Combatant | None = None
) -> list[int]:
    """The same as the plain numbers an engine adds to its other modifiers."""
    return [m.value for m in situational(system, combatant, roll, against=against)]


def initiative_bonuses(system: GameSystem, combatants: Sequence[Combatant]) -> dict[int, int]:
    """What the situation adds to each fighter's initiative, for those it changes."""
    bonuses = {c.pk: sum(situational_values(system, c, Roll.INITIATIVE)) for c in combatants}
    return {pk: value for pk, value in bonuses.items() if value}
