"""The conditions Aethoria's rules define (the console's list puts them first): encombré,
whose dodge malus the defence's plan reads from the campaign's house rules, and the
fractures a severe effect leaves."""

from __future__ import annotations

from django.utils.translation import gettext

from apps.encounters.kit import ConditionType

ENCOMBRE = "encombre"


def by_the_rules(house) -> list[ConditionType]:
    fracture = gettext("Effet grave (fracture) : le membre est inutilisable jusqu'à guérison.")
    return [
        ConditionType(
            key=ENCOMBRE,
            label=gettext("encombré"),
            rule=gettext(
                "Règle : l'esquive est moins efficace quand le personnage est surchargé ou "
                "gêné : %(malus)s dés à l'esquive (règle maison)."
            )
            % {"malus": f"{house.encumbered_dodge_malus:+d}".replace("-", "−")},
            by_the_rules=True,
        ),
        ConditionType(
            key="fracture_bras", label=gettext("bras fracturé"), rule=fracture, by_the_rules=True
        ),
        ConditionType(
            key="fracture_jambe",
            label=gettext("jambe fracturée"),
            rule=fracture,
            by_the_rules=True,
        ),
    ]


def encumbered(combatant) -> bool:
    """Whether the fighter bears the rules' "encombré" (its dodge then takes the malus)."""
    return any(c.get("key") == ENCOMBRE for c in combatant.conditions)
