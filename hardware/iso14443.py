"""ISO/IEC 14443-3 type A, written once for the Pi driver, the Pico firmware and the fake chip.

Facts (commands, CRC_A, bit frames) and the card-reading procedure: REQA/WUPA, anticollision through the
cascade levels with collision resolution, SELECT, HLTA, and `scan`, which reads every card in the field.
The procedure talks to a PCD (the reader chip) through two calls, see `Pcd` below; `hardware.mfrc522_pcd`
is the MFRC522's. This file runs under CPython and MicroPython (it is copied to the Pico as `iso14443.py`):
no dataclasses, no typing imports at run time, no star-unpacking in displays, `%` formatting only.
"""

# ruff: noqa: UP031, RUF005  (% formatting and `a + [b]`: the portable spellings for MicroPython)

TYPE_CHECKING = False  # mypy treats this name as true; neither interpreter imports `typing` here
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import Protocol

    class Pcd(Protocol):
        """The reader chip as the procedure sees it."""

        def transceive(
            self, data: Sequence[int], tx_last_bits: int = 0, rx_align: int = 0, expect_bits: int = 0
        ) -> tuple[list[int], int, int | None, int] | None:
            """Send a frame; None if nobody answered, else (FIFO bytes, valid bits, collision, errors).

            Valid bits count from bit 0 of the first FIFO byte (`rx_align` included). Collision: None,
            the CollPos of the first collided bit (1..32, counted like the valid bits), or -1 when the chip
            saw a collision it could not place. Errors: the `ERR_*` bits other than a collision.
            `expect_bits`: the answer's length, which tells when it must be complete.
            """

        def send(self, data: Sequence[int]) -> None:
            """Send a frame no card answers (HLTA)."""

    class MemoryPcd(Pcd, Protocol):
        """A PCD that also waits for answers whose timing the standard leaves open (memory commands)."""

        def exchange(self, data: Sequence[int], expect_bits: int) -> tuple[list[int], int, int | None, int] | None:
            """Like `transceive`, but waiting one receive-timer period for the answer before giving up."""


REQA = 0x26
WUPA = 0x52
SEL_CL = (0x93, 0x95, 0x97)  # SELECT / ANTICOLLISION command of cascade levels 1, 2, 3
NVB_SELECT = 0x70  # 7 whole bytes: SEL, NVB, 4 UID bytes (or CT + 3), BCC
NVB_ANTICOLL = 0x20  # 2 whole bytes: SEL and NVB only
CASCADE_TAG = 0x88
HLTA = (0x50, 0x00)
SAK_CASCADE = 0x04  # SAK bit 3: the UID is not complete yet
READ = 0x30
FAST_READ = 0x3A  # NTAG21x: pages from a start to an end address in one answer
NTAG_WRITE = 0xA2
CLASSIC_WRITE = 0xA0
ACK = 0x0A  # a 4-bit acknowledge

# Receive errors, with the MFRC522's ErrorReg values so its driver passes them through unchanged.
ERR_PROTOCOL = 0x01
ERR_PARITY = 0x02
ERR_CRC = 0x04
ERR_BUFFER_OVERFLOW = 0x10

# Bit time at 106 kbit/s and the PICC's minimal frame delay time, both in seconds.
BIT_TIME = 128 / 13.56e6
FRAME_DELAY = 1236 / 13.56e6

NAK_BITS = 4  # a refusal (NAK) or an acknowledge is 4 bits

MAX_READS_PER_SCAN = 8  # reads tried in one scan: cards in the field, plus retries after a damaged exchange


class RadioError(Exception):
    """The air exchange failed (no answer mid-way, CRC, BCC, parity): the card is tried again."""


class Refused(RadioError):
    """The card answered a NAK: it does not know the command or may not do it (it is back to IDLE or HALT)."""


def crc_a(data: "Iterable[int]", preset: int = 0x6363) -> tuple[int, int]:
    """CRC_A of `data` (ITU-V.41, preset 0x6363), as (low byte, high byte) in transmission order."""
    crc = preset
    for byte in data:
        b = (byte ^ crc) & 0xFF
        b = (b ^ (b << 4)) & 0xFF
        crc = ((crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)) & 0xFFFF
    return crc & 0xFF, crc >> 8


def with_crc(data: "Sequence[int]") -> list[int]:
    """`data` followed by its CRC_A."""
    low, high = crc_a(data)
    return list(data) + [low, high]


def crc_ok(frame: "Sequence[int]") -> bool:
    """True when the last two bytes of `frame` are the CRC_A of the rest."""
    return len(frame) >= 3 and (frame[-2], frame[-1]) == crc_a(frame[:-2])


def bcc(data: "Iterable[int]") -> int:
    """Block check character: the XOR of the bytes."""
    result = 0
    for byte in data:
        result ^= byte
    return result


def to_bits(data: "Sequence[int]", nbits: int | None = None) -> list[int]:
    """The first `nbits` bits of `data`, least significant bit of each byte first (air order)."""
    bits = [(byte >> i) & 1 for byte in data for i in range(8)]
    return bits if nbits is None else bits[:nbits]


def from_bits(bits: "Sequence[int]", offset: int = 0) -> list[int]:
    """Pack air-order bits into bytes, starting at bit `offset` of the first byte (lower bits left 0)."""
    out: list[int] = []
    index = offset
    for bit in bits:
        if index % 8 == 0 or not out:
            out.append(0)
        out[-1] |= bit << (index % 8)
        index += 1
    return out


def uid_levels(uid: bytes) -> list[list[int]]:
    """The 4-byte UID part sent at each cascade level (with the cascade tag where needed), 4/7/10-byte UIDs."""
    if len(uid) not in (4, 7, 10):
        raise ValueError("a UID has 4, 7 or 10 bytes, not %d" % len(uid))
    rest = list(uid)
    levels: list[list[int]] = []
    while len(rest) > 4:
        levels.append([CASCADE_TAG] + rest[:3])
        rest = rest[3:]
    levels.append(rest)
    return levels


# --- reading cards ---------------------------------------------------------------------------


def scan(pcd: "Pcd", max_reads: int = MAX_READS_PER_SCAN) -> tuple[list[bytes], list[str]]:
    """Read every card in the field, until none answers REQA: (UIDs read, radio errors met).

    Each card read is halted, so the next REQA reaches the cards not read yet. A damaged exchange leaves
    the cards READY; the next REQA sends them back to IDLE without an answer (ISO 14443-3), so after an
    error one silent REQA does not end the scan: the one after it tries those cards again, up to `max_reads`.
    """
    uids: list[bytes] = []
    errors: list[str] = []
    after_error = False
    for _ in range(max_reads):
        try:
            uid = read_uid(pcd)
        except RadioError as error:
            errors.append(str(error))
            after_error = True
            continue
        if uid is None:
            if after_error:
                after_error = False
                continue
            break
        after_error = False
        uids.append(uid)
    return uids, errors


def read_uid(pcd: "Pcd", command: int = REQA) -> bytes | None:
    """One card's whole UID (4, 7 or 10 bytes), halted afterwards; None if no card answers `command`."""
    if pcd.transceive([command], 7, 0, 16) is None:
        return None  # any answer, even collided ATQAs of different card types, means a card is there
    uid: list[int] = []
    for level in range(3):
        part, sak = select_level(pcd, level)
        if sak & SAK_CASCADE:
            if part[0] != CASCADE_TAG:
                raise RadioError("SAK asks for another cascade level but the UID part lacks the cascade tag")
            uid.extend(part[1:])
            continue
        if part[0] == CASCADE_TAG and level < 2:
            raise RadioError("cascade tag in the last UID part")
        uid.extend(part)
        pcd.send(with_crc(HLTA))
        return bytes(uid)
    raise RadioError("more than three cascade levels")


def select_level(pcd: "Pcd", level: int) -> tuple[list[int], int]:
    """Anticollision then SELECT at one cascade level: the 4 UID bytes of that level and the SAK.

    A collision is resolved before any other receive error counts: on real silicon a collision also
    breaks the parity of its byte, so the chip reports CollErr together with ParityErr.
    """
    sel = SEL_CL[level]
    known: list[int] = []  # UID bits of this level settled so far, air order
    for _ in range(41):  # each collision settles at least one more of the 40 bits
        align = len(known) % 8
        nvb = ((2 + len(known) // 8) << 4) | align
        answer = pcd.transceive([sel, nvb] + from_bits(known), align, align, 40 - len(known))
        if answer is None:
            raise RadioError("no answer during anticollision")
        data, nbits, collision, errors = answer
        start = 8 * (len(known) // 8)  # level bit held by bit 0 of the first FIFO byte
        received = to_bits(data)[align:nbits]
        if collision is not None:
            if collision < 0:
                raise RadioError("a collision the chip could not place")
            position = start + collision - 1
            if not len(known) <= position < 40:
                raise RadioError("collision outside the UID")
            # Take the branch where the colliding bit is 1; the other card answers the next REQA.
            known = (known + received)[:position] + [1]
            continue
        if errors:
            raise RadioError("receive error %#04x during anticollision" % errors)
        bits = known + received
        if len(bits) != 40:
            raise RadioError("anticollision answer of %d bits" % len(bits))
        part = from_bits(bits)
        if bcc(part[:4]) != part[4]:
            raise RadioError("UID check byte (BCC) wrong")
        return part[:4], _select(pcd, sel, part)
    raise RadioError("anticollision did not converge")


def _select(pcd: "Pcd", sel: int, part: list[int]) -> int:
    """SELECT the card whose level bytes (with BCC) are `part`: its SAK."""
    answer = pcd.transceive(with_crc([sel, NVB_SELECT] + part), 0, 0, 24)
    if answer is None:
        raise RadioError("no answer to SELECT")
    data, nbits, collision, errors = answer
    if collision is not None or errors or nbits != 24 or not crc_ok(data):
        raise RadioError("SELECT answer damaged (CRC or parity)")
    return data[0]


# --- tag memory: one known card, woken, selected, read and halted again ------------------------


def wake_select(pcd: "Pcd", uid: bytes) -> int | None:
    """WUPA (which wakes halted cards too), then SELECT `uid` level by level with no anticollision: its SAK.

    None when no card answers (the card has gone). Cards woken with it that are not `uid` go back to sleep
    at the SELECT they do not match; a card that arrived since the scan goes back to IDLE, for the next REQA.
    """
    levels = uid_levels(uid)
    if pcd.transceive([WUPA], 7, 0, 16) is None:
        return None  # collided ATQAs of cards of two kinds still mean someone is there
    sak = 0
    for level, part in enumerate(levels):
        answer = pcd.transceive(with_crc([SEL_CL[level], NVB_SELECT] + part + [bcc(part)]), 0, 0, 24)
        if answer is None:
            return None
        data, nbits, collision, errors = answer
        if collision is not None or errors or nbits != 24 or not crc_ok(data):
            raise RadioError("SELECT answer damaged (CRC or parity)")
        sak = data[0]
        if bool(sak & SAK_CASCADE) != (level < len(levels) - 1):
            raise RadioError("SAK does not match the UID's length")
    return sak


def read_block(pcd: "MemoryPcd", address: int) -> list[int]:
    """READ `address`: 16 bytes (four NTAG pages from it, or one Classic block), CRC_A checked.

    RadioError when the card does not answer within one receive-timer period, refuses (NAK) or the
    answer is damaged: nothing unchecked is ever returned.
    """
    return _memory(pcd, [READ, address], 16, "READ %d" % address)


def read_pages(pcd: "MemoryPcd", first: int, last: int) -> list[int]:
    """FAST_READ pages `first` to `last` of an NTAG21x in one exchange (at most 15 pages: the FIFO holds 64
    bytes), CRC_A checked; Refused when the tag does not know FAST_READ, RadioError as `read_block`."""
    if not 0 < last - first + 1 <= 15:
        raise ValueError("FAST_READ reads 1 to 15 pages here, not %d" % (last - first + 1))
    return _memory(pcd, [FAST_READ, first, last], 4 * (last - first + 1), "FAST_READ %d-%d" % (first, last))


def _memory(pcd: "MemoryPcd", command: "Sequence[int]", size: int, name: str) -> list[int]:
    """Send a memory command expecting `size` bytes and CRC_A: the bytes, checked, or RadioError/Refused."""
    answer = pcd.exchange(with_crc(command), (size + 2) * 8)
    if answer is None:
        raise RadioError("no answer to %s" % name)
    data, nbits, collision, errors = answer
    if nbits == NAK_BITS:
        raise Refused("%s refused (NAK %#x)" % (name, data[0] & 0x0F if data else 0))
    if collision is not None or errors or nbits != (size + 2) * 8 or not crc_ok(data):
        raise RadioError("%s answer damaged (CRC_A, parity or length)" % name)
    return data[:size]


def halt(pcd: "Pcd") -> None:
    """HLTA: the selected card sleeps until a WUPA or the field goes off."""
    pcd.send(with_crc(HLTA))
