"""Small input checks shared by the rules modules; each raises a `RulesError` subclass."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from apps.rules.errors import InvalidValue, RulesError, fr


@dataclass(frozen=True)
class Problem:
    """One broken rule of a character's creation, naming the input field it concerns (every
    system's creation checks speak this shape).

    Like a `RulesError`, it keeps the French format string (`template`, marked with `fr`) and
    `params` its message was built from, for the app to translate; the app's own problems
    leave them empty (their message is already in the viewer's language)."""

    field: str
    code: str
    message: str
    template: str = ""
    params: Mapping[str, Any] = field(default_factory=dict, compare=False)


def is_int(value: object) -> TypeGuard[int]:
    """True for a real integer (a bool is not a number of dice)."""
    return isinstance(value, int) and not isinstance(value, bool)


def require_int(
    value: object,
    *,
    field: str,
    label: str | None = None,
    low: int | None = None,
    high: int | None = None,
    error: type[RulesError] = InvalidValue,
) -> int:
    """Return `value` if it is an int within [low, high], else raise `error` naming the field.

    `label` is the French name of the value, marked with `fr` so that it is translated too."""
    params = {"label": label or field, "value": value, "low": low, "high": high}
    if not is_int(value):
        raise error(
            fr("%(label)s : un nombre entier est attendu (reçu : %(value)r)."),
            field=field,
            params=params,
        )
    assert isinstance(value, int)
    if low is not None and high is not None and not low <= value <= high:
        raise error(
            fr("%(label)s : valeur attendue entre %(low)s et %(high)s (reçu : %(value)s)."),
            field=field,
            params=params,
        )
    if low is not None and value < low:
        raise error(
            fr("%(label)s : valeur attendue d'au moins %(low)s (reçu : %(value)s)."),
            field=field,
            params=params,
        )
    if high is not None and value > high:
        raise error(
            fr("%(label)s : valeur attendue d'au plus %(high)s (reçu : %(value)s)."),
            field=field,
            params=params,
        )
    return value


def require_ints(
    values: object,
    *,
    field: str,
    label: str,
    error: type[RulesError] = InvalidValue,
) -> tuple[int, ...]:
    """Return `values` as a tuple if it is a list of ints (modifiers...), else raise `error`."""
    if isinstance(values, str | bytes | Mapping) or not isinstance(values, Iterable):
        raise error(
            fr("%(label)s : une liste de nombres entiers est attendue (reçu : %(value)r)."),
            field=field,
            params={"label": label, "value": values},
        )
    return tuple(require_int(value, field=field, label=label, error=error) for value in values)


def require_bool(
    value: object, *, field: str, label: str | None = None, error: type[RulesError] = InvalidValue
) -> bool:
    """Return `value` if it is a bool, else raise `error`."""
    if not isinstance(value, bool):
        raise error(
            fr("%(label)s : vrai ou faux est attendu (reçu : %(value)r)."),
            field=field,
            params={"label": label or field, "value": value},
        )
    return value


def require_choice(
    value: object,
    choices: Collection[str],
    *,
    field: str,
    label: str | None = None,
    error: type[RulesError] = InvalidValue,
) -> str:
    """Return `value` if it is one of `choices`, else raise `error` listing them."""
    if not isinstance(value, str) or value not in choices:
        raise error(
            fr("%(label)s : une de ces valeurs est attendue : %(allowed)s (reçu : %(value)r)."),
            field=field,
            params={
                "label": label or field,
                "value": value,
                "choices": sorted(choices),
                "allowed": ", ".join(sorted(choices)),
            },
        )
    return value


def require_text(
    value: object, *, field: str, label: str | None = None, error: type[RulesError] = InvalidValue
) -> str:
    """Return `value` if it is a non-blank string, else raise `error`."""
    if not isinstance(value, str) or not value.strip():
        raise error(
            fr("%(label)s : un texte non vide est attendu (reçu : %(value)r)."),
            field=field,
            params={"label": label or field, "value": value},
        )
    return value


def tuples_from_json(
    value: object, *, field: str, size: int, error: type[RulesError] = InvalidValue
) -> tuple[tuple[Any, ...], ...]:
    """Turn a JSON list of lists into a tuple of `size`-tuples (kept hashable and immutable)."""
    message = fr("La valeur %(field)s doit être une liste d'entrées de %(size)s éléments.")
    params = {"field": field, "size": size}
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise error(message, field=field, params=params)
    out = []
    for item in value:
        if isinstance(item, str | bytes) or not isinstance(item, Sequence) or len(item) != size:
            raise error(message, field=field, params=params)
        out.append(tuple(item))
    return tuple(out)


def require_labelled_values(
    pairs: object,
    *,
    field: str,
    label: str,
    low: int,
    high: int,
    error: type[RulesError] = InvalidValue,
    allow_empty: bool = False,
) -> None:
    """Check a tuple of (label, int) pairs (non-empty unless ``allow_empty``) with unique
    labels and values in range."""
    if not isinstance(pairs, tuple) or (not pairs and not allow_empty):
        raise error(
            fr("%(label)s : au moins une entrée est nécessaire."),
            field=field,
            params={"label": label},
        )
    seen = set()
    for pair in pairs:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise error(
                fr("%(label)s : chaque entrée est une paire (libellé, valeur)."),
                field=field,
                params={"label": label},
            )
        name, value = pair
        # The entry's own name is data (a band, a difficulty): the label around it is not.
        params = {"label": label, "name": name, "value": value, "low": low, "high": high}
        if not isinstance(name, str) or not name.strip():
            raise error(
                fr("%(label)s (libellé) : un texte non vide est attendu (reçu : %(value)r)."),
                field=field,
                params={**params, "value": name},
            )
        if not is_int(value):
            raise error(
                fr("%(label)s (%(name)s) : un nombre entier est attendu (reçu : %(value)r)."),
                field=field,
                params=params,
            )
        if not low <= value <= high:
            raise error(
                fr(
                    "%(label)s (%(name)s) : valeur attendue entre %(low)s et %(high)s "
                    "(reçu : %(value)s)."
                ),
                field=field,
                params=params,
            )
        if name in seen:
            raise error(
                fr("%(label)s : « %(name)s » est en double."),
                field=field,
                params={"label": label, "name": name},
            )
        seen.add(name)
