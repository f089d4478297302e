"""The real WSGI server (waitress, as `marmite run` builds it) in process, with small limits: connections
are timed from accept, and when connections run short the idle ones of the heaviest addresses make room."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.table import TableService
from marmite.games import GAMES
from marmite.serve import table_app
from tests.drill.helpers import loopback, parse_response, still_open
from web_ui.app import stop_streams
from web_ui.server import GuardedServer, make_server

PIN = "864213"


@pytest.fixture
def served(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[GuardedServer]:
    service = TableService.open(tmp_path, GAMES)
    app = table_app(service, pin=PIN, data_dir=tmp_path)
    server = make_server(app, "127.0.0.1", 0, **request.param)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield server
    stop_streams(app)
    server.close()
    service.close()


def connect(server: GuardedServer, source: str) -> socket.socket:
    sock = socket.socket()
    sock.settimeout(5)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", int(server.effective_port)))
    return sock


def get_state(server: GuardedServer, source: str = "127.0.0.1", timeout: float = 3) -> int:
    with connect(server, source) as sock:
        sock.settimeout(timeout)
        sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        raw = b""
        while chunk := sock.recv(65536):
            raw += chunk
    return parse_response(raw)[0]


def wait_until(condition: object, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if callable(condition) and condition():
            return True
        time.sleep(0.05)
    return False


@pytest.mark.parametrize("served", [{"request_seconds": 1.0}], indirect=True)
def test_a_connection_that_never_sends_a_byte_is_closed_like_a_slow_one(served: GuardedServer) -> None:
    silent = connect(served, "127.0.0.5")
    assert wait_until(lambda: not still_open(silent), 5), "a silent connection outlived the request deadline"
    silent.close()


@pytest.mark.parametrize("served", [{"connections": 120}], indirect=True)
def test_idle_connections_of_the_heaviest_addresses_make_room_for_others(served: GuardedServer) -> None:
    served_once = connect(served, "127.0.0.60")  # a real client: one whole request, then kept alive, idle
    served_once.sendall(b"GET /api/state HTTP/1.1\r\nHost: x\r\n\r\n")
    assert served_once.recv(12).startswith(b"HTTP/1.1 200")
    hoard = [connect(served, "127.0.0.50") for _ in range(40)]  # one device at its share (48 minus a few)
    others = [connect(served, loopback(i % 10)) for i in range(100)]  # 10 devices, 10 each: 141 > 120
    time.sleep(0.5)
    answered = []
    for n in range(20):  # newcomers while every connection is taken
        try:
            answered.append(get_state(served, loopback(100 + n)))
        except OSError:
            answered.append(0)
    assert answered == [200] * 20
    assert served.shed_total > 0
    closed_hoard = sum(not still_open(sock) for sock in hoard)
    closed_others = sum(not still_open(sock) for sock in others)
    assert closed_hoard > 0 and closed_hoard >= closed_others  # the heaviest address gave up its idle ones first
    assert still_open(served_once)  # a client that was served keeps its connection while strangers' silent ones go
    for sock in [served_once, *hoard, *others]:
        sock.close()
