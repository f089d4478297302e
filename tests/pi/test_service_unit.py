"""The Pi's service as scripts/install-pi installs it: the unit file, its settings and its command line,
run here by hand as systemd would run it (scripts/pi/unit.py), serving a table that takes a play."""

from __future__ import annotations

import getpass
import importlib.util
import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
PI = ROOT / "scripts" / "pi"
VENV_MARMITE = Path(sys.executable).parent / "marmite"


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"pi_{name}", PI / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


unit = load("unit")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def installed_unit(tmp_path: Path, settings: Path) -> Path:
    """The unit as install-service fills it in, for this user and this checkout, reading `settings`."""
    text = (PI / "marmite.service").read_text(encoding="utf-8")
    text = text.replace("@USER@", getpass.getuser()).replace("@HOME@", str(tmp_path)).replace("@CHECKOUT@", str(ROOT))
    text = text.replace("EnvironmentFile=/etc/marmite/marmite.env", f"EnvironmentFile={settings}")
    text = text.replace(f"ExecStart={ROOT}/.venv/bin/marmite", f"ExecStart={VENV_MARMITE}")  # this test's venv
    path = tmp_path / "marmite.service"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_unit_restarts_on_failure_and_reads_its_settings_from_a_root_only_file() -> None:
    settings = unit.service_settings((PI / "marmite.service").read_text(encoding="utf-8"))
    assert ("Restart", "on-failure") in settings
    assert ("RestartPreventExitStatus", "2") in settings  # a setting a restart cannot fix
    assert ("EnvironmentFile", "/etc/marmite/marmite.env") in settings
    assert "MARMITE_PIN" not in (PI / "marmite.service").read_text(encoding="utf-8")  # every user reads a unit
    installer = (PI / "install-service").read_text(encoding="utf-8")
    assert "install -d -m 700 -o root -g root /etc/marmite" in installer
    assert 'chmod 600 "$settings"' in installer


def test_exec_start_expands_as_systemd_does(tmp_path: Path) -> None:
    settings = tmp_path / "marmite.env"
    settings.write_text('# a comment\nMARMITE_PORT=8123\nMARMITE_OPTIONS="--reader rc522  --speak"\n\n'
                        "MARMITE_PIN=2468\n", encoding="utf-8")
    found = unit.service_settings(installed_unit(tmp_path, settings).read_text(encoding="utf-8"))
    env = unit.environment(found)
    assert env["MARMITE_DATA"] == f"{tmp_path}/marmite-data"  # the unit's default, the file does not override it
    assert env["MARMITE_PIN"] == "2468"
    assert unit.command_line(unit.the(found, "ExecStart"), env) == [
        str(VENV_MARMITE), "run", "--port", "8123", "--reader", "rc522", "--speak"]


def test_an_unset_whole_variable_disappears_and_a_braced_one_stays_a_word() -> None:
    assert unit.command_line("/bin/x a${NONE}b $NONE ${NONE} c", {}) == ["/bin/x", "ab", "", "c"]
    with pytest.raises(ValueError, match="prefix"):
        unit.command_line("-/bin/x", {})


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze here")
def test_the_installed_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    settings = tmp_path / "marmite.env"
    settings.write_text("MARMITE_OPTIONS=--reader sim\n", encoding="utf-8")
    result = subprocess.run(["systemd-analyze", "verify", "--man=no", str(installed_unit(tmp_path, settings))],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "marmite.service" not in result.stderr  # no warning about our unit (others' units may warn here)


@pytest.fixture
def service(tmp_path: Path) -> Iterator[str]:
    """The unit's ExecStart, run by hand with a settings file as install-service writes it: its URL."""
    port = free_port()
    settings = tmp_path / "marmite.env"
    settings.write_text(f"MARMITE_PIN=2468\nMARMITE_DATA={tmp_path}/data\nMARMITE_PORT={port}\n"
                        "MARMITE_OPTIONS=--reader sim --host 127.0.0.1\n", encoding="utf-8")
    process = subprocess.Popen([sys.executable, str(PI / "unit.py"), "exec", str(installed_unit(tmp_path, settings))],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        post = start_post(tmp_path / "marmite.service")  # systemd runs it once ExecStart has started
        said = subprocess.run([sys.executable, *post[1:]], capture_output=True, text=True, timeout=120)
        assert said.returncode == 0, said.stderr
        assert "the table says: Aucune partie en cours." in said.stdout  # aloud with --speak: "ready"
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=30)


def start_post(unit_file: Path) -> list[str]:
    """The unit's ExecStartPost, expanded (without its '-': a failure there does not fail the service)."""
    found = unit.service_settings(unit_file.read_text(encoding="utf-8"))
    line = unit.the(found, "ExecStartPost")
    assert line.startswith("-/usr/bin/python3 ")
    words: list[str] = unit.command_line(line[1:], unit.environment(found))
    return words


def health(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(PI / "health.py"), *args], capture_output=True, text=True, timeout=120)


def test_the_units_command_serves_journals_a_play_and_speaks_its_answer(service: str, tmp_path: Path) -> None:
    ready = health("wait", service, "--timeout", "60", "--settle", "0", "--reader-ok")
    assert ready.returncode == 0, ready.stderr
    assert "the reader answers" in ready.stdout  # the simulated reader reports itself ready
    wav = tmp_path / "answer.wav"
    args = [sys.executable, str(PI / "play_once.py"), service, "2468"]
    if shutil.which("espeak-ng"):
        args += ["--wav", str(wav)]
    played = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert played.returncode == 0, played.stderr
    assert "journaled pea-3a; the table says (fr): Pois 3" in played.stdout
    assert (tmp_path / "data" / "marmite.sqlite3").exists()  # MARMITE_DATA from the settings file was used
    if shutil.which("espeak-ng"):
        assert wav.read_bytes()[:4] == b"RIFF"


def test_health_names_what_is_wrong_when_nothing_serves() -> None:
    result = health("wait", f"http://127.0.0.1:{free_port()}", "--timeout", "0", "--settle", "0")
    assert result.returncode == 1
    assert result.stderr.startswith("unhealthy after 0 s: / answers nothing")


def test_health_reader_ok_is_false_for_a_reader_that_does_not_answer(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "MARMITE_PIN": "2468"}
    process = subprocess.Popen([str(VENV_MARMITE), "run", "--host", "127.0.0.1", "--port", str(port), "--data",
                                str(tmp_path), "--reader", "rc522"], env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    try:
        url = f"http://127.0.0.1:{port}"
        assert health("wait", url, "--timeout", "60", "--settle", "0").returncode == 0  # it serves...
        assert health("reader-ok", url).returncode == 1  # ...but no RC522 answers on this machine
        waited = health("wait", url, "--timeout", "0", "--settle", "0", "--reader-ok")
        assert waited.returncode == 1
        assert "the reader does not answer: rc522:" in waited.stderr
    finally:
        process.terminate()
        process.wait(timeout=30)


@pytest.mark.parametrize("checkout", ["/home/pi/my marmite", "/home/pi/a&b", "/home/pi/a|b", "/home/pi/50%"])
def test_a_checkout_path_the_unit_cannot_hold_is_refused_before_anything(tmp_path: Path, checkout: str) -> None:
    # Stand-ins for the commands that change the system: none may run.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    touched = tmp_path / "touched"
    for command in ("install", "chown", "chmod", "mv", "systemctl", "hostnamectl"):
        (bin_dir / command).write_text(f"#!/bin/sh\necho {command} >>{touched}\nexit 1\n", encoding="utf-8")
        (bin_dir / command).chmod(0o755)
    result = subprocess.run(["bash", str(PI / "install-service"), "pi", "/home/pi", checkout, "rc522", "1", "1"],
                            env={"PATH": f"{bin_dir}:/usr/bin:/bin"}, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert f"the path {checkout} holds a space, &, |, \\ or %" in result.stderr
    assert not touched.exists()
