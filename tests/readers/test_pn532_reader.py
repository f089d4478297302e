"""The `pn532` reader: the real driver and pyserial talking to a fake PN532 on a pty, frame by frame."""

from __future__ import annotations

import queue
import time
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.reads import ReaderHealth, ReaderQueue, TagSeen
from hardware.fakes.pn532_chip import FakeNtag, FakePn532, FakePn532I2c
from hardware.pn532 import ACK, FrameParser, Pn532, Pn532Error, frame, parse_targets
from hardware.readers.common import Backoff
from hardware.readers.pn532 import ERROR_POLLS, I2cTransport, Pn532Reader, SerialTransport
from hardware.tag_memory import ndef_bytes
from tests.readers.test_pcsc_reader import nothing_more, take

A = FakeNtag(bytes.fromhex("04112233445566"))
B = FakeNtag(bytes.fromhex("04aabbccddeeff"))


@given(st.integers(0, 255), st.binary(max_size=250), st.lists(st.integers(1, 20), max_size=10))
def test_frames_survive_any_cutting(tfi: int, data: bytes, cuts: list[int]) -> None:
    wire = b"\x55\x00" + ACK + frame(tfi, data)
    parser, got, at = FrameParser(), [], 0
    for cut in [*cuts, len(wire)]:
        got += parser.feed(wire[at : at + cut])
        at += cut
    got += parser.feed(wire[at:])
    assert got == [("ack", b""), ("frame", bytes([tfi]) + data)]


@given(st.binary(min_size=1, max_size=40), st.integers(1, 255))
def test_a_damaged_checksum_is_an_error_never_a_frame(data: bytes, flip: int) -> None:
    wire = bytearray(frame(0xD5, data))
    wire[-2] ^= flip
    assert FrameParser().feed(bytes(wire)) == [("error", b"")]


def test_a_cut_target_list_is_refused() -> None:
    with pytest.raises(Pn532Error):
        parse_targets(bytes([1, 1, 0x00, 0x44, 0x00, 7, 0x04, 0x11]))


@pytest.fixture
def chip() -> Iterator[FakePn532]:
    fake = FakePn532()
    A.memory[16:] = bytes(len(A.memory) - 16)
    B.memory[16:] = bytes(len(B.memory) - 16)
    yield fake
    fake.close()


@pytest.fixture
def reader(chip: FakePn532) -> Iterator[tuple[Pn532Reader, ReaderQueue]]:
    reader = Pn532Reader.from_options({"port": chip.port})
    out: ReaderQueue = queue.Queue()
    reader.start(out)
    health = take(out, ReaderHealth, timeout=10)
    if isinstance(health, ReaderHealth) and not health.ok:  # a loaded machine; the reader tries again
        health = take(out, ReaderHealth, timeout=10)
    assert isinstance(health, ReaderHealth) and health.ok, health
    yield reader, out
    reader.close()


def test_the_chip_sleeps_until_woken(chip: FakePn532) -> None:
    driver = Pn532(SerialTransport(chip.port))
    with pytest.raises(Pn532Error, match="acknowledge"):
        driver.firmware()
    driver.wake()
    assert driver.firmware() == (0x32, 1, 6)
    driver.transport.close()


def test_two_stacked_cards_are_both_seen(reader: tuple[Pn532Reader, ReaderQueue], chip: FakePn532) -> None:
    _, out = reader
    chip.put(A)
    chip.put(B)
    uids = {take(out, TagSeen).uid, take(out, TagSeen).uid}  # type: ignore[attr-defined]
    assert uids == {A.uid.hex(), B.uid.hex()}
    assert 0x4A in chip.commands


def test_a_resting_card_is_one_read_and_a_return_is_another(reader: tuple[Pn532Reader, ReaderQueue],
                                                            chip: FakePn532) -> None:
    _, out = reader
    chip.put(A)
    assert take(out, TagSeen).uid == A.uid.hex()  # type: ignore[attr-defined]
    assert nothing_more(out, TagSeen, 1.5), "resting longer than the debounce is still one passage"
    chip.take(A)
    time.sleep(1.1)
    chip.put(A)
    assert take(out, TagSeen).uid == A.uid.hex()  # type: ignore[attr-defined]


def test_self_describing_codes_come_with_each_card(reader: tuple[Pn532Reader, ReaderQueue], chip: FakePn532) -> None:
    pn532, out = reader
    pn532.report_codes(True)
    B.write_user(ndef_bytes("cd-poireau-4"))
    chip.put(A)
    chip.put(B)
    seen = {m.uid: m.card for m in (take(out, TagSeen), take(out, TagSeen)) if isinstance(m, TagSeen)}
    assert seen == {A.uid.hex(): None, B.uid.hex(): "cd-poireau-4"}


def test_write_card_writes_that_card_only(reader: tuple[Pn532Reader, ReaderQueue], chip: FakePn532) -> None:
    pn532, _out = reader
    assert not pn532.write_card(A.uid.hex(), "cd-ail-1"), "A is not on the reader"
    chip.put(A)
    chip.put(B)
    assert pn532.write_card(A.uid.hex(), "cd-ail-1")
    assert bytes(A.memory[16:]).startswith(ndef_bytes("cd-ail-1"))
    assert not bytes(B.memory[16:]).startswith(ndef_bytes("cd-ail-1"))


def test_a_silent_chip_is_reported_missing_with_the_fix(chip: FakePn532) -> None:
    chip.mute = True
    reader = Pn532Reader.from_options({"port": chip.port})
    out: ReaderQueue = queue.Queue()
    reader.start(out)
    try:
        health = take(out, ReaderHealth)
        assert isinstance(health, ReaderHealth) and not health.ok
        assert dict(health.info)["state"] == "missing" and "HSU" in health.detail
    finally:
        reader.close()


def test_a_port_that_is_not_there_is_named() -> None:
    reader = Pn532Reader.from_options({"port": "/dev/ttyNOPE7"})
    out: ReaderQueue = queue.Queue()
    reader.start(out)
    try:
        health = take(out, ReaderHealth)
        assert isinstance(health, ReaderHealth) and not health.ok and "/dev/ttyNOPE7" in health.detail
    finally:
        reader.close()


def test_unknown_options_are_refused() -> None:
    with pytest.raises(ValueError, match="gain"):
        Pn532Reader.from_options({"gain": "3"})


class OneRead:
    """A transport whose chip's ACK and answer arrive in a single read, as a fast UART often delivers them."""

    def __init__(self, answer: bytes) -> None:
        self.answer = answer
        self.sent: list[bytes] = []
        self._queued = b""

    def write(self, data: bytes) -> None:
        self.sent.append(data)
        if data.startswith(b"\x00\x00\xff") and data != ACK:
            self._queued = ACK + self.answer

    def read(self, timeout: float) -> bytes:
        data, self._queued = self._queued, b""
        return data

    def close(self) -> None:
        pass


def test_an_answer_that_arrives_with_its_ack_is_not_lost() -> None:
    """Before the fix the driver took the ACK from a read and dropped the answer that came with it."""
    driver = Pn532(OneRead(frame(0xD5, bytes([0x03, 0x32, 0x01, 0x06, 0x07]))), answer_timeout=0.05)
    assert driver.firmware() == (0x32, 1, 6)


def test_over_i2c_the_ready_byte_is_waited_for_and_stacked_cards_are_seen() -> None:
    chip = FakePn532I2c()
    chip.put(A)
    chip.put(B)
    transport = I2cTransport("/dev/i2c-1", backend=chip)
    reader = Pn532Reader(lambda: transport, where=transport.port)
    out: ReaderQueue = queue.Queue()
    reader.start(out)
    try:
        health = take(out, ReaderHealth)
        assert isinstance(health, ReaderHealth) and health.ok and "/dev/i2c-1@0x24" in health.detail
        assert {take(out, TagSeen).uid, take(out, TagSeen).uid} == {A.uid.hex(), B.uid.hex()}  # type: ignore[attr-defined]
        assert chip.commands[:2] == [0x14, 0x02], "no HSU wake-up bytes on I2C: SAMConfiguration comes first"
    finally:
        reader.close()
    assert chip.closed


def test_a_silent_i2c_chip_is_reported_missing() -> None:
    chip = FakePn532I2c()
    chip.mute = True
    transport = I2cTransport("/dev/i2c-1", backend=chip)
    reader = Pn532Reader(lambda: transport, where=transport.port)
    out: ReaderQueue = queue.Queue()
    reader.start(out)
    try:
        health = take(out, ReaderHealth)
        assert isinstance(health, ReaderHealth) and dict(health.info)["state"] == "missing"
    finally:
        reader.close()


def test_no_memory_read_for_a_card_the_deck_knows(reader: tuple[Pn532Reader, ReaderQueue], chip: FakePn532) -> None:
    pn532, out = reader
    pn532.report_codes(True)
    pn532.skip_codes_of(lambda uid: uid == A.uid.hex())
    A.write_user(ndef_bytes("cd-ail-1"))
    chip.commands.clear()
    chip.put(A)
    seen = take(out, TagSeen)
    assert isinstance(seen, TagSeen) and seen.uid == A.uid.hex() and seen.card is None
    assert 0x40 not in chip.commands, "no InDataExchange: the deck knows this card"
    B.write_user(ndef_bytes("cd-ail-2"))
    chip.put(B)
    other = take(out, TagSeen)
    assert isinstance(other, TagSeen) and other.card == "cd-ail-2"


class LosingChip:
    """A PN532 whose every listing loses its answer; it notes, for each call, whether the chip lock was held."""

    def __init__(self, reader: Pn532Reader) -> None:
        self.reader = reader
        self.calls: list[tuple[str, bool]] = []
        self.transport = self

    def _note(self, call: str) -> None:
        self.calls.append((call, self.reader._chip_lock.locked()))

    def list_targets(self, most: int, answer_s: float) -> list[object]:
        self._note("list")
        raise Pn532Error("no answer")

    def field(self, on: bool) -> None:
        self._note(f"field {'on' if on else 'off'}")

    def close(self) -> None:
        self._note("close")


def test_the_recovery_from_a_lost_poll_holds_the_chip_lock_so_no_write_interleaves() -> None:
    reader = Pn532Reader(lambda: pytest.fail("never reopened here"), clock=lambda: 0.0)
    chip = LosingChip(reader)
    reader._chip = chip  # type: ignore[assignment]
    for _ in range(ERROR_POLLS):
        assert reader.step(Backoff()) == 0.0
    assert reader._chip is None and reader.errors == ERROR_POLLS
    assert ("field off", True) in chip.calls and chip.calls[-1] == ("close", True)
    unlocked = [call for call, held in chip.calls if not held]
    assert unlocked == [], f"a write_card could run between the failed poll and {unlocked}"
