from django.contrib import admin
from django.urls import include, path

from apps.campaigns import dashboard

urlpatterns = [
    path("", dashboard.home, name="home"),
    path("changements/", dashboard.home_changes, name="home_changes"),
    path("flux/", dashboard.home_stream, name="home_stream"),
    path("compte/", include("apps.accounts.urls")),
    path("campagnes/", include("apps.campaigns.urls")),
    path("personnages/", include("apps.characters.urls")),
    path("rencontres/", include("apps.encounters.urls")),
    path("ecran/", include("apps.screens.urls")),
    path("admin/", admin.site.urls),
]

handler403 = "apps.core.views.permission_denied"
handler500 = "apps.core.views.server_error"
