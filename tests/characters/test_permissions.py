"""Every URL of the campaigns and characters apps against the whole cast (C6, C12).

GM of the campaign, the player who owns the character, another player of the campaign, a
logged-in outsider, and an anonymous visitor.
"""

import pytest
from django.urls import reverse

from apps.characters import services
from apps.characters.live import sheet_fingerprint
from apps.systems.ew.sheet_spend import eclat_spend
from apps.systems.ew.xp import Improvement
from tests.characters.factories import CharacterFactory, NpcFactory, XpEntryFactory
from tests.screens.factories import make_handout
from tests.submissions import once

pytestmark = pytest.mark.django_db

CAST = ("gm", "player", "other_player", "outsider", "anonymous")
OK, REDIRECT, NO_CONTENT, FORBIDDEN, NOT_FOUND = 200, 302, 204, 403, 404
# What an anonymous visitor may open: the invitation and its two forms (sign-up, log in).
PUBLIC = {"campaigns:join", "campaigns:join_login", "campaigns:join_signup"}


@pytest.fixture
def world(campaign, aethoria_campaign, gm, player, other_player):
    pc = CharacterFactory(campaign=campaign, owner=player)
    XpEntryFactory(character=pc, amount=20)
    spend = services.xp_spend(
        character=pc, improvement=Improvement("characteristic", name="men"), by=player
    )
    eclat_spend(character=pc, by=player, note="Un coup de chance")
    return {
        "campaign": campaign,
        "pc": pc,
        "spend": spend,
        "table_action": campaign.log_entries.exclude(changes=[]).get(),
        "npc": NpcFactory(campaign=campaign),
        "aethoria_pc": CharacterFactory(campaign=aethoria_campaign, owner=player),
        "membership": campaign.memberships.get(user=other_player),
        "prepared_handout": make_handout(campaign, title="Le secret du MJ"),
        "shown_handout": make_handout(campaign, shown=True),
    }


# (url name, method, args from the world, data, expected for gm/player/other/outsider)
MATRIX = [
    ("campaigns:create", "get", lambda w: [], None, (OK, OK, OK, OK)),
    ("campaigns:join_code", "get", lambda w: [], None, (OK, OK, OK, OK)),
    ("campaigns:import", "get", lambda w: [], None, (OK, OK, OK, OK)),
    (
        "campaigns:export",
        "get",
        lambda w: [w["campaign"].pk],
        None,
        (OK, FORBIDDEN, FORBIDDEN, NOT_FOUND),
    ),
    ("campaigns:join", "get", lambda w: [w["campaign"].invite_code], None, (OK, OK, OK, OK)),
    # The invitation's two forms are for visitors: a logged-in user is sent to the button.
    (
        "campaigns:join_login",
        "get",
        lambda w: [w["campaign"].invite_code],
        None,
        (REDIRECT, REDIRECT, REDIRECT, REDIRECT),
    ),
    (
        "campaigns:join_signup",
        "get",
        lambda w: [w["campaign"].invite_code],
        None,
        (REDIRECT, REDIRECT, REDIRECT, REDIRECT),
    ),
    ("campaigns:detail", "get", lambda w: [w["campaign"].pk], None, (OK, OK, OK, NOT_FOUND)),
    (
        "campaigns:changes",
        "get",
        lambda w: [w["campaign"].pk],
        "version",
        (NO_CONTENT, NO_CONTENT, NO_CONTENT, NOT_FOUND),
    ),
    # The pushed stream: the page's check, then 204 under the test client (WSGI: no stream).
    (
        "campaigns:stream",
        "get",
        lambda w: [w["campaign"].pk],
        None,
        (NO_CONTENT, NO_CONTENT, NO_CONTENT, NOT_FOUND),
    ),
    # A handout's image: the one on show to the table's members, the others to the GM only.
    (
        "campaigns:handout_image",
        "get",
        lambda w: [w["campaign"].pk, w["shown_handout"].pk],
        None,
        (OK, OK, OK, NOT_FOUND),
    ),
    (
        "campaigns:handout_image",
        "get",
        lambda w: [w["campaign"].pk, w["prepared_handout"].pk],
        None,
        (OK, NOT_FOUND, NOT_FOUND, NOT_FOUND),
    ),
    (
        "campaigns:invite",
        "post",
        lambda w: [w["campaign"].pk],
        {},
        (REDIRECT, FORBIDDEN, FORBIDDEN, NOT_FOUND),
    ),
    (
        "campaigns:member_remove",
        "post",
        lambda w: [w["campaign"].pk, w["membership"].pk],
        {},
        (REDIRECT, FORBIDDEN, FORBIDDEN, NOT_FOUND),
    ),
    (
        # The player asked for no new password: the GM is told so, and no link is made.
        "campaigns:member_reset_link",
        "post",
        lambda w: [w["campaign"].pk, w["membership"].pk],
        {},
        (REDIRECT, FORBIDDEN, FORBIDDEN, NOT_FOUND),
    ),
    (
        "campaigns:house_rules",
        "get",
        lambda w: [w["campaign"].pk],
        None,
        (OK, FORBIDDEN, FORBIDDEN, NOT_FOUND),
    ),
    (
        "campaigns:grid",
        "get",
        lambda w: [w["campaign"].pk],
        None,
        (OK, FORBIDDEN, FORBIDDEN, NOT_FOUND),
    ),
    (
        "campaigns:grid_reset",
        "post",
        lambda w: [w["campaign"].pk],
        {},
        (REDIRECT, FORBIDDEN, FORBIDDEN, NOT_FOUND),
    ),
    (
        "campaigns:log_add",
        "post",
        lambda w: [w["campaign"].pk],
        {"text": "Une note"},
        (REDIRECT, FORBIDDEN, FORBIDDEN, NOT_FOUND),
    ),
    (
        "campaigns:log_undo",
        "post",
        lambda w: [w["campaign"].pk, w["table_action"].pk],
        {},
        (REDIRECT, FORBIDDEN, FORBIDDEN, NOT_FOUND),
    ),
    ("characters:create", "get", lambda w: [w["campaign"].pk], None, (OK, OK, OK, NOT_FOUND)),
    (
        "characters:own_undo",
        "post",
        lambda w: [w["pc"].pk],
        {},
        (REDIRECT, REDIRECT, FORBIDDEN, NOT_FOUND),
    ),
    (
        "characters:changes",
        "get",
        lambda w: [w["pc"].pk],
        "fingerprint",
        (NO_CONTENT, NO_CONTENT, NO_CONTENT, NOT_FOUND),
    ),
    (
        "characters:stream",
        "get",
        lambda w: [w["pc"].pk],
        None,
        (NO_CONTENT, NO_CONTENT, NO_CONTENT, NOT_FOUND),
    ),
    (
        "characters:stream",
        "get",
        lambda w: [w["npc"].pk],  # not revealed: the players may not see its sheet
        None,
        (NO_CONTENT, NOT_FOUND, NOT_FOUND, NOT_FOUND),
    ),
    (
        "characters:xp_award",
        "get",
        lambda w: [w["campaign"].pk],
        None,
        (OK, FORBIDDEN, FORBIDDEN, NOT_FOUND),
    ),
    ("characters:detail", "get", lambda w: [w["pc"].pk], None, (OK, OK, OK, NOT_FOUND)),
    (
        "characters:detail",
        "get",
        lambda w: [w["npc"].pk],
        None,
        (OK, NOT_FOUND, NOT_FOUND, NOT_FOUND),
    ),
    (
        "characters:eclat_spend",
        "post",
        lambda w: [w["pc"].pk],
        {"note": "chance", "confirmed": "1"},
        (REDIRECT, REDIRECT, FORBIDDEN, NOT_FOUND),
    ),
    (
        "characters:fatigue_spend",
        "post",
        lambda w: [w["aethoria_pc"].pk],
        {"kind": "physical", "count": 1},
        (REDIRECT, REDIRECT, FORBIDDEN, NOT_FOUND),
    ),
    (
        "characters:notes",
        "post",
        lambda w: [w["pc"].pk],
        {"name": "Nouveau nom", "notes": "x"},
        (REDIRECT, REDIRECT, FORBIDDEN, NOT_FOUND),
    ),
    (
        "characters:rest",
        "post",
        lambda w: [w["pc"].pk],
        {"health": "on"},
        (REDIRECT, FORBIDDEN, FORBIDDEN, NOT_FOUND),
    ),
    (
        "characters:reveal",
        "post",
        lambda w: [w["npc"].pk],
        {},
        (REDIRECT, NOT_FOUND, NOT_FOUND, NOT_FOUND),
    ),
    (
        "characters:assign",
        "post",
        lambda w: [w["pc"].pk],
        {},
        (REDIRECT, FORBIDDEN, FORBIDDEN, NOT_FOUND),
    ),
    (
        "characters:npc_copy",
        "post",
        lambda w: [w["npc"].pk],
        {"count": 1},
        (REDIRECT, NOT_FOUND, NOT_FOUND, NOT_FOUND),
    ),
    ("characters:edit", "get", lambda w: [w["pc"].pk], None, (OK, FORBIDDEN, FORBIDDEN, NOT_FOUND)),
    (
        "characters:delete",
        "get",
        lambda w: [w["pc"].pk],
        None,
        (OK, FORBIDDEN, FORBIDDEN, NOT_FOUND),
    ),
    (
        "characters:delete",
        "post",
        lambda w: [w["npc"].pk],
        {},
        (REDIRECT, NOT_FOUND, NOT_FOUND, NOT_FOUND),
    ),
    (
        "characters:edit",
        "get",
        lambda w: [w["npc"].pk],
        None,
        (OK, NOT_FOUND, NOT_FOUND, NOT_FOUND),
    ),
    (
        "characters:edit",
        "post",
        lambda w: [w["pc"].pk],
        {"phy": 11},
        (OK, FORBIDDEN, FORBIDDEN, NOT_FOUND),
    ),
    ("characters:xp_spend", "get", lambda w: [w["pc"].pk], None, (OK, OK, FORBIDDEN, NOT_FOUND)),
    (
        "characters:xp_undo",
        "post",
        lambda w: [w["pc"].pk, w["spend"].pk],
        {},
        (REDIRECT, FORBIDDEN, FORBIDDEN, NOT_FOUND),
    ),
]


def _ids(row):
    name, method, _args, _data, _expected = row
    return f"{name}-{method}"


@pytest.mark.parametrize("who", CAST)
@pytest.mark.parametrize("row", MATRIX, ids=[_ids(r) for r in MATRIX])
def test_permission_matrix(client, world, request, who, row):
    name, method, args, data, expected = row
    url = reverse(name, args=args(world))
    if who != "anonymous":
        client.force_login(request.getfixturevalue(who))
    if data == "version":
        world["campaign"].refresh_from_db()
        data = {"v": world["campaign"].version}
    elif data == "fingerprint":  # each viewer follows what the sheet shows them
        viewer = request.getfixturevalue(who) if who != "anonymous" else None
        data = {"v": (sheet_fingerprint(args(world)[0], viewer.pk) if viewer else None) or ""}
    # A form that acts at most once carries its one-time key (apps/core/once.py).
    response = getattr(client, method)(url, once(data) if method == "post" else data or {})
    if who == "anonymous" and name in PUBLIC:
        assert response.status_code == OK
    elif who == "anonymous":
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("accounts:login"))
    else:
        assert response.status_code == expected[CAST.index(who)]


def test_urls_in_the_matrix_cover_every_url_of_both_apps():
    from django.urls import get_resolver

    resolver = get_resolver()
    names = set()
    for namespace in ("campaigns", "characters"):
        _prefix, sub = resolver.namespace_dict[namespace]
        names |= {f"{namespace}:{key}" for key in sub.reverse_dict if isinstance(key, str)}
    assert names == {row[0] for row in MATRIX}
