"""The WSGI server: waitress with a thread for every display it admits, and guards against slow or
greedy clients (connections per address, a deadline for a request's headers and body, body size)."""

from __future__ import annotations

import threading
import time
from typing import Any

from flask import Flask
from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.server import TcpWSGIServer

from web_ui.app import MAX_BODY_BYTES

REQUEST_THREADS = 16
"""Threads kept for ordinary requests (plays, pages) whatever the displays hold."""
CONNECTIONS_PER_CLIENT = 48
"""Open connections one address may hold (streams, keep-alive, a page's assets)."""
CONNECTION_LIMIT = 600
"""Open connections in all (below the usual 1,024 file descriptors)."""
REQUEST_SECONDS = 10.0
"""A request must arrive whole (headers and body) within this time of its first byte."""
MAX_HEADER_BYTES = 16 * 1024
"""The largest request line plus headers."""


class ClientCounts:
    """Open connections per client address."""

    def __init__(self, per_client: int, exempt: str | None = None) -> None:
        self.per_client = per_client
        self.exempt = exempt
        """A trusted reverse proxy's address: it carries every device's connections."""
        self._lock = threading.Lock()
        self._open: dict[str, int] = {}

    def admit(self, client: str) -> bool:
        """Count one more connection of `client`; False (not counted) when it already holds its share."""
        with self._lock:
            if self._open.get(client, 0) >= self.per_client and client != self.exempt:
                return False
            self._open[client] = self._open.get(client, 0) + 1
            return True

    def release(self, client: str) -> None:
        """One connection of `client` closed."""
        with self._lock:
            left = self._open.get(client, 0) - 1
            if left > 0:
                self._open[client] = left
            else:
                self._open.pop(client, None)


class GuardedChannel(HTTPChannel):  # type: ignore[misc]  # waitress has no type hints
    """A waitress channel that counts its client's connections and times the request it is reading."""

    server: GuardedServer

    def __init__(self, server: GuardedServer, sock: Any, addr: Any, adj: Adjustments, map: Any = None) -> None:
        self.client = str(addr[0]) if isinstance(addr, tuple) and addr else str(addr)
        self.counted = server.clients.admit(self.client)
        self.reading_since: float | None = None
        super().__init__(server, sock, addr, adj, map=map)
        if not self.counted:  # over its share: closed at once, before reading a byte
            self.close()

    def received(self, data: bytes) -> bool:
        """Start the request clock at a request's first byte; stop it once no request is half-read."""
        if data and self.reading_since is None:
            self.reading_since = time.monotonic()
        result: bool = super().received(data)
        if self.request is None:
            self.reading_since = None
        return result

    def del_channel(self, map: Any = None) -> None:
        """Closed: give the client its connection back (once)."""
        if self.counted:
            self.counted = False
            self.server.clients.release(self.client)
        super().del_channel(map)


class GuardedServer(TcpWSGIServer):  # type: ignore[misc]  # waitress has no type hints
    """waitress' TCP server with GuardedChannel and a deadline for requests that arrive too slowly."""

    channel_class = GuardedChannel

    def __init__(self, app: Any, *, adj: Adjustments, per_client: int, request_seconds: float) -> None:
        self.clients = ClientCounts(per_client, exempt=adj.trusted_proxy)
        self.request_seconds = request_seconds
        super().__init__(app, adj=adj)

    def maintenance(self, now: float) -> None:
        """waitress' idle check, then close every channel whose request is late (slow-header attacks)."""
        super().maintenance(now)
        late = time.monotonic() - self.request_seconds
        for channel in list(self.active_channels.values()):
            since = getattr(channel, "reading_since", None)
            if since is not None and since < late:
                channel.will_close = True


def make_server(app: Flask, host: str, port: int, *, per_client: int = CONNECTIONS_PER_CLIENT,
                request_seconds: float = REQUEST_SECONDS, trusted_proxy: str | None = None) -> GuardedServer:
    """A server for `app`: a thread per admitted stream plus REQUEST_THREADS, bodies bounded before
    they are read (413), slow or greedy clients cut off. With `trusted_proxy` (a TLS proxy's address),
    its X-Forwarded-For names the device. Raises OSError when it cannot listen."""
    streams: int = app.config["MARMITE_MAX_STREAMS"]
    proxy: dict[str, Any] = {}
    if trusted_proxy:
        proxy = {"trusted_proxy": trusted_proxy, "trusted_proxy_count": 1,
                 "trusted_proxy_headers": {"x-forwarded-for", "x-forwarded-proto"}}
    adj = Adjustments(host=host, port=port, threads=streams + REQUEST_THREADS, channel_timeout=60,
                      cleanup_interval=1, connection_limit=CONNECTION_LIMIT,
                      max_request_body_size=MAX_BODY_BYTES, max_request_header_size=MAX_HEADER_BYTES,
                      clear_untrusted_proxy_headers=True, ident="marmite", **proxy)
    return GuardedServer(app, adj=adj, per_client=per_client, request_seconds=request_seconds)
