"""The routes of the Aethoria console actions, in the ``encounters`` namespace, and of its
sheet's own spend, in the ``characters`` namespace."""

from django.urls import path

from . import sheet_spend, views

P = "<int:encounter_id>/aethoria/"
urlpatterns = [
    path(f"{P}attaque/", views.aethoria_attack, name="aethoria_attack"),
    path(f"{P}attaque/cotes/", views.aethoria_attack_odds, name="aethoria_attack_odds"),
    path(f"{P}demande/", views.aethoria_request, name="aethoria_request"),
    path(
        f"{P}demande/repondre/",
        views.aethoria_request_answer,
        name="aethoria_request_answer",
    ),
    path(f"{P}action/", views.aethoria_special, name="aethoria_special"),
    path(f"{P}declencher/", views.aethoria_fire, name="aethoria_fire"),
    path(f"{P}effet/", views.aethoria_effect, name="aethoria_effect"),
    path(f"{P}sort/", views.aethoria_spell, name="aethoria_spell"),
    path(f"{P}sort/cotes/", views.aethoria_spell_odds, name="aethoria_spell_odds"),
    path(f"{P}test/", views.aethoria_test, name="aethoria_test"),
    path(f"{P}test/demande/", views.aethoria_test_request, name="aethoria_test_request"),
    path(f"{P}test/cotes/", views.aethoria_test_odds, name="aethoria_test_odds"),
    path(f"{P}fatigue/", views.aethoria_fatigue, name="aethoria_fatigue"),
    path(f"{P}attaque/fatigue/", views.aethoria_attack_fatigue, name="aethoria_attack_fatigue"),
    path(
        f"{P}attaque/fatigue/offre/",
        views.aethoria_attack_fatigue_offer,
        name="aethoria_attack_fatigue_offer",
    ),
    path(f"{P}viser/hors-d-atteinte/", views.aethoria_aim_lost, name="aethoria_aim_lost"),
    path(f"{P}saignement/", views.aethoria_treat_bleeding, name="aethoria_treat_bleeding"),
]

sheet_urlpatterns = [
    path("<int:character_id>/fatigue/", sheet_spend.sheet_fatigue_spend, name="fatigue_spend"),
]
