"""The `pcsc` reader: the real pyscard through a real pcscd to a virtual card on Debian's vpcd driver."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from companion.reads import Reader, ReaderHealth, ReaderMessage, ReaderQueue, TagSeen
from hardware.fakes.vicc import PrivatePcscd, VirtualCard
from hardware.readers.pcsc import PcscReader
from hardware.tag_memory import ndef_bytes

UID = bytes.fromhex("04a1b2c3d4e5f6")


def take(out: ReaderQueue, kind: type, timeout: float = 5.0) -> ReaderMessage:
    """The next message of `kind` on the queue (others skipped)."""
    deadline = time.monotonic() + timeout
    while True:
        message = out.get(timeout=max(0.01, deadline - time.monotonic()))
        if isinstance(message, kind):
            return message


def first_health(reader: Reader) -> ReaderMessage:
    """Start `reader`, take the first health it reports, and close it."""
    out: ReaderQueue = queue.Queue()
    reader.start(out)
    try:
        return take(out, ReaderHealth)
    finally:
        reader.close()


def nothing_more(out: ReaderQueue, kind: type, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        try:
            if isinstance(out.get(timeout=left), kind):
                return False
        except queue.Empty:
            return True
    return True


@pytest.fixture
def card(pcscd: PrivatePcscd) -> Iterator[VirtualCard]:
    card = VirtualCard(UID, port=pcscd.port)
    yield card
    card.lift()
    time.sleep(0.5)  # pcscd sees the reader empty before the next test


@pytest.fixture
def reader(pcscd: PrivatePcscd) -> Iterator[tuple[PcscReader, ReaderQueue]]:
    reader = PcscReader("Marmite virtual PCD 00 00")
    out: ReaderQueue = queue.Queue()
    reader.start(out)
    health = take(out, ReaderHealth)
    assert isinstance(health, ReaderHealth) and health.ok, health
    yield reader, out
    reader.close()


def test_a_card_put_on_the_reader_is_seen_once_by_its_uid(reader: tuple[PcscReader, ReaderQueue],
                                                           card: VirtualCard) -> None:
    _pcsc, out = reader
    card.place()
    seen = take(out, TagSeen)
    assert isinstance(seen, TagSeen)
    assert (seen.uid, seen.reader, seen.card) == (UID.hex(), "pcsc", None)
    assert card.apdus[0] == bytes.fromhex("FFCA000000")
    assert nothing_more(out, TagSeen, 1.0), "a resting card is one read"
    card.lift()
    time.sleep(0.6)
    card.place()
    again = take(out, TagSeen)
    assert isinstance(again, TagSeen) and again.uid == UID.hex(), "lifted and put back: a new passage"


def test_self_describing_codes_are_read_by_ntag_pages(reader: tuple[PcscReader, ReaderQueue],
                                                      card: VirtualCard) -> None:
    pcsc, out = reader
    pcsc.report_codes(True)
    card.write_user(ndef_bytes("cd-tomate-3") + bytes(40))
    card.place()
    seen = take(out, TagSeen)
    assert isinstance(seen, TagSeen) and seen.card == "cd-tomate-3"
    assert bytes.fromhex("FFB0000410") in card.apdus


def test_foreign_memory_gives_no_code(reader: tuple[PcscReader, ReaderQueue], card: VirtualCard) -> None:
    pcsc, out = reader
    pcsc.report_codes(True)
    card.write_user(bytes([0x03, 0x05, 0xD1, 0x01, 0x01, 0x54, 0x00, 0xFE]))  # an NDEF text record, not ours
    card.place()
    seen = take(out, TagSeen)
    assert isinstance(seen, TagSeen) and seen.uid == UID.hex() and seen.card is None


def test_write_card_writes_the_code_on_that_card_only(reader: tuple[PcscReader, ReaderQueue],
                                                      card: VirtualCard) -> None:
    pcsc, out = reader
    assert not pcsc.write_card(UID.hex(), "cd-oignon-1"), "no card on the reader"
    card.place()
    take(out, TagSeen)
    assert not pcsc.write_card("04000000000001", "cd-oignon-1"), "another card's UID"
    assert pcsc.write_card(UID.hex(), "cd-oignon-1")
    assert bytes(card.memory[16:]).startswith(ndef_bytes("cd-oignon-1"))


def test_a_card_that_does_not_answer_is_not_read_and_said_on_the_display(reader: tuple[PcscReader, ReaderQueue],
                                                                         pcscd: PrivatePcscd) -> None:
    _pcsc, out = reader

    class Mute(VirtualCard):
        def answer(self, body: bytes) -> bytes | None:
            return super().answer(body) if len(body) == 1 else b"\x63\x00"

    mute = Mute(UID, port=pcscd.port)
    try:
        mute.place()
        health = take(out, ReaderHealth)
        assert isinstance(health, ReaderHealth) and health.ok, "a card lifted mid-read is no fault of the reader"
        assert dict(health.info)["state"] == "ok" and "GET UID" in dict(health.info)["why"]
        assert nothing_more(out, TagSeen, 0.5)
    finally:
        mute.lift()
        time.sleep(0.5)


def test_a_reader_that_is_not_there_is_reported_missing_by_name(pcscd: PrivatePcscd) -> None:
    pcsc = PcscReader("ACR122U")
    out: ReaderQueue = queue.Queue()
    pcsc.start(out)
    try:
        health = take(out, ReaderHealth)
        assert isinstance(health, ReaderHealth) and not health.ok
        assert dict(health.info)["state"] == "missing" and "'ACR122U'" in health.detail
    finally:
        pcsc.close()


def test_without_pcscd_the_reader_says_so(tmp_path: object) -> None:
    """A separate process: the client library keeps the socket name it first read."""
    script = (
        "import queue; from hardware.readers.pcsc import PcscReader\n"
        "r = PcscReader(); q = queue.Queue(); r.start(q); h = q.get(timeout=10); r.close()\n"
        "print(h.ok, dict(h.info)['state'], h.detail)\n"
    )
    env = dict(os.environ, PCSCLITE_CSOCK_NAME=f"{tmp_path}/nobody.comm")
    result = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("False missing pcscd does not answer")


def test_no_memory_read_for_a_card_the_deck_knows(reader: tuple[PcscReader, ReaderQueue], card: VirtualCard) -> None:
    pcsc, out = reader
    pcsc.report_codes(True)
    pcsc.skip_codes_of(lambda uid: uid == UID.hex())
    card.write_user(ndef_bytes("cd-tomate-3"))
    card.place()
    seen = take(out, TagSeen)
    assert isinstance(seen, TagSeen) and seen.card is None
    assert not any(apdu[:2] == b"\xff\xb0" for apdu in card.apdus), "no READ BINARY: the deck knows this card"
