"""The routes of the EW-System console actions, in the ``encounters`` namespace, and of its
sheet's own spend, in the ``characters`` namespace."""

from django.urls import path

from . import sheet_spend, views

P = "<int:encounter_id>/ew/"
urlpatterns = [
    path(f"{P}attaque/", views.ew_attack, name="ew_attack"),
    path(f"{P}demande/", views.ew_request, name="ew_request"),
    path(
        f"{P}demande/repondre/",
        views.ew_request_answer,
        name="ew_request_answer",
    ),
    path(f"{P}attaque/cotes/", views.ew_attack_odds, name="ew_attack_odds"),
    path(f"{P}test/", views.ew_test, name="ew_test"),
    path(f"{P}test/demande/", views.ew_test_request, name="ew_test_request"),
    path(f"{P}test/cotes/", views.ew_test_odds, name="ew_test_odds"),
    path(f"{P}posture/", views.ew_stance, name="ew_stance"),
    path(f"{P}eclat/", views.ew_eclat, name="ew_eclat"),
    path(f"{P}coup-de-pouce/", views.ew_coup_de_pouce, name="ew_coup_de_pouce"),
]

sheet_urlpatterns = [
    path("<int:character_id>/eclat/", sheet_spend.sheet_eclat_spend, name="eclat_spend"),
]
