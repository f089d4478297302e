"""scripts/update-pi's decisions on this machine: a git checkout in tmp_path whose scripts/install-pi writes a
stand-in `marmite`, stand-ins for root's tools (id, runuser, getent) and a systemctl that runs that stand-in,
served on a free loopback port and checked by the real scripts/pi/health.py."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# The table's stand-in: `--version`, or `run PORT DATA`: serves / and a healthy /api/table, unless broken, when
# it migrates the journal (writes it) and dies.
FAKE_MARMITE = """#!/usr/bin/env python3
import http.server, json, pathlib, sys
VERSION, BROKEN = "@VERSION@", @BROKEN@
if sys.argv[1:] == ["--version"]:
    print("marmite " + VERSION)
    sys.exit(0)
port, data = int(sys.argv[2]), pathlib.Path(sys.argv[3])
data.mkdir(exist_ok=True)
if BROKEN:
    (data / "journal.db").write_text("migrated by " + VERSION)
    sys.exit(1)
class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = json.dumps({"storage": {"ok": True}, "readers": []}).encode()
        self.send_response(200)
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *args):
        pass
http.server.HTTPServer(("127.0.0.1", port), Handler).serve_forever()
"""

FAKE_INSTALL = """#!/bin/sh
set -e
mkdir -p .venv/bin
sed -e "s/@VERSION@/$(cat VERSION)/" -e "s/@BROKEN@/$(cat BROKEN)/" fake-marmite >.venv/bin/marmite
chmod 755 .venv/bin/marmite
"""

FAKE_SYSTEMCTL = """#!/bin/bash
echo "$*" >>"$SYSTEMCTL_LOG"
stop() {
  [ -f "$PIDFILE" ] || return 0
  pid=$(cat "$PIDFILE"); kill "$pid" 2>/dev/null
  while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
  rm -f "$PIDFILE"
}
case "$1" in
  stop) stop;;
  start|restart) stop; setsid .venv/bin/marmite run "$PORT" "$DATA" >/dev/null 2>&1 </dev/null & echo $! >"$PIDFILE";;
esac
exit 0
"""


def write_exe(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    path.chmod(0o755)


def git(checkout: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(checkout), *args], check=True, capture_output=True, text=True).stdout


class Pi:
    """The checkout, its settings and its stand-ins."""

    def __init__(self, tmp_path: Path) -> None:
        self.checkout = tmp_path / "marmite"
        self.data = tmp_path / "marmite-data"
        self.log = tmp_path / "systemctl.log"
        self.pidfile = tmp_path / "marmite.pid"
        bin_dir = tmp_path / "bin"
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        write_exe(bin_dir / "id", "#!/bin/sh\necho 0\n")
        write_exe(bin_dir / "runuser", '#!/bin/sh\nshift 3\nexec "$@"\n')
        write_exe(bin_dir / "getent", f"#!/bin/sh\necho 'pi:x:1000:1000::{tmp_path}:/bin/bash'\n")
        write_exe(bin_dir / "systemctl", FAKE_SYSTEMCTL)
        settings, unit = tmp_path / "marmite.env", tmp_path / "marmite.service"
        settings.write_text(f"MARMITE_PORT={self.port}\nMARMITE_DATA={self.data}\n", encoding="utf-8")
        unit.write_text("[Service]\n", encoding="utf-8")
        self.env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(tmp_path), "SUDO_USER": "pi",
                    "MARMITE_SYSTEMCTL": str(bin_dir / "systemctl"), "MARMITE_SETTINGS_FILE": str(settings),
                    "MARMITE_UNIT_FILE": str(unit), "MARMITE_HEALTH_TIMEOUT_S": "10", "SYSTEMCTL_LOG": str(self.log),
                    "PIDFILE": str(self.pidfile), "PORT": str(self.port), "DATA": str(self.data)}
        c = self.checkout
        write_exe(c / "scripts" / "install-pi", FAKE_INSTALL)
        (c / "fake-marmite").write_text(FAKE_MARMITE, encoding="utf-8")
        subprocess.run(["git", "init", "-q", str(c)], check=True)
        git(c, "config", "user.name", "t")
        git(c, "config", "user.email", "t@t")
        for tag, version, broken in (("v1", "1", "False"), ("v2", "2", "False"), ("v3", "3", "True")):
            (c / "VERSION").write_text(version, encoding="utf-8")
            (c / "BROKEN").write_text(broken, encoding="utf-8")
            subprocess.run(["git", "-C", str(c), "add", "-A"], check=True, env=self.env)
            subprocess.run(["git", "-C", str(c), "commit", "-qm", tag], check=True, env=self.env)
            subprocess.run(["git", "-C", str(c), "tag", tag], check=True, env=self.env)
        git(c, "checkout", "-q", "v1")
        # The script under test and the health check, untracked, as they are in the real checkout's tree.
        shutil.copy(ROOT / "scripts" / "update-pi", c / "scripts" / "update-pi")
        shutil.copytree(ROOT / "scripts" / "pi", c / "scripts" / "pi")
        subprocess.run(["scripts/install-pi"], cwd=c, check=True, env=self.env)
        self.data.mkdir()
        (self.data / "journal.db").write_text("the game of v1", encoding="utf-8")
        self.systemctl("start", "marmite")
        self.log.write_text("", encoding="utf-8")

    def systemctl(self, *args: str) -> None:
        subprocess.run([self.env["MARMITE_SYSTEMCTL"], *args], cwd=self.checkout, env=self.env, check=True)

    def update(self, target: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["bash", "scripts/update-pi", target], cwd=self.checkout, env=self.env,
                              capture_output=True, text=True, timeout=120)

    def version(self) -> str:
        return subprocess.run([".venv/bin/marmite", "--version"], cwd=self.checkout, capture_output=True,
                              text=True, check=True).stdout.strip()

    def serving(self) -> bool:
        health = ["python3", "scripts/pi/health.py", "wait", f"http://127.0.0.1:{self.port}", "--timeout", "10",
                  "--settle", "0"]
        return subprocess.run(health, cwd=self.checkout, capture_output=True).returncode == 0

    def stop(self) -> None:
        if self.pidfile.exists():
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(self.pidfile.read_text()), signal.SIGTERM)


@pytest.fixture
def pi(tmp_path: Path) -> Iterator[Pi]:
    the_pi = Pi(tmp_path)
    yield the_pi
    the_pi.stop()


def test_a_version_that_does_not_exist_changes_nothing_and_says_so(pi: Pi) -> None:
    head = git(pi.checkout, "rev-parse", "HEAD")
    result = pi.update("v9-mistyped")
    assert result.returncode == 2, result.stderr
    assert "no version v9-mistyped" in result.stderr
    assert "updated" not in result.stderr
    assert git(pi.checkout, "rev-parse", "HEAD") == head
    assert pi.log.read_text(encoding="utf-8") == ""  # the service was not even stopped
    assert pi.version() == "marmite 1"


def test_a_healthy_version_is_kept(pi: Pi) -> None:
    result = pi.update("v2")
    assert result.returncode == 0, result.stderr
    assert pi.version() == "marmite 2"
    assert pi.serving()
    assert (pi.data / "journal.db").read_text(encoding="utf-8") == "the game of v1"


def test_going_back_stops_first_restores_the_data_and_keeps_what_the_new_version_wrote(pi: Pi) -> None:
    result = pi.update("v3")
    assert result.returncode == 1, result.stderr
    assert pi.log.read_text(encoding="utf-8").splitlines()[0] == "stop marmite"  # stopped before the data copy
    assert (pi.data / "journal.db").read_text(encoding="utf-8") == "the game of v1"
    failed = pi.data.with_name("marmite-data.failed-update")
    assert (failed / "journal.db").read_text(encoding="utf-8") == "migrated by 3"
    assert "wrote to the data dir during its try" in result.stderr
    assert pi.version() == "marmite 1"
    assert pi.serving()


def test_a_wheel_pip_refuses_is_not_an_update(pi: Pi) -> None:
    # pip refuses the wheel itself, then would install its dependencies: that is no update.
    write_exe(pi.checkout / ".venv" / "bin" / "python", '#!/bin/sh\ncase "$*" in *--force-reinstall*) exit 1;; esac\n')
    wheel = pi.checkout.parent / "marmite-2-py3-none-any.whl"
    wheel.write_bytes(b"")
    result = pi.update(str(wheel))
    assert result.returncode == 1, result.stderr
    assert "updated:" not in result.stderr
    assert pi.serving()


def test_through_sudo_the_health_timeout_is_kept(pi: Pi, tmp_path: Path) -> None:
    # Not root: update-pi runs itself again through sudo, which drops the environment; the timeout must pass.
    asked = tmp_path / "sudo.args"
    write_exe(tmp_path / "bin" / "id", "#!/bin/sh\necho 1000\n")
    write_exe(tmp_path / "bin" / "sudo", f'#!/bin/sh\necho "$@" >{asked}\n')
    assert pi.update("v2").returncode == 0
    assert asked.read_text(encoding="utf-8").split()[:2] == ["env", "MARMITE_HEALTH_TIMEOUT_S=10"]


def test_an_older_updates_copy_never_comes_back(pi: Pi) -> None:
    # No data dir when this update starts, an older update's copy beside it: going back must not restore it.
    assert pi.serving()  # (it has made its data dir by then)
    shutil.rmtree(pi.data)
    stale = pi.data.with_name("marmite-data.before-update")
    stale.mkdir()
    (stale / "journal.db").write_text("an older game", encoding="utf-8")
    result = pi.update("v3")
    assert result.returncode == 1, result.stderr
    assert not (pi.data / "journal.db").exists()  # the previous version starts as it was: with no data yet
    failed = pi.data.with_name("marmite-data.failed-update")
    assert (failed / "journal.db").read_text(encoding="utf-8") == "migrated by 3"
