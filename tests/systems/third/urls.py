"""The third system's console routes (in the ``encounters`` namespace, named ``third_…``)."""

from django.urls import path

from . import views

urlpatterns = [
    path("<int:encounter_id>/third/coup/", views.third_coup, name="third_coup"),
    path("<int:encounter_id>/third/epreuve/", views.third_epreuve, name="third_epreuve"),
]
