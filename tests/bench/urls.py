"""The project's URLs plus a bare "hello" view (the yardstick of the benchmarks) and a view
that only runs N trivial queries (how much of a step's time its query count alone costs)."""

from django.http import HttpResponse
from django.urls import include, path

from apps.encounters.models import Encounter


def hello(request):
    return HttpResponse("hello")


def queries(request, count: int):
    """A floor for the step: ``count`` of the cheapest ORM reads there are, and nothing else."""
    for _ in range(count):
        Encounter.objects.filter(pk=0).first()
    return HttpResponse("queries")


urlpatterns = [
    path("bench/hello/", hello),
    path("bench/queries/<int:count>/", queries),
    path("", include("config.urls")),
]
