"""The fight framework as a game system sees it: the one encounters module a system imports
(with ``apps.encounters.models``). An import-linter contract holds it (pyproject.toml).

A system's console action is written with these pieces, in this order:

- **the step**: ``lock_fight`` (or ``lock_encounter``) locks what the step changes and checks
  the version the form was drawn on (``StaleVersion`` otherwise); ``require_status`` refuses
  a step the fight's state does not allow; the step changes fields only through
  ``Step.set(row, field, value)`` and ends with ``Step.commit(data)``, so undo, redo, the log,
  the push and the export carry it; a refusal is an ``EncounterError`` (message, field).
- **loading**: ``load_combatants`` (the fight in acting order), ``acting_combatant``,
  ``combatant_of``/``combatants_of`` (one fighter, or the fight without gear), ``is_out`` and
  ``is_dead`` (as the system's hooks judge them), ``prefetch_gear``.
- **odds**: a plan function appends ``situational_values(system, fighter, roll)`` (or
  ``situational(...)`` to name them) to the modifiers it gives the engine: the fighter's
  conditions and whatever the system's ``situational_modifiers`` hook adds.
- **answering**: ``run_step`` runs the step and answers (``answer_step``: only what changed;
  ``answer_console``: the whole console) or refuses (``refuse``: the message atop the actions,
  409 when someone acted first; ``stale_refusal``: a form drawn on an older version);
  ``run_small_step`` and ``run_row_step`` do all of it for a one-button step.
- **access**: ``get_encounter_for_user`` (404 for outsiders, 403 for players when ``gm``),
  ``lock_fight_for_gm`` (the access check and the lock in one query).
- **the console and the log**: ``fighter_rows``, ``LogLine``, ``describe``, ``StepDone``,
  ``ends_the_round_early``, ``load_console_fight``; ``SECRET`` in the players' log.
- **forms**: ``VersionForm`` (every step form carries the version it was drawn on),
  ``add_encounter_error``, ``optional_face``.
- **roll requests**: ``Combatant.request`` belongs to the framework (``requests.py``):
  ``open_request`` and ``close_request`` write it on a step (the answer's step closes it, so
  one undo reopens it), ``check_open`` refuses an answer to a request no longer open,
  ``check_answerer`` one from another than the fighter's player (or the GM taking over);
  ``DEFENCE``, ``ATTACK``, ``TEST``, ``INITIATIVE`` are the kinds. A system's answer view is
  ``answer_posted_request`` with its own service (the phone's answer drawn from memory, or
  the refusal in French; ``answer_request`` and ``posted_combatant`` are its parts).
- **conditions**: ``Combatant.conditions`` belongs to the framework (``conditions.py``);
  ``add_condition`` and ``remove_condition`` write it on a step; the start and end of every
  turn tick it before the system's own ``begin_turn``.
"""

from .access import get_encounter_for_user, lock_fight_for_gm
from .answers import (
    answer_console,
    answer_step,
    first_error,
    refuse,
    run_fight_step,
    run_row_step,
    run_small_step,
    run_step,
    stale_refusal,
)
from .conditions import (
    ROLL_KINDS,
    Condition,
    ConditionType,
    Modifier,
    Roll,
    add_condition,
    condition_modifiers,
    conditions_of,
    remove_condition,
    situational,
    situational_values,
    table_conditions,
)
from .console import (
    LogLine,
    StepDone,
    ends_the_round_early,
    fighter_rows,
    load_console_fight,
)
from .fighters import attack_target, is_dead, is_out
from .forms import VersionForm, add_encounter_error, optional_face
from .log import SECRET, describe
from .request_views import answer_posted_request, answer_request, posted_combatant
from .requests import (
    ATTACK,
    DEFENCE,
    INITIATIVE,
    TEST,
    check_answerer,
    check_open,
    close_request,
    open_request,
)
from .services import (
    acting_combatant,
    combatant_of,
    combatants_of,
    load_combatants,
    prefetch_gear,
)
from .steps import (
    EncounterError,
    Fight,
    StaleVersion,
    Step,
    check_not_changed_outside,
    lock_and_refresh_pools,
    lock_encounter,
    lock_fight,
    require_status,
)

__all__ = [
    "ATTACK",
    "DEFENCE",
    "INITIATIVE",
    "ROLL_KINDS",
    "SECRET",
    "TEST",
    "Condition",
    "ConditionType",
    "EncounterError",
    "Fight",
    "LogLine",
    "Modifier",
    "Roll",
    "StaleVersion",
    "Step",
    "StepDone",
    "VersionForm",
    "acting_combatant",
    "add_condition",
    "add_encounter_error",
    "answer_console",
    "answer_posted_request",
    "answer_request",
    "answer_step",
    "attack_target",
    "check_answerer",
    "check_not_changed_outside",
    "check_open",
    "close_request",
    "combatant_of",
    "combatants_of",
    "condition_modifiers",
    "conditions_of",
    "describe",
    "ends_the_round_early",
    "fighter_rows",
    "first_error",
    "get_encounter_for_user",
    "is_dead",
    "is_out",
    "load_combatants",
    "load_console_fight",
    "lock_and_refresh_pools",
    "lock_encounter",
    "lock_fight",
    "lock_fight_for_gm",
    "open_request",
    "optional_face",
    "posted_combatant",
    "prefetch_gear",
    "refuse",
    "remove_condition",
    "require_status",
    "run_fight_step",
    "run_row_step",
    "run_small_step",
    "run_step",
    "situational",
    "situational_values",
    "stale_refusal",
    "table_conditions",
]
