"""The fights as a character's sheet sees them (``apps.characters.fights``): registered by
``EncountersConfig.ready``, since characters may not import this app."""

from __future__ import annotations

from django.db import connection
from django.db.models import F

from .models import Encounter, Status, fight_to_follow

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


SHEET_FIGHTS = SheetFights()
