"""A big fight's order, folded on the server: the rows the GM does not deal with now are
drawn light — who, their initiative, their state in words, their conditions — without their
bars, their buttons and their tools, so that the console of a fight of a hundred costs little
more than one of ten (issue #33). Which rows stay whole is the rule console.js folds by on
a tablet held upright: the acting fighter, the next two still standing, and the target of
the attack form.

The GM asks for every row whole ("Voir les N combattants résumés en entier" under the order,
or the order's toggle on an upright tablet): the link's ``?ordre=tout`` (without JavaScript),
then the header ``Tablee-Order: full`` every request of the tab carries (static/js/console.js).
"""

from __future__ import annotations

from .fighters import is_out
from .models import Combatant

# Up to this many fighters the whole order is drawn (the client folds it on a tablet).
FOLD_FROM = 24
FULL_ORDER_PARAMETER = ("ordre", "tout")
FULL_ORDER_HEADER = ("Tablee-Order", "full")


def asks_full_order(request) -> bool:
    """Whether the GM asked to see every row whole."""
    name, value = FULL_ORDER_PARAMETER
    header, wanted = FULL_ORDER_HEADER
    return request.GET.get(name) == value or request.headers.get(header) == wanted


def is_big(combatants: list[Combatant]) -> bool:
    return len(combatants) > FOLD_FROM


def near_rows(
    combatants: list[Combatant], acting: Combatant | None, house, forms: dict
) -> set[int]:
    """The fighters the GM deals with now: the acting one, the next two still standing
    (the order wraps into the next round) and any target a form of the panel is drawn for."""
    if acting is None:
        return set()
    near = {acting.pk}
    start = combatants.index(acting)
    for offset in range(1, len(combatants)):
        if len(near) == 3:
            break
        fighter = combatants[(start + offset) % len(combatants)]
        if not is_out(fighter, house):
            near.add(fighter.pk)
    near.update(
        form.target_id for form in forms.values() if getattr(form, "target_id", None) is not None
    )
    return near


def light_rows(
    request, combatants: list[Combatant], acting: Combatant | None, house, forms: dict
) -> set[int]:
    """The fighters whose row the whole console draws light (none in a small fight, or
    once the GM asked for the whole order)."""
    if acting is None or not is_big(combatants) or asks_full_order(request):
        return set()
    near = near_rows(combatants, acting, house, forms)
    return {c.pk for c in combatants if c.pk not in near}
