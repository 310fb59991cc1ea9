"""The project's URLs plus a bare "hello" view: the yardstick of the benchmarks."""

from django.http import HttpResponse
from django.urls import include, path


def hello(request):
    return HttpResponse("hello")


urlpatterns = [path("bench/hello/", hello), path("", include("config.urls"))]
