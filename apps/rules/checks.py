"""Small input checks shared by the rules modules; each raises a `RulesError` subclass."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import Any, TypeGuard

from apps.rules.errors import InvalidValue, RulesError


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
    """Return `value` if it is an int within [low, high], else raise `error` naming the field."""
    name = label or field
    params = {"value": value, "low": low, "high": high}
    if not is_int(value):
        raise error(
            f"{name} doit être un nombre entier (reçu : {value!r}).", field=field, params=params
        )
    assert isinstance(value, int)
    if low is not None and high is not None and not low <= value <= high:
        raise error(
            f"{name} doit être compris entre {low} et {high} (reçu : {value}).",
            field=field,
            params=params,
        )
    if low is not None and value < low:
        raise error(
            f"{name} doit valoir au moins {low} (reçu : {value}).", field=field, params=params
        )
    if high is not None and value > high:
        raise error(
            f"{name} doit valoir au plus {high} (reçu : {value}).", field=field, params=params
        )
    return value


def require_bool(
    value: object, *, field: str, label: str | None = None, error: type[RulesError] = InvalidValue
) -> bool:
    """Return `value` if it is a bool, else raise `error`."""
    if not isinstance(value, bool):
        name = label or field
        raise error(
            f"{name} doit valoir vrai ou faux (reçu : {value!r}).",
            field=field,
            params={"value": value},
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
        name = label or field
        allowed = ", ".join(sorted(choices))
        raise error(
            f"{name} doit être l'une des valeurs : {allowed} (reçu : {value!r}).",
            field=field,
            params={"value": value, "choices": sorted(choices)},
        )
    return value


def require_text(
    value: object, *, field: str, label: str | None = None, error: type[RulesError] = InvalidValue
) -> str:
    """Return `value` if it is a non-blank string, else raise `error`."""
    if not isinstance(value, str) or not value.strip():
        name = label or field
        raise error(
            f"{name} doit être un texte non vide (reçu : {value!r}).",
            field=field,
            params={"value": value},
        )
    return value


def tuples_from_json(
    value: object, *, field: str, size: int, error: type[RulesError] = InvalidValue
) -> tuple[tuple[Any, ...], ...]:
    """Turn a JSON list of lists into a tuple of `size`-tuples (kept hashable and immutable)."""
    message = f"La valeur {field} doit être une liste d'entrées de {size} éléments."
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise error(message, field=field)
    out = []
    for item in value:
        if isinstance(item, str | bytes) or not isinstance(item, Sequence) or len(item) != size:
            raise error(message, field=field)
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
) -> None:
    """Check a non-empty tuple of (label, int) pairs with unique labels and values in range."""
    if not isinstance(pairs, tuple) or not pairs:
        raise error(f"{label} : au moins une entrée est nécessaire.", field=field)
    seen = set()
    for pair in pairs:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise error(f"{label} : chaque entrée est une paire (libellé, valeur).", field=field)
        name, value = pair
        require_text(name, field=field, label=f"{label} (libellé)", error=error)
        require_int(value, field=field, label=f"{label} ({name})", low=low, high=high, error=error)
        if name in seen:
            raise error(f"{label} : « {name} » est en double.", field=field)
        seen.add(name)
