"""Every URL pattern of the project, for every role, as GET and POST, plain and htmx (issue 12).

The routes come from the URL configuration itself: a new route is walked the day it is added,
and the test fails until it is placed in ROUTES_FOR_MEMBERS or GM_ONLY below. Their ids are
those of the demo data (`apps.core.demo`) with a fight under way, a fight being prepared, a
hidden lurker and a revealed NPC who took a blow, next to another campaign with its own GM
and player. Every request runs in a savepoint rolled back after it: each one meets the same
world, whatever the requests before it did (a GM deleting a character, a logout).

For each answer: never a 500; the status the role may get; and, to anyone but the GM and the
superuser, no NPC's numbers, no hidden combatant, no campaign they are not in.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pytest
from django.apps import apps as django_apps
from django.conf import settings
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve

from apps.accounts.models import ResetLink, User
from apps.campaigns.models import Campaign, Membership, Role
from apps.campaigns.services import campaign_create, log_add
from apps.characters.models import Character, EwSheet
from apps.demo.services import create_demo_accounts, create_demo_table
from apps.encounters import services as encounter_services
from apps.encounters.models import Encounter
from apps.systems.aethoria.demo import DEMO_CAMPAIGN as AETHORIA_DEMO_CAMPAIGN
from apps.systems.ew.demo import DEMO_CAMPAIGN as EW_DEMO_CAMPAIGN
from tests.accounts.factories import UserFactory
from tests.encounters.factories import add_player, ew_fighter
from tests.screens.factories import make_handout, make_link

pytestmark = pytest.mark.django_db

ROLES = (
    "anonymous",
    "no_campaign",
    "compendium_staff",
    "other_player",
    "player",
    "other_gm",
    "gm",
    "staff",
)
# Roles outside the demo campaigns: every route of a demo campaign's object is 404 to them.
OUTSIDERS = {"no_campaign", "compendium_staff", "other_player", "other_gm", "staff"}
HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "console"}

# Routes of a campaign's objects a player may open or act on (their sheet, the table view).
ROUTES_FOR_MEMBERS = {
    "campaigns:detail",
    "campaigns:changes",
    "campaigns:stream",
    "characters:create",
    "characters:detail",
    "characters:changes",
    "characters:stream",
    "characters:eclat_spend",
    "characters:fatigue_spend",
    "characters:own_undo",
    "characters:notes",
    "characters:xp_spend",
    "encounters:table",
    "encounters:changes",
    "encounters:stream",
    # Roll requests (issue #31): the player's own panel, its stream and their answers (each
    # answers only the requests of their own character, refused in words otherwise).
    "encounters:request_panel",
    "encounters:request_stream",
    "encounters:request_answer",
    "encounters:ew_request_answer",
    "encounters:aethoria_request_answer",
    "encounters:end_own_turn",
    "campaigns:handout_image",
    "screens:screen",
    "screens:changes",
    "screens:stream",
}
# The GM's own: a player gets 403 (or 404 for what they may not even know of).
# The invitation's pages (its landing, log in to join, sign up to join) name their campaign,
# its system and its GM to whoever holds the code: that is what the invitation is for.
INVITATION_PAGES = {"campaigns:join", "campaigns:join_login", "campaigns:join_signup"}
# A screen link's pages show its campaign (its name, its party) to whoever holds the link,
# logged in or not: that is what the GM made it for. Never a secret nor a hidden fighter.
SCREEN_LINK_PAGES = {
    "screens:link",
    "screens:link_changes",
    "screens:link_stream",
    "screens:link_handout_image",
}

GM_ONLY = {
    "campaigns:invite",
    "campaigns:member_remove",
    "campaigns:member_reset_link",
    "campaigns:house_rules",
    "campaigns:grid",
    "campaigns:grid_reset",
    "campaigns:log_add",
    "campaigns:log_undo",
    "campaigns:export",
    "characters:xp_award",
    "characters:edit",
    "characters:rest",
    "characters:reveal",
    "characters:assign",
    "characters:npc_copy",
    "characters:delete",
    "characters:xp_undo",
    "encounters:create",
    "encounters:console",
    # Roll requests (issue #31): sending, taking over and cancelling are the GM's.
    "encounters:ew_request",
    "encounters:ew_test_request",
    "encounters:aethoria_request",
    "encounters:aethoria_test_request",
    "encounters:request_initiative",
    "encounters:request_take_over",
    "encounters:request_cancel",
    "screens:manage",
    "screens:link_create",
    "screens:link_revoke",
    "screens:handout_create",
    "screens:handout_show",
    "screens:handout_take_down",
    "screens:handout_delete",
}
SCOPED_ARGUMENTS = {"campaign_id", "character_id", "encounter_id", "combatant_id"}


@dataclass
class Route:
    pattern: str
    name: str  # "namespace:name", or the pattern for unnamed admin routes
    converters: dict
    admin: bool


def _walk(patterns, prefix: str = "", namespace: str = "", converters=None):
    for entry in patterns:
        found = {**(converters or {}), **entry.pattern.converters}
        if isinstance(entry, URLResolver):
            space = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from _walk(entry.url_patterns, prefix + str(entry.pattern), space, found)
        elif isinstance(entry, URLPattern):
            route = prefix + str(entry.pattern)
            name = f"{namespace}{entry.name}" if entry.name else route
            yield Route(route, name, found, route.startswith("admin/"))


ALL_ROUTES = list(_walk(get_resolver().url_patterns))
APP_ROUTES = [r for r in ALL_ROUTES if not r.admin]


# --- The world --------------------------------------------------------------------------------


@dataclass
class World:
    users: dict
    ew: Campaign
    aethoria: Campaign
    other: Campaign
    fills: dict = field(default_factory=dict)
    secrets: list[str] = field(default_factory=list)  # an NPC's numbers, as a page shows them
    hidden_names: list[str] = field(default_factory=list)
    names: dict = field(default_factory=dict)  # campaign pk -> names only its members may read


def _bars_html(bar) -> str:
    return f"<strong>{bar.value}</strong> / {bar.max}"


def _secrets() -> list[str]:
    """How each NPC's numbers read on a page, unless a PC's bar (any campaign's) reads the
    same: those would prove nothing."""
    pcs, npcs = set(), set()
    for character in Character.objects.with_sheets():
        bars = {_bars_html(b) for b in character.pool_view(character.campaign.house())}
        (pcs if character.is_pc else npcs).update(bars)
    return sorted(npcs - pcs)


def _start(encounter: Encounter, gm) -> None:
    encounter.refresh_from_db()
    faces = {c.pk: 1 + i % 9 for i, c in enumerate(encounter.combatants.all())}
    encounter_services.encounter_start(
        encounter_id=encounter.pk, version=encounter.version, by=gm, initiative=faces
    )


def _users() -> dict:
    create_demo_accounts()
    by_name = {u.username: u for u in User.objects.filter(username__in=["mj", "alice"])}
    librarian = UserFactory(username="bibliothecaire", is_staff=True)
    librarian.user_permissions.set(Permission.objects.filter(content_type__app_label="compendium"))
    return {
        "anonymous": None,
        "no_campaign": UserFactory(username="solitaire"),
        "compendium_staff": librarian,
        "other_player": UserFactory(username="autre_joueuse"),
        "player": by_name["alice"],
        "other_gm": UserFactory(username="autre_mj"),
        "gm": by_name["mj"],
        "staff": UserFactory(username="admin2", is_staff=True, is_superuser=True),
    }


def _other_campaign(users) -> Campaign:
    other = campaign_create(name="Les Chroniques de Valombre", system="ew", gm=users["other_gm"])
    add_player(other, users["other_player"])
    ew_fighter(other, "Zéphyrine Caldéra", owner=users["other_player"])
    orsolya = ew_fighter(other, "Orsolya Vantard")
    orsolya.revealed = True
    orsolya.save(update_fields=["revealed"])
    log_add(campaign=other, text="Arrivée à Valombre.", by=users["other_gm"])
    return other


def _world() -> World:
    users = _users()
    create_demo_table()
    ew = Campaign.objects.get(name=EW_DEMO_CAMPAIGN)
    aethoria = Campaign.objects.get(name=AETHORIA_DEMO_CAMPAIGN)
    other = _other_campaign(users)
    # The EW fight runs, its lurker hidden; the Aethoria one is still being prepared.
    running = ew.encounters.get()
    lurker = running.combatants.get(hidden=True).character
    Character.objects.filter(pk=lurker.pk).update(name="Rôdeur Invisible", revealed=False)
    _start(running, users["gm"])
    garnier = Character.objects.get(campaign=ew, name="Commissaire Garnier")
    EwSheet.objects.filter(pk=garnier.pk).update(superficial_left=7)  # a blow: "7 / 18"
    # Alice asked for a new password from the login page: her GM may hand her a link.
    ResetLink.objects.create(user=users["player"], browser_digest="0" * 64)
    world = World(users, ew, aethoria, other)
    world.fills = _fills(world, running, garnier, lurker)
    world.secrets = _secrets()
    world.hidden_names = ["Rôdeur Invisible"] + [
        c.character.name for c in aethoria.encounters.get().combatants.filter(hidden=True)
    ]
    for campaign in (ew, aethoria, other):
        world.names[campaign.pk] = [campaign.name] + [
            c.name for c in campaign.characters.filter(kind="pc")
        ]
    return world


def _fills(world: World, running: Encounter, garnier, lurker) -> dict:
    """The ids each argument of a route is walked with (several: one request each)."""
    ew, aethoria, player = world.ew, world.aethoria, world.users["player"]
    pc = Character.objects.get(campaign=ew, owner=player)
    prepared = aethoria.encounters.get()
    entry = ew.log_entries.first()
    xp = pc.xp_entries.first()
    # A handout on show, one the GM keeps for later (its title a secret), a screen link.
    shown = make_handout(ew, shown=True)
    kept = make_handout(ew, title="Rôdeur Invisible")
    token = make_link(ew)
    return {
        "campaign_id": [ew.pk, aethoria.pk],
        "character_id": [pc.pk, garnier.pk, lurker.pk],
        "encounter_id": [running.pk, prepared.pk],
        "combatant_id": [running.combatants.get(hidden=True).pk],
        "membership_id": [Membership.objects.get(campaign=ew, role=Role.PLAYER, user=player).pk],
        "entry_id": [entry.pk if entry else 1, xp.pk if xp else 1],
        "code": [ew.invite_code],
        "handout_id": [shown.pk, kept.pk],
        "link_id": [ew.screen_links.get().pk],
        "token": [token],
    }


# --- Requests ---------------------------------------------------------------------------------


def _filled(pattern: str, values: dict) -> str:
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(values.get(m[1], 1)), pattern)


def _urls(route: Route, fills: dict) -> list[str]:
    """The route with each of its arguments' ids in turn (the others at their first)."""
    names = list(route.converters)
    if not names:
        return ["/" + route.pattern]
    urls = []
    for varying in names:
        for value in fills.get(varying, [1]):
            values = {n: (value if n == varying else fills.get(n, [1])[0]) for n in names}
            urls.append(_filled(route.pattern, values))
    return sorted(set(urls))


def _requests(client: Client, url: str, data: dict) -> list[tuple[str, object]]:
    answers = []
    for label, call in (
        ("GET", lambda: client.get(url)),
        ("GET htmx", lambda: client.get(url, **HTMX)),
        ("POST", lambda: client.post(url, data)),
        ("POST htmx", lambda: client.post(url, data, **HTMX)),
    ):
        with transaction.atomic():
            answers.append((label, call()))
            transaction.set_rollback(True)
    return answers


def _client(world: World, role: str) -> Client:
    client = Client(raise_request_exception=False)
    if world.users[role] is not None:
        client.force_login(world.users[role])
    return client


# --- Expectations -----------------------------------------------------------------------------


def _public(url: str) -> bool:
    """A page for people not logged in (login, health, language; the admin's own login)."""
    return getattr(resolve(url).func, "login_required", True) is False


def _to_login(response) -> bool:
    location = response.get("Location", "") or response.get("HX-Location", "")
    return response.status_code in (200, 302) and "/compte/connexion/" in location


def _scoped(route: Route) -> bool:
    return bool(SCOPED_ARGUMENTS & set(route.converters))


def _allowed(world: World, role: str, route: Route, url: str) -> set[int]:
    """The statuses this role may get from this URL."""
    if route.name in SCREEN_LINK_PAGES:
        # Whoever holds the link, logged in or not, as nobody: its screen, nothing new (204;
        # no stream under this WSGI client), and no handout but the one on show (404).
        return {200, 204, 404, 405}
    if role == "anonymous":
        # Else to the login page (checked below): a 302, or HX-Location for htmx.
        return {200, 302, 405} if _public(url) else {200, 302}
    if not _scoped(route):
        return {200, 204, 302, 404, 405}
    if role in OUTSIDERS:
        return {404, 405}
    gm_only = route.name in GM_ONLY or route.name.startswith("encounters:")
    if role == "player":
        if gm_only and route.name not in ROUTES_FOR_MEMBERS:
            return {403, 404, 405}
        return {200, 204, 302, 403, 404, 405, 409}
    # The GM: everything of their campaign answers, but an action of the other system (404)
    # and what does not exist for that object (an XP line of another kind, a prepared fight's
    # table view, which only players are refused).
    return {200, 204, 302, 404, 405, 409}


def _leaks(world: World, role: str, route: Route, html: str) -> list[str]:
    """What this answer shows that its viewer may not see."""
    if role in ("gm", "staff") or (route.admin and role == "staff"):
        return []
    found = [s for s in world.secrets if s in html]
    found += [name for name in world.hidden_names if name in html]
    user = world.users[role]
    member_of = set(user.memberships.values_list("campaign_id", flat=True)) if user else set()
    # The invitation and a screen link show their campaign to whoever has them.
    if route.name not in INVITATION_PAGES | SCREEN_LINK_PAGES:
        for campaign_pk, names in world.names.items():
            if campaign_pk not in member_of:
                found += [n for n in names if n in html]
    return found


def _problems(world: World, role: str, route: Route, url: str, answers) -> list[str]:
    problems = []
    for label, response in answers:
        status = response.status_code
        where = f"{role} {label} {url} -> {status}"
        if status >= 500:
            problems.append(f"{where}: server error")
            continue
        if status not in _allowed(world, role, route, url):
            problems.append(f"{where}: not allowed for this role")
        if role == "anonymous" and not _public(url) and not _to_login(response):
            problems.append(f"{where}: anonymous not sent to the login page")
        if not getattr(response, "streaming", False):
            html = response.content.decode(errors="replace")
            problems += [f"{where}: shows {leak!r}" for leak in _leaks(world, role, route, html)]
    return problems


# --- The tests --------------------------------------------------------------------------------


def test_every_scoped_route_is_classified():
    """A new route of a campaign's objects says who may use it before it is walked."""
    scoped = {r.name for r in APP_ROUTES if _scoped(r)}
    unclassified = scoped - ROUTES_FOR_MEMBERS - GM_ONLY
    unclassified = {n for n in unclassified if not n.startswith("encounters:")}
    assert unclassified == set()


def test_the_walk_covers_every_url_pattern():
    assert len(ALL_ROUTES) == len({(r.pattern, r.name) for r in ALL_ROUTES})
    assert any(r.name == "encounters:aethoria_spell" for r in ALL_ROUTES)
    assert any(r.name == "admin:index" for r in ALL_ROUTES)


def test_every_app_url_for_every_role():
    """One world for the eight roles (building it is most of the cost)."""
    world = _world()
    assert world.secrets, "the NPCs' numbers must be told apart from the PCs'"
    data = {"version": 2, "combatant": world.fills["combatant_id"][0]}
    problems = []
    for role in ROLES:
        client = _client(world, role)
        for route in APP_ROUTES:
            for url in _urls(route, world.fills):
                problems += _problems(world, role, route, url, _requests(client, url, data))
                _stay_logged_in(client, world, role)
    assert problems == []


def _stay_logged_in(client: Client, world: World, role: str) -> None:
    """After the logout route (or a language switch), the role is itself again."""
    session = client.cookies.get(settings.SESSION_COOKIE_NAME)
    if role != "anonymous" and not (session and session.value):
        client.force_login(world.users[role])
    client.cookies.pop(settings.LANGUAGE_COOKIE_NAME, None)


ADMIN_ROLES = ("anonymous", "player", "compendium_staff", "staff")


def _admin_url(route: Route, world: World) -> str:
    """An admin route with the id of a real row of its model (the first one)."""
    parts = route.pattern.split("/")
    model = None
    if len(parts) > 3 and parts[1] and parts[2] and not parts[1].startswith("<"):
        try:
            model = django_apps.get_model(parts[1], parts[2])
        except (LookupError, ValueError):
            model = None
    first = model.objects.order_by("pk").first() if model is not None else None
    values = {
        "object_id": first.pk if first else 1,
        "id": world.users["player"].pk,
        "content_type_id": ContentType.objects.get_for_model(Character).pk,
        "app_label": "compendium",
    }
    if "content_type_id" in route.converters:
        values["object_id"] = world.fills["character_id"][0]
    return _filled(route.pattern, values)


def _admin_allowed(role: str, url: str) -> set[int]:
    """403 and 405 are the admin's own answers too (a model without "add", a protected row,
    logout by GET): what matters is who gets past its gate."""
    if role in ("anonymous", "player"):
        return {200, 302} if _public(url) else {302}  # to the admin's login page
    other_models = re.match(r"/admin/(?!compendium/|r/)[a-z]+/[a-z]+/", url)
    if role == "compendium_staff" and other_models:
        # The accounts, campaigns, characters: not theirs (302: back to the admin's index).
        return {302, 403, 404, 405}
    return {200, 302, 403, 404, 405}


def test_every_admin_url_for_the_roles_that_differ_there():
    """The admin: the anonymous visitor and a player (any non-staff user is turned away alike),
    the compendium's editor (their models only) and the superuser. Plain GET and POST: the
    admin is not driven by htmx."""
    world = _world()
    problems = []
    for role in ADMIN_ROLES:
        client = _client(world, role)
        for route in (r for r in ALL_ROUTES if r.admin):
            url = _admin_url(route, world)
            for label, call in (("GET", client.get), ("POST", client.post)):
                with transaction.atomic():
                    response = call(url, {})
                    transaction.set_rollback(True)
                where = f"{role} {label} {url} -> {response.status_code}"
                if response.status_code not in _admin_allowed(role, url):
                    problems.append(where)
                if role == "compendium_staff" and response.status_code == 200:
                    problems += [
                        f"{where}: shows {n!r}"
                        for names in world.names.values()
                        for n in names
                        if n in response.content.decode(errors="replace")
                    ]
            _stay_logged_in(client, world, role)
    assert problems == []


@pytest.fixture(autouse=True)
def _signup_open(settings):
    """Walk the open sign-up page too (closed, it answers 404 to everyone)."""
    settings.SIGNUP_OPEN = True
