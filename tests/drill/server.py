"""A real `marmite run` in a subprocess for the drills: start it, talk to it, kill it."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
PIN = "8642"
MARMITE = [sys.executable, "-m", "marmite.cli"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Server:
    """`marmite run` on a data dir and a free loopback port."""

    def __init__(self, data: Path) -> None:
        self.data = data
        self.port = free_port()
        self.process = subprocess.Popen(
            [*MARMITE, "run", "--host", "127.0.0.1", "--port", str(self.port), "--data", str(data), "--pin", PIN],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

    def wait_ready(self, timeout: float = 30) -> bool:
        """True once it answers, False if it exited first."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return False
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/api/state", timeout=2) as answer:
                    answer.read()
                    return True
            except OSError:
                time.sleep(0.02)
        raise TimeoutError("marmite run did not start")

    def post(self, path: str, body: dict[str, Any], key: str | None = None,
             timeout: float = 10) -> tuple[int, dict[str, Any]]:
        headers = {"Content-Type": "application/json", "X-Table-Pin": PIN}
        if key is not None:
            headers["Idempotency-Key"] = key
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=json.dumps(body).encode(),
                                         method="POST", headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")

    def kill(self) -> None:
        self.process.kill()
        self.process.wait(timeout=30)
        if self.process.stderr is not None:
            self.process.stderr.close()

    def stop(self) -> str:
        """SIGTERM, then what it wrote on stderr."""
        self.process.terminate()
        _, err = self.process.communicate(timeout=30)
        return err
