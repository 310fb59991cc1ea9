"""The one way views get an encounter (C6): campaign members only, existence never revealed."""

from __future__ import annotations

from django.db.models import F
from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext as _

from apps.campaigns.models import Role
from apps.core.http import Forbidden, HtmxHttpRequest
from apps.systems import SYSTEMS

from .models import Encounter
from .steps import EncounterError, Fight, check_version, lock_fight


def get_encounter_for_user(
    request: HtmxHttpRequest, encounter_id: int, *, gm: bool = False
) -> Encounter:
    """The encounter with ``role`` set to the viewer's role in its campaign; 404 for
    non-members, 403 for a player when ``gm`` is asked. One query."""
    encounter = (
        Encounter.objects.select_related("campaign")
        .filter(pk=encounter_id, campaign__memberships__user=request.user)
        .annotate(role=F("campaign__memberships__role"))
        .first()
    )
    if encounter is None or _of_another_system(request, encounter):
        raise Http404("No such encounter.")
    if gm:
        _require_gm(encounter)
    return encounter


def _require_gm(encounter: Encounter) -> None:
    if encounter.role != Role.GM:
        # A player who followed a console link is shown the view made for them.
        table = reverse("encounters:table", args=[encounter.pk])
        raise Forbidden(way_back=(table, _("Ouvrir la vue de table")))


def lock_fight_for_gm(
    request: HtmxHttpRequest, encounter_id: int, fighter_ids, *, system, version: int
) -> Fight:
    """The fight a GM's step acts on, locked (``steps.lock_fight``), the membership checked
    in the lock query itself: 404 for non-members and another system's fight, 403 for a
    player, as ``get_encounter_for_user``; then a stale version is refused. Inside the
    step's transaction."""
    fight = lock_fight(encounter_id, fighter_ids, system=system, member=request.user)
    if fight is None:
        # No such fighter here, or no such encounter for this viewer: the plain read tells.
        get_encounter_for_user(request, encounter_id, gm=True)
        raise EncounterError(_("Ce combattant ne fait pas partie de la rencontre."), "target")
    if fight.encounter.campaign.system != system.code:
        raise Http404("No such encounter.")
    _require_gm(fight.encounter)
    check_version(fight.encounter, version)
    return fight


def _of_another_system(request: HtmxHttpRequest, encounter: Encounter) -> bool:
    """Whether the URL is an action of another system's console than the fight's: those
    are named after their system (``ew_attack``, ``aethoria_spell_odds``), and the fight
    of another system has nothing for them to act on (404, as a URL that does not exist)."""
    match = request.resolver_match
    code = match.url_name.partition("_")[0] if match and match.url_name else ""
    return code in SYSTEMS and code != encounter.campaign.system
