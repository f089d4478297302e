"""`marmite club --broker URL`: a club's own Mosquitto, run by the club with its own password file and ACL
(not the hub's), and real tables through it. The hub writes the tables' users and the club's ACL for the
broker's administrator, who adds them and reloads the broker; then tables join and nothing is lost."""

from __future__ import annotations

import os
import pwd
import signal
import socket
import stat
import subprocess
import sys
import time
from pathlib import Path

from club.broker import EXTERNAL_DIR, free_port
from tests.club.helpers import Hub, Table, assert_copied_exactly, game_events, play, wait_caught_up
from tests.club.test_bad_input import Client
from tests.drill.helpers import ROOT


def club_broker(directory: Path, port: int) -> subprocess.Popen[bytes]:
    """The club's own Mosquitto: its admin user for the hub, its own ACL, nothing of Marmite's."""
    directory.mkdir()
    (directory / "passwd").write_text("clubhub:hub-secret\n", encoding="utf-8")
    subprocess.run(["mosquitto_passwd", "-U", str(directory / "passwd")], check=True)
    (directory / "acl").write_text("user clubhub\ntopic readwrite marmite/soiree/#\n", encoding="utf-8")
    (directory / "mosquitto.conf").write_text(
        "per_listener_settings false\nallow_anonymous false\n"
        f"password_file {directory / 'passwd'}\nacl_file {directory / 'acl'}\n"
        f"listener {port} 127.0.0.1\nlog_dest stderr\nlog_type error\n"
        + (f"user {pwd.getpwuid(os.geteuid()).pw_name}\n" if os.geteuid() == 0 else ""), encoding="utf-8")
    process = subprocess.Popen(["mosquitto", "-c", str(directory / "mosquitto.conf")], stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and process.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return process
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise AssertionError("the club's Mosquitto did not start")


def test_a_hub_on_the_clubs_own_broker_seats_its_tables_there(tmp_path: Path) -> None:
    port = free_port()
    broker = club_broker(tmp_path / "club-broker", port)
    hub = Hub(tmp_path / "hub", tables=2, name="soiree",
              extra=("--broker", f"mqtt://clubhub:hub-secret@127.0.0.1:{port}/soiree"))
    table = None
    try:
        hub.start()
        assert f"mqtt://clubhub:***@127.0.0.1:{port}/soiree" in hub.console()  # no password printed
        assert not (hub.data / "mosquitto").exists()  # the hub started no broker of its own
        assert all(url.endswith(f"@127.0.0.1:{port}/soiree") for url in hub.urls.values())
        files = hub.data / EXTERNAL_DIR
        assert stat.S_IMODE((files / "passwd").stat().st_mode) == 0o600
        users = (files / "passwd").read_text(encoding="utf-8")
        assert users.startswith("table-1:$") and "table-2:$" in users  # hashed, not in clear
        acl = (files / "acl").read_text(encoding="utf-8")
        assert acl.startswith("user clubhub\n") and "topic write marmite/soiree/table/2/events" in acl
        # The administrator adds them to the broker's own files and reloads it.
        with (tmp_path / "club-broker" / "passwd").open("a", encoding="utf-8") as out:
            out.write(users)
        (tmp_path / "club-broker" / "acl").write_text(acl, encoding="utf-8")
        broker.send_signal(signal.SIGHUP)
        time.sleep(0.5)  # mosquitto reloads on its next loop
        table = Table(tmp_path / "table1", hub.urls[1], 1).start()
        play(table, game_events(3)[:60])
        wait_caught_up(hub, table)
        assert_copied_exactly(hub, table)
        stranger = Client(port, "table-2", "wrong")
        assert not stranger.connected.is_set()
        stranger.close()
        other = subprocess.run([sys.executable, "-m", "marmite.cli", "club", "--data", str(tmp_path / "other"),
                                "--name", "autre", "--broker", f"mqtt://clubhub:hub-secret@127.0.0.1:{port}/soiree"],
                               cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)
        assert other.returncode == 2 and "the broker URL names the club 'soiree'" in other.stderr
    finally:
        if table is not None:
            table.stop()
        hub.stop()
        broker.terminate()
        broker.wait(timeout=10)
        assert os.path.exists(tmp_path / "club-broker" / "mosquitto.conf")
