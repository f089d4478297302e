"""Every documented install runs what it documents: the bare package and each extra alone, each in a venv of
its own (cached in .cache/install-matrix/ until pyproject.toml changes), run the commands people type.

The test venvs have every extra, so only these venvs can show a command that imports what its install lacks
(`marmite run` once imported paho-mqtt, the club extra's, in every install: the Pi's systemd unit crash-looped).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from companion.extras import EXTRAS
from tests.browser.conftest import free_port

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / ".cache" / "install-matrix"
PIN = "2468"
INSTALLS = ("", *sorted(EXTRAS))
"""The bare package, then each extra of pyproject.toml alone."""

pytestmark = pytest.mark.slow


@dataclass(frozen=True)
class Install:
    """A venv holding Marmite installed as the guide says (from the folder), with one extra or none."""

    extra: str
    venv: Path

    @property
    def marmite(self) -> str:
        return str(self.venv / "bin" / "marmite")

    def run(self, *args: str, stdin: str = "", env: dict[str, str] | None = None,
            timeout: float = 120) -> subprocess.CompletedProcess[str]:
        return subprocess.run([self.marmite, *args], input=stdin, capture_output=True, text=True, timeout=timeout,
                              env={**os.environ, **(env or {})}, cwd=ROOT, check=False)

    def start(self, *args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
        return subprocess.Popen([self.marmite, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env={**os.environ, **(env or {})}, cwd=ROOT)


def build(extra: str) -> Path:
    """The venv for `extra` ('' for the bare package), built once per pyproject.toml."""
    stamp = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + sys.version.encode()).hexdigest()[:12]
    venv = CACHE / f"{extra or 'bare'}-{stamp}"
    if (venv / ".complete").exists():
        return venv
    shutil.rmtree(venv, ignore_errors=True)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    target = f"{ROOT}[{extra}]" if extra else str(ROOT)
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                    "-e", target], check=True, timeout=900)
    (venv / ".complete").touch()
    for old in CACHE.glob(f"{extra or 'bare'}-*"):
        if old != venv:
            shutil.rmtree(old, ignore_errors=True)
    return venv


@pytest.fixture(scope="module", params=INSTALLS, ids=lambda extra: extra or "bare")
def install(request: pytest.FixtureRequest) -> Install:
    return Install(request.param, build(request.param))


def http(url: str, body: dict[str, Any] | None = None) -> tuple[int, bytes]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method="GET" if body is None else "POST",
                                     headers={"Content-Type": "application/json", "X-Table-Pin": PIN})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


@pytest.fixture
def served(install: Install, tmp_path: Path) -> Iterator[tuple[str, Path, subprocess.Popen[str]]]:
    data, port = tmp_path / "table", free_port()
    process = install.start("run", "--host", "127.0.0.1", "--port", str(port), "--data", str(data), "--pin", PIN)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and process.poll() is None:
            try:
                if http(url + "/")[0] == 200:
                    break
            except OSError:
                time.sleep(0.1)
        assert process.poll() is None, f"marmite run died: {process.communicate()[1][-2000:]}"
        yield url, data, process
    finally:
        process.terminate()
        process.wait(timeout=20)


def one_line_error(done: subprocess.CompletedProcess[str]) -> str:
    """The command's error, checked to be one line without a traceback."""
    assert "Traceback" not in done.stderr, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


def test_marmite_run_serves_and_journals_a_play(install: Install, served: tuple[str, Path, Any],
                                                tmp_path: Path) -> None:
    url, data, process = served
    assert http(url + "/")[0] == 200
    players = ["Ana", "Bob", "Cy"]
    steps: list[tuple[str, dict[str, Any]]] = [("/api/events", {"type": "new_game", "players": players,
                                                                "dealer": "Cy"})]
    steps += [("/api/events", {"type": "menu", "player": name, "menu": "pea"}) for name in players]
    steps += [("/api/drop", {"code": "pea-1a"})]  # the virtual pot, as a reader would report the card
    for path, body in steps:
        status, answer = http(url + path, body)
        assert status == 200 and json.loads(answer)["accepted"] is True, (path, body, answer)
    process.terminate()
    process.wait(timeout=20)
    exported = install.run("export", "--data", str(data))
    assert exported.returncode == 0, exported.stderr
    assert {"type": "card", "card": "pea-1a"} in [json.loads(line) for line in exported.stdout.splitlines()]
    replayed = install.run("replay", "-", stdin=exported.stdout)
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout)["pot"]["cards"] == ["pea-1a"]


def test_marmite_demo_plays_in_its_own_data_dir(install: Install, tmp_path: Path) -> None:
    table_data, port = tmp_path / "the-table", free_port()
    process = install.start("demo", "--host", "127.0.0.1", "--port", str(port), "--pace", "0.05", "--seed", "3",
                            env={"MARMITE_DATA": str(table_data)})
    try:
        deadline, cards = time.monotonic() + 90, 0
        while time.monotonic() < deadline and process.poll() is None and cards < 3:
            try:
                state = json.loads(http(f"http://127.0.0.1:{port}/api/state")[1])
                cards = len(state["pot"]["cards"]) + 4 * sum(len(r["tricks"]) for r in state["rounds"])
            except (OSError, ValueError):
                pass
            time.sleep(0.2)
        assert process.poll() is None, process.communicate()[1][-2000:]
        assert cards >= 3, "the demo played no card"
    finally:
        process.terminate()
        _, err = process.communicate(timeout=20)
    assert not table_data.exists(), "marmite demo wrote into the table's data dir"
    assert "marmite-demo-" in err


def test_marmite_robot_answers(install: Install) -> None:
    hand = ["pea-1a", "pea-2a", "onion-3b", "mushroom-5a", "pepper-2a", "pea-x", "onion-10", "mushroom-0a",
            "pea-4b", "onion-1a", "mushroom-2b", "pepper-4b", "pea-5a"]
    ask = {"log": [{"type": "new_game", "players": ["Ana", "Bob", "Cy"], "dealer": "Cy"}], "seat": "Ana",
           "hand": hand}
    done = install.run("robot", "--seed", "1", "--think-ms", "50", stdin=json.dumps(ask) + "\n")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"type": "menu", "player": "Ana", "menu": json.loads(done.stdout)["menu"]}


def test_marmite_reader_scan_reports(install: Install) -> None:
    done = install.run("reader", "scan", "--seconds", "1")
    assert done.returncode in (0, 1), done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    assert "looking for readers" in done.stdout


def test_marmite_club_starts_or_names_its_extra(install: Install, tmp_path: Path) -> None:
    if install.extra != "club":
        done = install.run("club", "--data", str(tmp_path / "hub"), "--mqtt-port", "0", "--port", "0")
        assert done.returncode == 2
        assert "'club' extra" in one_line_error(done)
        assert f"{install.venv}/bin/pip install -e '{ROOT}[club]'" in done.stderr  # this venv, this folder
        joined = install.run("run", "--data", str(tmp_path / "t"), "--port", "0",
                             "--club", "mqtt://table1:pw@127.0.0.1:1/club", "--table", "1")
        assert joined.returncode == 2
        assert "'club' extra" in one_line_error(joined)
        assert not (tmp_path / "hub").exists()
        return
    if shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists():
        pytest.skip("Debian's mosquitto is not installed")
    port = free_port()
    process = install.start("club", "--data", str(tmp_path / "hub"), "--mqtt-host", "127.0.0.1", "--mqtt-port", "0",
                            "--host", "127.0.0.1", "--port", str(port), "--tables", "2", "--pin", PIN)
    try:
        deadline, status = time.monotonic() + 60, 0
        while time.monotonic() < deadline and process.poll() is None and status != 200:
            try:
                status = http(f"http://127.0.0.1:{port}/")[0]
            except OSError:
                time.sleep(0.2)
        assert status == 200, process.poll()
    finally:
        process.terminate()
        process.communicate(timeout=30)
