"""Reading an Aethoria combatant: its sheet with skills, weapons and armour, hit-location odds, and
the per-fight state stored on the combatant.
"""

from __future__ import annotations

from fractions import Fraction

from django.contrib.postgres.expressions import ArraySubquery
from django.db.models import OuterRef, Prefetch, prefetch_related_objects
from django.db.models.functions import JSONObject
from django.utils.translation import gettext

from apps.characters.models import AethoriaSkillRank
from apps.compendium.models import AethoriaArmourCoverage, rules_pieces
from apps.core.refusals import rules_message
from apps.encounters.kit import EncounterError, combatant_of
from apps.encounters.models import Combatant
from apps.rules import aethoria
from apps.rules.dice import D20
from apps.rules.errors import RulesError

from .state import FighterState


def rules_refusal(error: RulesError, field: str | None = None) -> EncounterError:
    return EncounterError(rules_message(error), field or error.field)


def load_sheet(combatant: Combatant):
    """The combatant's sheet with its skills and weapons (prefetched ones are kept); its
    armour is read by ``armour_of``."""
    load_sheets([combatant])
    return combatant.character.aethoria


def load_sheets(combatants) -> None:
    """``load_sheet`` for several combatants at once: two queries for all of them."""
    prefetch_related_objects(
        [combatant.character.aethoria for combatant in combatants],
        Prefetch("skills", queryset=AethoriaSkillRank.objects.select_related("skill")),
        "weapons",
    )


def load_skills(combatant: Combatant):
    """The combatant's sheet with its skills only (a test reads no weapon): one query, none
    if they were prefetched."""
    sheet = combatant.character.aethoria
    prefetch_related_objects(
        [sheet], Prefetch("skills", queryset=AethoriaSkillRank.objects.select_related("skill"))
    )
    return sheet


def rank_of(sheet, *, kind: str | None = None, skill_id: int | None = None) -> int:
    """Rank of a skill on the sheet, by kind (dodge, parry, magic) or by skill; 0 if absent."""
    return skill_of(sheet, kind=kind, skill_id=skill_id)[1]


def skill_of(sheet, *, kind: str | None = None, skill_id: int | None = None) -> tuple[str, int]:
    """Name and rank of a skill on the sheet, by kind or by skill; ("", 0) if absent."""
    for rank in sheet.skills.all():
        if (kind and rank.skill.kind == kind) or (skill_id and rank.skill_id == skill_id):
            return rank.skill.name, rank.rank
    return "", 0


def weapon_of(sheet, weapon_id: int | None, field: str = "weapon"):
    for weapon in sheet.weapons.all():
        if weapon.pk == weapon_id:
            return weapon
    raise EncounterError(gettext("Cette arme n'est pas dans son équipement."), field)


# The name a step's lock query gives the armour it reads with each fighter (``worn_armour``).
WORN_ARMOUR = "worn_armour"


def worn_armour() -> ArraySubquery:
    """The armour on a fighter's sheet, an expression over its combatant row: one row per
    covered location (the piece, its name, the location, its RD). A step's lock query reads
    it with the fighter (``sheet_annotations``): a blow's RD costs no query of its own."""
    coverages = (
        AethoriaArmourCoverage.objects.filter(piece__aethoriasheet=OuterRef("character_id"))
        .order_by("piece__name", "piece_id")
        .values(row=JSONObject(piece="piece_id", name="piece__name", location="location", rd="rd"))
    )
    return ArraySubquery(coverages)


def armour_of(sheet) -> tuple[aethoria.ArmourPiece, ...]:
    """The sheet's armour as the engine's pieces: as the lock query read it with the fighter
    (``worn_armour``), else its pieces and their coverages (two queries, once per sheet)."""
    worn = getattr(sheet, WORN_ARMOUR, None)
    if worn is not None:
        pieces: dict[int, tuple[str, dict[str, int]]] = {}
        for row in worn:
            pieces.setdefault(row["piece"], (row["name"], {}))[1][row["location"]] = row["rd"]
        return tuple(rule for name, rds in pieces.values() for rule in rules_pieces(name, rds))
    prefetch_related_objects([sheet], "armour_pieces__coverages")
    pieces = sheet.armour_pieces.all()
    return tuple(rule for piece in pieces for rule in piece.as_rules_pieces())


def location_probabilities(house: aethoria.AethoriaHouseRules) -> dict[str, Fraction]:
    """Chance of each location on one d20, from the campaign's hit-location table."""
    return {loc: Fraction(high - low + 1, D20) for low, high, loc in house.hit_locations}


def cibler_probabilities(house: aethoria.AethoriaHouseRules, prefer: str) -> dict[str, Fraction]:
    """Cibler keeps the die showing the preferred location when one does, else the other
    die: the preferred location comes up with 1 − (1 − p)², the others with (1 − p)·q."""
    single = location_probabilities(house)
    if not prefer:
        return single
    p = single[prefer]
    return {loc: (1 - (1 - p) ** 2) if loc == prefer else (1 - p) * q for loc, q in single.items()}


def turn_state_after(combatant: Combatant, turn: aethoria.TurnState, **changes) -> dict:
    """The combatant's stored state with a new turn state (bleeding, effects... are kept)."""
    return FighterState.of(combatant).with_turn(turn, **changes).to_json()


def pick_combatant(encounter, combatants, combatant_id, field):
    if combatants is not None:
        for combatant in combatants:
            if combatant.pk == combatant_id:
                return combatant
        raise EncounterError(gettext("Ce combattant ne fait pas partie de la rencontre."), field)
    try:
        return combatant_of(encounter, combatant_id)
    except EncounterError as error:
        raise EncounterError(error.message, field) from None
