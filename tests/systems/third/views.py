"""The third system's console actions."""

from __future__ import annotations

from django.views.decorators.http import require_POST

from apps.core.http import HtmxHttpRequest
from apps.encounters.kit import run_small_step

from . import services
from .forms import CoupForm, EpreuveForm


@require_POST
def third_coup(request: HtmxHttpRequest, encounter_id: int):
    """The acting fighter strikes the chosen target."""
    return run_small_step(
        request, encounter_id, CoupForm, services.third_coup, target_id="target", face="face"
    )


@require_POST
def third_epreuve(request: HtmxHttpRequest, encounter_id: int):
    """The acting fighter tries an épreuve of vigueur."""
    return run_small_step(request, encounter_id, EpreuveForm, services.third_epreuve, face="face")
