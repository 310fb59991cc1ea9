from django.contrib.auth.decorators import login_not_required
from django.db import connection
from django.http import HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from .http import HtmxHttpRequest


@login_not_required
@never_cache
@require_GET
def health(request: HtmxHttpRequest) -> HttpResponse:
    """For load balancers: answers 200 when this instance can reach the database."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return HttpResponse("ok", content_type="text/plain")
