"""Conditions as the screens show them: the GM's console (everything, with the buttons to take
them off), the players' table view and sheets (what the GM left public; an NPC's modifiers
never), each with the rule text a tap opens."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from apps.systems import system_of

from .conditions import Condition, conditions_of, duration_words, modifier_words
from .fighters import attack_target
from .forms import ConditionForm
from .models import Combatant, Encounter
from .services import acting_combatant


@dataclass(frozen=True)
class ShownCondition:
    id: int
    label: str
    duration: str  # "jusqu'à la fin de son prochain tour"
    modifiers: str  # "−2 à ses attaques et à ses défenses", or ""
    rule: str  # the rule text, shown on tap
    reminder: str
    public: bool


def condition_rules(encounter: Encounter) -> tuple[dict[str, str], str]:
    """The rule text of each condition of the fight's system's list, and the unit its
    modifiers are written in."""
    return condition_rules_of(encounter.campaign)


def condition_rules_of(campaign) -> tuple[dict[str, str], str]:
    system = system_of(campaign)
    catalogue = system.condition_catalogue(campaign.house())
    return {entry.key: entry.rule for entry in catalogue}, str(system.modifier_unit)


def shown_conditions(
    combatant: Combatant,
    names: dict[int, str],
    rules: tuple[dict[str, str], str],
    *,
    players: bool = False,
) -> list[ShownCondition]:
    """A fighter's conditions in words; for ``players``, the public ones only, and an NPC's
    without its modifiers (its numbers are the GM's)."""
    texts, unit = rules
    numbers = not players or combatant.character.is_pc
    return [
        _shown(condition, combatant.pk, names, texts, unit, numbers)
        for condition in conditions_of(combatant)
        if condition.public or not players
    ]


def _shown(
    condition: Condition, bearer: int, names, texts: dict[str, str], unit: str, numbers: bool
) -> ShownCondition:
    return ShownCondition(
        id=condition.id,
        label=condition.label,
        duration=duration_words(condition, bearer, names),
        modifiers=modifier_words(condition, unit) if numbers else "",
        rule=texts.get(condition.key) or _free_rule(),
        reminder=condition.reminder,
        public=condition.public,
    )


def _free_rule() -> str:
    return _("État noté par le MJ : les règles ne le définissent pas.")


def lasting_words(data: list[dict], rules: tuple[dict[str, str], str]) -> list[ShownCondition]:
    """A character's kept conditions (its sheet, between fights)."""
    texts, unit = rules
    shown = []
    for number, item in enumerate(data, start=1):
        condition = Condition.from_json(
            {k: v for k, v in item.items() if k not in ("rounds_left", "from_encounter")}
        )
        if condition.ends == "rounds":
            duration = _("encore %(n)s round(s) au prochain combat") % {
                "n": item.get("rounds_left") or 1
            }
        elif condition.ends == "removed":
            duration = _("jusqu'à ce qu'on le retire")
        else:
            duration = _("jusqu'à son prochain tour au prochain combat")
        shown.append(
            ShownCondition(
                id=number,
                label=condition.label,
                duration=duration,
                modifiers=modifier_words(condition, unit),
                rule=texts.get(
                    condition.key, _("État noté par le MJ : les règles ne le définissent pas.")
                ),
                reminder=condition.reminder,
                public=condition.public,
            )
        )
    return shown


def condition_form(
    encounter: Encounter,
    combatants: list[Combatant],
    *,
    data=None,
    target: Combatant | None = None,
    place: str = "row",
) -> ConditionForm:
    """The form putting a condition: on ``target``'s row (its ids its own: one per row), or
    in the actions panel, where the GM picks whom it is for (``target`` first)."""
    system = system_of(encounter.campaign)
    catalogue = system.condition_catalogue(encounter.campaign.house())
    prefix = f"c{target.pk}" if place == "row" and target is not None else "panel"
    form = ConditionForm(
        data,
        encounter=encounter,
        combatants=combatants,
        catalogue=catalogue,
        initial={
            "version": encounter.version,
            "combatant": target.pk if target else None,
            "place": place,
        },
        auto_id=f"id_{prefix}_%s",
    )
    # Where it shows (a field of that name would hide the attribute from the template).
    form.shown_in = (data or {}).get("place") or place
    form.target_id = target.pk if target is not None else (data or {}).get("combatant", "")
    return form


def panel_target(encounter: Encounter, combatants: list[Combatant]) -> Combatant | None:
    """Whom the actions panel's "put a condition" is for first: whom the acting fighter
    attacks by default (a blow often leaves its target "à terre"), else the acting one."""
    acting = acting_combatant(encounter, combatants)
    if acting is None:
        return None
    others = [c for c in combatants if c.pk != acting.pk]
    return attack_target(_Unbound(), acting, others, encounter.campaign.house()) or acting


class _Unbound:
    """An attack form not posted: ``attack_target`` then picks the default target."""

    is_bound = False
