"""Aethoria wired into the generic apps: every hook of ``GameSystem``, filled from the
modules of this folder and the rules engine (``apps.rules.aethoria``)."""

from __future__ import annotations

from django.db.models import Prefetch
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from apps.characters.models import AethoriaSheet, AethoriaSkillRank
from apps.encounters.kit import ConditionType, table_conditions
from apps.rules import aethoria
from apps.systems.base import GameSystem, InitiativeResult

from . import (
    bleeding,
    conditions,
    console,
    creation,
    creation_forms,
    demo,
    effects,
    fighters,
    house_rules,
    log,
    panel,
    requests,
    sheet,
    transfer,
    turns,
    urls,
)
from .forms import RANGE_LABELS
from .state import FighterState


class AethoriaSystem(GameSystem):
    code = "aethoria"
    label = "Aethoria"
    no_xp_costs = _("Les règles d'Aethoria ne fixent pas de coûts en XP : voyez avec le MJ.")
    # The grid is EW-System's: the GM who asks for it in Aethoria is told where it lives.
    no_resolution_grid = _("Seul EW-System a une table de résolution.")
    house_rules_class = aethoria.AethoriaHouseRules
    sheet_name = "aethoria"
    initiative_sides = 20
    live_pool_fields = ("pv", "fatigue_physical", "fatigue_mental")
    summary_pool_fields = ("pv", "fatigue_physical", "fatigue_mental")
    fighter_relations = ("shield", "domain")
    actions_template = "systems/aethoria/_actions.html"
    summary_template = "systems/aethoria/_summary.html"
    sheet_relations = ("aethoria__domain", "aethoria__god", "aethoria__shield")
    sheet_template = "systems/aethoria/_sheet.html"
    sheet_actions_template = "systems/aethoria/_sheet_actions.html"
    creation_template = "systems/aethoria/create.html"
    demo_campaign_name = demo.DEMO_CAMPAIGN

    def default_house_rules(self) -> aethoria.AethoriaHouseRules:
        return aethoria.AethoriaHouseRules()

    def house_rule_labels(self) -> dict:
        return house_rules.LABELS

    def house_rule_kinds(self) -> dict:
        return house_rules.KINDS

    def health(self, sheet_, house) -> str:
        return sheet.health(sheet_, house)

    def pool_bars(self, sheet_, house) -> list:
        return sheet.pool_bars(sheet_, house)

    modifier_unit = _(" dé")

    def condition_catalogue(self, house) -> list[ConditionType]:
        return [
            *conditions.by_the_rules(house),
            *table_conditions(
                house.condition_values,
                gettext(
                    "État de la table (règle maison de la campagne) : %(value)s dé(s) %(rolls)s."
                ),
            ),
        ]

    def pool_labels(self) -> dict[str, str]:
        return {
            "pv": _("PV"),
            "fatigue_physical": _("fatigue physique"),
            "fatigue_mental": _("fatigue mentale"),
        }

    def sheet_context(self, sheet_, house) -> dict:
        return sheet.sheet_context(sheet_, house)

    def creation_form(self, data, *, campaign, npc: bool):
        return creation_forms.AethoriaCreationForm(data, campaign=campaign, npc=npc)

    def edit_form(self, data, *, character):
        return creation_forms.AethoriaEditForm(data, character=character)

    def character_create(self, *, campaign, form, owner, is_template: bool):
        return creation.character_create(
            campaign=campaign, form=form, owner=owner, is_template=is_template
        )

    def character_update(self, *, character, form, by) -> None:
        creation.character_update(character=character, form=form, by=by)

    def demo_campaign(self, *, gm, players):
        return demo.demo_campaign(gm=gm, players=players)

    def copy_gear(self, source, sheet_) -> None:
        sheet.copy_gear(source, sheet_)

    def rest(self, sheet_, house, *, health: bool, resources: bool) -> None:
        sheet.rest(sheet_, house, health=health, resources=resources)

    def transfer_refs(self) -> tuple[tuple, tuple]:
        return transfer.REFS, transfer.RANKS

    def export_lookups(self) -> tuple[list[str], list]:
        return transfer.export_lookups()

    def sheet_model(self):
        return AethoriaSheet

    def gear_lookups(self) -> list:
        skills = AethoriaSkillRank.objects.select_related("skill")
        return ["weapons", "armour_pieces__coverages", Prefetch("skills", queryset=skills)]

    def sheet_annotations(self) -> dict:
        """The armour, read with each fighter by a step's lock query (a blow's RD)."""
        return {fighters.WORN_ARMOUR: fighters.worn_armour()}

    def is_out(self, combatant, house) -> bool:
        """PV at 0 or below."""
        return combatant.character.aethoria.pv <= 0

    def is_dead(self, combatant, house) -> bool:
        return turns.is_dead(combatant, house)

    def initiative_order(self, combatants, faces, draws, house, bonuses=None) -> list:
        """The d20 alone orders the fighters (Adresse breaks the ties)."""
        bonuses = bonuses or {}
        rolls = [
            aethoria.AethoriaInitiativeRoll(
                key=c.pk,
                adresse=c.character.aethoria.adresse,
                roll=faces[c.pk],
                draw=draws.draw(),
                modifier=bonuses.get(c.pk, 0),
            )
            for c in combatants
        ]
        return [
            InitiativeResult(roll.key, roll.roll, roll.roll + roll.modifier, roll.draw)
            for roll in aethoria.initiative_order(rolls, house)
        ]

    def initiative_each_round(self, round_number: int, house) -> bool:
        return aethoria.initiative_roll_needed(round_number, house)

    def fresh_state(self) -> dict:
        return FighterState().to_json()

    def begin_round(self, step, combatants) -> None:
        pass  # an Aethoria fighter's state renews at the start of its own turn

    def begin_turn(self, step, combatants) -> dict:
        return turns.begin_turn(step, combatants)

    def skipped_turns(self, step, skipped) -> dict:
        return bleeding.skipped_turns(step, skipped)

    def correctable_pools(self, sheet_, house) -> list:
        return sheet.correctable_pools(sheet_, house)

    def row_tools(self, combatant, house) -> list:
        return bleeding.row_tools(combatant, house)

    def summary_extras(self, encounter) -> dict:
        return {
            "undecided": effects.undecided_effects(encounter),
            "lasting": bleeding.lasting_effects(encounter),
        }

    def fighter_row(self, combatant, house):
        return console.fighter_row(combatant, house)

    def lasting_notes(self, combatant, house) -> list[str]:
        return console.lasting_notes(combatant)

    def load_console_fight(self, encounter, *, test_panel: bool):
        return console.load_console_fight(encounter, test_panel=test_panel)

    def console_forms(self, encounter, combatants, acting, forms, *, test_panel: bool) -> None:
        panel.console_forms(encounter, combatants, acting, forms, test_panel=test_panel)

    def console_extras(self, encounter, acting, forms, *, actions: bool) -> dict:
        return {}

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

    def log_writers(self) -> dict:
        return log.AETHORIA_WRITERS

    def players_log_writers(self) -> dict:
        return log.AETHORIA_PLAYERS_WRITERS

    def unseen_actor_writers(self) -> dict:
        return log.AETHORIA_UNSEEN_ACTOR_WRITERS

    def npc_target_for_players(self, kind: str, data: dict) -> dict:
        return log.npc_target_for_players(kind, data)

    def npc_actor_for_players(self, kind: str, data: dict) -> dict:
        return log.npc_actor_for_players(kind, data)

    def house_rule_words(self) -> dict[str, dict[str, str]]:
        locations = {key: log.location_words(key) for key in log.WORDS}
        return {
            "range_band_malus": {key: str(words) for key, words in RANGE_LABELS.items()},
            "hit_locations": locations,
            "instant_death_locations": locations,
        }

    def urlpatterns(self) -> list:
        return urls.urlpatterns

    def sheet_urlpatterns(self) -> list:
        return urls.sheet_urlpatterns


AETHORIA = AethoriaSystem()
