"""The sheet's own "anything new?" check (product spec §4).

A phone on a sheet used to follow the campaign's version, so every step of a fight that
touched anyone made every open sheet fetch itself again. It now follows a fingerprint of
what the sheet shows: its character and sheet rows (any save changes them: a spend, a rest,
damage, an edit, a reveal), its XP ledger (how many lines and their sum: a spend and its
undo add a line each), the campaign's house rules (derived values follow them) and the
fight under way (the banner: name, status, round). One query, with the viewer's access.
"""

from __future__ import annotations

from django.db import connection

from apps.campaigns.models import Campaign, Membership, Role
from apps.encounters.models import Encounter, Status

from .models import AethoriaSheet, Character, EwSheet, Kind, XpEntry


def _table(model) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def sheet_fingerprint(character_id: int, user_id: int) -> str | None:
    """The fingerprint of the sheet as this user sees it; None when they may not see it
    (not a member of its campaign, or a player and an NPC the GM has not revealed)."""
    sql = f"""
        SELECT md5(concat_ws('|', ch::text, ew::text, ae::text, cp.house_rules::text,
            (SELECT count(*) || ':' || coalesce(sum(x.amount), 0)
               FROM {_table(XpEntry)} x WHERE x.character_id = ch.id),
            (SELECT concat_ws(',', e.id, e.name, e.status, e.round)
               FROM {_table(Encounter)} e
              WHERE e.campaign_id = ch.campaign_id AND e.status IN (%s, %s)
              ORDER BY e.created_at DESC, e.id DESC LIMIT 1)))
          FROM {_table(Character)} ch
          JOIN {_table(Campaign)} cp ON cp.id = ch.campaign_id
          JOIN {_table(Membership)} m ON m.campaign_id = cp.id AND m.user_id = %s
          LEFT JOIN {_table(EwSheet)} ew ON ew.character_id = ch.id
          LEFT JOIN {_table(AethoriaSheet)} ae ON ae.character_id = ch.id
         WHERE ch.id = %s
           AND (m.role = %s OR ch.owner_id = %s OR ch.kind = %s
                OR (ch.revealed AND NOT ch.is_template))
    """
    params = [Status.RUNNING, Status.PAUSED, user_id, character_id, Role.GM, user_id, Kind.PC]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    return row[0] if row else None
