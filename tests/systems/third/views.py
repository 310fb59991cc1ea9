"""The third system's console action."""

from __future__ import annotations

from django.views.decorators.http import require_POST

from apps.core.http import HtmxHttpRequest
from apps.encounters.views import run_small_step

from . import services
from .forms import CoupForm


@require_POST
def third_coup(request: HtmxHttpRequest, encounter_id: int):
    """The acting fighter strikes the chosen target."""
    return run_small_step(request, encounter_id, CoupForm, services.third_coup, target_id="target")
