"""The fights as a character's sheet sees them (``apps.characters.fights``): registered by
``EncountersConfig.ready``, since characters may not import this app."""

from __future__ import annotations

from django.db import connection
from django.db.models import F

from .condition_words import condition_rules_of, lasting_words, shown_conditions
from .models import Combatant, Encounter, Status, fight_to_follow

LIVE = (Status.RUNNING, Status.PAUSED)


class SheetFights:
    """``apps.characters.fights.FightProvider``: each method documented there."""

    def follow(self, character_ids: list[int]) -> None:
        Encounter.objects.filter(
            status__in=LIVE, combatants__character_id__in=character_ids
        ).update(version=F("version") + 1)

    def names(self, character) -> list[str]:
        return list(
            character.combatants.order_by("encounter__created_at").values_list(
                "encounter__name", flat=True
            )
        )

    def banner(self, campaign, *, is_gm: bool) -> Encounter | None:
        # A player at the table checks their sheet and gets to the fight in one tap.
        return fight_to_follow(campaign.encounters.live()[:1], is_gm)

    def banner_sql(self, campaign_column: str) -> tuple[str, list]:
        table = connection.ops.quote_name(Encounter._meta.db_table)
        sql = f"""(SELECT concat_ws(',', e.id, e.name, e.status, e.round)
               FROM {table} e
              WHERE e.campaign_id = {campaign_column} AND e.status IN (%s, %s)
              ORDER BY e.created_at DESC, e.id DESC LIMIT 1)"""
        return sql, list(LIVE)

    def conditions(self, character, *, players: bool, live: bool) -> list:
        if not character.conditions and not live:
            return []
        rules = condition_rules_of(character.campaign)
        shown = [c for c in lasting_words(character.conditions, rules) if c.public or not players]
        if not live:
            return shown
        combatant = (
            Combatant.objects.filter(character=character, present=True, encounter__status__in=LIVE)
            .select_related("character")
            .order_by("-encounter__created_at")
            .first()
        )
        if combatant is not None and combatant.conditions:
            fighters = Combatant.objects.filter(encounter_id=combatant.encounter_id)
            if players:
                fighters = fighters.filter(hidden=False)  # a hidden one is not named
            names = dict(fighters.values_list("pk", "character__name"))
            shown += shown_conditions(combatant, names, rules, players=players)
        return shown

    def conditions_sql(self, character_column: str, *, players: bool) -> tuple[str, list]:
        table = connection.ops.quote_name(Combatant._meta.db_table)
        fights = connection.ops.quote_name(Encounter._meta.db_table)
        shown = (
            "jsonb_path_query_array(k.conditions, '$[*] ? (@.public == true)')"
            if players
            else "k.conditions"
        )
        sql = f"""(SELECT string_agg(({shown})::text, ',')
               FROM {table} k JOIN {fights} e ON e.id = k.encounter_id
              WHERE k.character_id = {character_column} AND k.present
                AND e.status IN (%s, %s))"""
        return sql, list(LIVE)


SHEET_FIGHTS = SheetFights()
