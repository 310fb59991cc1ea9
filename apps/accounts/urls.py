from django.urls import path

from . import views

app_name = "accounts"

urlpatterns = [
    path("", views.account, name="account"),
    path("connexion/", views.LoginView.as_view(), name="login"),
    path("deconnexion/", views.LogoutView.as_view(), name="logout"),
    path("inscription/", views.signup, name="signup"),
    path("appareils/deconnecter/", views.sessions_end_others, name="sessions_end_others"),
    path("mot-de-passe/", views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "mot-de-passe/change/",
        views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("mot-de-passe/oublie/", views.PasswordResetView.as_view(), name="password_reset"),
    path(
        "mot-de-passe/oublie/envoye/",
        views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "mot-de-passe/nouveau/<uidb64>/<token>/",
        views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "mot-de-passe/nouveau/fait/",
        views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("mot-de-passe/demande/", views.reset_ask, name="reset_ask"),
    path("mot-de-passe/demande/envoyee/", views.reset_ask_done, name="reset_ask_done"),
    path("lien/<str:token>/", views.reset_link_use, name="reset_link"),
    path("adresse/<str:token>/", views.email_confirm, name="email_confirm"),
    path("langue/", views.language_set, name="language_set"),
]
