"""A real `marmite run` (waitress on loopback) and raw HTTP clients that can come from many addresses.

Shared by the network benchmark and the drill tests (`tests/drill/helpers.py` re-exports it), so a
benchmark never imports a test module."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

PIN = "864213"
ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def loopback(index: int) -> str:
    """The index-th loopback address (127.0.0.2 …): Linux answers on all of 127/8, so each is a client."""
    return f"127.0.{1 + (index + 1) // 250}.{2 + (index + 1) % 250}"


class Running:
    """`marmite run` in a subprocess on a data dir, with a PIN."""

    def __init__(self, data: Path, pin: str = PIN, extra: tuple[str, ...] = ()) -> None:
        self.data = data
        self.pin = pin
        self.port = free_port()
        self.extra = extra
        self.process: subprocess.Popen[bytes] | None = None
        self.stderr = b""

    def start(self) -> Running:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "marmite.cli", "run", "--host", "127.0.0.1", "--port", str(self.port),
             "--data", str(self.data), "--pin", self.pin, *self.extra], cwd=ROOT, env=env,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                status, _, _ = self.request("GET", "/api/state")
                if status == 200:
                    return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("marmite run did not start")

    def stop(self, sig: int = signal.SIGTERM) -> float:
        """Send `sig`; the seconds until the process is gone."""
        assert self.process is not None
        began = time.monotonic()
        self.process.send_signal(sig)
        try:
            _, err = self.process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            _, err = self.process.communicate()
        self.stderr = err or b""
        return time.monotonic() - began

    def connect(self, source: str = "127.0.0.1", timeout: float = 30) -> socket.socket:
        sock = socket.socket()
        sock.settimeout(timeout)
        sock.bind((source, 0))
        sock.connect(("127.0.0.1", self.port))
        return sock

    def request(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None,
                source: str = "127.0.0.1", timeout: float = 30) -> tuple[int, dict[str, str], bytes]:
        """One request on its own connection from `source`: status, headers (lower-case), body."""
        data = b"" if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
        head = {"Host": f"127.0.0.1:{self.port}", "Connection": "close", **(headers or {})}
        if data or method == "POST":
            head.setdefault("Content-Type", "application/json")
            head["Content-Length"] = str(len(data))
        with self.connect(source, timeout) as sock:
            lines = "".join(f"{k}: {v}\r\n" for k, v in head.items())
            raw = b""
            with contextlib.suppress(OSError):  # a server may answer (413) and close before the body is sent
                sock.sendall(f"{method} {path} HTTP/1.1\r\n{lines}\r\n".encode("latin-1") + data)
            try:
                while chunk := sock.recv(65536):
                    raw += chunk
            except ConnectionResetError:
                if not raw:
                    raise
        return parse_response(raw)

    def play(self, body: Any, source: str = "127.0.0.1") -> tuple[int, dict[str, Any]]:
        status, _, raw = self.request("POST", "/api/events", body, {"X-Table-Pin": self.pin}, source)
        return status, json.loads(raw)


def parse_response(raw: bytes) -> tuple[int, dict[str, str], bytes]:
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        key, _, value = line.partition(":")
        headers[key.strip().lower()] = value.strip()
    return status, headers, body


class Display:
    """An open /api/stream from one address, read as raw bytes."""

    def __init__(self, server: Running, source: str, last_id: int | None = None) -> None:
        self.sock = server.connect(source)
        resume = f"Last-Event-ID: {last_id}\r\n" if last_id is not None else ""
        self.sock.sendall(f"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n{resume}"
                          "Accept: text/event-stream\r\n\r\n".encode())
        self.seen = b""
        while b"\r\n\r\n" not in self.seen:
            chunk = self.sock.recv(65536)
            if not chunk:
                break
            self.seen += chunk
        self.status = int(self.seen.split(b" ", 2)[1]) if self.seen else 0

    def read_until(self, needle: bytes, timeout: float = 30) -> bool:
        """Read until `needle` arrives (True) or the stream ends or times out (False)."""
        self.sock.settimeout(timeout)
        try:
            while needle not in self.seen:
                chunk = self.sock.recv(65536)
                if not chunk:
                    return needle in self.seen
                self.seen += chunk
        except OSError:
            return False
        return True

    def close(self) -> None:
        self.sock.close()
