"""The app served by uvicorn in a thread, on a free loopback port, as in production (ASGI):
for the tests of the pushed streams (tests/core/test_push.py, the browser test, the bench).

The data must be committed to be seen by the server's threads: use it with
``transactional_db`` (``live_server`` needs the same).
"""

from __future__ import annotations

import http.client
import socket
import threading
import time
from contextlib import contextmanager

import uvicorn
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.test import Client

from config.asgi import application


@contextmanager
def serve_asgi():
    """Yield the base URL of the app served under uvicorn; stop it afterwards."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    app = ASGIStaticFilesHandler(application)
    config = uvicorn.Config(app, lifespan="off", log_level="warning", timeout_graceful_shutdown=1)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(5)
        sock.close()


def session_cookie(user) -> str:
    """The Cookie header of a session logged in as ``user`` (signed-cookie sessions)."""
    client = Client()
    client.force_login(user)
    return "; ".join(f"{name}={morsel.value}" for name, morsel in client.cookies.items())


class Stream:
    """An open text/event-stream read line by line (what EventSource does), over loopback."""

    def __init__(self, base_url: str, path: str, cookie: str, timeout: float = 10, headers=None):
        host, port = base_url.removeprefix("http://").split(":")
        self.conn = http.client.HTTPConnection(host, int(port), timeout=timeout)
        sent = {"Cookie": cookie, "Accept": "text/event-stream", **(headers or {})}
        self.conn.request("GET", path, headers=sent)
        self.response = self.conn.getresponse()
        self.status = self.response.status

    def opened(self) -> Stream:
        """Read up to the stream's first comment: the server follows the topics from then on
        (a change made before may not be told)."""
        while (line := self.response.readline().decode()) != ": open\n":
            if line == "":
                raise EOFError("the stream ended before it opened")
        return self

    def next_event(self, kinds: tuple[str, ...] = ("changed",)) -> dict:
        """The next event of these kinds (others and comments skipped: the keep-alives, by
        default); socket.timeout when none comes."""
        fields: dict[str, str] = {}
        while True:
            line = self.response.readline().decode()
            if line == "":
                raise EOFError("the stream ended")
            line = line.rstrip("\n")
            if not line:
                if "data" in fields and fields.get("event") in kinds:
                    return fields
                fields = {}
                continue
            if line.startswith(":"):
                continue
            name, _, value = line.partition(":")
            fields[name] = value.strip()

    def close(self) -> None:
        self.conn.close()
