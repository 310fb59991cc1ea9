"""A TCP proxy on loopback whose traffic can be held: a phone's network gone quiet without
closing its connections (a tunnel, a lift), as the browser tests of the live updates need it.

While stalled, nothing passes either way — the bytes wait in the proxy — and new connections
are accepted but go nowhere; ``resume`` lets everything through again, held bytes first.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager


class StallProxy:
    def __init__(self, target_port: int):
        self.target_port = target_port
        self.flowing = threading.Event()
        self.flowing.set()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.closed = False
        self.sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stall(self) -> None:
        self.flowing.clear()

    def resume(self) -> None:
        self.flowing.set()

    def close(self) -> None:
        self.closed = True
        self.flowing.set()
        for sock in [self.listener, *self.sockets]:
            with contextlib.suppress(OSError):
                sock.close()

    def _accept(self) -> None:
        while not self.closed:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._connect, args=(client,), daemon=True).start()

    def _connect(self, client: socket.socket) -> None:
        self.flowing.wait()  # a connection made while stalled goes nowhere until then
        try:
            server = socket.create_connection(("127.0.0.1", self.target_port))
        except OSError:
            client.close()
            return
        self.sockets += [client, server]
        for source, sink in ((client, server), (server, client)):
            threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while chunk := source.recv(65536):
                self.flowing.wait()
                sink.sendall(chunk)
        except OSError:
            pass
        finally:
            for sock in (source, sink):
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)


@contextmanager
def stall_proxy(base_url: str) -> Iterator[StallProxy]:
    """A proxy in front of the server at ``base_url`` (http://127.0.0.1:<port>)."""
    proxy = StallProxy(int(base_url.rsplit(":", 1)[1]))
    try:
        yield proxy
    finally:
        proxy.close()
