"""A roll request pushed to its player's phone (issue 31, point 8), against the README's
production server: 99 phones follow the table view while the fight changes ten times a
second, and Alice's phone follows her own "À toi" stream too. From the COMMIT that opens or
closes a request on her fighter to the event on her stream: p50/p95 (budget: p95 ≤ 25 ms).
A page alone on its topic is told at once (apps/core/push.py); its changes come further apart
than a page's pace, as a GM's requests do.

Run with `make bench`; figures printed, and written to BENCH_JSON when it is set.
"""

import time

from django.db import transaction
from django.test import override_settings
from django.urls import reverse

from apps.accounts.models import User
from apps.encounters.models import Combatant
from tests.asgi_server import session_cookie
from tests.bench.bench_load import percentile
from tests.bench.bench_push import (
    LISTENERS,
    PRODUCTION,
    Phones,
    change,
    demo,  # noqa: F401 - the fixture
    latencies,
    phone_cookies,
    phone_paths,
    record,
    serving,
)

REQUESTS = 30
# Longer than a page's pace (a second): each request is told as it comes, not folded.
APART_SECONDS = 1.2
BUDGET_P95_MS = 25


def test_a_roll_request_reaches_its_players_phone_at_once(demo):  # noqa: F811
    env, encounter = demo
    alice = User.objects.get(username="alice")
    fighter = Combatant.objects.get(encounter=encounter, character__owner=alice)
    with override_settings(SECRET_KEY=env["SECRET_KEY"]):
        alices_cookie = session_cookie(alice)
    with serving(env, PRODUCTION) as (port, _pid):
        table = phone_paths(encounter)[1]
        others = phone_cookies(env, encounter, LISTENERS - 1)
        crowd = Phones(port, others, [table] * (LISTENERS - 1))
        stream = reverse("encounters:request_stream", args=[encounter.pk])
        phone = Phones(port, [alices_cookie], [(stream, None, "", "")])
        assert crowd.opened.wait(20) and phone.opened.wait(20), crowd.errors + phone.errors
        time.sleep(1)
        sent: dict[str, float] = {}
        for number in range(REQUESTS):
            started = time.perf_counter()
            while time.perf_counter() - started < APART_SECONDS:
                change(encounter)  # the fight goes on, ten changes a second
                time.sleep(0.1)
            asked = {"id": f"bench-{number}", "kind": "defence"} if number % 2 == 0 else {}
            start = time.perf_counter()
            with transaction.atomic():
                Combatant.objects.filter(pk=fighter.pk).update(request=asked)
            sent[str(number)] = start
        time.sleep(0.5)
        # Her stream's events carry no version: each is the first one after its COMMIT.
        found, lost = latencies(phone.received, sent)
        crowd.stop()
        phone.stop()
    p95 = percentile(found, 0.95)  # ms
    record(
        request_push_listeners=LISTENERS,
        request_push_events=len(found),
        request_push_lost=lost,
        request_push_p50_ms=round(percentile(found, 0.50), 2),
        request_push_p95_ms=round(p95, 2),
    )
    print(f"  request push p95 {p95:.1f} ms (budget {BUDGET_P95_MS} ms)")
    assert not crowd.errors and not phone.errors, (crowd.errors + phone.errors)[:5]
    assert lost == 0
