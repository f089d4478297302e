"""TLS (optional): the hub's Mosquitto listens with TLS only; a table given the certificate joins with
mqtts:// and its results arrive; a plain MQTT client is not served on that port."""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
from pathlib import Path

import pytest

from tests.club.helpers import Hub, Table, assert_copied_exactly, game_events, play, wait_caught_up


def self_signed(directory: Path) -> tuple[Path, Path]:
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=club",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    return cert, key


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl makes the test certificate")
def test_a_table_joins_over_tls_and_plain_mqtt_is_not_served(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    cert, key = self_signed(tmp_path)
    hub = Hub(tmp_path / "hub", tables=1, extra=("--tls", str(cert), str(key))).start()
    try:
        assert hub.urls[1].startswith("mqtts://")
        with socket.create_connection(("127.0.0.1", hub.port), timeout=5) as plain:
            # An MQTT 3.1.1 CONNECT in clear: a TLS listener never answers it with a CONNACK (0x20).
            plain.sendall(bytes([0x10, 12, 0, 4]) + b"MQTT" + bytes([4, 2, 0, 10, 0, 0]))
            with contextlib.suppress(OSError):  # the listener may have dropped the connection already
                plain.shutdown(socket.SHUT_WR)  # all it will get: an answer comes now or never (no 3 s wait)
            plain.settimeout(3)
            try:
                answer = plain.recv(4)
            except (TimeoutError, ConnectionResetError):
                answer = b""
            assert not answer.startswith(b"\x20")
        monkeypatch.setenv("MARMITE_CLUB_CA", str(cert))
        table = Table(tmp_path / "table1", hub.urls[1], 1).start()
        try:
            play(table, game_events(31)[:40])
            wait_caught_up(hub, table)
            assert_copied_exactly(hub, table)
        finally:
            table.stop()
    finally:
        hub.stop()
