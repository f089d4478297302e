"""ISO/IEC 14443-3 type A facts shared by the RC522 driver and the fake chip: commands, CRC_A, bit frames."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

REQA = 0x26
WUPA = 0x52
SEL_CL = (0x93, 0x95, 0x97)  # SELECT / ANTICOLLISION command of cascade levels 1, 2, 3
NVB_SELECT = 0x70  # 7 whole bytes: SEL, NVB, 4 UID bytes (or CT + 3), BCC
NVB_ANTICOLL = 0x20  # 2 whole bytes: SEL and NVB only
CASCADE_TAG = 0x88
HLTA = (0x50, 0x00)
SAK_CASCADE = 0x04  # SAK bit 3: the UID is not complete yet
READ = 0x30
NTAG_WRITE = 0xA2
CLASSIC_WRITE = 0xA0
ACK = 0x0A  # a 4-bit acknowledge

# Bit time at 106 kbit/s and the PICC's minimal frame delay time, both in seconds.
BIT_TIME = 128 / 13.56e6
FRAME_DELAY = 1236 / 13.56e6


def crc_a(data: Iterable[int], preset: int = 0x6363) -> tuple[int, int]:
    """CRC_A of `data` (ITU-V.41, preset 0x6363), as (low byte, high byte) in transmission order."""
    crc = preset
    for byte in data:
        b = (byte ^ crc) & 0xFF
        b = (b ^ (b << 4)) & 0xFF
        crc = ((crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)) & 0xFFFF
    return crc & 0xFF, crc >> 8


def with_crc(data: Sequence[int]) -> list[int]:
    """`data` followed by its CRC_A."""
    return [*data, *crc_a(data)]


def crc_ok(frame: Sequence[int]) -> bool:
    """True when the last two bytes of `frame` are the CRC_A of the rest."""
    return len(frame) >= 3 and tuple(frame[-2:]) == crc_a(frame[:-2])


def bcc(data: Iterable[int]) -> int:
    """Block check character: the XOR of the bytes."""
    result = 0
    for byte in data:
        result ^= byte
    return result


def to_bits(data: Sequence[int], nbits: int | None = None) -> list[int]:
    """The first `nbits` bits of `data`, least significant bit of each byte first (air order)."""
    bits = [(byte >> i) & 1 for byte in data for i in range(8)]
    return bits if nbits is None else bits[:nbits]


def from_bits(bits: Sequence[int], offset: int = 0) -> list[int]:
    """Pack air-order bits into bytes, starting at bit `offset` of the first byte (lower bits left 0)."""
    out: list[int] = []
    for index, bit in enumerate(bits, start=offset):
        if index % 8 == 0 or not out:
            out.append(0)
        out[-1] |= bit << (index % 8)
    return out


def uid_levels(uid: bytes) -> list[list[int]]:
    """The 4-byte UID part sent at each cascade level (with the cascade tag where needed), 4/7/10-byte UIDs."""
    if len(uid) not in (4, 7, 10):
        raise ValueError(f"a UID has 4, 7 or 10 bytes, not {len(uid)}")
    rest = list(uid)
    levels: list[list[int]] = []
    while len(rest) > 4:
        levels.append([CASCADE_TAG, *rest[:3]])
        rest = rest[3:]
    levels.append(rest)
    return levels
