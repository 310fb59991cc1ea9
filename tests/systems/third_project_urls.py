"""The project's URLconf with the third system's routes: a system's routes are gathered
when the URLconf loads, and the third one is registered only while a test runs (the
``third_system`` fixture points ROOT_URLCONF here)."""

from django.urls import URLResolver, include, path

from apps.encounters import urls as encounters
from config import urls as project
from tests.systems.third import urls as third

ENCOUNTERS = (encounters.urlpatterns + third.urlpatterns, encounters.app_name)


def _with_third(route):
    if isinstance(route, URLResolver) and route.app_name == encounters.app_name:
        return path(str(route.pattern), include(ENCOUNTERS))
    return route


urlpatterns = [_with_third(route) for route in project.urlpatterns]
handler403 = project.handler403
