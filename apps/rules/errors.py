"""Refusals of the rules engine.

Every impossible input raises a subclass of `RulesError`. Each carries a French message fit to
show a user (`message`), a stable `code`, the input `field` it concerns when there is one, and
the French format string (`template`, marked with `fr`) and `params` the message was built
from, so the app layer can show it in the viewer's language (`message == template % params`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class FrenchText(str):
    """A French text of the engine that the app layer may translate (a gettext msgid).

    It is the plain string in every respect; the type only tells the app which params of a
    refusal are words to translate (a label such as "Les PV") rather than data (a name, a
    number).
    """

    __slots__ = ()


def fr(text: str) -> FrenchText:
    """Mark a French text for translation (`makemessages --keyword=fr`); returns it unchanged."""
    return FrenchText(text)


def format_french(template: str, params: Mapping[str, Any]) -> str:
    """The French text of `template` (%-style, named placeholders) filled with `params`."""
    return template % params if params else str(template)


class RulesError(ValueError):
    """Base of every refusal of the rules engine."""

    code: str = "rules_error"

    def __init__(
        self,
        template: str,
        *,
        field: str | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> None:
        self.params: dict[str, Any] = dict(params or {})
        self.template = template
        self.message = format_french(template, self.params)
        super().__init__(self.message)
        self.field = field

    def __str__(self) -> str:
        return self.message


class InvalidFace(RulesError):
    """A die face that the die cannot show (d20 face 0 or 21, d10 face 11...)."""

    code = "invalid_face"


class InvalidPool(RulesError):
    """A negative or absurd number of dice, or faces that do not match the pool."""

    code = "invalid_pool"


class DiceExhausted(RulesError):
    """Scripted dice were asked for more faces than they were given."""

    code = "dice_exhausted"


class InvalidCharacteristic(RulesError):
    """A characteristic outside its range."""

    code = "invalid_characteristic"


class InvalidSpecialty(RulesError):
    """An EW specialty level outside 0..6, or tied to an unknown field."""

    code = "invalid_specialty"


class InvalidSkillRank(RulesError):
    """An Aethoria skill rank outside 0..9."""

    code = "invalid_skill_rank"


class InvalidValue(RulesError):
    """A number the rules cannot accept (negative difficulty, negative PV...)."""

    code = "invalid_value"


class InvalidHouseRules(RulesError):
    """A campaign house-rule value of the wrong type or out of range."""

    code = "invalid_house_rules"


class InvalidResolutionTable(InvalidHouseRules):
    """An EW resolution grid that is too small, ragged or has a cell outside 1..20."""

    code = "invalid_resolution_table"


class InvalidCreation(RulesError):
    """A character creation that breaks at least one rule; `problems` lists every one."""

    code = "invalid_creation"

    def __init__(self, problems: tuple[Any, ...]) -> None:
        super().__init__(
            fr("La création ne respecte pas les règles (%(count)s problème(s))."),
            params={"count": len(problems)},
        )
        self.problems = problems


class InvalidEclatSpend(RulesError):
    """A point d'éclat spend the rules refuse (none left, rescuing a success...)."""

    code = "invalid_eclat_spend"


class InvalidFatigueSpend(RulesError):
    """A fatigue spend outside 1..3, a second spend on one roll, or more than the pool holds."""

    code = "invalid_fatigue_spend"


class InvalidAction(RulesError):
    """An action the turn or round state does not allow."""

    code = "invalid_action"


class InvalidDefence(RulesError):
    """A defence the rules refuse (no defence left, parry against a much stronger foe...)."""

    code = "invalid_defence"


class RollNotAllowed(RulesError):
    """A roll on a rank-0 skill that the GM did not allow."""

    code = "roll_not_allowed"


class InvalidDamage(RulesError):
    """Negative damage, or a revert that does not fit the pools."""

    code = "invalid_damage"


class InvalidWeapon(RulesError):
    """A weapon description the rules cannot use, or a weapon unfit for the action."""

    code = "invalid_weapon"


class InvalidLocation(RulesError):
    """A hit location absent from the campaign's hit-location table."""

    code = "invalid_location"


class InvalidImprovement(RulesError):
    """An experience improvement beyond the limits of the rules."""

    code = "invalid_improvement"


class NotEnoughXp(RulesError):
    """An improvement that costs more experience than the character has."""

    code = "not_enough_xp"


class InvalidSpell(RulesError):
    """A spell with an impossible Pouvoir investment."""

    code = "invalid_spell"


class InvalidInitiative(RulesError):
    """Initiative entries that cannot be ordered (duplicate combatants...)."""

    code = "invalid_initiative"
