from django.urls import path

from apps.systems import all_systems

from . import request_views, views

app_name = "encounters"

urlpatterns = [
    path("campagne/<int:campaign_id>/nouvelle/", views.encounter_create, name="create"),
    path("<int:encounter_id>/", views.encounter_console, name="console"),
    path("<int:encounter_id>/table/", views.encounter_table, name="table"),
    path("<int:encounter_id>/nouveautes/", views.encounter_changes, name="changes"),
    path("<int:encounter_id>/flux/", views.encounter_stream, name="stream"),
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
    path("<int:encounter_id>/renforts/", views.encounter_reinforce, name="reinforce"),
    path(
        "<int:encounter_id>/combattants/<int:combatant_id>/quitter/",
        views.combatant_withdraw,
        name="combatant_withdraw",
    ),
    path(
        "<int:encounter_id>/combattants/<int:combatant_id>/outils/",
        views.combatant_tools,
        name="combatant_tools",
    ),
    path(
        "<int:encounter_id>/combattants/<int:combatant_id>/corriger/",
        views.combatant_correct_pool,
        name="combatant_correct_pool",
    ),
    path("<int:encounter_id>/etats/", views.condition_put, name="condition_put"),
    path("<int:encounter_id>/etats/nouveau/", views.condition_form_view, name="condition_form"),
    path("<int:encounter_id>/etats/retirer/", views.condition_remove, name="condition_remove"),
    path("<int:encounter_id>/etats/bilan/", views.condition_after, name="condition_after"),
    path("<int:encounter_id>/a-toi/", request_views.request_panel, name="request_panel"),
    path("<int:encounter_id>/a-toi/flux/", request_views.request_stream, name="request_stream"),
    path(
        "<int:encounter_id>/a-toi/<int:combatant_id>/repondre/",
        request_views.request_answer,
        name="request_answer",
    ),
    path("<int:encounter_id>/a-toi/fin-de-tour/", request_views.end_own_turn, name="end_own_turn"),
    path(
        "<int:encounter_id>/demandes/initiative/",
        request_views.request_initiative,
        name="request_initiative",
    ),
    path(
        "<int:encounter_id>/demandes/<int:combatant_id>/a-sa-place/",
        request_views.request_take_over,
        name="request_take_over",
    ),
    path(
        "<int:encounter_id>/demandes/<int:combatant_id>/annuler/",
        request_views.request_cancel,
        name="request_cancel",
    ),
    path("<int:encounter_id>/demarrer/", views.encounter_start, name="start"),
    path("<int:encounter_id>/suivant/", views.encounter_next_turn, name="next_turn"),
    path("<int:encounter_id>/pause/", views.encounter_pause, name="pause"),
    path("<int:encounter_id>/reprendre/", views.encounter_resume, name="resume"),
    path("<int:encounter_id>/terminer/", views.encounter_end, name="end"),
    path("<int:encounter_id>/rouvrir/", views.encounter_reopen, name="reopen"),
    path("<int:encounter_id>/annuler/", views.encounter_undo, name="undo"),
    path("<int:encounter_id>/retablir/", views.encounter_redo, name="redo"),
    # Each game system's console actions (``apps/systems/<code>/urls.py``).
    *(route for system in all_systems() for route in system.urlpatterns()),
]
