"""A real `marmite run` (waitress) on a temporary data dir, and Debian's Chromium driven by Playwright.

Shared by the speech-latency benchmark and the script that makes the documentation's pictures.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic"]
PIN = "2580"


class LiveTable:
    """`marmite run` on loopback with a known PIN; `post` and `get` speak its JSON API."""

    def __init__(self, data: Path) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = int(probe.getsockname()[1])
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "marmite.cli", "run", "--host", "127.0.0.1", "--port", str(self.port),
             "--data", str(data), "--pin", PIN], cwd=ROOT, env={**os.environ, "PYTHONUNBUFFERED": "1"},
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while True:
            try:
                self.get("/api/state")
                return
            except OSError:
                if time.monotonic() > deadline:
                    self.close()
                    raise RuntimeError("marmite run did not start") from None
                time.sleep(0.05)

    def post(self, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        request = urllib.request.Request(self.url + path, data=json.dumps(body or {}).encode(), method="POST",
                                         headers={"Content-Type": "application/json", "X-Table-Pin": PIN})
        with urllib.request.urlopen(request, timeout=10) as answer:
            result: dict[str, Any] = json.loads(answer.read())
            return result

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.url + path, timeout=5) as answer:
            return json.loads(answer.read())

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def unlock(page: Any, table: LiveTable, target: str = "/") -> None:
    """Type the PIN on the unlock page, as the host would."""
    page.goto(f"{table.url}/unlock?next={target}")
    page.fill("#pin", PIN)
    page.click("button[type=submit]")
    page.wait_for_url(f"{table.url}{target}")
