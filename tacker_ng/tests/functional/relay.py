"""A TCP relay between a component and a shared service, for outages.

The shared MariaDB, PostgreSQL and RabbitMQ are never restarted (other
tests use them): a test points the components at a :class:`Relay` and
cuts it (every connection dropped, new ones refused) to play the outage.
"""

import contextlib
import socket
import threading
import urllib.parse
from collections.abc import Iterator


class Relay:
    """A TCP relay to ``target`` that can be cut and restored."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.up = True
        self._pairs: list[tuple[socket.socket, socket.socket]] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        self.server.settimeout(0.2)
        while not self._stop.is_set():
            try:
                client, _ = self.server.accept()
            except TimeoutError:
                continue
            except OSError:
                return  # closed
            if not self.up:
                client.close()
                continue
            upstream = socket.create_connection(self.target)
            with self._lock:
                self._pairs.append((client, upstream))
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(
                    target=self._pump, args=(a, b), daemon=True
                ).start()

    @staticmethod
    def _pump(src: socket.socket, dst: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := src.recv(65536):
                dst.sendall(data)
        for sock in (src, dst):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        self.up = False
        with self._lock:
            pairs, self._pairs = self._pairs, []
        for pair in pairs:
            for sock in pair:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                sock.close()

    def restore(self) -> None:
        self.up = True

    def close(self) -> None:
        self._stop.set()
        self.cut()
        self.server.close()


@contextlib.contextmanager
def relayed(url: str, default_port: int = 3306) -> Iterator[tuple[str, Relay]]:
    """``url`` rewritten to go through a :class:`Relay` (yielded as
    ``(url, relay)``)."""
    parts = urllib.parse.urlsplit(url)
    relay = Relay((parts.hostname, parts.port or default_port))
    netloc = parts.netloc.replace(
        f"{parts.hostname}:{parts.port}" if parts.port else parts.hostname,
        f"127.0.0.1:{relay.port}",
    )
    try:
        yield urllib.parse.urlunsplit(parts._replace(netloc=netloc)), relay
    finally:
        relay.close()
