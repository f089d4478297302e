"""The WSGI server: waitress with a thread for every display it admits, and guards against slow or
greedy clients (connections per address, a deadline for a request's headers and body from the moment
a connection is accepted, body size), and room always kept for real clients: when connections run
short, the idle ones of the addresses holding the most are closed first, never a request or a stream."""

from __future__ import annotations

import contextlib
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
CONNECTION_LIMIT = 2000
"""Open connections in all, at most (fewer when the process may not open that many files)."""
FILES_WANTED = 4096
"""The open-file limit the server raises itself to when the system allows (its soft limit is often 1,024)."""
FILES_KEPT = 64
"""File descriptors kept for everything but client connections (journal, logs, reader, speech)."""
ACCEPT_BATCH = 64
"""Connections accepted per wake-up of the server's loop."""
SPARE_CONNECTIONS = 32
"""Connections kept free: once fewer are left, idle ones are closed to make room for new clients."""
REQUEST_SECONDS = 10.0
"""A request must arrive whole (headers and body) within this time of the connection's accept (or of the
end of the previous request's answer): a connection that never sends a byte is closed too."""
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

    def snapshot(self) -> dict[str, int]:
        """Open connections per client now."""
        with self._lock:
            return dict(self._open)

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
        self.reading_since: float | None = time.monotonic()  # timed from accept: silence is no shelter
        self.served = False  # True once a whole request came: a real client, shed last
        super().__init__(server, sock, addr, adj, map=map)
        if not self.counted:  # over its share: closed at once, before reading a byte
            self.close()

    def received(self, data: bytes) -> bool:
        """Time the request being read; the clock stops once a whole request is in."""
        if data and self.reading_since is None:
            self.reading_since = time.monotonic()
        result: bool = super().received(data)
        if self.requests:
            self.served = True
        if self.request is None and self.requests:
            self.reading_since = None
        return result

    @property
    def idle(self) -> bool:
        """No request being answered and nothing left to send: closing it loses nothing."""
        return not self.requests and not self.total_outbufs_len and not self.will_close

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
        self.shed_total = 0
        """Idle connections closed to make room, since the start."""
        super().__init__(app, adj=adj)

    def maintenance(self, now: float) -> None:
        """waitress' idle check, then close every channel whose request is late (slow-header attacks,
        connections that never send a byte)."""
        super().maintenance(now)
        late = time.monotonic() - self.request_seconds
        for channel in list(self.active_channels.values()):
            since = getattr(channel, "reading_since", None)
            if since is not None and since < late and not channel.requests:
                channel.will_close = True

    def readable(self) -> bool:
        """Keep accepting: when connections run short, make room by shedding idle ones first."""
        if self.accepting and len(self._map) >= self.adj.connection_limit - SPARE_CONNECTIONS:
            self.shed(len(self._map) - (self.adj.connection_limit - 2 * SPARE_CONNECTIONS))
        result: bool = super().readable()
        return result

    def handle_accept(self) -> None:
        """Accept up to ACCEPT_BATCH waiting connections at once (one per loop pass let a backlog of
        silent sockets delay a real client by seconds), making room as it goes."""
        for _ in range(ACCEPT_BATCH):
            if len(self._map) >= self.adj.connection_limit - SPARE_CONNECTIONS:
                self.shed(len(self._map) - (self.adj.connection_limit - 2 * SPARE_CONNECTIONS))
                if len(self._map) >= self.adj.connection_limit:
                    return
            try:
                pair = self.accept()
            except OSError:
                return
            if pair is None:
                return
            conn, addr = pair
            try:
                self.set_socket_options(conn)
            except OSError:  # the client left before we got to it
                conn.close()
                continue
            self.channel_class(self, conn, self.fix_addr(addr), self.adj, map=self._map)

    def shed(self, count: int) -> int:
        """Close `count` idle connections (never a request or a stream): those that never sent a whole
        request first, from the addresses holding the most, oldest first. How many were closed."""
        held = self.clients.snapshot()
        idle = [c for c in self.active_channels.values() if isinstance(c, GuardedChannel) and c.idle]
        idle.sort(key=lambda c: (c.served, -held.get(c.client, 0), c.creation_time))
        for channel in idle[:count]:
            with contextlib.suppress(OSError):
                channel.handle_close()
        self.shed_total += min(count, len(idle))
        return min(count, len(idle))


def connection_limit(wanted: int = FILES_WANTED) -> int:
    """The open connections this process can hold: it raises its open-file limit towards `wanted` when
    the system allows, keeps FILES_KEPT for itself, and never exceeds CONNECTION_LIMIT."""
    try:
        import resource
    except ImportError:  # Windows: no file-descriptor limit of this kind (select() is not used either)
        return CONNECTION_LIMIT
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
    files = CONNECTION_LIMIT + FILES_KEPT if soft == resource.RLIM_INFINITY else soft
    return max(2 * SPARE_CONNECTIONS + 16, min(CONNECTION_LIMIT, files - FILES_KEPT))


def make_server(app: Flask, host: str, port: int, *, per_client: int = CONNECTIONS_PER_CLIENT,
                request_seconds: float = REQUEST_SECONDS, trusted_proxy: str | None = None,
                connections: int | None = None) -> GuardedServer:
    """A server for `app`: a thread per admitted stream plus REQUEST_THREADS, bodies bounded before
    they are read (413), slow or greedy clients cut off. With `trusted_proxy` (a TLS proxy's address),
    its X-Forwarded-For names the device; `connections` overrides the open-connection limit (tests).
    Raises OSError when it cannot listen."""
    streams: int = app.config["MARMITE_MAX_STREAMS"] + app.config.get("MARMITE_RESERVED_STREAMS", 0)
    proxy: dict[str, Any] = {}
    if trusted_proxy:
        proxy = {"trusted_proxy": trusted_proxy, "trusted_proxy_count": 1,
                 "trusted_proxy_headers": {"x-forwarded-for", "x-forwarded-proto"}}
    adj = Adjustments(host=host, port=port, threads=streams + REQUEST_THREADS, channel_timeout=60,
                      cleanup_interval=1, connection_limit=connections or connection_limit(),
                      asyncore_use_poll=True,
                      max_request_body_size=MAX_BODY_BYTES, max_request_header_size=MAX_HEADER_BYTES,
                      clear_untrusted_proxy_headers=True, ident="marmite", **proxy)
    return GuardedServer(app, adj=adj, per_client=per_client, request_seconds=request_seconds)
