"""Every compendium admin page loads for staff and is refused to everyone else."""

import pytest
from django.contrib import admin
from django.urls import reverse

from apps.compendium import models as m

from .factories import FACTORIES

MODELS = sorted(
    (model for model in admin.site._registry if model._meta.app_label == "compendium"),
    key=lambda model: model.__name__,
)


def url(model: type, view: str, *args) -> str:
    return reverse(f"admin:compendium_{model._meta.model_name}_{view}", args=args)


def test_every_model_is_in_the_admin_and_has_a_factory():
    assert len(MODELS) == 15  # the armour coverages are edited inline with their piece
    assert all(model in FACTORIES for model in MODELS)


@pytest.mark.django_db
@pytest.mark.parametrize("model", MODELS, ids=lambda model: model.__name__)
def test_staff_gets_the_list_add_and_change_pages(staff_client, model):
    row = FACTORIES[model]()
    for page in (url(model, "changelist"), url(model, "add"), url(model, "change", row.pk)):
        response = staff_client.get(page)
        assert response.status_code == 200, page
    assert list(staff_client.get(url(model, "changelist")).context["cl"].result_list) == [row]


@pytest.mark.django_db
@pytest.mark.parametrize("model", MODELS, ids=lambda model: model.__name__)
def test_a_non_staff_user_is_sent_to_the_admin_login(client, user, model):
    row = FACTORIES[model]()
    client.force_login(user)
    for page in (url(model, "changelist"), url(model, "add"), url(model, "change", row.pk)):
        response = client.get(page)
        assert response.status_code == 302, page
        assert response["Location"].startswith(reverse("admin:login")), page


@pytest.mark.django_db
def test_the_compendium_index_lists_both_systems(staff_client):
    text = staff_client.get(reverse("admin:app_list", args=["compendium"])).text
    assert "EW · archétypes" in text
    assert "Aethoria · table de localisation" in text


@pytest.mark.django_db
def test_searching_archetypes_by_aptitude_keeps_their_aptitude_count(staff_client):
    medecin = FACTORIES[m.EwArchetype](name="Médecin")
    for name in ("Diagnostic", "Diagnostic rapide", "Sang-froid"):
        FACTORIES[m.EwAptitude](archetype=medecin, name=name)
    FACTORIES[m.EwArchetype](name="Mercenaire")
    response = staff_client.get(url(m.EwArchetype, "changelist"), {"q": "Diagnostic"})
    [found] = response.context["cl"].result_list
    assert (found.name, found.aptitude_count) == ("Médecin", 3)
