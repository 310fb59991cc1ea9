"""The sheet's own "anything new?" check (product spec §4).

A phone on a sheet used to follow the campaign's version, so every step of a fight that
touched anyone made every open sheet fetch itself again. It now follows a fingerprint of
what the sheet shows: its character and sheet rows (any save changes them: a spend, a rest,
damage, an edit, a reveal), its XP ledger (how many lines and their sum: a spend and its
undo add a line each), the campaign's house rules (derived values follow them), the fight
under way (the banner: name, status, round) and the handout the GM shows the table. One
query, with the viewer's access.

A viewer without the full sheet (a player on an NPC or on another player's PC) sees less:
its name, concept, player, state in words, the fight banner, the handout, and a PC's pools.
Their fingerprint is made of exactly that, so that a change they cannot see (the GM's notes, an
NPC's exact wounds while its word stays) does not tell them something happened.
"""

from __future__ import annotations

import hashlib
import json

from django.db import connection

from apps.campaigns.models import Campaign, Membership, Role
from apps.systems import sheet_models

from . import fights
from .models import Character, Kind, XpEntry


def _table(model) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def sheet_fingerprint(character_id: int, user_id: int) -> str | None:
    """The fingerprint of the sheet as this user sees it; None when they may not see it
    (not a member of its campaign, or a player and an NPC the GM has not revealed)."""
    sheets = sheet_models()
    # Every system's sheet joined (a character has the one of its campaign's system).
    aliases = [f"s{i}" for i in range(len(sheets))]
    joins = "\n".join(
        f"LEFT JOIN {_table(model)} {alias} ON {alias}.character_id = ch.id"
        for model, alias in zip(sheets, aliases, strict=True)
    )
    sheet_texts = ", ".join(f"{alias}::text" for alias in aliases)
    sheet_rows = ", ".join(f"row_to_json({alias})" for alias in aliases)
    # The fight banner, as the app that runs fights words it, and the conditions of the fight
    # the character is in: all of them for the GM, the public ones for anyone else.
    banner, banner_params = fights.banner_sql("ch.campaign_id")
    gm_conditions, gm_params = fights.conditions_sql("ch.id", players=False)
    conditions, conditions_params = fights.conditions_sql("ch.id", players=True)
    kept = "jsonb_path_query_array(ch.conditions, '$[*] ? (@.public == true)')::text"
    sql = f"""
        SELECT m.role = %s OR ch.owner_id = %s,
            md5(concat_ws('|', ch::text, {sheet_texts}, cp.house_rules::text,
            (SELECT count(*) || ':' || coalesce(sum(x.amount), 0)
               FROM {_table(XpEntry)} x WHERE x.character_id = ch.id), {banner},
            CASE WHEN m.role = %s THEN {gm_conditions} ELSE {conditions} END,
            cp.shown_handout_id)),
            md5(concat_ws('|', ch.name, ch.concept, ch.kind, ch.owner_id, ch.is_template,
                {banner}, {kept}, {conditions}, cp.shown_handout_id)),
            ch.kind, cp.system, cp.house_rules, {sheet_rows}
          FROM {_table(Character)} ch
          JOIN {_table(Campaign)} cp ON cp.id = ch.campaign_id
          JOIN {_table(Membership)} m ON m.campaign_id = cp.id AND m.user_id = %s
          {joins}
         WHERE ch.id = %s
           AND (m.role = %s OR ch.owner_id = %s OR ch.kind = %s
                OR (ch.revealed AND NOT ch.is_template))
    """
    params = [Role.GM, user_id, *banner_params, Role.GM, *gm_params, *conditions_params]
    params += [*banner_params, *conditions_params, user_id, character_id]
    params += [Role.GM, user_id, Kind.PC]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        return None
    full_view, full_print, public_print, *shown = row
    return full_print if full_view else _public_print(public_print, *shown)


def _public_print(
    public_print: str, kind: str, system: str, house_rules, *sheet_rows: dict | None
) -> str:
    """The public view's fingerprint: its plain parts (from the query) and what it shows of
    the sheet — the state in words, and a PC's pools — computed as the sheet page does."""
    campaign = Campaign(system=system, house_rules=_json(house_rules))
    character = Character(kind=kind, campaign=campaign)
    for model, data in zip(sheet_models(), sheet_rows, strict=True):
        if data is not None:
            setattr(character, model.character.field.remote_field.name, _instance(model, data))
    house = campaign.house()
    shown = [character.health(house)]
    if character.is_pc:
        shown += [(bar.key, bar.value, bar.max) for bar in character.pool_view(house)]
    seen = json.dumps([public_print, shown], default=str)
    return hashlib.md5(seen.encode(), usedforsecurity=False).hexdigest()


def _json(value):
    """psycopg decodes json columns itself; a driver that does not gives text."""
    return json.loads(value) if isinstance(value, str) else value


def _instance(model, data):
    """A sheet row (as ``row_to_json`` gave it) as an unsaved model instance."""
    data = _json(data)
    return model(**{f.attname: data[f.column] for f in model._meta.concrete_fields})
