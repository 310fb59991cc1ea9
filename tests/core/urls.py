"""Views that exist only to exercise the htmx plumbing from the outside."""

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect
from django.urls import include, path


def fragment_with_message(request):
    messages.success(request, "Enregistré.")
    return HttpResponse('<p id="fragment">ok</p>')


def quiet_fragment(request):
    return HttpResponse('<p id="fragment">ok</p>')


def redirect_with_message(request):
    messages.success(request, "Parti ailleurs.")
    return redirect("home")


urlpatterns = [
    path("fragment/", fragment_with_message),
    path("redirect/", redirect_with_message),
    path("quiet/", quiet_fragment),
    path("", include("config.urls")),
]
