"""`marmite run --reader pn532|pcsc`: the whole table (server, reader pump, deck desk) enrolls a card the
reader sees, through the real drivers and the fakes they talk to."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hardware.fakes.pn532_chip import FakeNtag, FakePn532
from hardware.fakes.vicc import PrivatePcscd, VirtualCard

PIN = "8642"
ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Table:
    """`marmite run` with a reader, on a temporary data dir."""

    def __init__(self, data: Path, reader: list[str], env: dict[str, str] | None = None) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "marmite.cli", "run", "--host", "127.0.0.1", "--port", str(self.port),
             "--data", str(data), "--pin", PIN, *reader], cwd=ROOT, env={**os.environ, **(env or {})},
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                self.get("/api/state")
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("marmite run did not start")

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.url + path, timeout=5) as answer:
            return json.loads(answer.read())

    def post(self, path: str, body: dict[str, Any]) -> Any:
        request = urllib.request.Request(self.url + path, data=json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json", "X-Table-Pin": PIN})
        with urllib.request.urlopen(request, timeout=5) as answer:
            return json.loads(answer.read())

    def until(self, check: Any, timeout: float = 10.0) -> Any:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = check()
            if value:
                return value
            time.sleep(0.1)
        raise AssertionError("the table never got there")

    def reader_state(self, name: str) -> str:
        readers = {r["reader"]: r for r in self.get("/api/table")["readers"]}
        return str(readers.get(name, {}).get("info", {}).get("state", ""))

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.fixture
def chip() -> Iterator[FakePn532]:
    fake = FakePn532()
    yield fake
    fake.close()


def test_a_pn532_enrolls_the_card_put_on_it(tmp_path: Path, chip: FakePn532) -> None:
    table = Table(tmp_path / "data", ["--reader", "pn532", "--reader-option", f"port={chip.port}"])
    try:
        table.until(lambda: table.reader_state("pn532") == "ok")
        asked = table.post("/api/deck/enroll", {"action": "start"})
        first = asked["activity"]["current"]
        card = FakeNtag(bytes.fromhex("04c0ffee123456"))
        chip.put(card)
        table.until(lambda: table.get("/api/deck")["activity"]["count"] == 1)
        stopped = table.post("/api/deck/enroll", {"action": "stop"})
        assert stopped["outcome"] == "stopped"
        exported = urllib.request.Request(table.url + "/api/deck/export", headers={"X-Table-Pin": PIN})
        with urllib.request.urlopen(exported, timeout=5) as answer:
            text = answer.read().decode()
        assert "04c0ffee123456" in text and first in text
    finally:
        table.stop()


def test_an_acr122u_through_pcscd_enrolls_the_card_put_on_it(tmp_path: Path, pcscd: PrivatePcscd) -> None:
    table = Table(tmp_path / "data", ["--reader", "pcsc", "--reader-option", f"reader={pcscd.name}"],
                  env=pcscd.environ())
    card = VirtualCard(bytes.fromhex("04beef00123456"), port=pcscd.port)
    try:
        table.until(lambda: table.reader_state("pcsc") == "ok")
        table.post("/api/deck/enroll", {"action": "start"})
        card.place()
        table.until(lambda: table.get("/api/deck")["activity"]["count"] == 1)
    finally:
        card.lift()
        table.stop()
        time.sleep(0.5)
