"""Smaller things real readers meet: which serial ports a scan dares to probe, and the names Windows and
Linux give the same PC/SC reader."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from hardware.readers.pcsc import named_like
from hardware.readers.pn532 import serial_ports
from marmite import reader_scan


@dataclass
class Port:
    device: str
    vid: int | None = None
    pid: int | None = None


PORTS = [Port("/dev/ttyUSB0", 0x10C4, 0xEA60), Port("/dev/ttyACM0", 0x2E8A, 0x0005), Port("/dev/ttyS0"),
         Port("COM3", 0x1A86, 0x7523)]


def test_only_usb_uart_dongles_are_probed() -> None:
    likely, others = serial_ports(lambda: PORTS)
    assert "/dev/ttyUSB0" in likely and "COM3" in likely
    assert "/dev/ttyACM0" in others and "/dev/ttyS0" in others, "a Pico, a modem: no wake-up bytes"


def test_the_scan_names_the_ports_it_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    import hardware.readers.pn532 as pn532

    monkeypatch.setattr(pn532, "serial_ports", lambda: serial_ports(lambda: PORTS))
    notes: list[str] = []
    found = reader_scan.serial_candidates(notes=notes)
    assert [dict(c.options)["port"] for c in found] == ["/dev/ttyUSB0", "COM3"]
    assert len(notes) == 1 and "/dev/ttyACM0, /dev/ttyS0" in notes[0] and "port=PORT" in notes[0]


@pytest.mark.parametrize("name", ["ACS ACR122U PICC Interface 00 00", "ACS ACR122 0"])
def test_the_acr122u_is_found_under_its_linux_and_windows_names(name: str) -> None:
    assert named_like(name, "ACR122U") and named_like(name, "acr122")
    assert not named_like("Alcor Micro AU9540 00 00", "ACR122U")


def test_the_acr122u_is_told_once_not_to_beep(pcscd: object) -> None:
    import queue
    import time

    from companion.reads import ReaderHealth, ReaderQueue, TagSeen
    from hardware.fakes.vicc import PrivatePcscd, VirtualCard
    from hardware.readers.pcsc import PcscReader
    from tests.readers.test_pcsc_reader import take

    assert isinstance(pcscd, PrivatePcscd)
    reader = PcscReader("Marmite virtual PCD 00 00", buzzer_off=True)  # vpcd is not named ACR122
    out: ReaderQueue = queue.Queue()
    reader.start(out)
    cards = [VirtualCard(bytes.fromhex(uid), port=pcscd.port) for uid in ("04a1b2c3d4e5f6", "04112233445566")]
    try:
        assert isinstance(take(out, ReaderHealth), ReaderHealth)
        for card in cards:
            card.place()
            assert isinstance(take(out, TagSeen), TagSeen)
            card.lift()
            time.sleep(0.5)
    finally:
        reader.close()
        for card in cards:
            card.lift()
    assert cards[0].apdus[:2] == [bytes.fromhex("FF00520000"), bytes.fromhex("FFCA000000")]
    assert bytes.fromhex("FF00520000") not in cards[1].apdus, "once: the ACR122U keeps it until unplugged"


@pytest.mark.parametrize(("buzzer_off", "beeps"), [(True, 1), (False, 3)])
def test_the_acr122u_beeps_for_its_first_card_only_once_told(pcscd: object, buzzer_off: bool, beeps: int) -> None:
    """The reader beeps when it detects a card, before the host can say anything (so the first card beeps);
    told FF 00 52 00 00, it stays quiet for the cards after, refused ones too: the table alone says."""
    import queue
    import time

    from companion.reads import ReaderHealth, ReaderQueue, TagSeen
    from hardware.fakes.vicc import Acr122uLed, PrivatePcscd, VirtualCard
    from hardware.readers.pcsc import PcscReader
    from tests.readers.test_pcsc_reader import take

    assert isinstance(pcscd, PrivatePcscd)
    reader_box = Acr122uLed()  # the reader's LED and buzzer, shared by every card placed on it
    reader = PcscReader("Marmite virtual PCD 00 00", buzzer_off=buzzer_off)
    out: ReaderQueue = queue.Queue()
    reader.start(out)
    cards = [VirtualCard(bytes.fromhex(f"04a1b2c3d4e5f{n}"), port=pcscd.port, led=reader_box) for n in range(3)]
    try:
        assert isinstance(take(out, ReaderHealth), ReaderHealth)
        for card in cards:
            card.place()
            assert isinstance(take(out, TagSeen), TagSeen)
            card.lift()
            time.sleep(0.5)
    finally:
        reader.close()
        for card in cards:
            card.lift()
    assert reader_box.beeps == beeps


class Answers:
    """A reader that says it is ready and sees nothing, as any PC/SC slot does to pcscd."""

    name = "pcsc"

    def start(self, out: object) -> None:
        from companion.reads import ReaderHealth

        out.put(ReaderHealth("pcsc", True, "ready", (("state", "ok"),)))  # type: ignore[attr-defined]

    def close(self) -> None:
        pass


@pytest.mark.parametrize(("name", "unsure"), [("Alcor Micro AU9540 00 00", True),
                                              ("ACS ACR122U PICC Interface 00 00", False)])
def test_an_empty_pc_sc_slot_is_not_called_ok(name: str, unsure: bool) -> None:
    candidate = reader_scan.Candidate("pcsc", (("reader", name),), f"PC/SC reader {name}")
    verdict = reader_scan.try_reader(candidate, 0.3, lambda reader, options: Answers())
    assert verdict.unsure is unsure
    lines = reader_scan.report([verdict])
    assert lines[0].startswith("UNSURE" if unsure else "OK")
    assert ("no reader answered" in lines[-1]) is unsure


@pytest.mark.parametrize("kind", ["pn532", "pcsc"])
def test_a_classic_self_describing_deck_is_refused_on_an_ntag_only_reader(tmp_path: object, kind: str) -> None:
    from pathlib import Path
    from typing import Any

    from companion.deck_desk import DeckDesk
    from companion.decks import DeckError
    from companion.table import TableService
    from hardware.readers.pcsc import PcscReader
    from hardware.readers.pn532 import Pn532Reader
    from marmite.games import GAMES

    assert isinstance(tmp_path, Path)
    service = TableService.open(tmp_path, GAMES)
    try:
        desk = DeckDesk(service, tmp_path)
        reader: Any = (Pn532Reader(lambda: None, where="nowhere") if kind == "pn532"  # type: ignore[arg-type,return-value]
                       else PcscReader("nowhere", backend=object()))
        desk.attach_memory(reader)
        desk.set_self_describing(True)
        assert desk.enroll_start()["outcome"] == "asked"
        answer = desk.tag_seen("deadbeef")  # a MIFARE Classic: these readers write NTAG pages only
        assert answer is not None and answer["outcome"] == "write_failed" and desk.enrollment is None
        assert answer["text"].startswith("Refusé")
        desk.set_self_describing(False)
        code = sorted(GAMES.tag_codes())[0]
        desk.store.save({"deadbeef": code})
        with pytest.raises(DeckError, match="Refusé"):
            desk.set_self_describing(True)
        assert not desk.store.info().self_describing
    finally:
        service.close()
