"""EW-System wired into the generic apps: every hook of ``GameSystem``, filled from the
modules of this folder and the rules engine (``apps.rules.ew``)."""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Prefetch
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from apps.characters.models import EwSheet, EwSpecialtyRank
from apps.compendium.models import EwResolutionTable, EwWeapon, EwWeaponKind
from apps.encounters.kit import ConditionType, table_conditions
from apps.rules import ew
from apps.systems.base import GameSystem, InitiativeResult

from . import (
    console,
    creation,
    creation_forms,
    demo,
    grid,
    house_rules,
    log,
    requests,
    sheet,
    transfer,
    urls,
    xp,
)
from .state import FighterState


def _pools(combatant) -> ew.EwPools:
    return combatant.character.ew.pools()


class EwSystem(GameSystem):
    code = "ew"
    label = "EW-System"
    house_rules_class = ew.EwHouseRules
    sheet_name = "ew"
    initiative_sides = 10
    live_pool_fields = ("superficial_left", "lethal_left", "eclat", "eclat_max")
    summary_pool_fields = ("superficial_left", "lethal_left", "eclat")
    fighter_relations = ("armour",)
    actions_template = "systems/ew/_actions.html"
    kept_panel_offers = "systems/ew/_actions.html#ew-kept-offers"
    sheet_relations = ("ew__archetype", "ew__armour")
    sheet_template = "systems/ew/_sheet.html"
    sheet_actions_template = "systems/ew/_sheet_actions.html"
    has_resolution_grid = True
    resolution_grid_template = "systems/ew/grid.html"
    creation_template = "systems/ew/create.html"
    demo_campaign_name = demo.DEMO_CAMPAIGN

    def default_house_rules(self) -> ew.EwHouseRules:
        """The rules' defaults, with the admin's default resolution grid when it is not the
        formula's."""
        table = ew.ResolutionTable.from_grid(EwResolutionTable.default_grid())
        return ew.EwHouseRules(resolution_grid=None if table.is_default() else table.grid)

    def house_rule_labels(self) -> dict:
        return house_rules.LABELS

    def house_rule_choices(self) -> dict:
        return house_rules.CHOICES

    def house_rule_kinds(self) -> dict:
        return house_rules.KINDS

    def resolution_grid_form(self, data, *, campaign) -> grid.ResolutionGridForm:
        return grid.ResolutionGridForm(data, campaign=campaign)

    def health(self, sheet_, house) -> str:
        return sheet.health(sheet_.pools())

    def pool_bars(self, sheet_, house) -> list:
        return sheet.pool_bars(sheet_)

    # EW's plans read no modifier on damage (its dice are the weapon's) and it has no spell.
    condition_rolls = ("attack", "defence", "test", "initiative", "attacked")

    def condition_catalogue(self, house) -> list[ConditionType]:
        # The rules define no lasting state beyond those the console tracks itself (wounds,
        # unconscious, total attack or defence): the list is the campaign's table conditions.
        return table_conditions(
            house.condition_values,
            _(
                "État de la table (règle maison de la campagne) : %(value)s au NA, %(rolls)s. "
                "Les règles comptent tout modificateur de situation sur le NA."
            ),
            self.condition_rolls,
        )

    def pool_labels(self) -> dict[str, str]:
        return {
            "superficial_left": _("points superficiels"),
            "lethal_left": _("points létaux"),
            "eclat": _("points d'éclat"),
        }

    def pool_amount(self, field_name: str, amount: int) -> str | None:
        words = {
            "superficial_left": lambda n: ngettext(
                "%(n)s point superficiel", "%(n)s points superficiels", n
            ),
            "lethal_left": lambda n: ngettext("%(n)s point létal", "%(n)s points létaux", n),
            "eclat": lambda n: ngettext("%(n)s point d'éclat", "%(n)s points d'éclat", n),
        }.get(field_name)
        return words(amount) % {"n": amount} if words else None

    def sheet_context(self, sheet_, house) -> dict:
        return sheet.sheet_context(sheet_, house)

    def creation_form(self, data, *, campaign, npc: bool):
        return creation_forms.EwCreationForm(data, campaign=campaign, npc=npc)

    def edit_form(self, data, *, character):
        return creation_forms.EwEditForm(data, character=character)

    def character_create(self, *, campaign, form, owner, is_template: bool):
        return creation.character_create(
            campaign=campaign, form=form, owner=owner, is_template=is_template
        )

    def character_update(self, *, character, form, by) -> None:
        creation.character_update(character=character, form=form, by=by)

    def demo_campaign(self, *, gm, players):
        return demo.demo_campaign(gm=gm, players=players)

    def xp_costs(self) -> xp.EwXpCosts:
        return xp.EW_XP_COSTS

    def copy_gear(self, source, sheet_) -> None:
        sheet.copy_gear(source, sheet_)

    def rest(self, sheet_, house, *, health: bool, resources: bool) -> None:
        sheet.rest(sheet_, health=health, resources=resources)

    def transfer_refs(self) -> tuple[tuple, tuple]:
        return transfer.REFS, transfer.RANKS

    def transfer_finders(self) -> dict:
        return transfer.FINDERS

    def export_lookups(self) -> tuple[list[str], list]:
        return transfer.export_lookups()

    def sheet_model(self):
        return EwSheet

    def gear_lookups(self) -> list:
        # Each rank says whether it is the specialty of bare hands (the compendium's fists):
        # fists are always at hand, to strike and to defend (defaults.py).
        fists = EwWeapon.objects.filter(kind=EwWeaponKind.FISTS, specialty=OuterRef("specialty"))
        specialties = EwSpecialtyRank.objects.select_related("specialty").annotate(
            bare_hands=Exists(fists)
        )
        return ["weapons", Prefetch("specialties", queryset=specialties)]

    def is_out(self, combatant, house) -> bool:
        """Unconscious or dead."""
        pools = _pools(combatant)
        return pools.unconscious or pools.dead

    def is_dead(self, combatant, house) -> bool:
        return _pools(combatant).dead

    def initiative_order(
        self, combatants, faces, draws, house, bonuses=None
    ) -> list[InitiativeResult]:
        """The d10 plus COM, every round (``ew.initiative_order`` breaks the ties)."""
        bonuses = bonuses or {}
        rolls = [
            ew.EwInitiativeRoll(
                key=c.pk,
                com=c.character.ew.derived(house.rounding).com,
                roll=faces[c.pk],
                draw=draws.draw(),
                modifier=bonuses.get(c.pk, 0),
            )
            for c in combatants
        ]
        return [
            InitiativeResult(roll.key, roll.roll, roll.total, roll.draw)
            for roll in ew.initiative_order(rolls, house)
        ]

    def initiative_each_round(self, round_number: int, house) -> bool:
        return True

    def fresh_state(self) -> dict:
        return FighterState().to_json()

    def begin_round(self, step, combatants) -> None:
        """Each round's actions (attacks, defences, stance) start afresh."""
        for combatant in combatants:
            step.set(combatant, "state", self.fresh_state())

    def begin_turn(self, step, combatants) -> dict:
        return {}  # an EW turn changes nothing by itself

    def correctable_pools(self, sheet_, house) -> list:
        return sheet.correctable_pools(sheet_)

    def summary_extras(self, encounter) -> dict:
        return {}

    def fighter_row(self, combatant, house):
        return console.fighter_row(combatant, house)

    def load_console_fight(self, encounter, *, test_panel: bool):
        return console.load_console_fight(encounter, test_panel=test_panel)

    def console_forms(self, encounter, combatants, acting, forms, *, test_panel: bool) -> None:
        console.console_forms(encounter, combatants, acting, forms, test_panel=test_panel)

    def console_extras(self, encounter, acting, forms, *, actions: bool) -> dict:
        return console.console_extras(encounter, acting, forms, actions=actions)

    def request_panel(self, encounter, combatant, request: dict, params) -> dict:
        return requests.panel(encounter, combatant, request, params)

    def request_answer(self, *, encounter_id, combatant_id, data, by, take_over: bool):
        return requests.answer_posted(
            encounter_id=encounter_id,
            combatant_id=combatant_id,
            data=data,
            by=by,
            take_over=take_over,
        )

    def kept_panel(self, encounter, step, acting, combatants) -> dict | None:
        return console.kept_panel(encounter, step, acting, combatants)

    def log_writers(self) -> dict:
        return log.EW_WRITERS

    def unseen_actor_writers(self) -> dict:
        return log.EW_UNSEEN_ACTOR_WRITERS

    def npc_target_for_players(self, kind: str, data: dict) -> dict:
        return log.npc_target_for_players(kind, data)

    def npc_actor_for_players(self, kind: str, data: dict) -> dict:
        return log.npc_actor_for_players(kind, data)

    def urlpatterns(self) -> list:
        return urls.urlpatterns

    def sheet_urlpatterns(self) -> list:
        return urls.sheet_urlpatterns


EW = EwSystem()
