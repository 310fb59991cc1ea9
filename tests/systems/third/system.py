"""The test-only third game system wired into the generic apps: every hook of
``GameSystem``, as small as a system can be (two characteristics, one pool, one action)."""

from __future__ import annotations

from apps.characters.bars import Bar
from apps.encounters.kit import EncounterError, Roll, load_combatants, situational
from apps.systems.base import GameSystem, InitiativeResult, PoolField

from . import demo, services, urls
from .forms import CoupForm, ThirdCreationForm
from .models import ThirdSheet
from .rules import COUP_NEEDS, EPREUVE_NEEDS, ThirdHouseRules, chance


def _sheet(combatant) -> ThirdSheet:
    return combatant.character.third


def _coup_line(data: dict) -> str:
    if "souffle" not in data:
        return "{actor} manque {target} ({face}).".format(**data)
    line = "{actor} frappe {target} (souffle {souffle}).".format(**data)
    return line + (" {target} est sonné.".format(**data) if data.get("sonne") else "")


def _epreuve_line(data: dict) -> str:
    verdict = "réussit" if data["passed"] else "rate"
    return f"{data['actor']} {verdict} son épreuve ({data['face']})."


class ThirdSystem(GameSystem):
    code = "third"
    label = "Troisième"
    house_rules_class = ThirdHouseRules
    sheet_name = "third"
    initiative_sides = 6
    live_pool_fields = ("souffle",)
    summary_pool_fields = ("souffle",)
    actions_template = "systems/third/_actions.html"
    sheet_template = "systems/third/_sheet.html"
    sheet_actions_template = "systems/third/_sheet_actions.html"
    creation_template = "systems/third/create.html"
    no_xp_costs = "Le Troisième ne vend rien contre de l'XP."
    condition_rolls = ("attack", "test", "initiative")
    no_resolution_grid = "Le Troisième joue sans table."
    demo_campaign_name = demo.DEMO_CAMPAIGN

    def default_house_rules(self) -> ThirdHouseRules:
        return ThirdHouseRules()

    def house_rule_labels(self) -> dict[str, str]:
        return {"coup": "Souffle qu'un coup prend"}

    def health(self, sheet, house) -> str:
        return "à bout de souffle" if sheet.souffle == 0 else "en forme"

    def pool_bars(self, sheet, house) -> list[Bar]:
        return [Bar("souffle", "Souffle", sheet.souffle, sheet.souffle_max)]

    def pool_labels(self) -> dict[str, str]:
        return {"souffle": "souffle"}

    def sheet_context(self, sheet, house) -> dict:
        return {"characteristics": [("Vigueur", sheet.vigueur), ("Adresse", sheet.adresse)]}

    def creation_form(self, data, *, campaign, npc: bool):
        return ThirdCreationForm(data)

    def edit_form(self, data, *, character):
        sheet = character.third
        initial = {"name": character.name, "concept": character.concept}
        return ThirdCreationForm(data, initial={**initial, "vigueur": sheet.vigueur})

    def character_create(self, *, campaign, form, owner, is_template: bool):
        return services.character_create(
            campaign=campaign, form=form, owner=owner, is_template=is_template
        )

    def character_update(self, *, character, form, by) -> None:
        raise NotImplementedError  # not part of the proof

    def demo_campaign(self, *, gm, players):
        return demo.demo_campaign(gm=gm, players=players)

    def copy_gear(self, source, sheet) -> None:
        pass  # no gear

    def rest(self, sheet, house, *, health: bool, resources: bool) -> None:
        if health:
            sheet.souffle = sheet.souffle_max
            sheet.save(update_fields=["souffle"])

    def transfer_refs(self) -> tuple[tuple, tuple]:
        return (), ()

    def export_lookups(self) -> tuple[list[str], list]:
        return [], []

    def sheet_model(self):
        return ThirdSheet

    def gear_lookups(self) -> list:
        return []

    def is_out(self, combatant, house) -> bool:
        return _sheet(combatant).souffle == 0

    def is_dead(self, combatant, house) -> bool:
        return False  # out of breath, never dead

    def initiative_order(
        self, combatants, faces, draws, house, bonuses=None
    ) -> list[InitiativeResult]:
        """The d6 plus adresse (plus the situation), highest first; a draw breaks ties."""
        bonuses = bonuses or {}
        results = [
            InitiativeResult(
                c.pk,
                faces[c.pk],
                faces[c.pk] + _sheet(c).adresse + bonuses.get(c.pk, 0),
                draws.draw(),
            )
            for c in combatants
        ]
        return sorted(results, key=lambda r: (-r.total, r.draw))

    def initiative_each_round(self, round_number: int, house) -> bool:
        return round_number == 1

    def fresh_state(self) -> dict:
        return {}

    def begin_round(self, step, combatants) -> None:
        pass

    def begin_turn(self, step, combatants) -> dict:
        return {}

    def correctable_pools(self, sheet, house) -> list[PoolField]:
        return [PoolField("souffle", "Souffle", 0, sheet.souffle_max)]

    def summary_extras(self, encounter) -> dict:
        return {}

    def fighter_row(self, combatant, house):
        return self.pool_bars(_sheet(combatant), house), []

    def load_console_fight(self, encounter, *, test_panel: bool):
        return load_combatants(encounter)

    def console_forms(self, encounter, combatants, acting, forms, *, test_panel: bool) -> None:
        forms.setdefault("third_coup", CoupForm(initial={"version": encounter.version}))

    # The third system sends no roll of its own to a player (initiative is the framework's).
    def request_panel(self, encounter, combatant, request: dict, params) -> dict:
        return {"template": "encounters/_my_turn.html#no-request"}

    def request_answer(self, *, encounter_id, combatant_id, data, by, take_over: bool):
        raise EncounterError("Ce système n'envoie pas ce jet aux joueurs.", "request")

    def console_extras(self, encounter, acting, forms, *, actions: bool) -> dict:
        fighters = load_combatants(encounter)
        targets = [c for c in fighters if acting is None or c.pk != acting.pk]
        extras: dict = {"third_targets": targets}
        if acting is not None and targets:
            # The odds of the coup on the first target and of an épreuve, situation included.
            acting = next(c for c in fighters if c.pk == acting.pk)
            coup = situational(self, acting, Roll.ATTACK, against=targets[0])
            epreuve = situational(self, acting, Roll.TEST)
            extras["coup_odds"] = chance(
                _sheet(acting).adresse, [m.value for m in coup], COUP_NEEDS
            )
            extras["epreuve_odds"] = chance(
                _sheet(acting).vigueur, [m.value for m in epreuve], EPREUVE_NEEDS
            )
            extras["situation"] = coup + epreuve
        return extras

    def log_writers(self) -> dict:
        return {"third_coup": _coup_line, "third_epreuve": _epreuve_line}

    def urlpatterns(self) -> list:
        return urls.urlpatterns


THIRD = ThirdSystem()
