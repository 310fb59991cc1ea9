from django.urls import path

from . import views

app_name = "campaigns"

urlpatterns = [
    path("nouvelle/", views.campaign_create, name="create"),
    path("importer/", views.campaign_import, name="import"),
    path("rejoindre/", views.campaign_join_code, name="join_code"),
    path("rejoindre/<str:code>/", views.campaign_join, name="join"),
    path("rejoindre/<str:code>/connexion/", views.JoinLoginView.as_view(), name="join_login"),
    path("rejoindre/<str:code>/compte/", views.campaign_sign_up, name="join_signup"),
    path("<int:campaign_id>/", views.campaign_detail, name="detail"),
    path("<int:campaign_id>/changements/", views.campaign_changes, name="changes"),
    path("<int:campaign_id>/flux/", views.campaign_stream, name="stream"),
    path("<int:campaign_id>/invitation/", views.campaign_invite_regenerate, name="invite"),
    path(
        "<int:campaign_id>/joueurs/<int:membership_id>/retirer/",
        views.membership_remove,
        name="member_remove",
    ),
    path(
        "<int:campaign_id>/joueurs/<int:membership_id>/lien/",
        views.member_reset_link,
        name="member_reset_link",
    ),
    path("<int:campaign_id>/regles/", views.campaign_house_rules, name="house_rules"),
    path("<int:campaign_id>/regles/table/", views.campaign_grid, name="grid"),
    path("<int:campaign_id>/regles/table/defaut/", views.campaign_grid_reset, name="grid_reset"),
    path("<int:campaign_id>/journal/", views.log_add, name="log_add"),
    path("<int:campaign_id>/journal/<int:entry_id>/annuler/", views.log_undo, name="log_undo"),
    path("<int:campaign_id>/export/", views.campaign_export, name="export"),
    path(
        "<int:campaign_id>/documents/<int:handout_id>/",
        views.handout_image,
        name="handout_image",
    ),
]
