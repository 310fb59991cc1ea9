"""Dice: face validation, and the rollers the app injects (the rules never roll by themselves).

Every rules function takes faces as arguments. The app gets them from `SecureDice` (a
cryptographically strong roller), from a player typing physical dice (validated with
`check_faces`), or, in tests, from `ScriptedDice`.
"""

from __future__ import annotations

import secrets
from collections import deque
from collections.abc import Iterable, Sequence
from typing import Protocol, runtime_checkable

from apps.rules.checks import is_int
from apps.rules.errors import DiceExhausted, InvalidFace, InvalidPool, fr

D10 = 10
D20 = 20

# No table situation needs more dice than this; refusing beyond it keeps a typo (or a hostile
# form value) from making the server enumerate millions of faces.
MAX_DICE = 100


def check_dice_count(n: object, *, field: str = "dice") -> int:
    """Return `n` if it is a valid number of dice (0..MAX_DICE), else raise `InvalidPool`."""
    if not is_int(n):
        raise InvalidPool(
            fr("Le nombre de dés doit être un entier (reçu : %(dice)r)."),
            field=field,
            params={"dice": n},
        )
    if n < 0:
        raise InvalidPool(
            fr("Le nombre de dés ne peut pas être négatif (reçu : %(dice)s)."),
            field=field,
            params={"dice": n},
        )
    if n > MAX_DICE:
        raise InvalidPool(
            fr("Le nombre de dés ne peut pas dépasser %(max)s (reçu : %(dice)s)."),
            field=field,
            params={"dice": n, "max": MAX_DICE},
        )
    return n


def check_face(face: object, sides: int, *, field: str = "face") -> int:
    """Return `face` if a d`sides` can show it, else raise `InvalidFace`."""
    if not is_int(face) or not 1 <= face <= sides:
        raise InvalidFace(
            fr("Un d%(sides)s donne un résultat entre 1 et %(sides)s (reçu : %(face)r)."),
            field=field,
            params={"face": face, "sides": sides},
        )
    return face


def check_faces(
    faces: Iterable[object], sides: int, *, field: str = "faces", count: int | None = None
) -> tuple[int, ...]:
    """Validate every face (and, if given, how many there must be); return them as a tuple."""
    if isinstance(faces, str | bytes) or not isinstance(faces, Iterable):
        raise InvalidFace(
            fr("Les résultats des dés doivent être une liste de nombres."),
            field=field,
            params={"faces": faces},
        )
    checked = tuple(check_face(face, sides, field=field) for face in faces)
    if count is not None and len(checked) != count:
        raise InvalidPool(
            fr("Il faut exactement %(expected)s résultat(s) de d%(sides)s (reçu : %(received)s)."),
            field=field,
            params={"expected": count, "received": len(checked), "sides": sides},
        )
    return checked


def check_d10(face: object, *, field: str = "face") -> int:
    """Return a valid d10 face or raise `InvalidFace`."""
    return check_face(face, D10, field=field)


def check_d20(face: object, *, field: str = "face") -> int:
    """Return a valid d20 face or raise `InvalidFace`."""
    return check_face(face, D20, field=field)


@runtime_checkable
class Dice(Protocol):
    """Anything that can hand out d10 and d20 faces."""

    def d10(self, n: int) -> tuple[int, ...]:
        """Return `n` d10 faces."""
        ...

    def d20(self, n: int) -> tuple[int, ...]:
        """Return `n` d20 faces."""
        ...


class SecureDice:
    """Dice rolled from the operating system's cryptographic source (`secrets`)."""

    def d10(self, n: int) -> tuple[int, ...]:
        """Roll `n` d10."""
        return tuple(secrets.randbelow(D10) + 1 for _ in range(check_dice_count(n)))

    def d20(self, n: int) -> tuple[int, ...]:
        """Roll `n` d20."""
        return tuple(secrets.randbelow(D20) + 1 for _ in range(check_dice_count(n)))

    def draw(self) -> int:
        """Return a random tie-break draw, to be stored so an initiative order stays stable."""
        return secrets.randbits(32)


class ScriptedDice:
    """Dice that hand out given faces in order (tests, or faces typed from physical dice)."""

    def __init__(self, d10: Sequence[int] = (), d20: Sequence[int] = ()) -> None:
        self._d10 = deque(check_faces(d10, D10, field="d10"))
        self._d20 = deque(check_faces(d20, D20, field="d20"))

    @property
    def remaining(self) -> tuple[int, int]:
        """How many d10 and d20 faces are still to be handed out."""
        return len(self._d10), len(self._d20)

    def d10(self, n: int) -> tuple[int, ...]:
        """Hand out the next `n` d10 faces."""
        return self._take(self._d10, n, D10)

    def d20(self, n: int) -> tuple[int, ...]:
        """Hand out the next `n` d20 faces."""
        return self._take(self._d20, n, D20)

    @staticmethod
    def _take(queue: deque[int], n: int, sides: int) -> tuple[int, ...]:
        check_dice_count(n)
        if n > len(queue):
            raise DiceExhausted(
                fr("Il manque des d%(sides)s : %(asked)s demandé(s), %(left)s restant(s)."),
                params={"sides": sides, "asked": n, "left": len(queue)},
            )
        return tuple(queue.popleft() for _ in range(n))
