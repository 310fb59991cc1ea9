from django.urls import path

from apps.systems.aethoria import views as aethoria_views

from . import views

app_name = "encounters"

urlpatterns = [
    path("campagne/<int:campaign_id>/nouvelle/", views.encounter_create, name="create"),
    path("<int:encounter_id>/", views.encounter_console, name="console"),
    path("<int:encounter_id>/table/", views.encounter_table, name="table"),
    path("<int:encounter_id>/nouveautes/", views.encounter_changes, name="changes"),
    path("<int:encounter_id>/combattants/", views.combatants_add, name="combatants_add"),
    path(
        "<int:encounter_id>/combattants/modele/",
        views.combatants_from_template,
        name="combatants_from_template",
    ),
    path("<int:encounter_id>/xp/", views.encounter_award_xp, name="award_xp"),
    path(
        "<int:encounter_id>/combattants/<int:combatant_id>/retirer/",
        views.combatant_remove,
        name="combatant_remove",
    ),
    path(
        "<int:encounter_id>/combattants/<int:combatant_id>/visibilite/",
        views.combatant_visibility,
        name="combatant_visibility",
    ),
    path("<int:encounter_id>/demarrer/", views.encounter_start, name="start"),
    path("<int:encounter_id>/suivant/", views.encounter_next_turn, name="next_turn"),
    path("<int:encounter_id>/pause/", views.encounter_pause, name="pause"),
    path("<int:encounter_id>/reprendre/", views.encounter_resume, name="resume"),
    path("<int:encounter_id>/terminer/", views.encounter_end, name="end"),
    path("<int:encounter_id>/rouvrir/", views.encounter_reopen, name="reopen"),
    path("<int:encounter_id>/annuler/", views.encounter_undo, name="undo"),
    path("<int:encounter_id>/retablir/", views.encounter_redo, name="redo"),
    path("<int:encounter_id>/ew/attaque/", views.ew_attack, name="ew_attack"),
    path("<int:encounter_id>/ew/attaque/cotes/", views.ew_attack_odds, name="ew_attack_odds"),
    path("<int:encounter_id>/ew/test/", views.ew_test, name="ew_test"),
    path("<int:encounter_id>/ew/test/cotes/", views.ew_test_odds, name="ew_test_odds"),
    path("<int:encounter_id>/ew/posture/", views.ew_stance, name="ew_stance"),
    path("<int:encounter_id>/ew/eclat/", views.ew_eclat, name="ew_eclat"),
    path("<int:encounter_id>/ew/coup-de-pouce/", views.ew_coup_de_pouce, name="ew_coup_de_pouce"),
    *aethoria_views.urlpatterns,
]
