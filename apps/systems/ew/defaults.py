"""The EW attack form as it opens: the actor's own weapon with its specialty, the target it
struck last (else the first living foe), the defender's best defence — and the choices the
fighter made at its latest attack of the fight, so that a repeat is one tap."""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Q
from django.utils.translation import gettext as _

from apps.compendium.models import EW_MELEE_KINDS, EwWeapon, EwWeaponKind
from apps.core.refusals import rules_message
from apps.encounters.kit import is_out
from apps.encounters.models import Combatant, Encounter
from apps.rules.errors import RulesError

from .combat import round_actions


def remembered_choice(encounter: Encounter, attacker: Combatant) -> dict:
    """The choices of the fighter's latest attack of this fight not undone (one query, kept
    on the fighter for the log as it stands: an undo's answer asks before the panel does)."""
    kept = attacker.__dict__.get("_remembered_choice")
    if kept is not None and kept[0] == encounter.last_sequence:
        return kept[1]
    data = (
        encounter.events.standing()
        .filter(kind="ew_attack", actor=attacker)
        .order_by("-sequence")
        .values_list("data", flat=True)
        .first()
    )
    choice = (data or {}).get("choice", {})
    attacker.__dict__["_remembered_choice"] = (encounter.last_sequence, choice)
    return choice


def own_weapon_id(sheet, remembered: dict) -> int | None:
    """The weapon used last if still carried (None: fists), else the one the fighter is best
    with (``best_weapon_id``)."""
    weapons = [w.pk for w in sheet.weapons.all()]
    if "weapon_id" in remembered and remembered["weapon_id"] in (None, *weapons):
        return remembered["weapon_id"]
    return best_weapon_id(sheet)


def bare_hands_rank(sheet):
    """The fighter's rank in the specialty of bare hands (the compendium's fists: Corps à
    corps), if it has one (``gear_lookups`` marks it)."""
    return next((r for r in sheet.specialties.all() if getattr(r, "bare_hands", False)), None)


def best_weapon_id(sheet) -> int | None:
    """What the fighter strikes with best: the carried weapon or bare hands (None) whose
    specialty it ranks highest in — a bat without its specialty does worse than fists with
    Corps à corps; on a tie, the first weapon carried (it hits harder than fists)."""
    ranks = {r.specialty_id: r.level for r in sheet.specialties.all()}
    fists = bare_hands_rank(sheet)
    best_id, best_level = None, fists.level if fists else 0
    for weapon in reversed(list(sheet.weapons.all())):  # the first carried wins a tie
        level = ranks.get(weapon.specialty_id, 0)
        if level >= best_level:
            best_id, best_level = weapon.pk, level
    return best_id


def matching_specialty_id(sheet, weapon_id: int | None) -> int | None:
    """The fighter's rank in the specialty its weapon is used with (for fists, that of bare
    hands)."""
    if weapon_id is None:
        fists = bare_hands_rank(sheet)
        return fists.pk if fists else None
    weapon = next((w for w in sheet.weapons.all() if w.pk == weapon_id), None)
    if weapon is None or weapon.specialty_id is None:
        return None
    rank = next((r for r in sheet.specialties.all() if r.specialty_id == weapon.specialty_id), None)
    return rank.pk if rank else None


def defence_ranks(sheet) -> list:
    """The specialties a fighter may defend actively with: the rules add the specialty of
    the defender's weapon ("combat + spécialité arme défenseur"), so those of its melee
    weapons and that of bare hands, always at hand — not Médecine or Investigation."""
    melee = {w.specialty_id for w in sheet.weapons.all() if w.kind in EW_MELEE_KINDS}
    return [
        r
        for r in sheet.specialties.all()
        if r.specialty_id in melee or getattr(r, "bare_hands", False)
    ]


def may_defend_with(sheet, rank_id: int) -> bool:
    """Whether the rank is one of ``defence_ranks`` — asked of the database in one query,
    for an answer whose sheet has no gear loaded."""
    melee = sheet.weapons.filter(kind__in=EW_MELEE_KINDS).values("specialty")
    fists = EwWeapon.objects.filter(kind=EwWeaponKind.FISTS, specialty=OuterRef("specialty"))
    ranks = sheet.specialties.filter(pk=rank_id)
    return ranks.filter(Q(specialty__in=melee) | Q(Exists(fists))).exists()


def best_melee_rank(sheet):
    """The defender's best specialty to defend with (``defence_ranks``)."""
    return max(defence_ranks(sheet), key=lambda r: r.level, default=None)


def defence_refusal(target: Combatant | None, house) -> str | None:
    """Why the rules no longer allow the target an active defence this round (None: they
    do), for the form to offer it disabled with this reason."""
    if target is None:
        return None
    if is_out(target, house):
        return _("%(name)s est hors de combat : pas de défense active.") % {
            "name": target.character.name
        }
    try:
        round_actions(target).defend(house)
    except RulesError as error:
        return rules_message(error)
    return None


def can_defend(target: Combatant, house) -> bool:
    """Whether the rules still allow the target an active defence this round."""
    return defence_refusal(target, house) is None


def best_defence(target: Combatant, house) -> tuple[str, int | None]:
    """Active defence with the best melee specialty when it still can and it beats the
    natural defence (the round's extra-defence malus may make it worse), else none."""
    if not can_defend(target, house):
        return "none", None
    sheet = target.character.ew
    rank = best_melee_rank(sheet)
    _after, modifier = round_actions(target).defend(house)
    derived = sheet.derived(house.rounding)
    active = (rank.level if rank else 0) + derived.com + modifier + sheet.pools().wound_malus
    if active <= derived.natural_defence:
        return "none", None
    return "active", rank.pk if rank else None


def opening_choice(attacker: Combatant, target: Combatant | None, remembered: dict, house) -> dict:
    """The form's initial values: what the fighter did last time where it still holds, the
    own weapon and best defence otherwise."""
    sheet = attacker.character.ew
    weapon_id = own_weapon_id(sheet, remembered)
    specialty_id = matching_specialty_id(sheet, weapon_id)
    if remembered.get("weapon_id", "?") == weapon_id and remembered.get("specialty_id") in {
        r.pk for r in sheet.specialties.all()
    }:
        specialty_id = remembered["specialty_id"]
    initial = {
        "weapon": weapon_id,
        "specialty": specialty_id,
        "modifier": remembered.get("modifier", 0),
    }
    if target is not None:
        initial["defence"], initial["defence_specialty"] = _defence(target, remembered, house)
    return initial


def _defence(target: Combatant, remembered: dict, house) -> tuple[str, int | None]:
    """The defence the GM chose last time against this target while the rules still allow
    it (a repeat is one tap, and a step's answer, which keeps the form as the GM left it,
    reads as a reload does), else the defender's best one."""
    if remembered.get("target_id") == target.pk:
        if remembered.get("defence") == "none":
            return "none", None
        ranks = {r.pk for r in target.character.ew.specialties.all()}
        spec = remembered.get("defence_specialty_id")
        if remembered.get("defence") == "active" and can_defend(target, house):
            return "active", spec if spec in ranks else None
    return best_defence(target, house)


def defence_for_target(
    target: Combatant | None, former: Combatant | None, drawn_for: str, house
) -> dict:
    """The defence of a posted form whose target changed, redrawn for the new target
    (``former``: the one it was drawn for, found by ``drawn_for``). Returns the fields to
    change: the defender's specialty (the one posted was among the former target's); and the
    defence itself when the new target cannot defend (out of the fight, no defence left this
    round: "ne se défend pas" is forced) or the former one could not (its "ne se défend pas"
    was forced, not chosen)."""
    if target is None:
        return {}
    # Nothing said (a form posted from elsewhere): what was posted is what was meant.
    if not drawn_for or str(target.pk) == drawn_for:
        return {}
    defence, rank = best_defence(target, house)
    changes = {"defence_specialty": "" if rank is None else str(rank)}
    if not can_defend(target, house) or (former is not None and not can_defend(former, house)):
        # Forced either way: the new target cannot defend, or the former one could not.
        changes["defence"] = defence
    # Else the defence itself stays as the GM set it: if the rules refuse it for this
    # target, the refusal is said next to it.
    return changes
