"""Self-describing tags through the real `mfrc522` code against the fake chip: NTAG NDEF, Classic blocks,
and writes interrupted at every step (nothing half-written is trusted)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ndef
import pytest

from companion.deck_desk import DeckDesk
from companion.decks import DeckStore
from companion.reads import TagSeen
from companion.table import TableService
from hardware.fakes import FakeCard, FakeGPIO, FakeMFRC522, VirtualClock
from hardware.fakes.cards import AirFrame
from hardware.tag_memory import (
    RECORD_TYPE,
    ChipTagWriter,
    TagLink,
    TagWriteError,
    code_from_ndef,
    memory_pcd,
    ndef_bytes,
    read_code_with,
)
from marmite.games import GAMES
from marmite.wiring import ReaderPump

CODES = frozenset(GAMES.tag_codes()) | {"plate-chicken-n1", "mouse-9@10"}


@dataclass
class FlakyCard(FakeCard):
    """A tag that leaves the field after `writes_left` write exchanges (None: never)."""

    writes_left: int | None = None
    gone: bool = False

    def receive(self, frame: AirFrame) -> AirFrame | None:
        if self.gone:
            return None
        data = frame.data
        if self.writes_left is not None and data and data[0] in (0xA2, 0xA0) and self._pending_write is None:
            if self.writes_left == 0:
                self.gone = True
                return None
            self.writes_left -= 1
        return super().receive(frame)

    def come_back(self) -> None:
        self.gone = False
        self.writes_left = None
        self.power_on()


@dataclass
class NoisyCard(FakeCard):
    """An NTAG whose READ and FAST_READ answers carry one flipped bit in the byte at `noisy_byte` of its
    memory, with the CRC_A of the clean answer: the chip sees no error (the parity was hit too), only
    CRC_A tells."""

    noisy_byte: int = -1

    def receive(self, frame: AirFrame) -> AirFrame | None:
        answer = super().receive(frame)
        data = frame.data
        if answer is None or len(answer.bits) < 18 * 8 or data[0] not in (0x30, 0x3A):  # READ, FAST_READ
            return answer
        offset = self.noisy_byte - data[1] * 4
        if not 0 <= offset < len(answer.bits) // 8 - 2:
            return answer
        bits = list(answer.bits)
        bits[offset * 8 + 1] ^= 1
        return AirFrame(tuple(bits))


@pytest.fixture
def stock(chip: FakeMFRC522, gpio: FakeGPIO, clock: VirtualClock) -> Iterator[Any]:
    gpio.setmode(gpio.mode or 11)
    from mfrc522 import MFRC522

    device = MFRC522(pin_rst=25)
    device.sleep = clock.sleep  # the own core sleeps through radio exchanges: on the virtual clock
    yield device


def ntag(uid: str = "04a1b2c3d4e5f6") -> FlakyCard:
    base = FakeCard.ntag213(uid)
    return FlakyCard(base.uid, base.kind, base.atqa, base.sak, base.memory)


def classic(uid: str = "deadbeef") -> FlakyCard:
    base = FakeCard.classic1k(uid)
    return FlakyCard(base.uid, base.kind, base.atqa, base.sak, base.memory)


def linked(stock: Any) -> TagLink:
    link = TagLink(stock, stock.sleep)
    assert link.select()
    return link


@pytest.mark.parametrize("code", ["pea-0a", "menu-mushroom@5", "plate-chicken-n1"])
def test_an_ntag_holds_an_ndef_record_with_the_card_code(chip: FakeMFRC522, stock: Any, code: str) -> None:
    card = chip.enter(ntag())
    link = linked(stock)
    assert link.uid.hex() == "04a1b2c3d4e5f6" and not link.is_classic
    assert link.read_code(CODES) is None  # a blank sticker says nothing
    link.write_code(code, CODES)
    memory = bytes(card.memory[16:16 + 64])
    assert memory[0] == 0x03
    records = list(ndef.message_decoder(memory[2:2 + memory[1]]))  # any NDEF reader sees the record
    assert [(r.type, bytes(r.data)) for r in records] == [(RECORD_TYPE, code.encode())]
    card.power_on()
    assert linked(stock).read_code(CODES) == code


def test_a_classic_card_holds_the_code_in_sector_one(chip: FakeMFRC522, stock: Any) -> None:
    card = chip.enter(classic())
    link = linked(stock)
    assert link.is_classic
    link.write_code("menu-pepper@3", CODES)
    assert card.block(4)[:4] == b"MRMT" and card.block(5)[:13] == b"menu-pepper@3"
    card.power_on()
    assert linked(stock).read_code(CODES) == "menu-pepper@3"


def test_a_code_no_deck_knows_is_not_trusted(chip: FakeMFRC522, stock: Any) -> None:
    chip.enter(ntag())
    linked(stock).write_code("pea-0a", CODES)
    assert code_from_ndef(ndef_bytes("pea-9z"), CODES) is None
    assert code_from_ndef(ndef_bytes("pea-0a")[:-3], CODES) is None  # truncated


def _tlv(message: bytes) -> bytes:
    return bytes([0x03, len(message)]) + message + b"\xfe"


def test_a_foreign_or_garbled_ndef_tag_reads_as_no_code_never_an_error() -> None:
    """A stranger's NFC sticker over the pot, or a damaged one: ndeflib raises more than DecodeError."""
    text = b"\xd1\x01\x07T\x02\xd4Xhello"  # a Text record whose language code is not ASCII
    garbled = bytearray(ndef_bytes("pea-1a"))
    garbled[garbled.index(b"marmite")] = 0xC3  # a byte of the record type no longer ASCII
    for memory in (_tlv(text), bytes(garbled)):
        assert code_from_ndef(memory, None) is None
        assert code_from_ndef(memory, CODES) is None


@pytest.mark.parametrize("kind", ["ntag", "classic"])
def test_a_write_interrupted_at_any_step_leaves_the_old_code_or_nothing(
        chip: FakeMFRC522, stock: Any, kind: str) -> None:
    card = chip.enter(ntag() if kind == "ntag" else classic())
    linked(stock).write_code("pea-1a", CODES)
    steps = 0
    outcomes = []
    while True:
        card.come_back()
        card.writes_left = steps
        link = linked(stock)
        try:
            link.write_code("menu-mushroom@5", CODES)
            finished = True
        except TagWriteError:
            finished = False
        card.come_back()
        found = linked(stock).read_code(CODES)
        outcomes.append(found)
        if finished:
            assert found == "menu-mushroom@5"
            break
        assert found in ("pea-1a", None), f"interrupted after {steps} writes: {found!r} trusted"
        card.come_back()
        linked(stock).write_code("pea-1a", CODES)  # back to the old code for the next trial
        steps += 1
    assert steps >= 3  # several writes, each of them interrupted once
    assert outcomes[0] == "pea-1a"  # interrupted before any write: the old code stands


def test_enrolling_a_self_describing_deck_writes_each_card_and_a_reader_recognises_it(
        chip: FakeMFRC522, stock: Any, tmp_path: Path) -> None:
    service = TableService.open(tmp_path, GAMES)
    desk = DeckDesk(service, tmp_path)
    desk.writer = ChipTagWriter(stock, GAMES.tag_codes(), stock.sleep)
    desk.set_self_describing(True)
    desk.enroll_start()
    first = chip.enter(ntag("04000000000001"))
    assert desk.tag_seen("04000000000001")["outcome"] == "learned"
    chip.leave(first)
    second = chip.enter(classic("0a0b0c0d"))
    second.writes_left = 1  # the card is lifted after one block: not learned, asked again
    failed = desk.tag_seen("0a0b0c0d")
    assert failed["outcome"] == "write_failed"
    assert failed["text"].startswith("Écriture ratée sur l'étiquette ; reposez la carte.")
    assert failed["activity"]["current"] == "pea-0b" and service.tags.lookup("0a0b0c0d") is None
    second.come_back()
    assert desk.tag_seen("0a0b0c0d")["outcome"] == "learned"
    desk.enroll_stop()
    chip.leave(second)
    for card, code in ((first, "pea-0a"), (second, "pea-0b")):  # each tag now says which card it is
        chip.enter(card)
        assert linked(stock).read_code(CODES) == code
        chip.leave(card)
    # Another table whose deck lacks the card: the tag says what it is, and the host adds it.
    other = tmp_path / "other"
    table = TableService.open(other, GAMES)
    elsewhere = DeckDesk(table, other)
    ReaderPump(table, NoReader()).handle(TagSeen("0a0b0c0d", "rc522", card="pea-0b"))
    assert elsewhere.offers == {"0a0b0c0d": "pea-0b"}
    assert elsewhere.adopt("0a0b0c0d")["text"] == "Carte ajoutée au jeu : Pois, zéro, bouillon — second exemplaire."
    assert table.tags.lookup("0a0b0c0d") == "pea-0b"
    assert DeckStore(other, GAMES.tag_codes()).load() == {"0a0b0c0d": "pea-0b"}
    table.close()
    service.close()


class NoReader:
    name = "none"

    def start(self, out: Any) -> None:
        pass

    def close(self) -> None:
        pass


def test_a_halted_tag_among_others_is_woken_read_and_halted_again(chip: FakeMFRC522, stock: Any) -> None:
    """In the pot: the tags read so far rest there halted; only the one asked for answers."""
    from hardware.fakes import CardState
    from hardware.tag_memory import write_tag_code

    def read_tag_code(chip: Any, uid: str) -> str | None:
        return read_code_with(memory_pcd(chip, chip.sleep), bytes.fromhex(uid))

    twin, other, wanted = ntag("04a1b2c3998877"), classic("deadbeef"), ntag("04a1b2c3d4e5f6")
    for card in (twin, other, wanted):
        chip.enter(card)
    assert write_tag_code(stock, "04a1b2c3998877", "pea-2a", stock.sleep)
    assert write_tag_code(stock, "04a1b2c3d4e5f6", "pea-3b", stock.sleep)
    assert write_tag_code(stock, "deadbeef", "onion-5a", stock.sleep)
    assert all(card.state is CardState.HALT for card in (twin, other, wanted))
    assert read_tag_code(stock, "04a1b2c3d4e5f6") == "pea-3b"
    assert read_tag_code(stock, "deadbeef") == "onion-5a"
    assert all(card.state is CardState.HALT for card in (twin, other, wanted))
    assert read_tag_code(stock, "04a1b2c3000000") is None  # not in the field


def test_halting_a_tag_does_not_wait_for_an_answer_that_never_comes(chip: FakeMFRC522, stock: Any) -> None:
    """HLTA is never answered: sent through ToCard it would cost 2,000 register reads (about 80 ms on a Pi)."""
    from hardware.fakes import CardState

    card = chip.enter(ntag())
    link = linked(stock)
    transfers: list[int] = []
    chip.on_transfer.append(transfers.append)
    link.halt()
    assert card.state is CardState.HALT
    assert len(transfers) < 100


def test_a_damaged_read_is_never_trusted(chip: FakeMFRC522, stock: Any) -> None:
    """CRC_A is checked on every tag-memory read: one flipped bit turning "pea-0a" into "pea-0c" (a card
    code too) is caught, by the reader's read and by a write's read-back alike. Before, `mfrc522`'s READ
    dropped the CRC unchecked and the wrong card was reported."""
    base = FakeCard.ntag213("04a1b2c3d4e5f6")
    card = NoisyCard(base.uid, base.kind, base.atqa, base.sak, base.memory)
    memory = ndef_bytes("pea-0a")
    card.memory[16 : 16 + len(memory)] = memory
    card.noisy_byte = 16 + memory.index(b"pea-0a") + 5
    chip.enter(card)
    pcd = memory_pcd(stock, stock.sleep)
    assert read_code_with(pcd, card.uid) is None
    link = TagLink(stock, stock.sleep)
    assert link.wake_and_select(card.uid)
    assert link.read_code(None) is None
    card.noisy_byte = -1
    card.power_on()
    assert read_code_with(pcd, card.uid) == "pea-0a"


@dataclass
class FirstUltralight(FakeCard):
    """A tag without FAST_READ (as the first MIFARE Ultralight): a NAK, and back to sleep."""

    def receive(self, frame: AirFrame) -> AirFrame | None:
        data = frame.data
        if self.state.value == "active" and data and data[0] == 0x3A and len(frame.bits) == 40:
            self._sleep()
            return AirFrame.of([0x00], 4)
        return super().receive(frame)


@pytest.mark.parametrize("code", ["pea-0a", "plate-chicken-n1", "a-code-of-thirty-two-characters9"])
@pytest.mark.parametrize("kind", ["ntag", "ultralight", "classic"])
def test_every_code_length_reads_back_on_every_tag_kind(chip: FakeMFRC522, stock: Any, code: str, kind: str) -> None:
    """One FAST_READ covers the codes of both games; a longer one needs READs after it, a Classic's second
    data block is read only for a code over 16 characters, and a tag without FAST_READ is read page by page."""
    base = classic("deadbeef") if kind == "classic" else ntag()
    card = FirstUltralight(base.uid, base.kind, base.atqa, base.sak, base.memory) if kind == "ultralight" else base
    chip.enter(card)
    linked(stock).write_code(code, None)
    card.power_on()  # as the scan leaves it: IDLE or halted, never still selected
    chip.frames_sent.clear()
    assert read_code_with(memory_pcd(stock, stock.sleep), card.uid) == code
    reads = [frame[:2] for frame in chip.frames_sent if frame[0] in (0x30, 0x3A)]
    if kind == "classic":
        assert reads == [[0x30, 4], [0x30, 5]] + ([[0x30, 6]] if len(code) > 16 else [])
    elif kind == "ntag":
        assert reads[0] == [0x3A, 4] and len(reads) == (1 if len(code) <= 16 else 2)
