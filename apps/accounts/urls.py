from django.contrib.auth import views as auth_views
from django.urls import path

from . import views

app_name = "accounts"

urlpatterns = [
    path("connexion/", views.LoginView.as_view(), name="login"),
    path("deconnexion/", auth_views.LogoutView.as_view(), name="logout"),
    path("mot-de-passe/", views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "mot-de-passe/change/",
        views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("langue/", views.language_set, name="language_set"),
]
