from django.urls import path

from . import views

app_name = "core"

urlpatterns = [
    path("sante/", views.health, name="health"),
]
