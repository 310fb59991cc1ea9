"""The contract of a game system: one hook per thing that differs between systems.

A system subclasses ``GameSystem`` in its own ``system.py`` and fills every hook; an
abstract hook left out makes the system fail to load, and ``SystemsConfig.ready`` loads
every registered system when Django starts, so a missing hook stops the start-up instead
of a request. Hooks receive model instances and return plain values, forms or context
entries; the generic code never asks which system it is talking to.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from django import forms
    from django.db import models
    from django.urls import URLPattern

    from apps.accounts.models import User
    from apps.campaigns.models import Campaign
    from apps.characters.bars import Bar
    from apps.characters.models import Character
    from apps.encounters.kit import ConditionType, Modifier, Step
    from apps.encounters.models import Combatant, Encounter, Event


@dataclass(frozen=True)
class InitiativeResult:
    """One fighter's place in the acting order, as the system's initiative rule set it."""

    combatant_id: int
    roll: int  # the face of the die
    total: int  # what the order is sorted on (roll + characteristic, or the roll alone)
    draw: int  # the random draw that broke the last ties


@dataclass(frozen=True)
class PoolField:
    """A pool of a sheet the GM may set by hand on a fighter's row, and the values it takes."""

    name: str  # the sheet's field
    label: str  # shown to people
    low: int
    high: int


@dataclass(frozen=True)
class RowTool:
    """A one-button GM tool of a fighter's row (treat bleeding...): posts the version and
    the combatant."""

    label: str
    url_name: str  # in the ``encounters`` namespace, with the encounter's id


class XpCosts(ABC):
    """A system's XP costs (``GameSystem.xp_costs``): what a character may buy with XP, at
    what price, and how a purchase changes the sheet and is taken back. The ledger (awards,
    balance, spends and refunds) is generic: a purchase is stored as its cost and the JSON
    record ``price`` returns, which ``apply`` and ``current_value`` read back."""

    # The sheet's relations a purchase reads, joined when the sheet is locked for it.
    sheet_relations: tuple[str, ...] = ()
    # What the spend page says under the list of improvements: how the costs are set and
    # which limits the list already applies.
    help_text: str = _("Chaque coût suit les règles maison de la campagne.")
    # The compendium model of the row a purchase's record names by ``id``, by the record's
    # ``kind`` (an export names the row instead, an import finds it again).
    record_models: dict[str, type[models.Model]] = {}

    @abstractmethod
    def options(self, sheet, house, balance: int) -> list[tuple[str, str]]:
        """Every improvement on offer now, as (form value, label with its cost in XP)."""

    @abstractmethod
    def improvement(self, value: str) -> Any:
        """The improvement a form value of ``options`` names (what ``price`` takes)."""

    @abstractmethod
    def price(self, sheet, improvement, house, balance: int) -> tuple[int, dict]:
        """Its cost in XP and the record that undoes it (JSON, with ``label``, ``from`` and
        ``to`` once applied); raises RulesError when it is not for sale or costs more than
        ``balance``."""

    @abstractmethod
    def apply(self, sheet, record: dict, direction: int) -> None:
        """Apply (+1) or revert (-1) a recorded purchase on the (locked) sheet; saves it."""

    @abstractmethod
    def current_value(self, sheet, record: dict) -> int:
        """The value a recorded purchase changed, as the sheet has it now."""


class HouseRuleKind(ABC):
    """How the settings page edits a house rule that is neither a number, a yes/no nor a
    choice (``GameSystem.house_rule_kinds``): a list written as text. ``words`` are the
    rule's stored keys shown as words (``GameSystem.house_rule_words``), typed back as
    either. ``apps/systems/house_rules.py`` has the kinds systems share (« libellé = valeur »
    lines, a comma-separated list)."""

    @abstractmethod
    def form_field(self, label: str, value: Any, words: dict[str, str]) -> forms.Field:
        """The form field showing the rule's current ``value`` as text."""

    @abstractmethod
    def from_text(self, text: str, words: dict[str, str]) -> Any:
        """The rule's value (as JSON, for ``from_dict``) from what the GM typed; raises
        ``forms.ValidationError`` saying how to write it when it cannot be read."""


# The optional features a class attribute switches on, and the hook each then needs.
_FEATURE_HOOKS = (
    ("has_resolution_grid", "resolution_grid_form"),
    ("has_resolution_grid", "resolution_grid_template"),
    ("demo_campaign_name", "demo_campaign"),
)


class GameSystem(ABC):
    """A game system as the generic apps see it. Class attributes describe it; methods do
    what differs."""

    code: str  # the campaign's ``system`` value, and the folder's name
    label: str  # shown to people ("EW-System")
    house_rules_class: type  # the engine's frozen dataclass of house rules
    sheet_name: str  # the related name of a character's sheet ("ew")
    initiative_sides: int  # the die of initiative (10 or 20)
    # The sheet's pools that a player may change from their phone while a fight runs
    # (re-read under lock by a step), and those a fight's summary compares with the start.
    live_pool_fields: tuple[str, ...]
    summary_pool_fields: tuple[str, ...]
    # The sheet's relations a fighter's row reads (its armour...), joined when a fight loads.
    fighter_relations: tuple[str, ...] = ()
    # The console's actions panel while the fight runs, and what an answer that keeps the
    # panel as the GM left it still refreshes in it (EW: the point d'éclat offer), if any.
    actions_template: str
    kept_panel_offers: str | None = None
    # What the end-of-fight summary adds (from ``summary_extras``), if anything.
    summary_template: str | None = None
    # The sheet's relations joined when a character is opened (its archetype...).
    sheet_relations: tuple[str, ...] = ()
    # The sheet page's sections of this system (characteristics, gear) and its spends block.
    sheet_template: str
    sheet_actions_template: str
    # What a player asking to spend XP is told when the rules price nothing in XP
    # (``xp_costs`` is None).
    no_xp_costs: str = _(
        "Les règles de ce système ne fixent pas de coûts en XP : voyez avec le MJ."
    )
    # Whether the house rules hold a resolution grid (their ``resolution_grid``, None for the
    # default one; ``resolution_grid_form`` edits it), and what the GM is told on asking for
    # it when they do not.
    has_resolution_grid: bool = False
    # With a grid, its editor's page (reads ``campaign`` and ``form``, in the rules' own
    # words), which also holds the settings page's link to it as its ``grid-link`` partial.
    resolution_grid_template: str | None = None
    no_resolution_grid: str = _("Les règles de ce système n'ont pas de table de résolution.")
    # The creation (and edit) wizard's page.
    creation_template: str
    # The name of the demo campaign ``manage.py demo`` makes of this system (``demo_campaign``
    # builds it); None: the demo has no campaign of this system.
    demo_campaign_name: str | None = None

    def __init__(self) -> None:
        """A system names every attribute the contract declares without a default: one left
        out stops the start-up (``SystemsConfig.ready`` makes every system), as an abstract
        hook does, rather than a request."""
        missing = [name for name in required_attributes() if not hasattr(self, name)]
        if missing:
            raise TypeError(f"{type(self).__name__} does not set {', '.join(missing)}.")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A feature the class attributes name must come with its hook (they have defaults,
        not being abstract): left out, the class fails to load, as for an abstract hook."""
        super().__init_subclass__(**kwargs)
        for flag, hook in _FEATURE_HOOKS:
            if getattr(cls, flag, None) and getattr(cls, hook) is getattr(GameSystem, hook):
                raise TypeError(f"{cls.__name__} sets {flag} but does not fill {hook}.")

    # --- Campaigns --------------------------------------------------------------------------

    @abstractmethod
    def default_house_rules(self):
        """A new campaign's house rules (the rules pages' defaults, as the engine's dataclass)."""

    @abstractmethod
    def house_rule_labels(self) -> dict[str, str]:
        """{house rule: label} of the rules the GM's settings page edits, in the page's words;
        a rule of ``house_rules_class`` left out is not on the page (EW's resolution grid,
        which has its own editor)."""

    def house_rule_choices(self) -> dict[str, list[tuple[str, str]]]:
        """{house rule: [(stored value, words), ...]} for the rules the settings page offers
        as a choice among fixed values (EW's rounding). By default none."""
        return {}

    def house_rule_kinds(self) -> dict[str, HouseRuleKind]:
        """{house rule: kind} for the rules that are neither a number, a yes/no nor a choice:
        how the settings page writes each as text and reads it back (``HouseRuleKind``). A
        labelled rule of that sort left out here cannot be shown. By default none."""
        return {}

    def house_rule_words(self) -> dict[str, dict[str, str]]:
        """{house rule: {stored key: words}} for the keys the settings page would otherwise
        show as they are stored ("short", "right_arm"); typed back, either is understood."""
        return {}

    def resolution_grid_form(self, data, *, campaign: Campaign) -> forms.Form:
        """The grid's editor (what ``resolution_grid_template`` reads; once valid, the new
        house rules as ``house``). Only asked of a system with ``has_resolution_grid``."""
        raise NotImplementedError(f"{self.code} has no resolution grid.")

    # --- Characters -------------------------------------------------------------------------

    @abstractmethod
    def health(self, sheet, house) -> str:
        """The state in a word or two (the same word on every screen)."""

    @abstractmethod
    def pool_bars(self, sheet, house) -> list[Bar]:
        """The sheet's pools as bars (the sheet, the party, the console)."""

    @abstractmethod
    def pool_labels(self) -> dict[str, str]:
        """{sheet field: words} for every pool a fight's summary or the log may name by its
        field (``summary_pool_fields``, ``correctable_pools``)."""

    def pool_amount(self, field_name: str, amount: int) -> str | None:
        """An amount of one of this system's pools in words that agree with the number
        ("1 point d'éclat", "3 points létaux"), when its words change with it; None: the
        number before its ``pool_labels`` words ("4 PV"). By default None."""
        return None

    @abstractmethod
    def sheet_context(self, sheet, house) -> dict[str, Any]:
        """What the full sheet shows of this system (``sheet_template`` reads it); may set
        ``subtitle`` (after the concept) and ``health_note`` (after the state word)."""

    @abstractmethod
    def creation_form(self, data, *, campaign: Campaign, npc: bool) -> forms.Form:
        """The creation wizard's form (``choices`` and ``add_problems`` as the wizards have)."""

    @abstractmethod
    def edit_form(self, data, *, character: Character) -> forms.Form:
        """The same wizard pre-filled with a character's sheet."""

    @abstractmethod
    def character_create(self, *, campaign: Campaign, form, owner, is_template: bool):
        """Save the character a valid creation form describes (InvalidCreation if not)."""

    @abstractmethod
    def character_update(self, *, character: Character, form, by) -> None:
        """Rewrite a character's sheet from a valid edit form (InvalidCreation if not)."""

    def xp_costs(self) -> XpCosts | None:
        """The rules' XP costs, or None when they price nothing in XP: the sheet then links
        no XP spend and a player asking is told ``no_xp_costs``. By default None."""
        return None

    @property
    def spends_xp(self) -> bool:
        """Whether the rules price improvements in XP (the sheet links the XP spend page)."""
        return self.xp_costs() is not None

    @abstractmethod
    def copy_gear(self, source, sheet) -> None:
        """Give a copied NPC's new ``sheet`` the gear and ranks of ``source``."""

    @abstractmethod
    def rest(self, sheet, house, *, health: bool, resources: bool) -> None:
        """Restore a (locked) sheet: its health pools, its other resources; saves them."""

    @abstractmethod
    def transfer_refs(self) -> tuple[tuple, tuple]:
        """The sheet's compendium references for export and import:
        ((document key, model, many), ...), ((key, related name, rank model, field, model,
        value), ...)."""

    def transfer_finders(self) -> dict[type[models.Model], Callable[[set], dict]]:
        """How an import finds the compendium rows of ``transfer_refs`` (and of XP records)
        that the document names by more than their name (EW's aptitude: its archetype's and
        its own): {model: function(keys) -> {key: row}}, each key as the document writes it
        (a list read as a tuple). Every other row is found by its name. By default none."""
        return {}

    @abstractmethod
    def export_lookups(self) -> tuple[list[str], list]:
        """``select_related`` and ``prefetch_related`` lookups exporting a character reads."""

    @abstractmethod
    def sheet_model(self) -> type[models.Model]:
        """The model of this system's character sheet (one-to-one with Character)."""

    @abstractmethod
    def gear_lookups(self) -> list:
        """``prefetch_related`` lookups of a sheet's gear (weapons, skills...) for a fight."""

    def sheet_annotations(self) -> dict:
        """Expressions over a fighter's combatant row that a step's lock query reads with it
        (``steps.lock_fight``), each set on the fighter's sheet under its name: gear a step
        needs, read without a query of its own (Aethoria: the armour). None by default."""
        return {}

    # --- Fights -----------------------------------------------------------------------------

    @abstractmethod
    def is_out(self, combatant: Combatant, house) -> bool:
        """Out of the fight: its turn is skipped."""

    @abstractmethod
    def is_dead(self, combatant: Combatant, house) -> bool:
        """Dead: it can no longer be attacked."""

    @abstractmethod
    def initiative_order(
        self,
        combatants: Sequence[Combatant],
        faces: dict[int, int],
        draws,
        house,
        bonuses: dict[int, int] | None = None,
    ) -> list[InitiativeResult]:
        """The acting order from each combatant's face (``draws``: a source of tie draws;
        ``bonuses``: what the situation adds to a combatant's total, by its id)."""

    @abstractmethod
    def initiative_each_round(self, round_number: int, house) -> bool:
        """Whether initiative is rolled again as this round begins."""

    @abstractmethod
    def fresh_state(self) -> dict:
        """A combatant's fight state when the fight starts (as JSON)."""

    @abstractmethod
    def begin_round(self, step: Step, combatants: list[Combatant]) -> None:
        """What a new round changes, recorded on the step that opened it."""

    @abstractmethod
    def begin_turn(self, step: Step, combatants: list[Combatant]) -> dict:
        """What the start of the acting combatant's turn changes; returns the log data."""

    def skipped_turns(self, step: Step, skipped: list[Combatant]) -> dict:
        """What still happens at the turns of fighters out of the fight that the turn passing
        skipped (Aethoria: bleeding goes on); returns the log data. By default nothing."""
        return {}

    def condition_catalogue(self, house) -> list[ConditionType]:
        """The conditions the GM puts on a fighter in two taps (the console's list), each with
        its rule text and the modifiers it carries: those the game's rules define, then the
        campaign's table conditions (a house rule). By default none: free text only."""
        return []

    # The rolls a condition's modifier may weigh on: those this system's plans read (the
    # names of ``apps.encounters.conditions.Roll``).
    condition_rolls: tuple[str, ...] = (
        "attack",
        "defence",
        "test",
        "damage",
        "magic",
        "initiative",
        "attacked",
    )
    # In the units the engine adds a modifier in ("" for EW's NA, " dé" for Aethoria's
    # pools): how a condition's modifiers are written.
    modifier_unit: str = ""

    def situational_modifiers(
        self, combatant: Combatant, roll: str, *, against: Combatant | None = None
    ) -> list[Modifier]:
        """What the situation adds to a roll of ``combatant`` of that kind (``ROLL_KINDS`` of
        ``apps.encounters.conditions``: attack, defence, test, damage, magic...), ``against``
        the fighter it attacks: a stance, cover... in the units the system's engine adds to
        its modifiers. Every plan function of the system asks it, through
        ``kit.situational``, which adds the fighters' conditions first: the odds shown and
        the roll made read the same modifiers. By default nothing."""
        return []

    @abstractmethod
    def correctable_pools(self, sheet, house) -> list[PoolField]:
        """The sheet's pools the GM may correct by hand in a fight, with their ranges."""

    def row_tools(self, combatant: Combatant, house) -> list[RowTool]:
        """The system's own GM tools on a fighter's row, when they apply. By default none."""
        return []

    @abstractmethod
    def summary_extras(self, encounter: Encounter) -> dict:
        """What the end-of-fight summary adds for this system (effects left undecided...)."""

    # --- The console ------------------------------------------------------------------------

    @abstractmethod
    def fighter_row(self, combatant: Combatant, house) -> tuple[list[Bar], list[str]]:
        """A fighter's pools as bars and its fight state as short notes (order list)."""

    def lasting_notes(self, combatant: Combatant, house) -> list[str]:
        """What the players' table tells of any fighter's state beyond its health word, NPCs
        included: the lasting effects the GM decided (a fracture, a bleeding wound), in
        words, never a number. By default none."""
        return []

    @abstractmethod
    def load_console_fight(self, encounter: Encounter, *, test_panel: bool) -> list[Combatant]:
        """The fight as the console shows it (with what its open panels read)."""

    @abstractmethod
    def console_forms(
        self,
        encounter: Encounter,
        combatants: list[Combatant],
        acting: Combatant | None,
        forms: dict,
        *,
        test_panel: bool,
    ) -> None:
        """Add the unbound forms of the actions panel to ``forms`` (bound ones are kept)."""

    @abstractmethod
    def console_extras(
        self, encounter: Encounter, acting: Combatant | None, forms: dict, *, actions: bool
    ) -> dict[str, Any]:
        """The actions panel's other context (odds of the default attack, offers...)."""

    @abstractmethod
    def request_panel(
        self, encounter: Encounter, combatant: Combatant, request: dict, params
    ) -> dict[str, Any]:
        """The player's "À toi" panel for a roll request of this system's (a defence, an
        attack; initiative is the framework's): ``template`` and its context — the request in
        words, each choice the rules give the player with its odds (never an NPC's numbers,
        none at all against an NPC when the house rule hides them), the dice fields.
        ``params``: the choices the player is trying (a GET's values)."""

    @abstractmethod
    def request_answer(
        self, *, encounter_id: int, combatant_id: int, data, by, take_over: bool
    ) -> Event:
        """Answer a request of this system's from the posted ``data`` (the request's id,
        the choices, typed faces or none for the app's dice): the system's own step, with
        the request closed in it (``kit.close_request``). ``take_over``: the GM rolls in the
        player's place. Refusals are ``EncounterError`` and change nothing."""

    def kept_panel(self, encounter: Encounter, step, acting, combatants) -> dict | None:
        """After an undo or a redo (``step``, a ``StepDone``) that leaves the actions panel's
        forms as the GM left them, the context of what the answer still refreshes in it (the
        odds of the same action again, the offers: ``kept_panel_offers``); None, by default:
        the whole panel is drawn again."""
        return None

    def npc_target_for_players(self, kind: str, data: dict) -> dict:
        """An event's data (of that ``kind``) as the players' table reads it when its target
        is an NPC: what the line tells of the NPC's numbers (its exact damage, its armour,
        its scores, the fatigue it spent to defend) left out, the state words kept. The GM's
        log keeps everything. By default the data as it is."""
        return data

    def npc_actor_for_players(self, kind: str, data: dict) -> dict:
        """The same when the event's actor is an NPC: what it spent or lost (PV, fatigue,
        the power it put in), its own scores, left out or replaced by
        ``apps.encounters.log.SECRET`` (the line then says that it happened, not how much);
        the roll's faces, successes and outcome kept. By default the data as it is."""
        return data

    @abstractmethod
    def log_writers(self) -> dict:
        """{event kind: function(data) -> sentence} for this system's events."""

    def players_log_writers(self) -> dict:
        """{event kind: function(data) -> sentence or None} for the events the players'
        table tells otherwise than the GM's log: what the GM has yet to decide left out (a
        severe effect proposed), a decision in the table's words; None: the players read no
        line of it. By default none: the GM's sentence, on the players' data."""
        return {}

    def unseen_actor_writers(self) -> dict:
        """{event kind: function(data) -> sentence or None} for a step whose actor the players
        do not see (a hidden NPC): what became of the visible fighter it touched, without
        the actor's name ("Marco reçoit un coup…"); None, or a kind left out: no line. By
        default none."""
        return {}

    @abstractmethod
    def urlpatterns(self) -> list[URLPattern]:
        """The routes of this system's console actions (in the ``encounters`` namespace)."""

    def sheet_urlpatterns(self) -> list[URLPattern]:
        """The routes of this system's own spends from a sheet (EW's point d'éclat), in the
        ``characters`` namespace, under ``/personnages/``; each answers 404 on a character of
        another system. By default none."""
        return []

    # --- The demo ---------------------------------------------------------------------------

    def demo_campaign(self, *, gm: User, players: Sequence[User]) -> Campaign:
        """Build the demo campaign named ``demo_campaign_name``: ``gm`` leads it, each of
        ``players`` (the demo's, in order) joins it and plays a PC, with NPCs and a fight
        ready to start. Only asked of a system that names a demo campaign."""
        raise NotImplementedError(f"{self.code} names no demo campaign.")


def required_attributes() -> list[str]:
    """The class attributes ``GameSystem`` declares without a default value."""
    return [name for name in GameSystem.__annotations__ if name not in vars(GameSystem)]
