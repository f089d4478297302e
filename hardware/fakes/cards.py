"""Fake PICCs for the fake RC522: NTAG213 stickers (7-byte UID) and MIFARE Classic 1K cards (4-byte UID).

Each card follows the ISO 14443-3 state machine (IDLE, READY at a cascade level, ACTIVE, HALT) and
answers whole air frames. MIFARE Classic authentication is simplified: the fake chip checks the key
against the sector trailer and then exchanges plain data (no Crypto1 cipher on the air).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field

from hardware import iso14443 as iso

NTAG213_PAGES = 45
CLASSIC_BLOCKS = 64
DEFAULT_KEY = bytes([0xFF] * 6)


class CardState(enum.Enum):
    """ISO 14443-3 PICC states."""

    IDLE = "idle"
    READY = "ready"
    ACTIVE = "active"
    HALT = "halt"


@dataclass(frozen=True, slots=True)
class AirFrame:
    """Bits on the air, least significant bit of each byte first."""

    bits: tuple[int, ...]

    @classmethod
    def of(cls, data: Sequence[int], nbits: int | None = None) -> AirFrame:
        return cls(tuple(iso.to_bits(data, nbits)))

    @property
    def data(self) -> list[int]:
        return iso.from_bits(self.bits)


@dataclass(eq=False)
class FakeCard:
    """One tag: its UID, its memory, and where it is in the ISO 14443-3 state machine."""

    uid: bytes
    kind: str  # "ntag213" or "classic1k"
    atqa: tuple[int, int]
    sak: int
    memory: bytearray
    state: CardState = CardState.IDLE
    level: int = 0
    woken_from_halt: bool = False
    authenticated_sector: int | None = None
    _pending_write: int | None = field(default=None, repr=False)

    @classmethod
    def ntag213(cls, uid: bytes | str) -> FakeCard:
        """An NTAG213 sticker: 7-byte UID, 45 pages of 4 bytes, UID and check bytes in pages 0-2."""
        raw = _uid_bytes(uid, 7)
        memory = bytearray(NTAG213_PAGES * 4)
        memory[0:4] = bytes([*raw[:3], iso.bcc([iso.CASCADE_TAG, *raw[:3]])])
        memory[4:8] = raw[3:7]
        memory[8] = iso.bcc(raw[3:7])
        memory[12:16] = bytes([0xE1, 0x10, 0x12, 0x00])  # capability container: NDEF, 144 bytes
        return cls(raw, "ntag213", (0x44, 0x00), 0x00, memory)

    @classmethod
    def classic1k(cls, uid: bytes | str) -> FakeCard:
        """A MIFARE Classic 1K card: 4-byte UID, 64 blocks of 16 bytes, transport keys FF..FF."""
        raw = _uid_bytes(uid, 4)
        memory = bytearray(CLASSIC_BLOCKS * 16)
        memory[0:5] = bytes([*raw, iso.bcc(raw)])
        trailer = DEFAULT_KEY + bytes([0xFF, 0x07, 0x80, 0x69]) + DEFAULT_KEY
        for sector in range(16):
            start = (sector * 4 + 3) * 16
            memory[start : start + 16] = trailer
        return cls(raw, "classic1k", (0x04, 0x00), 0x08, memory)

    @property
    def uid_hex(self) -> str:
        return self.uid.hex()

    # --- field and power -------------------------------------------------------------------

    def power_on(self) -> None:
        """Entering the field (or the field coming back) resets the card to IDLE."""
        self.state = CardState.IDLE
        self.level = 0
        self.woken_from_halt = False
        self.authenticated_sector = None
        self._pending_write = None

    # --- memory helpers for tests ----------------------------------------------------------

    def page(self, number: int) -> bytes:
        """NTAG page `number` (4 bytes)."""
        return bytes(self.memory[number * 4 : number * 4 + 4])

    def block(self, number: int) -> bytes:
        """MIFARE Classic block `number` (16 bytes)."""
        return bytes(self.memory[number * 16 : number * 16 + 16])

    def authenticate(self, key_type: int, block: int, key: bytes, uid4: bytes) -> bool:
        """MFAuthent, simplified: right UID, ACTIVE, and the sector trailer's key A (0x60) or B (0x61)."""
        if self.kind != "classic1k" or self.state is not CardState.ACTIVE or uid4 != self.uid[:4]:
            return False
        if not 0 <= block < CLASSIC_BLOCKS:
            return False
        sector = block // 4
        trailer = self.block(sector * 4 + 3)
        expected = trailer[0:6] if key_type == 0x60 else trailer[10:16]
        if key != expected:
            self._sleep()
            return False
        self.authenticated_sector = sector
        return True

    # --- the air interface -----------------------------------------------------------------

    def receive(self, frame: AirFrame) -> AirFrame | None:
        """Answer one frame from the reader, or stay silent (None)."""
        bits = frame.bits
        data = frame.data
        if len(bits) == 7 and data[0] in (iso.REQA, iso.WUPA):
            return self._request(data[0])
        if self.state is CardState.READY:
            return self._ready(data, len(bits))
        if self.state is CardState.ACTIVE:
            return self._active(data, len(bits))
        return None

    def _request(self, command: int) -> AirFrame | None:
        if self.state is CardState.IDLE or (self.state is CardState.HALT and command == iso.WUPA):
            self.woken_from_halt = self.state is CardState.HALT
            self.state = CardState.READY
            self.level = 0
            return AirFrame.of(self.atqa)
        if self.state in (CardState.READY, CardState.ACTIVE):
            self._sleep()
        return None

    def _ready(self, data: list[int], nbits: int) -> AirFrame | None:
        levels = iso.uid_levels(self.uid)
        if len(data) < 2 or data[0] != iso.SEL_CL[self.level]:
            self._sleep()
            return None
        level_bytes = [*levels[self.level], iso.bcc(levels[self.level])]
        if data[1] == iso.NVB_SELECT:
            if nbits != 9 * 8 or not iso.crc_ok(data) or data[2:7] != level_bytes:
                if nbits == 9 * 8 and iso.crc_ok(data):
                    self._sleep()
                return None
            last = self.level == len(levels) - 1
            sak = self.sak if last else iso.SAK_CASCADE
            if last:
                self.state = CardState.ACTIVE
            else:
                self.level += 1
            return AirFrame.of(iso.with_crc([sak]))
        known = ((data[1] >> 4) - 2) * 8 + (data[1] & 0x0F)
        if not 0 <= known < 40 or nbits != 16 + known:
            self._sleep()
            return None
        mine = iso.to_bits(level_bytes)
        if list(frame_bits_after(data, known)) != mine[:known]:
            return None  # another card's prefix: stay READY and silent
        return AirFrame(tuple(mine[known:]))

    def _active(self, data: list[int], nbits: int) -> AirFrame | None:
        if (nbits % 8 or not iso.crc_ok(data)) and self._pending_write is None:
            return None
        if self._pending_write is not None:
            return self._finish_classic_write(data)
        command = data[0]
        if tuple(data[:2]) == iso.HLTA and len(data) == 4:
            self.state = CardState.HALT
            self.authenticated_sector = None
            return None
        if command == iso.READ and len(data) == 4:
            return self._read(data[1])
        if command == iso.FAST_READ and self.kind == "ntag213" and len(data) == 5:
            first, last = data[1], data[2]
            if not first <= last < NTAG213_PAGES:
                return AirFrame.of([0x00], 4)  # NAK: invalid argument
            return AirFrame.of(iso.with_crc(list(self.memory[first * 4 : (last + 1) * 4])))
        if command == iso.NTAG_WRITE and self.kind == "ntag213" and len(data) == 8:
            return self._ntag_write(data[1], data[2:6])
        if command == iso.CLASSIC_WRITE and self.kind == "classic1k" and len(data) == 4:
            if self._sector_open(data[1]):
                self._pending_write = data[1]
                return AirFrame.of([iso.ACK], 4)
            return AirFrame.of([0x04], 4)
        self._sleep()
        return None

    def _read(self, address: int) -> AirFrame | None:
        if self.kind == "ntag213":
            if address >= NTAG213_PAGES:
                return AirFrame.of([0x00], 4)  # NAK: invalid argument
            pages = [(address + i) % NTAG213_PAGES for i in range(4)]
            out = [b for p in pages for b in self.memory[p * 4 : p * 4 + 4]]
            return AirFrame.of(iso.with_crc(out))
        if not self._sector_open(address):
            return AirFrame.of([0x04], 4)
        return AirFrame.of(iso.with_crc(list(self.block(address))))

    def _ntag_write(self, page: int, values: list[int]) -> AirFrame:
        if not 4 <= page < NTAG213_PAGES - 5:  # pages 0-3 (UID, lock, CC) and config pages are not user memory
            return AirFrame.of([0x00], 4)
        self.memory[page * 4 : page * 4 + 4] = bytes(values)
        return AirFrame.of([iso.ACK], 4)

    def _finish_classic_write(self, data: list[int]) -> AirFrame | None:
        block, self._pending_write = self._pending_write, None
        if block is None or len(data) != 18 or not iso.crc_ok(data):
            self._sleep()
            return None
        self.memory[block * 16 : block * 16 + 16] = bytes(data[:16])
        return AirFrame.of([iso.ACK], 4)

    def _sector_open(self, block: int) -> bool:
        return 0 <= block < CLASSIC_BLOCKS and self.authenticated_sector == block // 4

    def _sleep(self) -> None:
        """An unexpected frame sends the card back to IDLE, or to HALT if a WUPA woke it from there."""
        self.state = CardState.HALT if self.woken_from_halt else CardState.IDLE
        self.level = 0
        self.authenticated_sector = None
        self._pending_write = None


def frame_bits_after(data: Sequence[int], nbits: int) -> list[int]:
    """The `nbits` UID bits an anticollision frame carries after its SEL and NVB bytes."""
    return iso.to_bits(data[2:], nbits)


def _uid_bytes(uid: bytes | str, length: int) -> bytes:
    raw = bytes.fromhex(uid) if isinstance(uid, str) else bytes(uid)
    if len(raw) != length:
        raise ValueError(f"this card type has a {length}-byte UID, got {len(raw)} bytes")
    return raw
