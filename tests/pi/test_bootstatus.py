"""The image's boot status (scripts/pi/bootstatus.py): what scripts/check-image reads back from the card."""

from __future__ import annotations

import importlib.util
import os
import re
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import ModuleType

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("pi_bootstatus", SCRIPTS / "pi" / "bootstatus.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


bootstatus = load()


class Page(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"table")

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def table_port() -> Iterator[int]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield int(server.server_address[1])
    server.shutdown()
    server.server_close()


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def fake_avahi(tmp_path: Path, output: str, status: int) -> Path:
    """An avahi-resolve that prints `output` and exits `status`, noting its arguments."""
    command = tmp_path / "avahi-resolve"
    command.write_text(f"#!/bin/sh\nprintf '%s\\n' \"$*\" >>{tmp_path}/asked\nprintf '{output}'\nexit {status}\n")
    command.chmod(0o755)
    return command


FAKE_NMCLI = """#!/bin/sh
case "$*" in
  "-t -f GENERAL.TYPE,GENERAL.STATE,GENERAL.CONNECTION,IP4.ADDRESS device show wlan0")
    [ -n "$WIFI_STATE" ] || { echo "Error: Device 'wlan0' not found." >&2; exit 10; }
    printf 'GENERAL.TYPE:wifi\\nGENERAL.STATE:%s\\nGENERAL.CONNECTION:%s\\nIP4.ADDRESS[1]:%s\\n' \\
      "$WIFI_STATE" "$WIFI_CONNECTION" "$WIFI_ADDRESS";;
  "-t -f 802-11-wireless.ssid connection show marmite-hotspot") echo "802-11-wireless.ssid:Table 3\\: Marmite";;
  *) exit 2;;
esac
"""


def fake_nmcli(tmp_path: Path) -> Path:
    command = tmp_path / "nmcli"
    command.write_text(FAKE_NMCLI)
    command.chmod(0o755)
    return command


def write(tmp_path: Path, port: int, avahi: Path, wifi: tuple[str, str, str] = ("", "", "")) -> tuple[int, str]:
    boot = tmp_path / "boot"
    boot.mkdir(exist_ok=True)
    for name, value in zip(("WIFI_STATE", "WIFI_CONNECTION", "WIFI_ADDRESS"), wifi, strict=True):
        os.environ[name] = value  # restored by the autouse fixture below
    code = bootstatus.main(["write", "--boot", str(boot), "--port", str(port), "--timeout", "0",
                            "--avahi-resolve", str(avahi), "--attempts", "2", "--pause", "0",
                            "--nmcli", str(fake_nmcli(tmp_path)), "--wifi-device", "wlan0"])
    return code, (boot / "marmite-status.txt").read_text(encoding="utf-8")


@pytest.fixture(autouse=True)
def _wifi_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("WIFI_STATE", "WIFI_CONNECTION", "WIFI_ADDRESS"):
        monkeypatch.setenv(name, "")


def check(tmp_path: Path, text: str, *options: str) -> int:
    path = tmp_path / "status-read.txt"
    path.write_text(text, encoding="utf-8")
    return int(bootstatus.main(["check", str(path), *options]))


def test_a_served_table_and_a_resolved_name_pass(tmp_path: Path, table_port: int) -> None:
    code, text = write(tmp_path, table_port, fake_avahi(tmp_path, r"marmite.local\t10.0.2.15\n", 0))
    assert code == 0
    assert "marmite.local: ok, 10.0.2.15" in text.splitlines()
    assert (tmp_path / "asked").read_text().split() == ["-n", "marmite.local"]
    assert check(tmp_path, text) == 0


def test_avahi_not_answering_fails_the_check(tmp_path: Path, table_port: int) -> None:
    said = r"Failed to resolve host name \047marmite.local\047: Timeout reached\n"
    code, text = write(tmp_path, table_port, fake_avahi(tmp_path, said, 1))
    assert code == 1
    assert "marmite.local: NOT OK, avahi-resolve -n marmite.local: Failed to resolve host name" in text
    assert len((tmp_path / "asked").read_text().splitlines()) == 2  # asked again before giving up
    assert check(tmp_path, text) == 1


def test_no_avahi_at_all_fails_the_check(tmp_path: Path, table_port: int) -> None:
    code, text = write(tmp_path, table_port, tmp_path / "no-such-command")
    assert code == 1
    assert check(tmp_path, text) == 1


@pytest.mark.parametrize("output", [r"marmite.local\t127.0.1.1\n", r"other.local\t10.0.2.15\n", r"\n"])
def test_a_loopback_another_name_or_nothing_is_not_an_answer(tmp_path: Path, table_port: int, output: str) -> None:
    code, text = write(tmp_path, table_port, fake_avahi(tmp_path, output, 0))
    assert code == 1
    assert check(tmp_path, text) == 1


def test_a_table_that_does_not_serve_fails_the_check(tmp_path: Path) -> None:
    code, text = write(tmp_path, closed_port(), fake_avahi(tmp_path, r"marmite.local\tfe80::1%eth0\n", 0))
    assert code == 1
    assert re.search(r"^table: NOT OK, http://127.0.0.1:\d+/ answers nothing", text, re.MULTILINE)
    assert check(tmp_path, text) == 1


@pytest.mark.parametrize("text", ["", "table: ok, http://127.0.0.1:8000/ serves\n",
                                  "table: ok, x\nmarmite.local: ok, not-an-address\n"])
def test_a_missing_line_or_a_bad_address_fails(tmp_path: Path, text: str) -> None:
    assert check(tmp_path, text) == 1


def test_a_missing_file_fails(tmp_path: Path) -> None:
    assert bootstatus.main(["check", str(tmp_path / "absent.txt")]) == 1


def test_its_own_access_point_is_told_and_checked(tmp_path: Path, table_port: int) -> None:
    avahi = fake_avahi(tmp_path, r"marmite.local\t10.42.0.1\n", 0)
    code, text = write(tmp_path, table_port, avahi, ("100 (connected)", "marmite-hotspot", "10.42.0.1/24"))
    assert code == 0
    assert "wifi: access point Table 3: Marmite on wlan0 at 10.42.0.1" in text.splitlines()
    assert check(tmp_path, text, "--access-point") == 0


@pytest.mark.parametrize(("wifi", "told"), [
    (("", "", ""), "wifi: none, no Wi-Fi device wlan0"),
    (("100 (connected)", "marmite-wifi", "192.168.1.20/24"), "wifi: joined marmite-wifi on wlan0 at 192.168.1.20"),
    (("30 (disconnected)", "", ""), "wifi: NOT OK, wlan0 30 (disconnected)"),
    (("40 (connecting (prepare))", "marmite-hotspot", ""),
     "wifi: NOT OK, wlan0 40 (connecting (prepare)) (marmite-hotspot)"),
])
def test_no_access_point_fails_the_access_point_check(tmp_path: Path, table_port: int, wifi: tuple[str, str, str],
                                                      told: str) -> None:
    code, text = write(tmp_path, table_port, fake_avahi(tmp_path, r"marmite.local\t10.0.2.15\n", 0), wifi)
    assert code == 0  # the table and its name answered: the Wi-Fi is told, and checked only when asked
    assert told in text.splitlines()
    assert check(tmp_path, text) == 0
    assert check(tmp_path, text, "--access-point") == 1


def test_check_image_waits_for_the_line_the_service_prints_and_build_image_installs_it() -> None:
    check_image = (SCRIPTS / "check-image").read_text(encoding="utf-8")
    build_image = (SCRIPTS / "build-image").read_text(encoding="utf-8")
    unit = (SCRIPTS / "pi" / "marmite-status.service").read_text(encoding="utf-8")
    source = (SCRIPTS / "pi" / "bootstatus.py").read_text(encoding="utf-8")
    assert "grep -q 'marmite-status.txt written'" in check_image
    assert 'print(f"{STATUS_NAME} written: "' in source and 'STATUS_NAME = "marmite-status.txt"' in source
    assert "bootstatus.py\" check" in check_image and "--access-point" in check_image
    assert "modules_load=mac80211_hwsim" in check_image  # the simulated radios the access point is offered on
    assert "StandardOutput=journal+console" in unit  # the console is check-image's serial log
    installed = re.search(r'install -m 755 "\$ROOT/scripts/pi/bootstatus.py" "\$R(\S+)"', build_image)
    assert installed is not None and f"ExecStart=/usr/bin/python3 {installed.group(1)} write" in unit
    assert re.search(r"systemctl enable [^\n]*marmite-status.service", build_image)
