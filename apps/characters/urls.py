from django.urls import path

from apps.systems import all_systems

from . import views

app_name = "characters"

urlpatterns = [
    path("nouveau/<int:campaign_id>/", views.character_create, name="create"),
    path("xp/<int:campaign_id>/", views.xp_award, name="xp_award"),
    path("<int:character_id>/", views.character_detail, name="detail"),
    path("<int:character_id>/nouveautes/", views.sheet_changes, name="changes"),
    path("<int:character_id>/flux/", views.sheet_stream, name="stream"),
    path("<int:character_id>/modifier/", views.character_edit, name="edit"),
    path("<int:character_id>/annuler/", views.own_undo, name="own_undo"),
    path("<int:character_id>/repos/", views.character_rest, name="rest"),
    path("<int:character_id>/notes/", views.character_notes, name="notes"),
    path("<int:character_id>/reveler/", views.character_reveal, name="reveal"),
    path("<int:character_id>/joueur/", views.character_assign, name="assign"),
    path("<int:character_id>/copier/", views.npc_copy, name="npc_copy"),
    path("<int:character_id>/supprimer/", views.character_delete, name="delete"),
    path("<int:character_id>/xp/", views.xp_spend, name="xp_spend"),
    path("<int:character_id>/xp/<int:entry_id>/annuler/", views.xp_undo, name="xp_undo"),
    # Each game system's own spends from a sheet (``apps/systems/<code>/urls.py``).
    *(route for system in all_systems() for route in system.sheet_urlpatterns()),
]
