import pytest
from django.core.cache import cache

from tests.accounts.factories import UserFactory


@pytest.fixture
def user(db):
    return UserFactory()


@pytest.fixture
def staff(db):
    return UserFactory(is_staff=True, is_superuser=True)


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    # The real hasher is slow on purpose; tests only need passwords to round-trip.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _empty_cache():
    # The cache lives as long as the process: a region kept by one test (the players' table
    # view, keyed by ids a later test's database may reuse) must not answer another.
    cache.clear()


# --- The cast of a campaign (campaigns and characters tests) ---------------------------------


@pytest.fixture
def gm(db):
    return UserFactory(first_name="Morgane")


@pytest.fixture
def player(db):
    return UserFactory(first_name="Alice")


@pytest.fixture
def other_player(db):
    return UserFactory(first_name="Bruno")


@pytest.fixture
def outsider(db):
    return UserFactory(first_name="Oscar")


def _campaign(system, gm, player, other_player):
    from apps.campaigns.models import Role
    from apps.campaigns.services import campaign_create
    from tests.campaigns.factories import MembershipFactory

    campaign = campaign_create(name=f"Campagne {system}", system=system, gm=gm)
    MembershipFactory(campaign=campaign, user=player, role=Role.PLAYER)
    MembershipFactory(campaign=campaign, user=other_player, role=Role.PLAYER)
    return campaign


@pytest.fixture
def campaign(gm, player, other_player):
    """An EW campaign: ``gm`` leads it, ``player`` and ``other_player`` play in it."""
    return _campaign("ew", gm, player, other_player)


@pytest.fixture
def aethoria_campaign(gm, player, other_player):
    return _campaign("aethoria", gm, player, other_player)
