"""The demo table a newcomer finds after `make run`: three accounts and a campaign per system.

It is made once: the demo remembers what it created (``DemoRecord``), so what a user renamed
or deleted afterwards stays so.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from apps.accounts.models import User
from apps.campaigns.models import Campaign, Role
from apps.campaigns.services import campaign_create, campaign_join, log_add
from apps.characters import services
from apps.characters.models import AethoriaSheet, Character, EwSheet
from apps.characters.services import AethoriaChoices, EwChoices
from apps.compendium import models as compendium
from apps.encounters import services as encounter_services

from .models import DemoRecord


@dataclass(frozen=True)
class DemoAccount:
    username: str
    password: str
    first_name: str
    role: str
    is_staff: bool = False


# Written in the README too: keep both in step.
DEMO_ACCOUNTS = (
    DemoAccount("mj", "tablee-mj", "Morgane", "MJ", is_staff=True),
    DemoAccount("alice", "tablee-alice", "Alice", "joueuse"),
    DemoAccount("bruno", "tablee-bruno", "Bruno", "joueur"),
)


@transaction.atomic
def create_demo_accounts() -> list[DemoAccount]:
    """Create the demo accounts the demo never made before; return those created.

    An account made once is never made again, even deleted or renamed, and never touched (its
    password may have been changed on purpose).
    """
    created = []
    for account in DEMO_ACCOUNTS:
        key = f"account:{account.username}"
        if DemoRecord.objects.filter(key=key).exists():
            continue
        # Made by a demo that kept no records yet: adopt it rather than fail on the username.
        user = User.objects.filter(username=account.username).first()
        if user is None:
            user = _create_account(account)
            created.append(account)
        DemoRecord.objects.create(key=key, object_id=user.pk)
    return created


def _create_account(account: DemoAccount) -> User:
    user = User(
        username=account.username,
        first_name=account.first_name,
        is_staff=account.is_staff,
        is_superuser=account.is_staff,
    )
    user.set_password(account.password)
    user.save()
    return user


def demo_users() -> dict[str, User] | None:
    """The demo accounts by their demo username (whatever they are called now), or None when
    one of them is gone."""
    records = dict(
        DemoRecord.objects.filter(key__startswith="account:").values_list("object_id", "key")
    )
    users = User.objects.in_bulk(records)
    by_name = {records[pk].removeprefix("account:"): user for pk, user in users.items()}
    if set(by_name) != {account.username for account in DEMO_ACCOUNTS}:
        return None
    return by_name


# --- The demo table: one campaign per system, the demo players' PCs and a few NPCs ----------

EW_DEMO_CAMPAIGN = "Les Ombres de Marseille"
AETHORIA_DEMO_CAMPAIGN = "La Marche des Brumes"


def _named(model, *names):
    """The compendium rows with these names that exist (the seeds may not be loaded)."""
    rows = {row.name: row for row in model.objects.filter(name__in=names)}
    return [rows[name] for name in names if name in rows]


def _one(model, name):
    found = _named(model, name)
    return found[0] if found else None


def _ew_choices(archetype, values, specialties, traits=(), weapons=(), armour=None):

    levels = dict(specialties)
    return EwChoices(
        **values,
        archetype=_one(compendium.EwArchetype, archetype),
        specialties=[(s, levels[s.name]) for s in _named(compendium.EwSpecialty, *levels)],
        traits=_named(compendium.EwTrait, *traits),
        weapons=_named(compendium.EwWeapon, *weapons),
        armour=_one(compendium.EwArmour, armour) if armour else None,
    )


def _aethoria_choices(values, skills, weapons=(), **magic):

    ranks = dict(skills)
    return AethoriaChoices(
        **values,
        **magic,
        skills=[(s, ranks[s.name]) for s in _named(compendium.AethoriaSkill, *ranks)],
        weapons=_named(compendium.AethoriaWeapon, *weapons),
    )


@transaction.atomic
def _prepare_demo_encounter(campaign, name: str, pcs: list, npcs: list) -> None:
    """A fight ready to start; the last NPC lurks, hidden from the players until revealed."""

    encounter = encounter_services.encounter_create(campaign=campaign, name=name)
    encounter_services.combatants_add(encounter_id=encounter.pk, characters=[*pcs, *npcs[:-1]])
    encounter_services.combatants_add(encounter_id=encounter.pk, characters=npcs[-1:], hidden=True)


def create_demo_table() -> list[str]:
    """Create the demo campaigns the demo never made before; return the names of those created.

    Runs after `create_demo_accounts` (and after `seed`, whose compendium rows it uses when
    they are there). The demo remembers what it made (``DemoRecord``): a demo campaign that
    was renamed or deleted stays so, and none is ever touched again (the GM may have played it).
    """
    users = demo_users()
    if users is None:
        return []
    created = []
    for key, name, build in (
        ("campaign:ew", EW_DEMO_CAMPAIGN, _create_ew_campaign),
        ("campaign:aethoria", AETHORIA_DEMO_CAMPAIGN, _create_aethoria_campaign),
    ):
        if _create_once(key, name, build, users):
            created.append(name)
    return created


@transaction.atomic
def _create_once(key: str, name: str, build, users: dict[str, User]) -> bool:
    """Build the demo campaign ``key`` unless the demo made it before; True when built."""
    if DemoRecord.objects.filter(key=key).exists():
        return False
    gm = users["mj"]
    # Made by a demo that kept no records yet: adopt it rather than make a second one.
    campaign = Campaign.objects.filter(
        name=name, memberships__user=gm, memberships__role=Role.GM
    ).first()
    built = campaign is None
    if built:
        campaign = build(gm, users["alice"], users["bruno"])
    DemoRecord.objects.create(key=key, object_id=campaign.pk)
    return built


def _create_ew_campaign(gm: User, alice: User, bruno: User) -> Campaign:
    campaign = campaign_create(
        name=EW_DEMO_CAMPAIGN,
        system="ew",
        gm=gm,
        description="1936. Les docks, la pègre corse et une cargaison qui n'aurait jamais "
        "dû quitter Alexandrie.",
    )
    for player in (alice, bruno):
        campaign_join(campaign=campaign, user=player)
    lysandre = services.character_create_ew(
        campaign=campaign,
        owner=alice,
        name="Lysandre Vey",
        concept="détective privée, ancienne infirmière de guerre",
        choices=_ew_choices(
            "Investigateur",
            {"phy": 6, "men": 8, "per": 8, "pre": 6},
            [("Investigation", 3), ("Arme de poing", 2), ("Psychologie", 2), ("Médecine", 1)],
            traits=("Mémoire eidétique", "Curiosité maladive"),
            weapons=("Revolver",),
        ),
    )
    marco = services.character_create_ew(
        campaign=campaign,
        owner=bruno,
        name="Marco Bellandi",
        concept="docker, boxeur, trop curieux",
        choices=_ew_choices(
            "Baroudeur",
            {"phy": 9, "men": 5, "per": 7, "pre": 7},
            [("Corps à corps", 3), ("Survie", 2), ("Intimidation", 2), ("Conduite", 1)],
            traits=("Robustesse", "Recherché"),
            weapons=("Batte de base-ball", "Pistolet"),
            armour="Blouson de cuir",
        ),
    )
    thug = services.character_create_ew(
        campaign=campaign,
        owner=None,
        name="Homme de main",
        concept="nervi de la bande Carbone",
        is_template=True,
        choices=_ew_choices(
            None,
            {"phy": 8, "men": 5, "per": 7, "pre": 8},
            [("Arme blanche", 2), ("Corps à corps", 2)],
            weapons=("Couteau",),
        ),
    )
    thugs = services.npc_copy(template=thug, count=2)
    garnier = services.character_create_ew(
        campaign=campaign,
        owner=None,
        name="Commissaire Garnier",
        concept="flic fatigué, honnête à sa façon",
        choices=_ew_choices(
            None,
            {"phy": 6, "men": 7, "per": 8, "pre": 7},
            [("Investigation", 4)],
            weapons=("Pistolet",),
        ),
    )
    Character.objects.filter(pk=garnier.pk).update(revealed=True)
    # A rough first evening: Marco took a beating, Lysandre spent her luck.
    EwSheet.objects.filter(pk=marco.pk).update(superficial_left=11, lethal_left=22)
    EwSheet.objects.filter(pk=lysandre.pk).update(eclat=2)
    services.xp_award(
        campaign=campaign,
        characters=[lysandre, marco],
        amount=3,
        reason="Scénario 1 : « Le cargo fantôme »",
        by=gm,
    )
    log_add(campaign=campaign, text="Les personnages arrivent au port de la Joliette.", by=gm)
    _prepare_demo_encounter(campaign, "Rixe sur les quais", [lysandre, marco], thugs)
    return campaign


def _create_aethoria_campaign(gm: User, alice: User, bruno: User) -> Campaign:
    campaign = campaign_create(
        name=AETHORIA_DEMO_CAMPAIGN,
        system="aethoria",
        gm=gm,
        description="Aux marches du royaume, la brume monte des marais et les villages se vident.",
    )
    for player in (alice, bruno):
        campaign_join(campaign=campaign, user=player)
    god = compendium.AethoriaGod.objects.order_by("name").first()
    maelle = services.character_create_aethoria(
        campaign=campaign,
        owner=alice,
        name="Maëlle",
        concept="marquée, guérisseuse itinérante",
        choices=_aethoria_choices(
            {
                "force": 4,
                "adresse": 6,
                "vitalite": 5,
                "concentration": 7,
                "intelligence": 6,
                "esprit": 7,
            },
            [
                ("Magie", 5),
                ("Premiers soins", 4),
                ("Dague", 3),
                ("Esquive", 3),
                ("Herboristerie", 4),
            ],
            weapons=("Dague",),
            **({"magic_type": "marque", "god": god} if god else {}),
        ),
    )
    torvald = services.character_create_aethoria(
        campaign=campaign,
        owner=bruno,
        name="Torvald",
        concept="ancien soldat, bûcheron",
        choices=_aethoria_choices(
            {
                "force": 8,
                "adresse": 6,
                "vitalite": 7,
                "concentration": 4,
                "intelligence": 4,
                "esprit": 5,
            },
            [("Hache", 6), ("Parade", 4), ("Endurance", 5), ("Survie", 3)],
            weapons=("Hache",),
        ),
    )
    brigand = services.character_create_aethoria(
        campaign=campaign,
        owner=None,
        name="Brigand des marais",
        is_template=True,
        choices=_aethoria_choices(
            {
                "force": 5,
                "adresse": 5,
                "vitalite": 5,
                "concentration": 3,
                "intelligence": 3,
                "esprit": 3,
            },
            [("Épée", 4), ("Esquive", 2)],
            weapons=("Épée courte",),
        ),
    )
    brigands = services.npc_copy(template=brigand, count=3)
    services.character_create_aethoria(
        campaign=campaign,
        owner=None,
        name="Dame Ysolde",
        concept="châtelaine inquiète",
        choices=_aethoria_choices(
            {
                "force": 3,
                "adresse": 4,
                "vitalite": 4,
                "concentration": 6,
                "intelligence": 7,
                "esprit": 6,
            },
            [("Commandement", 5), ("Persuasion", 4)],
        ),
    )
    Character.objects.filter(campaign=campaign, name="Dame Ysolde").update(revealed=True)
    # A doué lurking in the mist, so the demo fight shows spells, Pouvoir and érys burns.
    illusion = compendium.AethoriaMagicDomain.objects.filter(name="Illusion").first()
    witch = services.character_create_aethoria(
        campaign=campaign,
        owner=None,
        name="Sorcière des brumes",
        concept="doué, tisse la brume des marais",
        choices=_aethoria_choices(
            {
                "force": 3,
                "adresse": 5,
                "vitalite": 4,
                "concentration": 7,
                "intelligence": 6,
                "esprit": 7,
            },
            [("Magie", 5), ("Dague", 3), ("Esquive", 3)],
            weapons=("Dague",),
            **({"magic_type": "doue", "pouvoir": 6, "domain": illusion} if illusion else {}),
        ),
    )
    AethoriaSheet.objects.filter(pk=torvald.pk).update(pv=19, fatigue_physical=9)
    AethoriaSheet.objects.filter(pk=maelle.pk).update(fatigue_mental=9)
    services.xp_award(
        campaign=campaign,
        characters=[maelle, torvald],
        amount=2,
        reason="Le gué des Saules",
        by=gm,
    )
    _prepare_demo_encounter(
        campaign, "Embuscade dans les marais", [maelle, torvald], [*brigands, witch]
    )
    return campaign
