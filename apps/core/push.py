"""Live updates pushed: Server-Sent Events fed by PostgreSQL LISTEN/NOTIFY (product spec §4).

Every change that moves a version (an encounter's, a campaign's) makes PostgreSQL send
``NOTIFY tablee, '<kind>:<id>:<version>'`` at COMMIT: triggers on those columns do it
(apps/core/migrations/0001_push_triggers.py), so a rolled-back step sends nothing, no writer
can forget it, and a step pays no extra round trip. Each server process holds ONE
connection that LISTENs (``Hub``), outside Django's pool, and hands each notification to
the open streams that follow its topic, in memory.

An open page's stream (``open_stream``) first runs the page's own permission check, then
gives its database connection back: a stream stays open for hours and must not pin one of
the pool's few connections. The events carry no secret and no HTML, only "this changed",
and the page's live element then runs its usual check (components/live.html), so what a
viewer may see is still decided by the views.

Each event also paces the refreshes it causes. A change followed by 100 phones would
otherwise send their 100 requests at once, and a GM stepping without pause would keep every
phone refreshing back to back: the process saturates and every answer waits, the GM's steps
too (measured: GM steps p50 1 s). So each page waits a random moment within ``spread_ms``
(about what one refresh costs the process, times the pages it streams to: a small table's
phones refresh at once, a big one's are spread over a few hundred milliseconds, as fast as
the process answers them), and while changes keep coming refreshes at most once per
``pace_ms`` (a second, or twice the spread: refreshes then take at most half the process),
always ending on the latest state (static/js/live.js).

When the LISTEN connection is lost, every stream is closed: browsers reconnect by
themselves (``retry``), poll every 2 s meanwhile, and check at once when the stream is back.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import deque
from collections.abc import AsyncIterator, Callable

import psycopg
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connection
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse

logger = logging.getLogger(__name__)

CHANNEL = "tablee"
# Proxies and phones' networks drop a connection silent for a minute or so.
KEEPALIVE_SECONDS = 25.0
# How long a browser waits before reconnecting a stream that ended (EventSource's retry).
RETRY_MS = 2000
# A stream closed to make room for a newer one comes back only after this, polling meanwhile.
EVICTED_RETRY_MS = 60_000
# One user's open streams (tabs, phones); past it the oldest is closed.
MAX_STREAMS_PER_USER = 8
# A new stream waits this long for the LISTEN connection before giving up (503).
CONNECT_TIMEOUT = 5.0
RECONNECT_DELAYS = (0.5, 1, 2, 5)
# Pacing of the refreshes (see above): about what one refresh (a region, or a check) costs
# a process, under uvicorn on a small machine; the spread's ceiling; and the shortest time
# between two refreshes of one page while changes keep coming.
REFRESH_COST_MS = 6
MAX_SPREAD_MS = 1000
MIN_PACE_MS = 1000


def spread_ms(streams: int) -> int:
    """How long a page told of a change may wait before refreshing, at most, when the
    process streams to ``streams`` pages: any of them may be refreshing meanwhile."""
    return min(MAX_SPREAD_MS, REFRESH_COST_MS * max(0, streams - 1))


def pace_ms(spread: int) -> int:
    """The shortest time between two refreshes of a page while changes keep coming."""
    return max(MIN_PACE_MS, 2 * spread)


def streams_served(request: HttpRequest) -> bool:
    """Whether the server answering this page also serves its stream: uvicorn does (a page
    then comes through config/asgi.py's WSGI side, marked so), gunicorn alone does not and
    its pages keep their 2 s check."""
    return isinstance(request, ASGIRequest) or request.META.get("tablee.streams_served") is True


def topic(kind: str, pk: int) -> str:
    """The name a stream follows: "encounter:12", "campaign:3"."""
    return f"{kind}:{pk}"


class Listener:
    """One open stream: the topics it follows, and the last change it was told of."""

    def __init__(self, user_id, topics: list[str]):
        self.user_id = user_id
        self.topics = topics
        self.latest: str | None = None
        self.spread_ms = 0
        self.closed_retry: int | None = None  # set when the hub closes the stream
        self.wake = asyncio.Event()

    def deliver(self, data: str, spread: int = 0) -> None:
        # A burst of changes needs one refresh, not one each: keep the latest.
        self.latest = data
        self.spread_ms = spread
        self.wake.set()

    def event(self) -> str:
        """The "changed" event of the latest change, with its pacing."""
        change = {
            "change": self.latest,
            "spread_ms": self.spread_ms,
            "pace_ms": pace_ms(self.spread_ms),
        }
        return f"event: changed\ndata: {json.dumps(change)}\n\n"

    def close(self, retry_ms: int = RETRY_MS) -> None:
        self.closed_retry = retry_ms
        self.wake.set()


class Hub:
    """The process's LISTEN connection and the streams it feeds (one per event loop)."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.task: asyncio.Task | None = None
        self.ready = asyncio.Event()
        self.followers: dict[str, set[Listener]] = {}
        self.by_user: dict[object, deque[Listener]] = {}
        self.received = 0  # notifications received, for the benchmarks
        self.listeners: set[Listener] = set()  # every open stream

    def start(self) -> None:
        """Start listening, once per event loop (tests run several loops in turn)."""
        loop = asyncio.get_running_loop()
        if self.loop is loop and self.task is not None and not self.task.done():
            return
        self.loop = loop
        self.ready = asyncio.Event()
        self.followers.clear()
        self.by_user.clear()
        self.listeners.clear()
        self.task = loop.create_task(self._listen_forever())

    async def wait_ready(self, timeout: float = CONNECT_TIMEOUT) -> bool:
        self.start()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.ready.wait(), timeout)
        return self.ready.is_set()

    def add(self, listener: Listener) -> None:
        self.listeners.add(listener)
        for name in listener.topics:
            self.followers.setdefault(name, set()).add(listener)
        streams = self.by_user.setdefault(listener.user_id, deque())
        streams.append(listener)
        while len(streams) > MAX_STREAMS_PER_USER:
            streams.popleft().close(EVICTED_RETRY_MS)

    def remove(self, listener: Listener) -> None:
        self.listeners.discard(listener)
        for name in listener.topics:
            followers = self.followers.get(name)
            if followers is not None:
                followers.discard(listener)
                if not followers:
                    del self.followers[name]
        streams = self.by_user.get(listener.user_id)
        if streams is not None:
            with contextlib.suppress(ValueError):
                streams.remove(listener)
            if not streams:
                del self.by_user[listener.user_id]

    def dispatch(self, payload: str) -> None:
        """Hand "<kind>:<id>:<version>" to the streams following "<kind>:<id>"."""
        self.received += 1
        name, _, _version = payload.rpartition(":")
        spread = spread_ms(len(self.listeners))
        for listener in self.followers.get(name, ()):
            listener.deliver(payload, spread)

    def close_all(self) -> None:
        for streams in self.by_user.values():
            for listener in streams:
                listener.close()

    async def _listen_forever(self) -> None:
        attempt = 0
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    **listen_params(), autocommit=True
                ) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    attempt = 0
                    self.ready.set()
                    async for notify in conn.notifies():
                        self.dispatch(notify.payload)
            except (psycopg.Error, OSError) as error:
                logger.warning("push: LISTEN connection lost (%s), reconnecting", error)
            # Changes sent while nobody listened are lost: the streams end, and the pages
            # reconnect and check at once.
            self.ready.clear()
            self.close_all()
            await asyncio.sleep(RECONNECT_DELAYS[min(attempt, len(RECONNECT_DELAYS) - 1)])
            attempt += 1


def listen_params() -> dict:
    """The connection settings of the default database, for a connection of our own."""
    db = settings.DATABASES["default"]
    params = {
        "dbname": db["NAME"],
        "user": db.get("USER") or None,
        "password": db.get("PASSWORD") or None,
        "host": db.get("HOST") or None,
        "port": db.get("PORT") or None,
    }
    return {key: value for key, value in params.items() if value is not None}


hub = Hub()


async def events(listener: Listener) -> AsyncIterator[str]:
    """The stream's text: "changed" events, and a comment now and then to keep it open.

    The listener joins the hub here, when the server starts sending (right after the
    headers), and leaves it when the stream ends: a client gone before never joins."""
    hub.add(listener)
    try:
        yield f"retry: {RETRY_MS}\n: open\n\n"
        while True:
            try:
                await asyncio.wait_for(listener.wake.wait(), KEEPALIVE_SECONDS)
            except TimeoutError:
                yield ": keep-alive\n\n"
                continue
            listener.wake.clear()
            if listener.closed_retry is not None:
                yield f"retry: {listener.closed_retry}\n\n"
                return
            yield listener.event()
    finally:
        hub.remove(listener)


def _allowed_then_release(
    request: HttpRequest, allowed: Callable[[], list[str] | None]
) -> tuple[object, list[str] | None]:
    """Run the page's permission check, then give the connection back to the pool."""
    try:
        return request.user.pk, allowed()
    finally:
        # Inside a transaction (a test's), the connection is not ours to give back.
        if not connection.in_atomic_block:
            connection.close()


async def open_stream(
    request: HttpRequest, allowed: Callable[[], list[str] | None]
) -> HttpResponse:
    """The stream of a page: ``allowed`` is the page's check, returning the topics to follow
    (None: 404, like the page). Query string and Last-Event-ID are ignored: after any
    reconnect the page checks at once, so there is nothing to replay."""
    user_id, topics = await sync_to_async(_allowed_then_release)(request, allowed)
    if topics is None:
        return HttpResponse(status=404)
    if not isinstance(request, ASGIRequest):
        # Under a WSGI server a stream would hold a worker for good: 204 tells EventSource
        # not to come back, and the page keeps its 2 s check.
        return HttpResponse(status=204)
    if not await hub.wait_ready():
        return HttpResponse(status=503, headers={"Retry-After": "5"})
    listener = Listener(user_id, topics)
    response = StreamingHttpResponse(events(listener), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass events through at once
    return response
