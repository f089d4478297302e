"""Permissions said plainly: pcscd refusing the user (polkit) and a serial port closed to them, each with
the one command that fixes it, from the reader's health and from `reader scan`."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from companion.reads import ReaderHealth
from hardware.fakes.pcscd_polkit import RefusingScard
from hardware.readers.pcsc import PcscReader
from hardware.readers.pn532 import Pn532Reader
from marmite.reader_scan import pcsc_candidates
from tests.readers.test_pcsc_reader import first_health


def test_pcscd_refusing_the_user_is_said_with_its_fix() -> None:
    scard = pytest.importorskip("smartcard.scard")
    refusing = RefusingScard(scard)
    reader = PcscReader(backend=refusing)
    health = first_health(reader)
    assert isinstance(health, ReaderHealth) and dict(health.info)["state"] == "missing"
    assert "polkit" in health.detail and "sudo scripts/install-readers" in health.detail
    assert "install and start pcscd" not in health.detail, "pcscd is there: it said no"
    notes: list[str] = []
    assert pcsc_candidates(refusing, notes) == []
    assert len(notes) == 1 and "polkit" in notes[0] and "sudo scripts/install-readers" in notes[0]


def test_a_serial_port_closed_to_the_user_names_the_dialout_group() -> None:
    def refused() -> object:
        raise PermissionError(13, "Permission denied: '/dev/ttyUSB0'")

    reader = Pn532Reader(refused, where="/dev/ttyUSB0")  # type: ignore[arg-type]
    health = first_health(reader)
    assert isinstance(health, ReaderHealth) and dict(health.info)["state"] == "missing"
    assert "sudo usermod -aG dialout $USER" in health.detail


def test_install_readers_opens_the_readers_not_every_keyboard() -> None:
    script = (Path(__file__).resolve().parents[2] / "scripts" / "install-readers").read_text(encoding="utf-8")
    assert "for group in input" not in script and "-aG input" not in script, "the input group reads every keyboard"
    assert 'ATTRS{idVendor}=="%s", ATTRS{idProduct}=="%s", OWNER="%s"' in script
    assert "08ff:0009" in script, "the wedge readers Marmite knows get their rule"
    assert "org.debian.pcsc-lite.access_pcsc" in script and "org.debian.pcsc-lite.access_card" in script


def test_install_readers_adds_a_wedge_to_the_rule_and_keeps_those_given_before(tmp_path: Path) -> None:
    script = Path(__file__).resolve().parents[2] / "scripts" / "install-readers"
    rules = tmp_path / "70-marmite-readers.rules"
    env = {**os.environ, "MARMITE_UDEV_RULES": str(rules), "SUDO_USER": "nobody"}
    for ids in (["1234:ABCD"], ["5678:ef01", "08ff:0009"]):  # a second run, for another reader
        done = subprocess.run(["bash", str(script), "--rules-only", *ids], env=env, capture_output=True,
                              text=True, check=False)
        assert done.returncode == 0, done.stderr
    lines = rules.read_text(encoding="utf-8").splitlines()
    given = [line.split('idVendor}=="')[1][:4] + ":" + line.split('idProduct}=="')[1][:4]
             for line in lines if "idVendor" in line]
    assert sorted(given) == ["08ff:0009", "1234:abcd", "5678:ef01", "ffff:0035"], "each wedge once, none lost"
