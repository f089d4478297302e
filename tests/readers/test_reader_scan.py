"""`marmite reader scan`: what it finds, how it tests each reader, and the exact command it prints."""

from __future__ import annotations

import shlex
import time
from collections.abc import Iterator
from typing import Any

import pytest

from hardware.fakes.evdev_device import RecordedBackend, RecordedDevice
from hardware.fakes.pn532_chip import FakeNtag, FakePn532
from hardware.fakes.vicc import PrivatePcscd, VirtualCard
from hardware.readers.keyboard import KeyboardReader
from marmite import reader_scan
from marmite.cli import build_parser
from marmite.reader_scan import Candidate, keyboard_candidates, other_keyboards, pcsc_candidates, report, scan
from marmite.readers import make_reader, parse_reader_option

WEDGE = RecordedDevice("/dev/input/event7", "Sycreader RFID Technology SYC ID&IC USB Reader")


class WithKeys(RecordedBackend):
    """Recorded devices that also say which keys they have, as evdev's capabilities() does."""

    def InputDevice(self, path: str) -> Any:
        device = super().InputDevice(path)
        device.capabilities = lambda: {self.ecodes.EV_KEY: [self.ecodes.KEY_1, self.ecodes.KEY_ENTER]}
        return device


def make(name: str, options: dict[str, str]) -> Any:
    """make_reader, with the recorded devices in place of /dev/input for the keyboard reader."""
    reader = make_reader(name, options)
    if isinstance(reader, KeyboardReader):
        reader._evdev = WithKeys(WEDGE, RecordedDevice("/dev/input/event3", "AT Translated Set 2 keyboard"))
    return reader


@pytest.fixture
def chip() -> Iterator[FakePn532]:
    fake = FakePn532()
    yield fake
    fake.close()


def test_keyboard_wedges_are_found_by_name_and_a_real_keyboard_is_left_alone() -> None:
    backend = WithKeys(WEDGE, RecordedDevice("/dev/input/event3", "AT Translated Set 2 keyboard"))
    found = keyboard_candidates(backend)
    assert [dict(c.options)["device"] for c in found] == [WEDGE.name]
    others = other_keyboards(backend)
    assert others == ["AT Translated Set 2 keyboard"]
    assert "device=NAME): AT Translated Set 2 keyboard" in report([], others)[-1], "named, never grabbed"


def test_a_wedge_closed_to_the_user_is_named_with_its_fix_not_left_unsaid() -> None:
    from hardware.readers.permissions import ClosedInput

    closed = [ClosedInput("/dev/input/event9", "IC Reader", "ffff:0035"),
              ClosedInput("/dev/input/event3", "AT Translated Set 2 keyboard", "")]
    notes: list[str] = []
    assert keyboard_candidates(WithKeys(), notes=notes, closed=lambda: closed) == []
    assert len(notes) == 1, "a closed keyboard is not a reader: only the one named like a reader is said"
    assert notes[0].startswith("IC Reader (/dev/input/event9) is plugged in but you may not open it")
    assert "sudo scripts/install-readers ffff:0035" in notes[0]
    assert "NOT SEEN " + notes[0] in report([], (), notes)


def test_pcsc_readers_are_listed_from_pcscd(pcscd: PrivatePcscd) -> None:
    names = [dict(c.options)["reader"] for c in pcsc_candidates()]
    assert "Marmite virtual PCD 00 00" in names


def test_scan_tests_each_reader_and_prints_the_command_that_starts_it(chip: FakePn532, pcscd: PrivatePcscd) -> None:
    card = VirtualCard(bytes.fromhex("04a1b2c3d4e5f6"), port=pcscd.port)
    chip.put(FakeNtag(bytes.fromhex("04112233445566")))
    candidates = [
        Candidate("pn532", (("port", chip.port),), f"serial port {chip.port}"),
        Candidate("pn532", (("port", "/dev/ttyNOPE3"),), "serial port /dev/ttyNOPE3"),
        Candidate("pcsc", (("reader", "Marmite virtual PCD 00 00"),), "PC/SC reader"),
        Candidate("keyboard", (("device", WEDGE.name),), "wedge"),
    ]
    card.place()
    try:
        started = time.monotonic()
        verdicts = scan(2.0, candidates, make)
        took = time.monotonic() - started
    finally:
        card.lift()
        time.sleep(0.5)
    states = [v.state for v in verdicts]
    assert states == ["ok", "missing", "ok", "ok"], [(v.state, v.detail) for v in verdicts]
    assert verdicts[0].tags == ["04112233445566"] and verdicts[2].tags == ["04a1b2c3d4e5f6"]
    assert took < 2.0 * 2, "the readers are tested side by side, not one after the other"
    lines = report(verdicts)
    commands = [line.split("marmite run ", 1)[1] for line in lines if "marmite run " in line]
    assert len(commands) == 3
    for command, verdict in zip(commands, [verdicts[0], verdicts[2], verdicts[3]], strict=True):
        args = build_parser().parse_args(["run", *shlex.split(command)])
        assert args.reader == verdict.candidate.reader
        assert dict(parse_reader_option(o) for o in args.reader_option) == dict(verdict.candidate.options)
    assert any(line.startswith("MISSING") and "/dev/ttyNOPE3" in line for line in lines)


def test_nothing_found_says_what_to_do() -> None:
    assert "hardware/README.md" in report([])[0]


def test_the_scan_command_exits_1_when_nothing_answers(monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    nope = Candidate("pn532", (("port", "/dev/ttyNOPE4"),), "x")
    monkeypatch.setattr(reader_scan, "find_all", lambda notes=None: [nope])
    args = build_parser().parse_args(["reader", "scan", "--seconds", "1"])
    assert args.handler(args) == 1
    assert "no reader answered" in capsys.readouterr().out
