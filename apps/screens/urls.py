from django.urls import path

from . import views

app_name = "screens"

urlpatterns = [
    # The screen, for the campaign's members.
    path("<int:campaign_id>/", views.screen, name="screen"),
    path("<int:campaign_id>/nouveautes/", views.screen_changes, name="changes"),
    path("<int:campaign_id>/flux/", views.screen_stream, name="stream"),
    # The screen through a link: nothing else opens with it.
    path("lien/<str:token>/", views.link_screen, name="link"),
    path("lien/<str:token>/nouveautes/", views.link_changes, name="link_changes"),
    path("lien/<str:token>/flux/", views.link_stream, name="link_stream"),
    path(
        "lien/<str:token>/documents/<int:handout_id>/",
        views.link_handout_image,
        name="link_handout_image",
    ),
    # The GM's page: links and handouts.
    path("<int:campaign_id>/gerer/", views.screen_manage, name="manage"),
    path("<int:campaign_id>/liens/", views.link_create, name="link_create"),
    path("<int:campaign_id>/liens/<int:link_id>/retirer/", views.link_revoke, name="link_revoke"),
    path("<int:campaign_id>/documents/", views.handout_create, name="handout_create"),
    path(
        "<int:campaign_id>/documents/<int:handout_id>/montrer/",
        views.handout_show,
        name="handout_show",
    ),
    path("<int:campaign_id>/documents/retirer/", views.handout_take_down, name="handout_take_down"),
    path(
        "<int:campaign_id>/documents/<int:handout_id>/supprimer/",
        views.handout_delete,
        name="handout_delete",
    ),
]
