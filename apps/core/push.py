"""Live updates pushed: Server-Sent Events fed by PostgreSQL LISTEN/NOTIFY (product spec §4).

Every change that moves a version (an encounter's, a campaign's) makes PostgreSQL send
``NOTIFY tablee, '<kind>:<id>:<version>'`` at COMMIT: triggers on those columns do it
(apps/core/migrations/0001_push_triggers.py), so a rolled-back step sends nothing, no writer
can forget it, and a step pays no extra round trip. Each server process holds ONE
connection that LISTENs (``Hub``), outside Django's pool, and hands each notification to
the open streams that follow its topic, in memory.

An open page's stream (``open_stream``) first runs the page's own permission check, then
gives its database connection back: a stream stays open for hours and must not pin one of
the pool's few connections. The events carry no secret, no HTML and nothing of the server,
only the version the page follows ("this changed"), and the page's live element then runs
its usual check (components/live.html), so what a viewer may see is still decided by the
views.

A stream lasts only as long as its viewer's right to it: at every keep-alive, and at once
when PostgreSQL says that a user's sessions or memberships changed (``viewer:<user id>``,
sent by triggers on the users and memberships tables, core migration 0003: a logout, "log
out everywhere", a password change, a removal from a campaign), the stream checks again
that the session still holds and that the page's own check still gives the same topics,
and ends otherwise.

Each stream also paces the events it sends. A change followed by 100 phones would
otherwise send their 100 requests at once, and a GM stepping without pause would keep every
phone refreshing back to back: the process saturates and every answer waits, the GM's steps
too (measured: GM steps p50 1 s). So each stream waits a random moment within ``spread_ms``
(about what one refresh costs the process, times the pages it streams to: a small table's
phones refresh at once, a big one's are spread over a few hundred milliseconds, as fast as
the process answers them; a page alone on its topic is told at once), and while changes
keep coming tells its page at most once per ``pace_ms`` (a second, or twice the spread:
refreshes then take at most half the process), always ending on the latest state. The
waiting is done here, not by the page: an event that carried the spread would tell every
viewer how many pages the process serves.

A page may ask for its check to be run again while its stream is open (``recheck``: the
table screen, which a revoked link must stop at once, and whose fight comes and goes): at
each change told and each keep-alive. Refused, the stream ends; with other topics (the
screen's fight started or ended), it follows those from then on.

When the LISTEN connection is lost, every stream is closed: browsers reconnect by
themselves (``retry``), poll every 2 s meanwhile, and check at once when the stream is back.

No screen stays behind on a lost event. Each event carries, beside the version, how many
changes the stream has told its page (``seq``), and every keep-alive is an ``alive`` event
saying the same — sent when the stream opens, every ``KEEPALIVE_SECONDS`` (after the viewer's
check) and once ``SETTLE_SECONDS`` after the last change told (a burst's end; no check then).
A page that heard less than that, or whose refresh failed, refreshes; a page that hears
nothing for two keep-alives takes its stream for dead, shows "reconnexion…" and opens a new
one (static/js/live.js).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable

import psycopg
from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib import auth
from django.core.handlers.asgi import ASGIRequest
from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse

logger = logging.getLogger(__name__)

CHANNEL = "tablee"
# Proxies and phones' networks drop a connection silent for a minute or so.
KEEPALIVE_SECONDS = 25.0
# After the last change a stream told, the keep-alive that confirms it comes this soon: a
# page that missed the end of a burst catches up within seconds, not 25.
SETTLE_SECONDS = 2.0
# How long a browser waits before reconnecting a stream that ended (EventSource's retry).
RETRY_MS = 2000
# A stream closed to make room for a newer one comes back only after this, polling meanwhile
# (and so does one whose page's check now refuses it: its page's next check says so).
EVICTED_RETRY_MS = 60_000
# One user's open streams (tabs, phones); past it the oldest is closed.
MAX_STREAMS_PER_USER = 8
# A new stream waits this long for the LISTEN connection before giving up (503): the
# pages' own wait for the database (config/settings.py's pool time-out) and no more.
CONNECT_TIMEOUT = 3.0
RECONNECT_DELAYS = (0.5, 1, 2, 5)
# Pacing of the refreshes (see above): about what one refresh (a region, or a check) costs
# a process, under uvicorn on a small machine; the spread's ceiling; and the shortest time
# between two refreshes of one page while changes keep coming.
REFRESH_COST_MS = 6
MAX_SPREAD_MS = 1000
MIN_PACE_MS = 1000
# The topic kind of the notifications that tell a user's streams to check their viewer again.
VIEWER_KIND = "viewer"


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

    def __init__(
        self, user_id, topics: list[str], *, each_change: bool = False, prompt: bool = False
    ):
        self.user_id = user_id
        self.topics = topics
        # A stream only its viewer follows, for what only they are told (a roll asked of
        # their character): few changes, each for one page; told at once, unpaced.
        self.prompt = prompt
        # Check the viewer again before telling each change (a screen link may be revoked).
        self.each_change = each_change
        self.latest: str | None = None
        self.pending = False  # a change not yet told to the page
        self.spread_ms = 0
        self.last_sent = float("-inf")  # time.monotonic() of the last event sent
        self.recheck_due = False  # the viewer's session or memberships changed
        self.closed_retry: int | None = None  # set when the hub closes the stream
        self.wake = asyncio.Event()
        self.told = 0  # changes told to the page (an event may tell several at once)
        self.arrived = 0  # changes that reached the stream
        # Whether a change was told since the last keep-alive: the next one comes sooner.
        self.unconfirmed = False

    def deliver(self, version: str | None, spread: int = 0) -> None:
        # A burst of changes needs one refresh, not one each: keep the latest.
        self.latest = version
        self.pending = True
        self.arrived += 1
        self.spread_ms = spread
        self.wake.set()

    def recheck(self) -> None:
        """Check the viewer again before anything else is sent."""
        self.recheck_due = True
        self.wake.set()

    def delay(self, now: float) -> float:
        """Seconds to wait before telling the page (the pacing of the module's docstring)."""
        if self.prompt:
            return 0.0
        spread = random.uniform(0, self.spread_ms) / 1000
        return max(spread, self.last_sent + pace_ms(self.spread_ms) / 1000 - now)

    def event(self) -> str:
        """The "changed" event of the latest change: its version (None for topics without
        one, as a sheet's) and how many changes the page has now been told."""
        self.pending = False
        self.unconfirmed = True
        self.last_sent = time.monotonic()
        self.told = self.arrived
        told = {"version": self.latest, "seq": self.told}
        return f"event: changed\ndata: {json.dumps(told)}\n\n"

    def alive(self) -> str:
        """The keep-alive: what the page should have been told by now, and how often
        keep-alives come (the page takes the stream for dead after two missed)."""
        self.unconfirmed = False
        told = {
            "version": self.latest,
            "seq": self.told,
            "keepalive_ms": round(KEEPALIVE_SECONDS * 1000),
        }
        return f"event: alive\ndata: {json.dumps(told)}\n\n"

    def next_alive_in(self) -> float:
        """Seconds until the next keep-alive, if nothing happens meanwhile."""
        return SETTLE_SECONDS if self.unconfirmed else KEEPALIVE_SECONDS

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
        # Since when the LISTEN connection is down (monotonic seconds), while it is.
        self.down_since = time.monotonic()

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
        self.down_since = time.monotonic()
        self.task = loop.create_task(self._listen_forever())

    def state(self) -> tuple[str, float]:
        """What the LISTEN connection does — "idle" (no stream asked for it yet in this
        process), "listening" or "reconnecting" — and how long it has been down (s). Read
        from the health check's thread: plain attribute reads."""
        if self.task is None or self.task.done():
            return "idle", 0.0
        if self.ready.is_set():
            return "listening", 0.0
        return "reconnecting", time.monotonic() - self.down_since

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
        """Hand "<kind>:<id>:<version>" to the streams following "<kind>:<id>", and
        "viewer:<user id>:…" to that user's streams, which then check their viewer again."""
        self.received += 1
        name, _, version = payload.rpartition(":")
        kind, _, pk = name.partition(":")
        if kind == VIEWER_KIND:
            for listener in self._streams_of(pk):
                listener.recheck()
            return
        followers = self.followers.get(name, ())
        # A page alone on its topic (a player's own sheet or roll request) refreshes at once:
        # its one refresh is not one of a crowd answering the same change.
        spread = spread_ms(len(self.listeners)) if len(followers) > 1 else 0
        for listener in followers:
            listener.deliver(version or None, spread)

    def _streams_of(self, user_pk: str) -> list[Listener]:
        return [
            listener
            for user_id, streams in self.by_user.items()
            if str(user_id) == user_pk
            for listener in streams
        ]

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
            if self.ready.is_set():
                self.down_since = time.monotonic()
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
        # A server that does not answer (a lost host) is given up on, and tried again.
        "connect_timeout": db.get("OPTIONS", {}).get("connect_timeout"),
    }
    return {key: value for key, value in params.items() if value is not None}


hub = Hub()


Recheck = Callable[[], Awaitable[list[str] | None]]


async def events(listener: Listener, still_allowed: Recheck) -> AsyncIterator[str]:
    """The stream's text: "changed" events, and "alive" ones now and then to keep it open
    and to say what the page should have been told.

    The listener joins the hub here, when the server starts sending (right after the
    headers), and leaves it when the stream ends: a client gone before never joins. Before
    each keep-alive, and when told to, ``still_allowed`` checks the viewer again; the stream
    ends when they lost it."""
    hub.add(listener)
    try:
        yield f"retry: {RETRY_MS}\n: open\n\n{listener.alive()}"
        while True:
            settling = listener.unconfirmed
            try:
                await asyncio.wait_for(listener.wake.wait(), listener.next_alive_in())
            except TimeoutError:
                if settling:  # a burst's end confirmed: no check of the viewer for it
                    yield listener.alive()
                    continue
                listener.recheck()
            listener.wake.clear()
            if listener.recheck_due:
                listener.recheck_due = False
                _follow(listener, await still_allowed())
            if listener.closed_retry is not None:
                yield f"retry: {listener.closed_retry}\n\n"
                return
            if not listener.pending:
                yield listener.alive()
                continue
            await _paced(listener)
            if listener.each_change:
                # Checked after the pacing: the changes that came meanwhile are in it.
                _follow(listener, await still_allowed())
            if listener.closed_retry is not None:
                yield f"retry: {listener.closed_retry}\n\n"
                return
            if not listener.recheck_due:
                yield listener.event()
    finally:
        hub.remove(listener)


def _follow(listener: Listener, topics: list[str] | None) -> None:
    """What the viewer's check found: nothing (the right is lost), the stream ends; other
    topics than it follows, a stream that checks at each change (a screen: a fight started)
    follows them from now on — a change made meanwhile is in what its page's check reads —
    and any other (a dashboard whose campaigns changed) reconnects, its page checking at once."""
    if topics is None:
        listener.close()
    elif set(topics) != set(listener.topics):
        if listener.each_change:
            hub.remove(listener)
            listener.topics = topics
            hub.add(listener)
        else:
            listener.close()


async def _paced(listener: Listener) -> None:
    """Wait the pacing's moment; the changes that come meanwhile join the one to tell."""
    delay = listener.delay(time.monotonic())
    if delay > 0:
        await asyncio.sleep(delay)


def _allowed_then_release(
    request: HttpRequest, allowed: Callable[[], list[str] | None]
) -> tuple[object, list[str] | None]:
    """Run the page's permission check, then give the connection back to the pool."""
    try:
        return request.user.pk, allowed()
    finally:
        _release_connection()


def _release_connection() -> None:
    # Inside a transaction (a test's), the connection is not ours to give back.
    if not connection.in_atomic_block:
        connection.close()


def _still_allowed(
    request: HttpRequest,
    allowed: Callable[[], list[str] | None],
    user_id,
    *,
    session: bool = True,
) -> list[str] | None:
    """The topics the stream's viewer may still follow, None when they lost the right: the
    session must still log the same user in (not logged out, its sessions not ended, the
    password not changed: Django checks the session's hash against the user row), and the
    page's check decides the rest (still a member, the link not revoked)."""
    try:
        if session:  # a screen link's stream has none: its check is the link's
            user = auth.get_user(request)
            if not user.is_authenticated or user.pk != user_id:
                return None
            request.user = user
        return allowed()
    except DatabaseError:
        return None  # the page reconnects, and its stream is refused until the database is back
    finally:
        _release_connection()


async def open_stream(
    request: HttpRequest,
    allowed: Callable[[], list[str] | None],
    *,
    recheck: bool = False,
    owner: str | None = None,
    prompt: bool = False,
) -> HttpResponse:
    """The stream of a page: ``allowed`` is the page's check, returning the topics to follow
    (None: 404, like the page); it runs again whenever the stream checks its viewer: at each
    keep-alive, when the viewer's session or memberships change, and, with ``recheck``, at
    each change it is told of (a query each: a screen link revoked stops its stream at once).
    ``owner``: whose streams it counts among (``MAX_STREAMS_PER_USER``) when nobody is logged
    in (a screen link's); such a stream has no session to check. Query string and
    Last-Event-ID are ignored: after any reconnect the page checks at once, so there is
    nothing to replay."""
    user_id, topics = await sync_to_async(_allowed_then_release)(request, allowed)
    if topics is None:
        return HttpResponse(status=404)
    if not isinstance(request, ASGIRequest):
        # Under a WSGI server a stream would hold a worker for good: 204 tells EventSource
        # not to come back, and the page keeps its 2 s check.
        return HttpResponse(status=204)
    if not await hub.wait_ready():
        return HttpResponse(status=503, headers={"Retry-After": "5"})
    listener = Listener(owner or user_id, topics, each_change=recheck, prompt=prompt)

    async def still_allowed() -> list[str] | None:
        return await sync_to_async(_still_allowed)(request, allowed, user_id, session=owner is None)

    response = StreamingHttpResponse(
        events(listener, still_allowed), content_type="text/event-stream"
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass events through at once
    return response
