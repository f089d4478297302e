"""scripts/pi/hotspot's decisions, with a stand-in nmcli that answers as NetworkManager would and records what
it is asked (no simulated radio, mac80211_hwsim, loads on the machines these tests run on)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

HOTSPOT = Path(__file__).resolve().parents[2] / "scripts" / "pi" / "hotspot"

FAKE_NMCLI = """#!/bin/sh
echo "$*" >>"$NMCLI_LOG"
case "$*" in
  "-t -f DEVICE,TYPE device status") printf 'lo:loopback\\n%s\\n' "$NMCLI_DEVICES";;
  "-t -f TYPE,NAME connection show") printf '%s' "$NMCLI_SAVED";;
  "-t -f GENERAL.STATE device show wlan0") echo "GENERAL.STATE:$NMCLI_STATE";;
  "device wifi hotspot"*) echo "Device 'wlan0' successfully activated";;
esac
"""


def run(tmp_path: Path, *, devices: str = "wlan0:wifi", saved: str = "", state: str = "30 (disconnected)",
        password: str = "0123456789", hotspot: str = "auto") -> tuple[subprocess.CompletedProcess[str], list[str]]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    (bin_dir / "nmcli").write_text(FAKE_NMCLI, encoding="utf-8")
    (bin_dir / "nmcli").chmod(0o755)
    (bin_dir / "nm-online").write_text('#!/bin/sh\necho "nm-online $*" >>"$NMCLI_LOG"\n', encoding="utf-8")
    (bin_dir / "nm-online").chmod(0o755)
    log = tmp_path / "nmcli.log"
    log.write_text("", encoding="utf-8")
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "NMCLI_LOG": str(log), "NMCLI_DEVICES": devices, "NMCLI_SAVED": saved,
           "NMCLI_STATE": state, "MARMITE_HOTSPOT": hotspot, "MARMITE_HOTSPOT_PASSWORD": password,
           "MARMITE_HOTSPOT_SSID": "Chez Paul", "MARMITE_HOTSPOT_WAIT_S": "1"}
    result = subprocess.run(["bash", str(HOTSPOT)], env=env, capture_output=True, text=True, timeout=60)
    return result, log.read_text(encoding="utf-8").splitlines()


def test_no_network_saved_offers_the_access_point_at_once(tmp_path: Path) -> None:
    result, asked = run(tmp_path)
    assert result.returncode == 0, result.stderr
    # on channel 6, allowed everywhere: left to choose, NetworkManager took 13, which a Pi with no country can't use
    assert asked[-1] == ("device wifi hotspot ifname wlan0 con-name marmite-hotspot ssid Chez Paul band bg channel 6 "
                         "password 0123456789")


def test_networkmanager_start_up_is_waited_for_before_its_devices_are_read(tmp_path: Path) -> None:
    # At boot, NetworkManager's service is up before it has taken up wlan0: read then, wlan0 is missing.
    result, asked = run(tmp_path)
    assert result.returncode == 0, result.stderr
    assert asked[0] == "nm-online -s -q --timeout=60"
    assert asked[1] == "-t -f DEVICE,TYPE device status"


def test_a_joined_network_means_no_access_point(tmp_path: Path) -> None:
    result, asked = run(tmp_path, saved="802-11-wireless:Club\n", state="100 (connected)")
    assert result.returncode == 0
    assert "joined a Wi-Fi network: no access point" in result.stdout
    assert not any(line.startswith("device wifi hotspot") for line in asked)


def test_a_saved_network_out_of_reach_gets_its_wait_then_the_access_point(tmp_path: Path) -> None:
    result, asked = run(tmp_path, saved="802-11-wireless:Home\n802-11-wireless:marmite-hotspot\n")
    assert result.returncode == 0
    assert sum(line == "-t -f GENERAL.STATE device show wlan0" for line in asked) == 2  # waited MARMITE_HOTSPOT_WAIT_S
    assert asked[-1].startswith("device wifi hotspot ")


@pytest.mark.parametrize(("settings", "says"), [
    ({"devices": "eth0:ethernet"}, "no Wi-Fi device wlan0: no access point"),
    ({"hotspot": "off"}, "access point off (MARMITE_HOTSPOT=off)"),
])
def test_nothing_to_offer(tmp_path: Path, settings: dict[str, str], says: str) -> None:
    result, asked = run(tmp_path, **settings)
    assert result.returncode == 0
    assert says in result.stdout
    assert not any(line.startswith("device wifi hotspot") for line in asked)


def test_a_password_wpa_refuses_is_said_and_nothing_is_started(tmp_path: Path) -> None:
    result, asked = run(tmp_path, password="short")
    assert result.returncode == 1
    assert "MARMITE_HOTSPOT_PASSWORD must be 8 to 63 characters" in result.stderr
    assert not any(line.startswith("device wifi hotspot") for line in asked)


def test_without_networkmanager_it_says_so(tmp_path: Path) -> None:
    env = {"PATH": "/nonexistent", "MARMITE_HOTSPOT": "auto"}
    result = subprocess.run(["/bin/bash", str(HOTSPOT)], env={**env, "HOME": os.environ.get("HOME", "/")},
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0
    assert "no NetworkManager (nmcli): no access point" in result.stdout


def test_its_own_access_point_from_an_earlier_boot_is_not_waited_for(tmp_path: Path) -> None:
    result, asked = run(tmp_path, saved="802-11-wireless:marmite-hotspot\n")
    assert result.returncode == 0
    assert sum(line == "-t -f GENERAL.STATE device show wlan0" for line in asked) == 1  # looked once, no wait
    assert asked[-1].startswith("device wifi hotspot ")
