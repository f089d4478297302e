"""The serial readers on a computer without `fcntl` (Windows): the PN532 and the Pico bridge load and read,
and `reader scan` says what it could not look for and why. Windows is simulated by hiding `fcntl` and
naming the platform."""

from __future__ import annotations

import importlib
import os
import queue
import sys
from collections.abc import Iterator
from types import ModuleType

import pytest
import serial  # pyserial is loaded before fcntl is hidden, as its Windows backend would be there

from companion.reads import ReaderHealth, ReaderQueue, TagSeen
from hardware.fakes.pn532_chip import FakeNtag, FakePn532
from marmite import reader_scan
from marmite.cli import build_parser  # loaded as on Linux: Windows' own modules (msvcrt) are not here
from marmite.readers import make_reader
from tests.readers.test_pcsc_reader import first_health, take

RUN_COM3 = build_parser().parse_args(["run", "--reader", "pn532", "--reader-option", "port=COM3"])


@pytest.fixture
def windows(monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    """hardware.readers.pn532 imported afresh where `import fcntl` fails, on a platform named win32."""
    assert serial.Serial is not None
    monkeypatch.setitem(sys.modules, "fcntl", None)  # None in sys.modules: `import fcntl` raises ImportError
    monkeypatch.delitem(sys.modules, "hardware.readers.pn532", raising=False)
    monkeypatch.setattr(sys, "platform", "win32")
    import hardware.readers as package  # its attribute too, or `import hardware.readers.pn532 as m` later gets
    monkeypatch.setattr(package, "pn532", getattr(package, "pn532", None), raising=False)  # this copy
    module = importlib.import_module("hardware.readers.pn532")
    monkeypatch.setattr(module, "os", NamedNt())  # the serial reads take Windows' path (no select on a port)
    yield module
    monkeypatch.delitem(sys.modules, "hardware.readers.pn532", raising=False)


class NamedNt:
    """The `os` module as a module sees it on Windows: `os.name` is "nt", the rest is this system's."""

    name = "nt"

    def __getattr__(self, attribute: str) -> object:
        return getattr(os, attribute)


def test_the_pn532_serial_reader_loads_and_reads_without_fcntl(windows: ModuleType) -> None:
    with pytest.raises(ImportError):
        importlib.import_module("fcntl")
    chip = FakePn532()
    card = FakeNtag(bytes.fromhex("04112233445566"))
    reader = windows.Pn532Reader.from_options({"port": chip.port})
    out: ReaderQueue = queue.Queue()
    try:
        reader.start(out)
        health = take(out, ReaderHealth, timeout=10)
        assert isinstance(health, ReaderHealth) and health.ok, health
        chip.put(card)
        seen = take(out, TagSeen, timeout=10)
        assert isinstance(seen, TagSeen) and seen.uid == card.uid.hex()
    finally:
        reader.close()
        chip.close()


def test_a_com_port_closed_to_the_user_is_said_as_in_use_not_as_a_linux_group(monkeypatch: pytest.MonkeyPatch,
                                                                            windows: ModuleType) -> None:
    from hardware.readers import permissions

    monkeypatch.setattr(permissions, "os", NamedNt())

    def refused() -> object:
        raise PermissionError(13, "could not open port 'COM3': PermissionError(13, 'Access is denied.')")

    reader = windows.Pn532Reader(refused, where="COM3")
    health = first_health(reader)
    assert isinstance(health, ReaderHealth) and dict(health.info)["state"] == "missing"
    assert "usermod" not in health.detail and "dialout" not in health.detail, health.detail
    assert "COM3" in health.detail


def test_the_i2c_transport_alone_needs_fcntl(windows: ModuleType) -> None:
    with pytest.raises(ImportError):
        windows.I2cDevice("/dev/i2c-1", 0x24)


def test_scan_lists_the_com_port_of_a_usb_uart_dongle(monkeypatch: pytest.MonkeyPatch, windows: ModuleType) -> None:
    from serial.tools import list_ports

    from tests.readers.test_small_items import Port

    ports = [Port("COM3", 0x1A86, 0x7523), Port("COM1")]
    monkeypatch.setattr(list_ports, "comports", lambda: ports)
    notes: list[str] = []
    found = reader_scan.serial_candidates(notes=notes)
    assert [(c.reader, dict(c.options)) for c in found] == [("pn532", {"port": "COM3"})]
    assert len(notes) == 1 and "COM1" in notes[0], "a port not probed is named, not passed over in silence"


def test_scan_names_the_readers_it_could_not_look_for(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "evdev", None)
    monkeypatch.setitem(sys.modules, "hardware.readers.pn532", None)
    monkeypatch.setitem(sys.modules, "smartcard.scard", None)
    monkeypatch.setattr(sys, "platform", "win32")
    notes: list[str] = []
    assert reader_scan.keyboard_candidates(notes=notes) == []
    assert reader_scan.serial_candidates(notes=notes) == []
    assert reader_scan.pcsc_candidates(notes=notes) == []
    assert len(notes) == 3
    assert notes[0].startswith("keyboard-wedge readers: not looked for") and "win32" in notes[0]
    assert notes[1].startswith("PN532 on serial ports: not looked for") and "pip install -e ." in notes[1]
    assert notes[2].startswith("PC/SC readers: not looked for, pyscard is not installed") and "[readers]'" in notes[2]
    lines = reader_scan.report([], (), notes)
    assert [line for line in lines if line.startswith("NOT SEEN ")] == [f"NOT SEEN {n}" for n in notes]


def test_marmite_run_builds_the_pn532_reader_on_com3(windows: ModuleType) -> None:
    reader = make_reader(RUN_COM3.reader, {"port": "COM3"})
    assert isinstance(reader, windows.Pn532Reader) and reader._where == "COM3"


@pytest.fixture
def pico_on_windows(monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    """firmware_bridge's host side imported afresh where `import fcntl` fails, on a platform named win32 (the
    simulated board, a pty, is imported before: it stands for the Pico, not for the computer)."""
    from firmware_bridge import simulator

    assert simulator.SimulatedPico is not None
    monkeypatch.setitem(sys.modules, "fcntl", None)
    monkeypatch.setattr(sys, "platform", "win32")
    import firmware_bridge as package

    for name in ("host_reader", "ports", "session", "protocol"):
        monkeypatch.delitem(sys.modules, f"firmware_bridge.{name}", raising=False)
        monkeypatch.setattr(package, name, getattr(package, name, None), raising=False)
    module = importlib.import_module("firmware_bridge.host_reader")
    yield module
    for name in ("host_reader", "ports", "session", "protocol"):
        monkeypatch.delitem(sys.modules, f"firmware_bridge.{name}", raising=False)


def test_the_pico_bridge_loads_and_reads_without_fcntl(pico_on_windows: ModuleType) -> None:
    from firmware_bridge.simulator import SimulatedPico
    from hardware.fakes import FakeCard

    with pytest.raises(ImportError):
        importlib.import_module("fcntl")
    pico = SimulatedPico().power_on()
    reader = pico_on_windows.UsbReader(pico.port, find_ports=pico.find_ports)
    out: ReaderQueue = queue.Queue()
    try:
        reader.start(out)
        health = take(out, ReaderHealth, timeout=10)
        assert isinstance(health, ReaderHealth) and health.ok, health
        pico.chip.enter(FakeCard.ntag213("04a1b2c3d4e5f6"))
        seen = take(out, TagSeen, timeout=10)
        assert isinstance(seen, TagSeen) and seen.uid == "04a1b2c3d4e5f6"
        if seen.done is not None:
            seen.done()
    finally:
        reader.close()
        pico.close()


def test_marmite_run_builds_the_pico_reader_on_com4(pico_on_windows: ModuleType) -> None:
    reader = make_reader("usb", {"port": "COM4"})
    assert type(reader).__name__ == "UsbReader" and getattr(reader, "_port", None) == "COM4"
